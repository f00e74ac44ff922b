//===- SandboxTest.cpp - Reading real processes' seccomp filters ----------===//
//
// Children sandbox themselves with real filters (or strict mode) and stop;
// the test traces them as tsrun does and asks what their filters would do.
//
//===----------------------------------------------------------------------===//
#include "Sandbox.h"
#include "SeccompBpf.h"

#include "tscc/SyscallTable.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <functional>
#include <linux/audit.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tscc;
using namespace tscc::rt::pt;

namespace {

sock_filter stmt(uint16_t Code, uint32_t K) { return {Code, 0, 0, K}; }
sock_filter jump(uint16_t Code, uint32_t K, uint8_t Jt, uint8_t Jf) {
  return {Code, Jt, Jf, K};
}

/// Kills other architectures; Nr gets Action; the rest is allowed.
std::vector<sock_filter> oneRule(uint32_t Nr, uint32_t Action) {
  return {stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
          jump(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
          stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
          stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
          jump(BPF_JMP | BPF_JEQ | BPF_K, Nr, 0, 1),
          stmt(BPF_RET | BPF_K, Action),
          stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
}

/// kill() only of process 1234 (its first argument), else EPERM.
std::vector<sock_filter> killOnly1234() {
  return {stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
          jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_kill, 0, 3),
          stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])),
          jump(BPF_JMP | BPF_JEQ | BPF_K, 1234, 1, 0),
          stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
          stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
}

bool install(const std::vector<sock_filter> &F) {
  sock_fprog Prog{static_cast<unsigned short>(F.size()),
                  const_cast<sock_filter *>(F.data())};
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &Prog) == 0;
}

/// A child that runs Setup, says so on a pipe, and then waits in read()
/// (allowed even in strict mode) until the test lets it go.
class Sandboxed {
public:
  explicit Sandboxed(const std::function<bool()> &Setup) {
    int Ready[2], Go[2];
    EXPECT_EQ(pipe(Ready), 0);
    EXPECT_EQ(pipe(Go), 0);
    Pid = fork();
    if (Pid == 0) {
      close(Ready[0]);
      close(Go[1]);
      char C = Setup() ? 'y' : 'n';
      if (write(Ready[1], &C, 1) != 1 || read(Go[0], &C, 1) < 0)
        syscall(SYS_exit, 3);
      syscall(SYS_exit, 0); // strict mode has no exit_group
    }
    close(Ready[1]);
    close(Go[0]);
    GoFd = Go[1];
    char C = 0;
    EXPECT_EQ(read(Ready[0], &C, 1), 1);
    close(Ready[0]);
    SetUp = C == 'y';
  }
  ~Sandboxed() {
    if (Traced)
      ptrace(PTRACE_DETACH, Pid, nullptr, nullptr);
    close(GoFd); // end of file: it exits
    int St = 0;
    waitpid(Pid, &St, 0);
  }
  /// Seizes and stops it, as tsrun does when it attaches.
  void stop() {
    ASSERT_EQ(ptrace(PTRACE_SEIZE, Pid, nullptr, nullptr), 0);
    Traced = true;
    ASSERT_EQ(ptrace(PTRACE_INTERRUPT, Pid, nullptr, nullptr), 0);
    int St = 0;
    ASSERT_EQ(waitpid(Pid, &St, __WALL), Pid);
    ASSERT_TRUE(WIFSTOPPED(St));
  }
  pid_t Pid = 0;
  bool SetUp = false;

private:
  int GoFd = -1;
  bool Traced = false;
};

SyscallQuery query(uint32_t Nr, std::initializer_list<uint64_t> Args = {},
                   DataModel DM = DataModel::LP64) {
  SyscallQuery Q;
  Q.DM = DM;
  Q.Nr = Nr;
  unsigned I = 0;
  for (uint64_t A : Args)
    Q.Args[I++] = A;
  Q.IP = 0x401000;
  return Q;
}

} // namespace

TEST(SandboxTest, NoFilterAllowsEverything) {
  Sandboxed C([] { return true; });
  C.stop();
  SeccompView V(C.Pid);
  EXPECT_EQ(V.state(C.Pid).Mode, 0);
  EXPECT_EQ(V.check(C.Pid, query(SYS_mmap), false).Kind, SyscallVerdict::Runs);
  EXPECT_EQ(V.describe(C.Pid), "");
}

TEST(SandboxTest, ReadsStackedFiltersMostRecentFirst) {
  auto Older = oneRule(SYS_mmap, SECCOMP_RET_KILL_PROCESS);
  auto Newer = oneRule(SYS_memfd_create, SECCOMP_RET_ERRNO | EPERM);
  Sandboxed C([&] { return install(Older) && install(Newer); });
  ASSERT_TRUE(C.SetUp);
  C.stop();
  SeccompView V(C.Pid);
  const SeccompState &S = V.state(C.Pid);
  ASSERT_EQ(S.Mode, 2);
  ASSERT_EQ(S.Count, 2u) << S.Unreadable;
  ASSERT_EQ(S.Filters.size(), 2u) << S.Unreadable;
  auto Same = [](const std::vector<sock_filter> &A,
                 const std::vector<sock_filter> &B) {
    return A.size() == B.size() &&
           memcmp(A.data(), B.data(), A.size() * sizeof(A[0])) == 0;
  };
  auto Dump = [](const std::vector<sock_filter> &F) {
    std::string Out;
    for (const sock_filter &I : F)
      Out += std::to_string(I.code) + "," + std::to_string(I.jt) + "," +
             std::to_string(I.jf) + "," + std::to_string(I.k) + " ";
    return Out;
  };
  EXPECT_TRUE(Same(S.Filters[0], Newer)) << Dump(S.Filters[0]) << "\n"
                                         << Dump(Newer);
  EXPECT_TRUE(Same(S.Filters[1], Older)) << Dump(S.Filters[1]) << "\n"
                                         << Dump(Older);
  EXPECT_EQ(V.describe(C.Pid), "seccomp: 2 filters, read");

  SyscallVerdict Mmap = V.check(C.Pid, query(SYS_mmap), false);
  EXPECT_EQ(Mmap.Kind, SyscallVerdict::Forbidden);
  EXPECT_EQ(Mmap.Why, "its seccomp filter kills the process on mmap "
                      "(SECCOMP_RET_KILL_PROCESS)");
  SyscallVerdict Memfd = V.check(C.Pid, query(SYS_memfd_create), false);
  EXPECT_EQ(Memfd.Kind, SyscallVerdict::Fails);
  EXPECT_EQ(Memfd.Errno, EPERM);
  EXPECT_EQ(V.check(C.Pid, query(SYS_getppid), false).Kind,
            SyscallVerdict::Runs);
  // The same numbers through int $0x80 are another architecture: killed.
  SyscallVerdict I386 = V.check(
      C.Pid,
      query(syscallNumberOf(DataModel::ILP32, "getppid"), {}, DataModel::ILP32),
      false);
  EXPECT_EQ(I386.Kind, SyscallVerdict::Forbidden);
}

TEST(SandboxTest, TraceIsOnlyAStopForATracerThatAskedForIt) {
  Sandboxed C(
      [] { return install(oneRule(SYS_getppid, SECCOMP_RET_TRACE | 7)); });
  ASSERT_TRUE(C.SetUp);
  C.stop();
  SeccompView V(C.Pid);
  SyscallVerdict Not = V.check(C.Pid, query(SYS_getppid), false);
  EXPECT_EQ(Not.Kind, SyscallVerdict::Fails);
  EXPECT_EQ(Not.Errno, ENOSYS);
  SyscallVerdict Asked = V.check(C.Pid, query(SYS_getppid), true);
  EXPECT_EQ(Asked.Kind, SyscallVerdict::Runs);
  EXPECT_TRUE(Asked.Stops);
}

TEST(SandboxTest, AVerdictOnAnUnforeseenArgumentIsNone) {
  Sandboxed C([] { return install(killOnly1234()); });
  ASSERT_TRUE(C.SetUp);
  C.stop();
  SeccompView V(C.Pid);
  SyscallQuery Q = query(SYS_kill, {1234, 0});
  EXPECT_EQ(V.check(C.Pid, Q, false).Kind, SyscallVerdict::Runs);
  Q.Unforeseen = unforeseenArgs({1});
  SyscallVerdict U = V.check(C.Pid, Q, false);
  EXPECT_EQ(U.Kind, SyscallVerdict::Unknown);
  EXPECT_EQ(U.Why, "its seccomp filter looks at argument 1 of kill, which "
                   "tsrun cannot know in advance");
  // A call whose verdict does not read it is unaffected.
  SyscallQuery G = query(SYS_getppid);
  G.Unforeseen = unforeseenArgs({1}) | UnforeseenIP;
  EXPECT_EQ(V.check(C.Pid, G, false).Kind, SyscallVerdict::Runs);
}

TEST(SandboxTest, StrictMode) {
  Sandboxed C(
      [] { return prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0) == 0; });
  ASSERT_TRUE(C.SetUp);
  C.stop();
  SeccompView V(C.Pid);
  EXPECT_EQ(V.state(C.Pid).Mode, 1);
  EXPECT_EQ(V.describe(C.Pid), "seccomp strict mode");
  EXPECT_EQ(V.check(C.Pid, query(SYS_read), false).Kind, SyscallVerdict::Runs);
  SyscallVerdict M = V.check(C.Pid, query(SYS_mmap), false);
  EXPECT_EQ(M.Kind, SyscallVerdict::Forbidden);
  EXPECT_EQ(M.Why, "it is in seccomp strict mode, which kills it on mmap");
}

TEST(SandboxTest, NewFiltersAreReadAgain) {
  // A thread's chain only grows; the count in /proc says when it did.
  int Ready[2], Go[2];
  ASSERT_EQ(pipe(Ready), 0);
  ASSERT_EQ(pipe(Go), 0);
  pid_t Pid = fork();
  if (Pid == 0) {
    close(Ready[0]);
    close(Go[1]);
    char C = 'a';
    if (!install(oneRule(SYS_mmap, SECCOMP_RET_KILL_PROCESS)) ||
        write(Ready[1], &C, 1) != 1 || read(Go[0], &C, 1) != 1 ||
        !install(oneRule(SYS_socket, SECCOMP_RET_ERRNO | EACCES)) ||
        write(Ready[1], &C, 1) != 1 || read(Go[0], &C, 1) < 0)
      _exit(3);
    _exit(0);
  }
  auto StopIt = [&] {
    char C;
    ASSERT_EQ(read(Ready[0], &C, 1), 1);
    ASSERT_EQ(ptrace(PTRACE_INTERRUPT, Pid, nullptr, nullptr), 0);
    int St = 0;
    ASSERT_EQ(waitpid(Pid, &St, __WALL), Pid);
  };
  close(Ready[1]);
  close(Go[0]);
  ASSERT_EQ(ptrace(PTRACE_SEIZE, Pid, nullptr, nullptr), 0);
  StopIt();
  SeccompView V(Pid);
  EXPECT_EQ(V.state(Pid).Count, 1u);
  EXPECT_EQ(V.check(Pid, query(SYS_socket), false).Kind, SyscallVerdict::Runs);
  ASSERT_EQ(ptrace(PTRACE_CONT, Pid, nullptr, nullptr), 0);
  char C = 'x';
  ASSERT_EQ(write(Go[1], &C, 1), 1);
  StopIt();
  EXPECT_EQ(V.state(Pid).Count, 2u);
  SyscallVerdict S = V.check(Pid, query(SYS_socket), false);
  EXPECT_EQ(S.Kind, SyscallVerdict::Fails);
  EXPECT_EQ(S.Errno, EACCES);
  EXPECT_EQ(V.check(Pid, query(SYS_mmap), false).Kind,
            SyscallVerdict::Forbidden);
  ptrace(PTRACE_DETACH, Pid, nullptr, nullptr);
  close(Go[1]);
  close(Ready[0]);
  int St = 0;
  waitpid(Pid, &St, 0);
  EXPECT_TRUE(WIFEXITED(St) && WEXITSTATUS(St) == 0) << St;
}

TEST(SandboxTest, UnreadableFiltersWhenTheTracerIsSandboxed) {
  // The kernel does not show filters to a tracer that is under seccomp
  // itself: the verdict is then no verdict, and says why.
  Sandboxed Target(
      [] { return install(oneRule(SYS_mmap, SECCOMP_RET_KILL_PROCESS)); });
  ASSERT_TRUE(Target.SetUp);
  int Out[2];
  ASSERT_EQ(pipe(Out), 0);
  pid_t Tracer = fork();
  if (Tracer == 0) {
    close(Out[0]);
    std::string Say;
    if (!install(oneRule(SYS_memfd_create, SECCOMP_RET_ERRNO | EPERM)) ||
        ptrace(PTRACE_SEIZE, Target.Pid, nullptr, nullptr) != 0 ||
        ptrace(PTRACE_INTERRUPT, Target.Pid, nullptr, nullptr) != 0) {
      Say = "setup failed";
    } else {
      int St = 0;
      waitpid(Target.Pid, &St, __WALL);
      SeccompView V(Target.Pid);
      SyscallVerdict R = V.check(Target.Pid, query(SYS_mmap), false);
      Say = std::to_string(R.Kind) + " " + R.Why;
      ptrace(PTRACE_DETACH, Target.Pid, nullptr, nullptr);
    }
    ssize_t W = write(Out[1], Say.data(), Say.size());
    (void)W;
    _exit(0);
  }
  close(Out[1]);
  char Buf[512] = {};
  ssize_t N = read(Out[0], Buf, sizeof(Buf) - 1);
  close(Out[0]);
  waitpid(Tracer, nullptr, 0);
  ASSERT_GT(N, 0);
  std::string Said(Buf);
  EXPECT_EQ(Said.substr(0, 2), std::to_string(SyscallVerdict::Unknown) + " ");
  EXPECT_NE(Said.find("it has 1 seccomp filter that tsrun cannot read"),
            std::string::npos)
      << Said;
  if (geteuid() == 0) {
    EXPECT_NE(Said.find("tsrun runs under seccomp itself"), std::string::npos)
        << Said;
  }
}

TEST(SandboxTest, EveryActionHasItsVerdict) {
  // What tsrun does with a call, for each answer a filter can give.
  struct Case {
    uint32_t Ret;
    SyscallVerdict::KindT Kind;
    int Errno;
  } Cases[] = {
      {SECCOMP_RET_ALLOW, SyscallVerdict::Runs, 0},
      {SECCOMP_RET_LOG, SyscallVerdict::Runs, 0},
      {SECCOMP_RET_ERRNO | EACCES, SyscallVerdict::Fails, EACCES},
      {SECCOMP_RET_ERRNO | 9999, SyscallVerdict::Fails, 4095},
      {SECCOMP_RET_TRAP, SyscallVerdict::Forbidden, 0},
      {SECCOMP_RET_USER_NOTIF, SyscallVerdict::Forbidden, 0},
      {SECCOMP_RET_KILL_THREAD, SyscallVerdict::Forbidden, 0},
      {SECCOMP_RET_KILL_PROCESS, SyscallVerdict::Forbidden, 0},
      {0x00010000, SyscallVerdict::Forbidden, 0}, // unknown: kills
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(std::to_string(C.Ret));
    SeccompState S;
    S.Mode = 2;
    S.Count = 1;
    S.Filters = {oneRule(SYS_munmap, C.Ret)};
    SyscallVerdict V = evaluateSyscall(S, query(SYS_munmap), false);
    EXPECT_EQ(V.Kind, C.Kind);
    EXPECT_EQ(V.Errno, C.Errno);
    if (V.Kind != SyscallVerdict::Runs) {
      EXPECT_NE(V.Why.find("munmap"), std::string::npos) << V.Why;
    }
    // Other calls are not concerned.
    EXPECT_EQ(evaluateSyscall(S, query(SYS_getpid), false).Kind,
              SyscallVerdict::Runs);
  }
}

TEST(SandboxTest, I386CallsAreJudgedAsI386) {
  // A filter for i386 processes: getppid (64 there) is refused with EPERM,
  // and arguments are the 32-bit registers.
  std::vector<sock_filter> F{
      stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      jump(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 1, 0),
      stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0]) + 4),
      jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),
      stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS), // high half set
      stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      jump(BPF_JMP | BPF_JEQ | BPF_K,
           syscallNumberOf(DataModel::ILP32, "getppid"), 0, 1),
      stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
      stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
  SeccompState S;
  S.Mode = 2;
  S.Count = 1;
  S.Filters = {F};
  uint32_t Getppid = syscallNumberOf(DataModel::ILP32, "getppid");
  // The high half of a register never reaches an i386 filter.
  SyscallVerdict V = evaluateSyscall(
      S, query(Getppid, {0xffffffff00000001ull}, DataModel::ILP32), false);
  EXPECT_EQ(V.Kind, SyscallVerdict::Fails);
  EXPECT_EQ(V.Errno, EPERM);
  EXPECT_EQ(evaluateSyscall(S, query(Getppid), false).Kind,
            SyscallVerdict::Forbidden); // as x86-64: another architecture
}
