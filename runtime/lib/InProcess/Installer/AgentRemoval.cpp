//===- AgentRemoval.cpp - Taking the agent out of a process at the end ----===//
//
// The end of a session for a process that keeps running (attached, or
// launched with --keep-launched). Every thread is stopped. Order matters:
//   1. disarm: no thread starts a clause any more;
//   2. every patched site gets its original bytes and every hijacked
//      return address its real value, so that no thread can enter the
//      agent any more (all threads are stopped while this happens);
//   3. threads caught inside the agent, clause code or a trampoline run
//      until they come out (AgentExit.cpp: at full speed, never
//      single-stepped through the agent, which would leave TF set), all
//      processes' together since one may wait for a lock another holds;
//   4. the return addresses they hijacked on their way out are put back;
//   5. the agent's memory is unmapped only if no thread can come back into
//      it: no thread's registers or stack (a signal frame, a return
//      address, the vDSO called from the agent) point there; every signal
//      the agent handled then gets the program's disposition. Otherwise it
//      stays, disarmed and unreachable from the program's code, with its
//      signal handler, which passes on every fault that is not its own.
//
//===----------------------------------------------------------------------===//
#include "Agent.h"
#include "AgentAbi.h"
#include "AgentExit.h"

#include "../../Ptrace/Inject.h"
#include "../Patch/SyscallDispatch.h"

#include "tscc/SyscallTable.h"
#include "tscc/agent.h"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <fstream>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

constexpr uint64_t MaxStackScan = 8u << 20;

/// Puts back the return addresses the agent hijacked on T's stack, from
/// its shadow stack (every entry of T's in the agent's table). Outermost
/// frame first: a frame above it with the same slot is a nested hijack
/// (its "real" return is the trampoline again) or a stale one being reused
/// at that moment, and finds the slot restored. The shadow stack itself is
/// left alone: a thread still inside the agent's return path needs it.
unsigned restoreReturns(PtraceProcess &P, Thread &T) {
  ProcessAgentMemory M(P);
  AgentTableLayout L = agentTableOf(P.Agent);
  unsigned N = 0;
  for (const AgentThreadEntry &E : agentThreadsOf(M, L, P.Pid)) {
    if (E.Entry.tid != T.Tid)
      continue;
    std::vector<tscc_agent_shadow> Frames = agentShadowFrames(M, L, E.Entry);
    for (auto F = Frames.rbegin(); F != Frames.rend(); ++F) {
      // A return address is pointer-sized: 4 bytes in a 32-bit process.
      bool Ok = false;
      uint64_t Cur = F->ret != P.Agent.Return ? P.readPointer(F->slot, Ok) : 0;
      if (Ok && Cur == P.Agent.Return &&
          P.writeMemory(F->slot, &F->ret, P.pointerSize()))
        ++N;
    }
  }
  return N;
}

/// The rings the agent mapped (tscc_agent_config.rings), its table of them
/// and the shard's descriptor it kept. The table is the program's to
/// scribble on: an entry (an address, and in its low bits the size mapped
/// there, as host.c's ring_mapped_len reads it) is unmapped for no more
/// than its ring's stride.
void unmapRings(PtraceProcess &P, pid_t Tid, const AgentState &A) {
  if (A.RingTable) {
    std::vector<uint64_t> Table(A.RingTableSize / 8);
    if (A.RingStride &&
        P.readMemory(A.RingTable, Table.data(), A.RingTableSize))
      for (size_t I = 0; I < Table.size(); ++I) {
        uint64_t At = Table[I] & ~uint64_t(4095);
        uint64_t Stride = I < A.ThreadRings ? A.RingStride : A.ExtentStride;
        uint64_t Len = std::min(uint64_t(4096) << (Table[I] & 31), Stride);
        if (At && Len)
          unmapInTarget(P, Tid, At, Len);
      }
    unmapInTarget(P, Tid, A.RingTable, A.RingTableSize);
  }
  if (A.ShardFd >= 0) {
    uint64_t R = 0;
    std::string Why;
    injectSyscall(P, Tid, agentAbi(P.dataModel()).NrClose,
                  {static_cast<uint64_t>(A.ShardFd)}, R, Why);
  }
}

/// Whether the bytes at J's site are still the jump tsrun wrote (not those
/// of a library mapped there since J's was unloaded).
bool jumpStillThere(PtraceProcess &P, const JumpSite &J) {
  if (J.Trap) {
    uint8_t Int3 = 0;
    return P.readMemory(J.Addr, &Int3, 1) && Int3 == 0xcc;
  }
  uint8_t Jump[5];
  if (!P.readMemory(J.Addr, Jump, sizeof(Jump)) || Jump[0] != 0xe9)
    return false;
  int32_t Rel = 0;
  memcpy(&Rel, Jump + 1, 4);
  // In a 32-bit process the jump wraps around the 4 GiB address space.
  uint64_t Mask = P.dataModel() == DataModel::LP64 ? ~0ull : 0xffffffffull;
  uint64_t Target =
      J.JumpTarget ? J.JumpTarget : J.Trampoline + TSCC_TRAMPOLINE_CODE;
  return ((J.Addr + 5 + static_cast<int64_t>(Rel)) & Mask) == Target;
}

/// Gives Sig back to what the program has asked for (the agent kept it at
/// Chained), where the agent's Handler is still installed. Returns why it
/// keeps the agent's handler, or "".
std::string restoreHandler(PtraceProcess &P, pid_t Tid, int Sig,
                           uint64_t Handler, uint64_t Chained) {
  uint64_t Scratch = P.Agent.DataBase;
  const AgentAbi &Abi = agentAbi(P.dataModel());
  uint64_t R = 0;
  std::string Error;
  std::array<uint8_t, 32> Cur{};
  if (!injectSyscall(P, Tid, Abi.NrRtSigaction,
                     {static_cast<uint64_t>(Sig), 0, Scratch, 8}, R, Error) ||
      R != 0)
    return "its signal handlers stay: " +
           (Error.empty() ? std::string("rt_sigaction failed") : Error);
  if (!P.readMemory(Scratch, Cur.data(), Cur.size()) ||
      Abi.sigactionHandler(Cur) != Handler)
    return {}; // the program put its own there
  if (!injectSyscall(P, Tid, Abi.NrRtSigaction,
                     {static_cast<uint64_t>(Sig), Chained, 0, 8}, R, Error) ||
      R != 0)
    return "its signal handlers stay: " +
           (Error.empty() ? std::string("rt_sigaction failed") : Error);
  return {};
}

/// Gives SIGSEGV, SIGBUS and SIGFPE, and SIGTRAP where trap sites had the
/// agent's handler, back to what the program has asked for. Returns why
/// one of them keeps the agent's handler, which needs the agent's memory
/// to stay: the process's sandbox refused rt_sigaction.
std::string restoreHandlers(PtraceProcess &P, pid_t Tid) {
  const AgentState &A = P.Agent;
  const int Sigs[TSCC_AGENT_SIGNALS] = {SIGSEGV, SIGBUS, SIGFPE};
  for (unsigned I = 0; I < TSCC_AGENT_SIGNALS; ++I) {
    uint64_t Chained = A.Config + offsetof(tscc_agent_config, chained) +
                       I * sizeof(tscc_kernel_sigaction);
    if (std::string Why = restoreHandler(P, Tid, Sigs[I], A.Signal, Chained);
        !Why.empty())
      return Why;
  }
  if (!A.TrapHandler)
    return {};
  return restoreHandler(P, Tid, SIGTRAP, A.Trap,
                        A.Config + offsetof(tscc_agent_config, chained_trap));
}

/// Why the sandbox keeps tsrun from unmapping the agent, or "".
std::string unmapRefused(PtraceProcess &P, pid_t Tid) {
  const AgentState &A = P.Agent;
  SyscallVerdict V = injectionVerdict(P, Tid, munmapNumber(P.dataModel()),
                                      {A.AgentBase, A.AgentSize});
  return V.Kind == SyscallVerdict::Runs ? std::string() : V.Why;
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

/// What must not be left on a live stack once the agent is gone.
struct AgentAddresses {
  AddressRanges Code, Vdso;
  uint64_t Return = 0, Restorer = 0;
};

/// Why a word of a thread's live stack (at At) ties the thread to the
/// agent, or nullptr.
const char *stackWordRefers(PtraceProcess &P, const AgentAddresses &A,
                            uint64_t At, uint64_t Word) {
  if (Word == A.Return)
    return "has a hijacked return address left on its stack";
  if (Word == A.Restorer)
    return "may return through the agent's signal restorer";
  if ((A.Code.contains(Word) || A.Vdso.contains(Word)) &&
      isSignalFrameRip(P, At))
    return "is in a signal handler that interrupted the agent";
  return nullptr;
}

/// Why thread T ties the agent's memory, or "": it could still execute it,
/// because it is there, because a frame of its call stack returns there,
/// or because a signal frame or a hijacked return address on its stack
/// leads there. (Stale copies of such addresses in dead stack slots, below
/// the stack pointer, do not count.)
std::string threadRefers(PtraceProcess &P, Thread &T, const AgentAddresses &A) {
  user_regs_struct R;
  if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
    return {};
  std::string Who = "thread " + std::to_string(T.Tid);
  if (A.Code.contains(R.rip))
    return Who + " is still in the agent";
  if (A.Vdso.contains(R.rip) &&
      (P.dataModel() == DataModel::LP64 ||
       (!inProgramSyscall32(R) && vdsoCalledFromAgent32(P, R.rsp, A.Code))))
    return Who + " is in the vDSO, perhaps called by the agent";
  uint64_t Regs[TSCC_REG_COUNT];
  regsToTscc(R, Regs, P.dataModel());
  for (uint64_t PC : P.unwindLive(Regs, 256, &T.Shadow).PCs)
    if (A.Code.contains(PC))
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
      if (const char *Why = stackWordRefers(P, A, At + W * I, Word))
        return Who + " " + Why;
    }
  }
  return {};
}

/// A thread of Ts that is stopped and alive (to inject system calls), or 0.
pid_t liveThread(const std::vector<Thread *> &Ts) {
  for (Thread *T : Ts) {
    user_regs_struct R;
    if (ptrace(PTRACE_GETREGS, T->Tid, nullptr, &R) == 0)
      return T->Tid;
  }
  return 0;
}

} // namespace

AgentTakedown tscc::rt::pt::beginAgentRemoval(PtraceProcess &P,
                                              std::vector<Thread *> Threads) {
  AgentTakedown D;
  D.P = &P;
  D.Threads = std::move(Threads);
  AgentState &A = P.Agent;
  if (!A.Installed)
    return D;
  // Disarmed, and never to put sites back by itself when tsrun exits.
  tscc_agent_proc Done{};
  Done.healing = Done.healed = 1;
  P.writeMemory(A.Proc, &Done, sizeof(Done));
  // Syscall User Dispatch off in every thread, SIGSYS the program's again;
  // where the handler stays, the agent it is in stays too.
  D.Stuck = disableSyscallDispatch(P, D.Threads);
  // No thread runs while the bytes go back, so none sees a mix of them.
  for (const auto &[Addr, J] : A.Sites)
    if (jumpStillThere(P, J) && P.writeMemory(Addr, J.Original, J.Length))
      ++D.Result.SitesRestored;
  AddressRanges Code = agentCode(A), Vdso = vdsoOf(P.Pid);
  for (Thread *T : D.Threads) {
    Whereabouts W = settleThread(P, *T, Code, Vdso);
    if (W == Whereabouts::Inside)
      D.Inside.push_back(T);
    else if (W == Whereabouts::Unknown && D.Stuck.empty())
      D.Stuck = "thread " + std::to_string(T->Tid) +
                " could not be stepped out of the vDSO or a trampoline";
  }
  return D;
}

AgentRemoval tscc::rt::pt::finishAgentRemoval(AgentTakedown &D) {
  PtraceProcess &P = *D.P;
  AgentState &A = P.Agent;
  AgentRemoval &Out = D.Result;
  if (!A.Installed)
    return Out;
  // Threads still inside (D.Inside, after bringOutOfAgents) may be in the
  // middle of pushing a shadow frame: their returns stay hijacked, and the
  // agent with them.
  for (Thread *T : D.Threads)
    if (std::find(D.Inside.begin(), D.Inside.end(), T) == D.Inside.end())
      Out.ReturnsRestored += restoreReturns(P, *T);
  pid_t Tid = liveThread(D.Threads);
  AgentAddresses Addrs{agentCode(A), vdsoOf(P.Pid), A.Return, A.Restorer};
  Out.KeptBecause = D.Stuck;
  for (Thread *T : D.Threads)
    if (Out.KeptBecause.empty())
      Out.KeptBecause = threadRefers(P, *T, Addrs);
  // Another process uses the same memory (vfork, clone(CLONE_VM)), and may
  // be in the agent: it stays.
  if (Out.KeptBecause.empty() && A.Sharers)
    for (const AgentSharers::Member &M : A.Sharers->Members)
      if (M.Pid != P.Pid) {
        Out.KeptBecause = "pid " + std::to_string(M.Pid) + " shares it";
        break;
      }
  if (Out.KeptBecause.empty() && !Tid)
    Out.KeptBecause = "no thread is left to unmap it";
  // A thread in a system call made from a system-call site's gadget comes
  // back into the trampoline, which calls the agent (disarmed, it returns
  // at once); its registers do not point into the agent meanwhile.
  if (Out.KeptBecause.empty() && A.SyscallGadget) {
    Out.KeptBecause = "system-call sites' trampolines call it";
    // No thread is in a clause (settled above): the program gets its own
    // fault handlers back, while the agent's memory stays for the
    // trampolines' calls into it (disarmed, it returns at once).
    if (Tid)
      if (std::string Why = restoreHandlers(P, Tid); !Why.empty())
        Out.KeptBecause += "; " + Why;
  }
  // The agent's signal handler goes with its memory. Where that stays, so
  // does the handler: a thread still in a clause may need it, and it
  // passes every other fault on to the program's own disposition.
  // A sandbox that forbids munmap or rt_sigaction keeps both (the handler
  // needs the agent's memory).
  if (Out.KeptBecause.empty() && Tid)
    Out.KeptBecause = unmapRefused(P, Tid);
  if (Out.KeptBecause.empty() && Tid)
    Out.KeptBecause = restoreHandlers(P, Tid);
  if (Out.KeptBecause.empty()) {
    for (auto [Base, Size] : Addrs.Code.Ranges)
      unmapInTarget(P, Tid, Base, Size);
    unmapInTarget(P, Tid, A.ThreadsBase, A.ThreadsSize);
    unmapInTarget(P, Tid, A.PoolBase, A.PoolSize);
    unmapInTarget(P, Tid, A.DataBase, A.DataSize);
    unmapInTarget(P, Tid, A.StoreBase, A.StoreSize);
    unmapInTarget(P, Tid, A.ControlBase, A.ControlSize);
    unmapInTarget(P, Tid, A.ShardBase, A.ShardSize);
    unmapRings(P, Tid, A);
    Out.Unmapped = true;
  }
  A = AgentState{};
  return Out;
}

void tscc::rt::pt::discardFailedAgent(PtraceProcess &P, pid_t Tid) {
  AgentState &A = P.Agent;
  // The handlers went in with the configuration, the data mapping being
  // their scratch; restoreHandlers leaves a disposition that is not the
  // agent's alone.
  if (A.DataBase && A.Config && A.Signal)
    restoreHandlers(P, Tid);
  for (auto [Base, Size] : agentCode(A).Ranges)
    if (Base && Size)
      unmapInTarget(P, Tid, Base, Size);
  const std::pair<uint64_t, uint64_t> Ranges[] = {
      {A.ThreadsBase, A.ThreadsSize}, {A.PoolBase, A.PoolSize},
      {A.DataBase, A.DataSize},       {A.StoreBase, A.StoreSize},
      {A.ControlBase, A.ControlSize}, {A.ShardBase, A.ShardSize}};
  for (auto [Base, Size] : Ranges)
    if (Base && Size)
      unmapInTarget(P, Tid, Base, Size);
  unmapRings(P, Tid, A);
  A = AgentState{};
}
