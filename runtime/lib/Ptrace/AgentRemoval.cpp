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
#include "AgentAbi.h"

#include "Inject.h"

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

/// The agent's entry for a thread with fs base FsBase, or 0.
uint64_t threadEntry(PtraceProcess &P, uint64_t FsBase) {
  const AgentState &A = P.Agent;
  uint64_t Cap = A.ThreadsSize / sizeof(tscc_agent_thread);
  if (!Cap || (Cap & (Cap - 1)))
    return 0;
  uint64_t Key = FsBase ? FsBase : ~0ull;
  uint64_t H = Key * 0x9e3779b97f4a7c15ull;
  uint64_t Pos = (H >> 32) & (Cap - 1);
  for (uint64_t N = 0; N < Cap; ++N, Pos = (Pos + 1) & (Cap - 1)) {
    uint64_t Entry = A.ThreadsBase + Pos * sizeof(tscc_agent_thread);
    uint64_t K = 0;
    if (!P.read(Entry, K) || K == 0)
      return 0;
    if (K == Key)
      return Entry;
  }
  return 0;
}

unsigned restoreReturns(PtraceProcess &P, Thread &T) {
  user_regs_struct R;
  if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
    return 0;
  // The agent's key of the thread (agent/*/arch.h): the fs base, or in a
  // 32-bit process the TCB, which is the gs base (it points to itself).
  uint64_t Entry =
      threadEntry(P, P.dataModel() == DataModel::LP64 ? R.fs_base : R.gs_base);
  uint32_t Depth = 0;
  if (!Entry || !P.read(Entry + offsetof(tscc_agent_thread, depth), Depth))
    return 0;
  Depth = std::min<uint32_t>(Depth, TSCC_AGENT_MAX_FRAMES);
  std::vector<tscc_agent_shadow> Frames(Depth);
  if (Depth && !P.readMemory(Entry + offsetof(tscc_agent_thread, frames),
                             Frames.data(), Depth * sizeof(Frames[0])))
    return 0;
  unsigned N = 0;
  for (auto It = Frames.rbegin(); It != Frames.rend(); ++It) {
    bool Ok = false;
    uint64_t Cur = P.readPointer(It->slot, Ok);
    if (Ok && Cur == P.Agent.Return &&
        P.writeMemory(It->slot, &It->ret, P.pointerSize()))
      ++N;
  }
  uint32_t Zero = 0;
  P.writeMemory(Entry + offsetof(tscc_agent_thread, depth), &Zero, 4);
  return N;
}

/// Gives SIGSEGV, SIGBUS and SIGFPE back to what the program has asked for
/// (the agent kept it), where the agent's handler is still installed.
void restoreHandlers(PtraceProcess &P, pid_t Tid) {
  const AgentState &A = P.Agent;
  const int Sigs[TSCC_AGENT_SIGNALS] = {SIGSEGV, SIGBUS, SIGFPE};
  uint64_t Scratch = A.DataBase;
  const AgentAbi &Abi = agentAbi(P.dataModel());
  uint64_t NrRtSigaction = Abi.NrRtSigaction;
  for (unsigned I = 0; I < TSCC_AGENT_SIGNALS; ++I) {
    uint64_t R = 0;
    std::string Error;
    std::array<uint8_t, 32> Cur{};
    if (!injectSyscall(P, Tid, NrRtSigaction,
                       {static_cast<uint64_t>(Sigs[I]), 0, Scratch, 8}, R,
                       Error) ||
        R != 0 || !P.readMemory(Scratch, Cur.data(), Cur.size()) ||
        Abi.sigactionHandler(Cur) != A.Signal)
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

/// The same in a 32-bit process: i386's struct rt_sigframe is pretcode,
/// sig, pinfo, puc (4 bytes each), siginfo (128), then the ucontext, whose
/// gregs (at 20) hold eip at index 14; the restorer is `mov $173,%eax;
/// int $0x80` (rt_sigreturn).
bool isSignalFrameEip(PtraceProcess &P, uint64_t At) {
  constexpr uint64_t EipOffset = 16 + 128 + 20 + 14 * 4;
  uint32_t Pretcode = 0;
  uint8_t Code[7];
  if (At < EipOffset || !P.read(At - EipOffset, Pretcode) ||
      !P.readMemory(Pretcode, Code, sizeof(Code)))
    return false;
  static const uint8_t RtSigreturn[] = {0xb8, 0xad, 0, 0, 0, 0xcd, 0x80};
  return memcmp(Code, RtSigreturn, sizeof(RtSigreturn)) == 0;
}

/// Whether the word at At, which points into our code, is the saved rip
/// of a signal frame: the frame's first word (pretcode) then points at a
/// sigreturn trampoline (`mov $15,%eax|%rax; syscall`).
bool isSignalFrameRip(PtraceProcess &P, uint64_t At) {
  if (P.dataModel() == DataModel::ILP32)
    return isSignalFrameEip(P, At);
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
    regsToTscc(R, Regs, P.dataModel());
    for (uint64_t PC : P.unwindLive(Regs, 256, &T.Shadow).PCs)
      if (Code.contains(PC))
        return Who + " will return into the agent";
    // Stack words are pointer-sized: 4 bytes in a 32-bit process.
    uint64_t Sp = Regs[TSCC_REG_RSP];
    unsigned W = P.pointerSize();
    uint64_t End = std::min<uint64_t>(mappingEnd(P.Pid, Sp), Sp + MaxStackScan);
    std::vector<uint8_t> Bytes;
    for (uint64_t At = Sp & ~uint64_t(W - 1); At < End; At += 65536) {
      uint64_t N = std::min<uint64_t>(65536, End - At) / W;
      Bytes.resize(N * W);
      if (!P.readMemory(At, Bytes.data(), N * W))
        break;
      for (uint64_t I = 0; I < N; ++I) {
        uint64_t Word = 0;
        memcpy(&Word, Bytes.data() + I * W, W);
        if (Code.contains(Word) && isSignalFrameRip(P, At + W * I))
          return Who + " is in a signal handler that interrupted the agent";
      }
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
  for (auto &[T, Th] : P.Threads)
    Out.ReturnsRestored += restoreReturns(P, Th);
  restoreHandlers(P, Tid);
  Out.KeptBecause = stillReferenced(P, Code);
  if (Out.KeptBecause.empty()) {
    for (auto [Base, Size] : Code.Ranges)
      unmapInTarget(P, Tid, Base, Size);
    unmapInTarget(P, Tid, A.ThreadsBase, A.ThreadsSize);
    unmapInTarget(P, Tid, A.DataBase, A.DataSize);
    unmapInTarget(P, Tid, A.StoreBase, A.StoreSize);
    Out.Unmapped = true;
  }
  A = AgentState{};
  return Out;
}
