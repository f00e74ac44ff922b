//===- AgentRemoval.cpp - Taking the agent out of a process at the end ----===//
//
// The end of a session for a process that keeps running (attached, or
// launched with --keep-launched). Every thread is stopped. Order matters:
//   1. disarm: no thread starts a clause any more;
//   2. threads caught inside the agent, clause code or a trampoline's
//      prologue are single-stepped until they are back in the program (a
//      clause is a few hundred instructions);
//   3. every patched site gets its original bytes, every hijacked return
//      address its real value, every signal the agent handled the
//      program's disposition;
//   4. the agent's memory is unmapped only if no thread can come back into
//      it: no thread's registers or stack (a signal frame, a return
//      address) point there. Otherwise it stays, disarmed and unreachable
//      from the program's code.
//
//===----------------------------------------------------------------------===//
#include "Agent.h"

#include "Inject.h"
#include "Unwind.h"

#include "tscc/SyscallTable.h"
#include "tscc/agent.h"

#include <csignal>
#include <cstring>
#include <fstream>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

constexpr unsigned MaxSteps = 1'000'000;
constexpr uint64_t NrRtSigaction =
    syscallNumberOf(DataModel::LP64, "rt_sigaction");
constexpr uint64_t MaxStackScan = 8u << 20;

struct CodeRanges {
  std::vector<std::pair<uint64_t, uint64_t>> Ranges;
  bool contains(uint64_t X) const {
    for (auto [Lo, Size] : Ranges)
      if (X >= Lo && X - Lo < Size)
        return true;
    return false;
  }
};

CodeRanges codeOf(const AgentState &A) {
  CodeRanges C;
  C.Ranges.push_back({A.AgentBase, A.AgentSize});
  C.Ranges.push_back({A.CodeBase, A.CodeSize});
  for (auto Area : A.Areas)
    C.Ranges.push_back(Area);
  return C;
}

/// If Rip is at an instruction boundary of a trampoline's copy of a site's
/// displaced instructions, the same place in the original code.
bool backToOriginal(const AgentState &A, uint64_t Rip, uint64_t &Out) {
  for (const auto &[Addr, J] : A.Sites) {
    if (Rip < J.CopyAt || Rip - J.CopyAt > 0xffff)
      continue;
    for (const auto &[Orig, Copy] : J.Map)
      if (J.CopyAt + Copy == Rip) {
        Out = J.Addr + Orig;
        return true;
      }
  }
  return false;
}

/// Single-steps thread Tid until it is out of our code (or at a boundary
/// of a displaced copy, from where it is moved to the original).
void stepOut(PtraceProcess &P, Thread &T, const CodeRanges &Code) {
  user_regs_struct R;
  if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
    return;
  for (unsigned Step = 0; Code.contains(R.rip) && Step < MaxSteps; ++Step) {
    uint64_t Orig;
    if (backToOriginal(P.Agent, R.rip, Orig)) {
      R.rip = Orig;
      ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R);
      return;
    }
    if (ptrace(PTRACE_SINGLESTEP, T.Tid, nullptr, nullptr) != 0)
      return;
    int St = 0;
    if (waitpid(T.Tid, &St, __WALL) != T.Tid || !WIFSTOPPED(St))
      return; // gone
    int Sig = WSTOPSIG(St);
    if (Sig != SIGTRAP && !T.PendingSignal)
      T.PendingSignal = Sig; // delivered at detach
    if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
      return;
  }
}

/// Puts back the real return addresses of P's threads' shadow stacks,
/// innermost first, where the agent's return trampoline still is.
unsigned restoreReturns(PtraceProcess &P) {
  ProcessAgentMemory M(P);
  AgentTableLayout L = agentTableOf(P.Agent);
  unsigned N = 0;
  for (const AgentThreadEntry &E : agentThreadsOf(M, L, P.Pid)) {
    if (!P.Threads.count(E.Entry.tid))
      continue;
    for (const tscc_agent_shadow &F : agentShadowFrames(M, L, E.Entry)) {
      uint64_t Cur = 0;
      if (P.read(F.slot, Cur) && Cur == P.Agent.Return &&
          P.writeMemory(F.slot, &F.ret, 8))
        ++N;
    }
    uint64_t Empty = 0;
    P.writeMemory(E.Addr + offsetof(tscc_agent_thread, stack), &Empty, 8);
  }
  return N;
}

/// Gives SIGSEGV, SIGBUS and SIGFPE back to what the program has asked for
/// (the agent kept it), where the agent's handler is still installed.
void restoreHandlers(PtraceProcess &P, pid_t Tid) {
  const AgentState &A = P.Agent;
  const int Sigs[TSCC_AGENT_SIGNALS] = {SIGSEGV, SIGBUS, SIGFPE};
  uint64_t Scratch = A.DataBase;
  for (unsigned I = 0; I < TSCC_AGENT_SIGNALS; ++I) {
    uint64_t R = 0;
    std::string Error;
    tscc_kernel_sigaction Cur{};
    if (!injectSyscall(P, Tid, NrRtSigaction,
                       {static_cast<uint64_t>(Sigs[I]), 0, Scratch, 8}, R,
                       Error) ||
        R != 0 || !P.read(Scratch, Cur) || Cur.handler != A.Signal)
      continue;
    uint64_t Chained = A.Config + offsetof(tscc_agent_config, chained) +
                       I * sizeof(tscc_kernel_sigaction);
    injectSyscall(P, Tid, NrRtSigaction,
                  {static_cast<uint64_t>(Sigs[I]), Chained, 0, 8}, R, Error);
  }
}

/// The end of the mapping that holds Addr, from /proc/PID/maps.
uint64_t mappingEnd(pid_t Pid, uint64_t Addr) {
  std::ifstream In("/proc/" + std::to_string(Pid) + "/maps");
  std::string Line;
  while (std::getline(In, Line)) {
    unsigned long long S = 0, E = 0;
    if (sscanf(Line.c_str(), "%llx-%llx", &S, &E) == 2 && Addr >= S && Addr < E)
      return E;
  }
  return 0;
}

/// Whether the word at At, which points into our code, is the saved rip
/// of a signal frame: the frame's first word (pretcode) then points at a
/// sigreturn trampoline (`mov $15,%eax|%rax; syscall`).
bool isSignalFrameRip(PtraceProcess &P, uint64_t At) {
  // struct rt_sigframe: pretcode, then ucontext (40 bytes of header) whose
  // gregs hold rip at index 16.
  constexpr uint64_t RipOffset = 8 + 40 + 16 * 8;
  uint64_t Pretcode = 0;
  uint8_t Code[9];
  if (At < RipOffset || !P.read(At - RipOffset, Pretcode) ||
      !P.readMemory(Pretcode, Code, sizeof(Code)))
    return false;
  static const uint8_t Glibc[] = {0x48, 0xc7, 0xc0, 0x0f, 0, 0, 0, 0x0f, 0x05};
  static const uint8_t Short[] = {0xb8, 0x0f, 0, 0, 0, 0x0f, 0x05};
  return memcmp(Code, Glibc, sizeof(Glibc)) == 0 ||
         memcmp(Code, Short, sizeof(Short)) == 0;
}

/// Why the agent's memory must stay mapped, or "": a thread that could
/// still execute it, because it is there, because a frame of its call
/// stack returns there, or because a signal frame on its stack resumes
/// there. (Stale copies of such addresses in dead stack slots do not
/// count.)
std::string stillReferenced(PtraceProcess &P, const CodeRanges &Code) {
  for (auto &[Tid, T] : P.Threads) {
    user_regs_struct R;
    if (ptrace(PTRACE_GETREGS, Tid, nullptr, &R) != 0)
      continue;
    std::string Who = "thread " + std::to_string(Tid);
    if (Code.contains(R.rip))
      return Who + " is still in the agent";
    uint64_t Regs[TSCC_REG_COUNT];
    regsToTscc(R, Regs);
    for (uint64_t PC : unwind(P, Regs, 256, &T.Shadow))
      if (Code.contains(PC))
        return Who + " will return into the agent";
    uint64_t End =
        std::min<uint64_t>(mappingEnd(P.Pid, R.rsp), R.rsp + MaxStackScan);
    std::vector<uint64_t> Words;
    for (uint64_t At = R.rsp & ~7ull; At < End; At += 65536) {
      uint64_t N = std::min<uint64_t>(65536, End - At) / 8;
      Words.resize(N);
      if (!P.readMemory(At, Words.data(), N * 8))
        break;
      for (uint64_t I = 0; I < N; ++I)
        if (Code.contains(Words[I]) && isSignalFrameRip(P, At + 8 * I))
          return Who + " is in a signal handler that interrupted the agent";
    }
  }
  return {};
}

} // namespace

AgentRemoval tscc::rt::pt::removeAgent(PtraceProcess &P, pid_t Tid) {
  AgentRemoval Out;
  AgentState &A = P.Agent;
  if (!A.Installed)
    return Out;
  // Disarmed, and never to put sites back by itself when tsrun exits.
  tscc_agent_proc Done{};
  Done.healing = Done.healed = 1;
  P.writeMemory(A.Proc, &Done, sizeof(Done));
  CodeRanges Code = codeOf(A);
  for (auto &[T, Th] : P.Threads)
    stepOut(P, Th, Code);
  for (const auto &[Addr, J] : A.Sites)
    if (P.writeMemory(Addr, J.Original, J.Length))
      ++Out.SitesRestored;
  Out.ReturnsRestored = restoreReturns(P);
  restoreHandlers(P, Tid);
  Out.KeptBecause = stillReferenced(P, Code);
  // Another process uses the same memory (vfork, clone(CLONE_VM)), and may
  // be in the agent: it stays.
  if (Out.KeptBecause.empty() && A.Sharers)
    for (const AgentSharers::Member &M : A.Sharers->Members)
      if (M.Pid != P.Pid) {
        Out.KeptBecause = "pid " + std::to_string(M.Pid) + " shares it";
        break;
      }
  if (Out.KeptBecause.empty()) {
    for (auto [Base, Size] : Code.Ranges)
      unmapInTarget(P, Tid, Base, Size);
    unmapInTarget(P, Tid, A.ThreadsBase, A.ThreadsSize);
    unmapInTarget(P, Tid, A.PoolBase, A.PoolSize);
    unmapInTarget(P, Tid, A.DataBase, A.DataSize);
    unmapInTarget(P, Tid, A.StoreBase, A.StoreSize);
    Out.Unmapped = true;
  }
  A = AgentState{};
  return Out;
}
