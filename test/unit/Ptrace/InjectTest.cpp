//===- InjectTest.cpp - Borrowing a stopped thread for a system call ------===//
//
// A thread stopped at the entry of a system call of its own has not made
// that call yet. Borrowing it for another one (as the end of a session
// does, to unmap the agent or put a signal disposition back) must not
// cancel it: once detached, it makes its call and gets its real result,
// not -ENOSYS.
//
//===----------------------------------------------------------------------===//
#include "Inject.h"
#include "PtraceProcess.h"

#include <gtest/gtest.h>

#include <csignal>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

/// Resumes Pid with PTRACE_SYSCALL until it stops at the entry of Nr.
bool runToSyscallEntry(pid_t Pid, uint64_t Nr) {
  for (int N = 0; N < 64; ++N) {
    int St = 0;
    if (ptrace(PTRACE_SYSCALL, Pid, nullptr, nullptr) != 0 ||
        waitpid(Pid, &St, 0) != Pid || !WIFSTOPPED(St))
      return false;
    __ptrace_syscall_info Info{};
    if (ptrace(PTRACE_GET_SYSCALL_INFO, Pid,
               reinterpret_cast<void *>(sizeof(Info)), &Info) > 0 &&
        Info.op == PTRACE_SYSCALL_INFO_ENTRY && Info.entry.nr == Nr)
      return true;
  }
  return false;
}

TEST(InjectTest, ThreadAtSyscallEntryStillMakesItsCall) {
  int Pipe[2];
  ASSERT_EQ(pipe(Pipe), 0);
  pid_t Child = fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    close(Pipe[0]);
    ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
    raise(SIGSTOP);
    long R = syscall(SYS_write, Pipe[1], "x", 1);
    _exit(R == 1 ? 0 : 100 + (R < 0 ? errno % 100 : 99));
  }
  close(Pipe[1]);
  int St = 0;
  ASSERT_EQ(waitpid(Child, &St, 0), Child);
  ASSERT_TRUE(WIFSTOPPED(St));
  // Syscall stops are told apart only with TRACESYSGOOD, as tsrun has it.
  ASSERT_EQ(ptrace(PTRACE_SETOPTIONS, Child, nullptr,
                   reinterpret_cast<void *>(PTRACE_O_TRACESYSGOOD)),
            0);
  ASSERT_TRUE(runToSyscallEntry(Child, SYS_write));

  PtraceProcess P(Child, /*Launched=*/false);
  std::string Error;
  ASSERT_TRUE(P.refreshIdentity(Error)) << Error;
  uint64_t Result = 0;
  ASSERT_TRUE(injectSyscall(P, Child, SYS_getppid, {}, Result, Error)) << Error;
  EXPECT_EQ(Result, static_cast<uint64_t>(getpid()));

  ASSERT_EQ(ptrace(PTRACE_DETACH, Child, nullptr, nullptr), 0);
  ASSERT_EQ(waitpid(Child, &St, 0), Child);
  ASSERT_TRUE(WIFEXITED(St));
  EXPECT_EQ(WEXITSTATUS(St), 0)
      << "write() failed in the child, errno " << WEXITSTATUS(St) - 100;
  char Got = 0;
  EXPECT_EQ(read(Pipe[0], &Got, 1), 1);
  EXPECT_EQ(Got, 'x');
  close(Pipe[0]);
}

} // namespace
