//===- PathPlan.cpp - Which path a sandboxed process can take -------------===//
//
// The lists below are the system calls each piece makes, by the code that
// makes them. Whoever changes such a call changes its line here; if the
// two ever disagree, the exact check of every injected call (Inject.cpp)
// still refuses a forbidden one, and the piece then fails to install and
// the process falls back to a slower path.
//
//===----------------------------------------------------------------------===//
#include "PathPlan.h"

#include "tscc/Runtime/Auxv.h"
#include "tscc/Runtime/ProbeMatcher.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <fstream>
#include <span>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

constexpr uint64_t Any = 0; ///< a value only the run will know
constexpr uint64_t RW = PROT_READ | PROT_WRITE, RX = PROT_READ | PROT_EXEC;
constexpr uint64_t Anon = MAP_PRIVATE | MAP_ANONYMOUS, NoFd = ~0ull;

/// Inject.cpp createHomePage: the first call, from the stopped thread
/// (mmap2 for i386).
const PlannedCall HomePage{"mmap",
                           {0, PtraceProcess::HomeSize, RX, Anon, NoFd, 0}};
const PlannedCall HomePage32{
    "mmap2", {0, PtraceProcess::HomeSize, RX, Anon, 0xffffffff, 0}};

/// Healer.cpp: installHealer and syncHealerBreakpoints map its journal and
/// install its handler; once tsrun is gone the handler (its assembly)
/// opens /proc/self/mem, reads and writes the breakpoint bytes back, or
/// makes the page writable for a moment.
const PlannedCall HealerCalls[] = {
    {"mmap", {0, Any, RW, Anon, NoFd, 0}, unforeseenArgs({2})},
    {"rt_sigaction", {SIGILL, Any, Any, 8}, unforeseenArgs({2, 3})},
    {"open", {Any, O_RDWR, 0}, unforeseenArgs({1})},
    {"pread64", {Any, Any, 1, Any}, unforeseenArgs({1, 2, 4})},
    {"pwrite64", {Any, Any, 1, Any}, unforeseenArgs({1, 2, 4})},
    {"mprotect",
     {Any, 4096, PROT_READ | PROT_WRITE | PROT_EXEC},
     unforeseenArgs({1})},
    {"mprotect", {Any, 4096, RX}, unforeseenArgs({1})},
    {"close", {Any}, unforeseenArgs({1})},
};

/// Agent.cpp installAgent: placeImage (twice), the thread table and data
/// area, adoptOrphan's look at SIGSEGV, mapStore, installHandlers, the
/// MADV_WIPEONFORK page; JumpSites.cpp's trampolines near each module
/// (mapScratch in Inject.cpp, with mapAnywhere as its fallback).
const PlannedCall AgentSetupCalls[] = {
    {"mmap", {0, Any, RW, Anon, NoFd, 0}, unforeseenArgs({2})},
    {"mmap", {0, Any, RW, Anon | MAP_NORESERVE, NoFd, 0}, unforeseenArgs({2})},
    {"mprotect", {Any, Any, RX}, unforeseenArgs({1, 2})},
    {"mprotect", {Any, Any, PROT_READ}, unforeseenArgs({1, 2})},
    {"rt_sigaction", {SIGSEGV, 0, Any, 8}, unforeseenArgs({3})},
    {"socket", {AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0}},
    {"connect", {Any, Any, Any}, unforeseenArgs({1, 2, 3})},
    {"recvmsg", {Any, Any, MSG_CMSG_CLOEXEC}, unforeseenArgs({1, 2})},
    {"close", {Any}, unforeseenArgs({1})},
    {"mmap",
     {0, Any, RW, MAP_SHARED | MAP_NORESERVE, Any, 0},
     unforeseenArgs({2, 5})},
    {"rt_sigaction", {SIGSEGV, Any, Any, 8}, unforeseenArgs({2, 3})},
    {"rt_sigaction", {SIGBUS, Any, Any, 8}, unforeseenArgs({2, 3})},
    {"rt_sigaction", {SIGFPE, Any, Any, 8}, unforeseenArgs({2, 3})},
    {"madvise", {Any, 4096, 18 /*MADV_WIPEONFORK*/}, unforeseenArgs({1})},
    {"mmap",
     {Any, Any, RX, Anon | 0x100000 /*MAP_FIXED_NOREPLACE*/, NoFd, 0},
     unforeseenArgs({1, 2})},
    {"mmap", {0, Any, RX, Anon, NoFd, 0}, unforeseenArgs({2})},
};

/// runtime/lib/InProcess/Agent: what the agent calls while the program runs, in
/// any of its threads: host.c (the clock when the vDSO has none, lock waits,
/// lock owners' liveness, waking tsrun), thread.c (a thread's id on its first
/// hit), signal.c (a fault that is the program's, passed on to it).
const PlannedCall AgentRuntimeCalls[] = {
    {"clock_gettime", {1 /*CLOCK_MONOTONIC*/, Any}, unforeseenArgs({2})},
    {"sched_yield", {}},
    {"kill", {Any, 0}, unforeseenArgs({1})},
    {"futex", {Any, 1 /*FUTEX_WAKE*/, 0x7fffffff}, unforeseenArgs({1})},
    {"gettid", {}},
    {"getpid", {}},
    {"tgkill", {Any, Any, Any}, unforeseenArgs({1, 2, 3})},
    {"rt_sigaction", {Any, Any, 0, 8}, unforeseenArgs({1, 2})},
    {"rt_sigprocmask", {SIG_BLOCK, Any, Any, 8}, unforeseenArgs({2, 3})},
    {"rt_sigprocmask", {SIG_SETMASK, Any, 0, 8}, unforeseenArgs({2})},
};
/// thread.c: the thread pointer, where the CPU has no rdfsbase.
const PlannedCall AgentFsBase{
    "arch_prctl", {0x1003 /*ARCH_GET_FS*/, Any}, unforeseenArgs({2})};

/// runtime/lib/InProcess/Agent/heal.c: putting the sites back once tsrun is
/// gone.
const PlannedCall AgentHealCalls[] = {
    {"open", {Any, O_RDWR | O_CLOEXEC, 0}, unforeseenArgs({1})},
    {"pwrite64", {Any, Any, Any, Any}, unforeseenArgs({1, 2, 3, 4})},
    {"mprotect",
     {Any, Any, PROT_READ | PROT_WRITE | PROT_EXEC},
     unforeseenArgs({1, 2})},
    {"mprotect", {Any, Any, RX}, unforeseenArgs({1, 2})},
    {"membarrier", {1u << 6 /*REGISTER_PRIVATE_EXPEDITED_SYNC_CORE*/, 0, 0}},
    {"membarrier", {1u << 5 /*PRIVATE_EXPEDITED_SYNC_CORE*/, 0, 0}},
    {"rt_sigaction", {SIGTRAP, Any, Any, 8}, unforeseenArgs({2, 3})},
    {"close", {Any}, unforeseenArgs({1})},
};

/// The name under which a 32-bit process makes the call the lists name by
/// its x86-64 name: i386's old mmap takes its arguments in memory, and its
/// clock_gettime a 32-bit timespec.
const char *callName(DataModel DM, const char *Name) {
  if (DM == DataModel::LP64)
    return Name;
  std::string_view N = Name;
  return N == "mmap"            ? "mmap2"
         : N == "clock_gettime" ? "clock_gettime64"
                                : Name;
}

/// Why not every call of Calls runs in thread Tid, from IP (or from code
/// whose address is unforeseen), or "".
std::string blocker(PtraceProcess &P, pid_t Tid,
                    std::span<const PlannedCall> Calls, uint64_t IP,
                    uint16_t Extra) {
  const SeccompState &S = P.Seccomp.state(Tid); // once for all of them
  for (const PlannedCall &C : Calls) {
    std::optional<uint32_t> Nr =
        syscallNumber(P.dataModel(), callName(P.dataModel(), C.Name));
    if (!Nr)
      return std::string("no system call ") + C.Name + " here";
    SyscallQuery Q;
    Q.DM = P.dataModel();
    Q.Nr = *Nr;
    Q.Args = C.Args;
    Q.IP = IP;
    Q.Unforeseen = C.Unforeseen | Extra;
    SyscallVerdict V = evaluateSyscall(S, Q, P.tracesSeccompStops());
    if (V.Kind != SyscallVerdict::Runs)
      return V.Why;
  }
  return {};
}

/// The same, in every thread of P (each may have filters of its own).
std::string blockerInEveryThread(PtraceProcess &P,
                                 std::span<const PlannedCall> Calls) {
  for (const auto &[Tid, T] : P.Threads) {
    std::string Why = blocker(P, Tid, Calls, 0, UnforeseenIP);
    if (!Why.empty())
      return P.Threads.size() == 1
                 ? Why
                 : "thread " + std::to_string(Tid) + ": " + Why;
  }
  return {};
}

/// Whether the process's CPU lets the agent read fs without a call
/// (AT_HWCAP2 bit 1, HWCAP2_FSGSBASE).
bool hasFsGsBase(pid_t Pid) {
  auto Aux = readProcessAuxv(Pid, 8);
  auto It = Aux.find(AT_HWCAP2);
  return It != Aux.end() && (It->second & 2);
}

bool anyThreadSandboxed(PtraceProcess &P) {
  for (const auto &[Tid, T] : P.Threads)
    if (P.Seccomp.sandboxed(Tid))
      return true;
  return false;
}

} // namespace

PathPlan tscc::rt::pt::planPath(PtraceProcess &P, pid_t Tid, bool WantAgent,
                                bool WantHealer) {
  PathPlan Plan;
  Plan.Sandbox = P.Seccomp.describe(Tid);
  if (Plan.Sandbox.empty() && !anyThreadSandboxed(P))
    return Plan;
  if (Plan.Sandbox.empty())
    Plan.Sandbox = "seccomp in some of its threads";
  user_regs_struct R;
  if (ptrace(PTRACE_GETREGS, Tid, nullptr, &R) != 0) {
    Plan.NoInjection = std::string("ptrace(GETREGS): ") + std::strerror(errno);
  } else {
    // The first gadget: `nop; mov $nr, %eax; syscall` over rip (Inject.cpp).
    const PlannedCall &Home =
        P.dataModel() == DataModel::LP64 ? HomePage : HomePage32;
    Plan.NoInjection = blocker(P, Tid, {&Home, 1}, R.rip + 8, 0);
  }
  if (!Plan.NoInjection.empty()) {
    Plan.NoHealer = Plan.NoAgent = Plan.NoAgentHeal = Plan.NoInjection;
    return Plan;
  }
  // Everything later runs from the home page, at an address to come.
  if (WantHealer) {
    // The i386 healer handles SIGSEGV (its breakpoints are hlt).
    std::vector<PlannedCall> Calls(std::begin(HealerCalls),
                                   std::end(HealerCalls));
    if (P.dataModel() == DataModel::ILP32)
      for (PlannedCall &C : Calls)
        if (std::string_view(C.Name) == "rt_sigaction")
          C.Args[0] = SIGSEGV;
    Plan.NoHealer = blocker(P, Tid, Calls, 0, UnforeseenIP);
  }
  if (!WantAgent)
    return Plan;
  Plan.NoAgent = blocker(P, Tid, AgentSetupCalls, 0, UnforeseenIP);
  if (Plan.NoAgent.empty())
    Plan.NoAgent = blockerInEveryThread(P, AgentRuntimeCalls);
  // The i386 agent reads its thread pointer from %gs:0, with no call.
  if (Plan.NoAgent.empty() && P.dataModel() == DataModel::LP64 &&
      !hasFsGsBase(P.Pid))
    Plan.NoAgent = blockerInEveryThread(P, {&AgentFsBase, 1});
  Plan.NoAgentHeal = blockerInEveryThread(P, AgentHealCalls);
  return Plan;
}
