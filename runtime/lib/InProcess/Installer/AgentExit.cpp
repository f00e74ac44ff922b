//===- AgentExit.cpp - Bringing threads out of an agent that is removed ---===//
//
// At the end of a session a thread can be anywhere in the agent: in a
// trampoline, in the agent's C code, in clause code, waiting for the
// session lock, or in the vDSO's clock_gettime that the agent called. Its
// agent's memory may only be unmapped once it is out, for good.
//
// Threads are not single-stepped through agent code. Single-stepping
// `pushfq` stores the flags with TF set (the kernel does not fix that up;
// gdb does it by hand), and the agent saves the flags with `pushfq` on
// every hit: a thread stepped there carries TF into the program and dies
// of SIGTRAP once detached. A thread waiting for the
// session lock would also have to be stepped until the lock's owner, still
// stopped, let go. Instead, with the sites already restored, the threads
// inside run at full speed until each stops at an int3 that only a thread
// on its way out of the agent can reach:
//   - the first byte of each trampoline's copy of the displaced
//     instructions (reached when the agent returns to the trampoline): the
//     thread goes to the site itself, whose original bytes are back;
//   - the `ret` that ends tscc_agent_return (reached after the exit
//     clauses): the thread takes the real return address.
// Only a few instructions are ever single-stepped, none of which touches
// TF: out of the vDSO, and out of the middle of a relocated instruction's
// expansion (lea/mov/jmp).
//
//===----------------------------------------------------------------------===//
#include "AgentExit.h"
#include "Agent.h"

#include "tscc/agent.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <linux/kcmp.h>
#include <map>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

/// Single steps a settling thread may take (the vDSO's clock_gettime is a
/// few dozen instructions, an expansion three).
constexpr unsigned MaxSettleSteps = 20'000;
/// How long threads get to leave their agents. A clause takes
/// microseconds; a thread waiting for the session lock gives up after the
/// agent's lock timeout (250 ms).
constexpr auto RunOutLimit = std::chrono::seconds(3);
/// Where the agent's SIGSYS handler returns to (tscc/agent.h).
constexpr uint64_t SudRestorer = TSCC_SUD_PAGE + TSCC_SUD_RESTORER;

/// The trampoline whose code (prologue or copy) holds Rip, or null.
const JumpSite *trampolineAt(const AgentState &A, uint64_t Rip) {
  for (const auto &[Addr, J] : A.Sites) {
    if (J.Map.empty())
      continue;
    uint64_t Begin = J.Trampoline + TSCC_TRAMPOLINE_CODE;
    uint64_t End = J.CopyAt + J.Map.back().second + 5; // + the jump back
    if (Rip >= Begin && Rip < End)
      return &J;
  }
  return nullptr;
}

/// The original address for Rip at a boundary of J's copy, or 0.
uint64_t originalOf(const JumpSite &J, uint64_t Rip) {
  for (const auto &[Orig, Copy] : J.Map)
    if (J.CopyAt + Copy == Rip)
      return J.Addr + Orig;
  return 0;
}

/// Whether single-stepping the instruction at Rip could leave TF in the
/// program's flags or never come back: pushf, popf, iret, int3, int n,
/// and anything else the decoder calls a trap, but for a system call
/// (syscall; i386's int $0x80 and sysenter, whose entries clear TF and
/// report the step).
bool unsafeToStep(PtraceProcess &P, uint64_t Rip) {
  uint8_t Code[16];
  size_t N = sizeof(Code);
  while (N && !P.readMemory(Rip, Code, N))
    --N;
  X86Insn I;
  if (!N || !decodeX86(Code, N, P.mode(), I))
    return true;
  bool Syscall = !I.Vex && ((I.Map == 1 && I.Opcode == 0x05) ||
                            (P.mode() == X86Mode::Bits32 &&
                             ((I.Map == 1 && I.Opcode == 0x34) ||
                              (I.Map == 0 && I.Opcode == 0xcd &&
                               I.ImmSize == 1 && Code[I.Length - 1] == 0x80))));
  bool Flags = I.Map == 0 && !I.Vex && (I.Opcode == 0x9c || I.Opcode == 0x9d);
  return Flags || (I.Flow == X86Flow::Trap && !Syscall);
}

/// Whether T, in a signal-delivery-stop for Sig, stopped for a fault: one
/// that must be delivered where it happened, now.
bool stoppedForFault(Thread &T, int Sig) {
  siginfo_t Info{};
  if (ptrace(PTRACE_GETSIGINFO, T.Tid, nullptr, &Info) != 0 ||
      Info.si_signo != Sig)
    return false;
  return (Sig == SIGSEGV || Sig == SIGBUS || Sig == SIGFPE || Sig == SIGILL ||
          Sig == SIGTRAP) &&
         Info.si_code > 0;
}

/// Keeps a signal that arrived while we ran T for delivery at detach,
/// or says to deliver it now: a fault must be handled where it happened,
/// and a second different signal is not to be lost.
int deferSignal(Thread &T, int Sig) {
  if (stoppedForFault(T, Sig))
    return Sig;
  if (!T.PendingSignal) {
    T.PendingSignal = Sig;
    return 0;
  }
  // Standard signals do not queue: a second one is the same signal.
  return T.PendingSignal == Sig && Sig < 32 ? 0 : Sig;
}

/// The signal to resume T with when it first runs out: the fault it is
/// stopped for, if any (a clause's bad read, which the agent's handler
/// recovers from); other signals wait for the detach.
int firstResume(Thread &T) {
  int Sig = T.PendingSignal;
  if (!Sig || !stoppedForFault(T, Sig))
    return 0;
  T.PendingSignal = 0;
  return Sig;
}

/// Single-steps T once. False if the step was refused, the thread is
/// gone or kept stopping for something else.
bool stepOnce(PtraceProcess &P, Thread &T, user_regs_struct &R) {
  if (unsafeToStep(P, R.rip))
    return false;
  int Deliver = 0;
  for (unsigned Tries = 0; Tries < 8; ++Tries) {
    if (ptrace(PTRACE_SINGLESTEP, T.Tid, nullptr,
               reinterpret_cast<void *>(static_cast<long>(Deliver))) != 0)
      return false;
    Deliver = 0;
    int St = 0;
    pid_t W;
    do
      W = waitpid(T.Tid, &St, __WALL);
    while (W < 0 && errno == EINTR);
    if (W != T.Tid || !WIFSTOPPED(St))
      return false; // gone
    int Sig = WSTOPSIG(St);
    if ((St >> 16) == 0 && Sig == SIGTRAP)
      return ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) == 0;
    // An event stop, or a signal before the step: the signal waits for the
    // detach, or is delivered with the next step (a fault the step made;
    // the thread is then in the handler, whose signal frame leads back).
    if ((St >> 16) == 0 && Sig != (SIGTRAP | 0x80))
      Deliver = deferSignal(T, Sig);
  }
  return false;
}

} // namespace

bool tscc::rt::pt::signalQueued(pid_t Tid, int Sig) {
  std::ifstream In("/proc/" + std::to_string(Tid) + "/status");
  std::string Line;
  unsigned long long Pending = 0, Blocked = 0;
  while (std::getline(In, Line)) {
    if (Line.rfind("SigPnd:", 0) == 0)
      Pending = std::strtoull(Line.c_str() + 7, nullptr, 16);
    else if (Line.rfind("SigBlk:", 0) == 0)
      Blocked = std::strtoull(Line.c_str() + 7, nullptr, 16);
  }
  unsigned long long Bit = 1ull << (Sig - 1);
  return (Pending & Bit) && !(Blocked & Bit);
}

AddressRanges tscc::rt::pt::agentCode(const AgentState &A) {
  AddressRanges C;
  C.Ranges.push_back({A.AgentBase, A.AgentSize});
  C.Ranges.push_back({A.CodeBase, A.CodeSize});
  for (const ScratchAreas::Area &Area : A.Areas.all())
    C.Ranges.push_back({Area.Addr, Area.Size});
  return C;
}

AddressRanges tscc::rt::pt::vdsoOf(pid_t Pid) {
  AddressRanges V;
  std::ifstream In("/proc/" + std::to_string(Pid) + "/maps");
  std::string Line;
  while (std::getline(In, Line)) {
    unsigned long long S = 0, E = 0;
    if (Line.find("[vdso]") != std::string::npos &&
        sscanf(Line.c_str(), "%llx-%llx", &S, &E) == 2)
      V.Ranges.push_back({S, E - S});
  }
  return V;
}

uint64_t tscc::rt::pt::agentReturnExit(PtraceProcess &P) {
  uint64_t At = P.Agent.Return;
  for (unsigned N = 0; At && N < 256; ++N) {
    uint8_t Code[16];
    X86Insn I;
    if (!P.readMemory(At, Code, sizeof(Code)) ||
        !decodeX86(Code, sizeof(Code), P.mode(), I))
      return 0;
    if (I.Flow == X86Flow::Ret)
      return I.Length == 1 ? At : 0; // a plain ret, as entry.S has it
    // Only the call into tscc_agent_ret and the forward branch over the
    // `std` that puts the direction flag back (entry.S, RESTORE_FLAGS) may
    // be on the way.
    if (I.Flow != X86Flow::Normal && I.Flow != X86Flow::CallRel &&
        I.Flow != X86Flow::JccRel)
      return 0;
    At += I.Length;
  }
  return 0;
}

/// Whether a 32-bit thread in the vDSO may have been called there by the
/// agent. Every system call of an i386 program goes through the vDSO's
/// __kernel_vsyscall, where a thread blocked in one would never finish a
/// single step (a read of a pipe tsrun's end is to fill); the agent itself
/// makes its calls with int $0x80, and only its clock goes through the
/// vDSO. A call from the agent left its return address a few words above
/// the stack pointer (the vDSO's functions have small frames); a hijacked
/// return address does not count.
bool tscc::rt::pt::vdsoCalledFromAgent32(PtraceProcess &P, uint64_t Sp,
                                         const AddressRanges &Code) {
  uint32_t Words[64];
  size_t N = sizeof(Words);
  while (N && !P.readMemory(Sp, Words, N))
    N -= 4;
  // A return address the agent hijacked (its return trampoline) is the
  // program's call waiting to return, not a call of the agent's.
  for (size_t I = 0; I < N / 4; ++I)
    if (Code.contains(Words[I]) && Words[I] != P.Agent.Return)
      return true;
  return false;
}

/// Whether a 32-bit thread stopped in the vDSO is in a system call that
/// the agent never makes there: it makes its own with int $0x80, and only
/// its clock may go through the vDSO (clock_gettime64, or clock_gettime
/// on older kernels). Stepping it would wait for the call to return.
bool tscc::rt::pt::inProgramSyscall32(const user_regs_struct &R) {
  auto Nr = static_cast<int32_t>(R.orig_rax);
  return Nr >= 0 && Nr != 265 /*clock_gettime*/ && Nr != 403 /*...64*/;
}

Whereabouts tscc::rt::pt::settleThread(PtraceProcess &P, Thread &T,
                                       const AddressRanges &Code,
                                       const AddressRanges &Vdso) {
  user_regs_struct R;
  if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
    return Whereabouts::Program; // gone: nothing of it can come back
  for (unsigned Step = 0; Step < MaxSettleSteps; ++Step) {
    if (Vdso.contains(R.rip)) {
      if (P.dataModel() == DataModel::ILP32 &&
          (inProgramSyscall32(R) || !vdsoCalledFromAgent32(P, R.rsp, Code)))
        return Whereabouts::Program;
      // Perhaps called by the agent: step until it has returned.
      if (!stepOnce(P, T, R))
        return Whereabouts::Unknown;
      continue;
    }
    const JumpSite *J = trampolineAt(P.Agent, R.rip);
    if (!J)
      return Code.contains(R.rip) ? Whereabouts::Inside : Whereabouts::Program;
    if (uint64_t Orig = originalOf(*J, R.rip)) {
      R.rip = Orig;
      return ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R) == 0
                 ? Whereabouts::Program
                 : Whereabouts::Unknown;
    }
    if (R.rip < J->CopyAt)
      return Whereabouts::Inside; // calls the agent, then reaches the copy
    // Between the instructions that one relocated instruction became.
    if (!stepOnce(P, T, R))
      return Whereabouts::Unknown;
  }
  return Whereabouts::Unknown;
}

namespace {

/// A thread being brought out of its agent.
struct Runner {
  AgentTakedown *D;
  Thread *T;
  bool Running = false;
  bool Out = false;
};

/// A system-call site's trampoline goes back to the copy of the
/// instruction after its `syscall` (tscc/agent.h): where a thread that was
/// in the agent, or in the call, comes out. The original offset and the
/// copy's address of that instruction, or {0, 0}.
std::pair<uint8_t, uint64_t> afterSyscallCopy(const JumpSite &J) {
  if (!J.Syscall)
    return {0, 0};
  for (const auto &[Orig, Copy] : J.Map)
    if (Orig + 1u < J.Length && J.Original[Orig] == 0x0f &&
        J.Original[Orig + 1] == 0x05)
      return {static_cast<uint8_t>(Orig + 2), J.CopyAt + Copy + 2};
  return {0, 0};
}

/// Traps planted, by memory (the index of the first takedown whose process
/// uses it) and address, with the byte each replaced.
using PlantedTraps = std::map<std::pair<size_t, uint64_t>, uint8_t>;

/// Plants D's traps in memory Mem. Processes that share memory (vfork,
/// clone(CLONE_VM)) share them: the second takedown records the byte the
/// first one replaced, not the int3.
void plantTraps(AgentTakedown &D, uint64_t ReturnExit, size_t Mem,
                PlantedTraps &Planted) {
  PtraceProcess &P = *D.P;
  std::vector<uint64_t> At{ReturnExit};
  for (const auto &[Addr, J] : P.Agent.Sites) {
    At.push_back(J.CopyAt);
    if (uint64_t After = afterSyscallCopy(J).second)
      At.push_back(After);
  }
  // The agent's SIGSYS handler (Syscall User Dispatch) returns to the
  // restorer of SUD's code page, outside the agent.
  if (P.Agent.SudMapped)
    At.push_back(SudRestorer);
  for (uint64_t A : At) {
    if (auto It = Planted.find({Mem, A}); It != Planted.end()) {
      D.Traps.push_back({A, It->second});
      continue;
    }
    uint8_t Orig = 0, Int3 = 0xcc;
    if (P.readMemory(A, &Orig, 1) && P.writeMemory(A, &Int3, 1)) {
      D.Traps.push_back({A, Orig});
      Planted[{Mem, A}] = Orig;
    }
  }
}

/// The first of All (up to I) whose process uses the memory of All[I]'s.
size_t memoryOf(const std::vector<AgentTakedown> &All, size_t I) {
  for (size_t J = 0; J < I; ++J)
    if (syscall(SYS_kcmp, All[J].P->Pid, All[I].P->Pid, KCMP_VM, 0, 0) == 0)
      return J;
  return I;
}

void removeTraps(AgentTakedown &D) {
  for (auto [At, Orig] : D.Traps)
    D.P->writeMemory(At, &Orig, 1);
  D.Traps.clear();
}

/// The pc that the signal frame at Uc returns to, following frames that
/// return to SUD's rt_sigreturn stub (a signal handler of the agent's whose
/// own restorer's rt_sigreturn was caught by SUD): each such frame's stack
/// pointer is where the next frame is. 0 if a frame cannot be read.
uint64_t frameReturnPc(PtraceProcess &P, uint64_t Uc) {
  constexpr uint64_t SigreturnStub =
      TSCC_SUD_PAGE + TSCC_SUD_STUBS +
      TSCC_SUD_SIGRETURN_STUB * TSCC_SUD_STUB_BYTES;
  constexpr uint64_t UcRsp = 40 + 15 * 8, UcRip = 40 + 16 * 8;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    bool Ok = false, OkSp = false;
    uint64_t Pc = P.readPointer(Uc + UcRip, Ok);
    uint64_t Sp = P.readPointer(Uc + UcRsp, OkSp);
    if (!Ok || !OkSp)
      return 0;
    if (Pc != SigreturnStub)
      return Pc;
    Uc = Sp; // rt_sigreturn from the stub reads the frame at its rsp
  }
  return 0;
}

/// T stopped at the int3 planted over the first instruction of SUD's
/// restorer (`lock decl in_handler; mov $15,%eax; syscall`), leaving the
/// agent's SIGSYS handler: that instruction is done by hand, and the thread
/// goes on at the next one. Out unless the frame it restores (the one the
/// handler's `ret` left at its stack pointer) goes back into the agent.
bool leaveThroughRestorer(PtraceProcess &P, Thread &T, user_regs_struct &R,
                          const AddressRanges &Code) {
  constexpr uint64_t InHandler =
      TSCC_SUD_PAGE + TSCC_SUD_CODE_BYTES + offsetof(tscc_sud_data, in_handler);
  constexpr uint64_t LockDeclBytes = 7;
  uint32_t N = 0;
  if (P.readMemory(InHandler, &N, sizeof(N)) && N) {
    --N;
    P.writeMemory(InHandler, &N, sizeof(N));
  }
  R.rip = SudRestorer + LockDeclBytes;
  ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R);
  uint64_t Pc = frameReturnPc(P, R.rsp);
  return Pc && !Code.contains(Pc);
}

/// T stopped at the int3 at At, on its way out: puts it where it was going.
/// False if it is still inside (a return to another hijacked return).
bool leaveThroughTrap(AgentTakedown &D, Thread &T, user_regs_struct &R,
                      uint64_t At, uint64_t ReturnExit,
                      const AddressRanges &Code) {
  PtraceProcess &P = *D.P;
  if (At == SudRestorer && P.Agent.SudMapped)
    return leaveThroughRestorer(P, T, R, Code);
  if (At == ReturnExit) {
    bool Ok = false;
    uint64_t Ret = P.readPointer(R.rsp, Ok);
    if (!Ok)
      return false;
    R.rip = Ret; // the ret, done by hand
    R.rsp += P.pointerSize();
  } else {
    for (const auto &[Addr, J] : P.Agent.Sites) {
      if (J.CopyAt == At)
        R.rip = J.Addr; // the original bytes are back there
      if (auto [Orig, After] = afterSyscallCopy(J); After && After == At)
        R.rip = J.Addr + Orig; // the call is made
    }
  }
  ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R);
  return !Code.contains(R.rip);
}

/// Handles a stop of a running Runner: it stays stopped once out.
void onRunnerStop(Runner &X, int St, uint64_t ReturnExit,
                  const AddressRanges &Code) {
  Thread &T = *X.T;
  if (!WIFSTOPPED(St)) {
    X.Running = false; // gone
    X.Out = true;
    return;
  }
  int Sig = WSTOPSIG(St), Resume = 0;
  if ((St >> 16) == 0 && Sig == SIGTRAP) {
    user_regs_struct R;
    if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) == 0) {
      for (auto [At, Orig] : X.D->Traps) {
        if (R.rip != At + 1)
          continue;
        X.Running = false;
        if (leaveThroughTrap(*X.D, T, R, At, ReturnExit, Code)) {
          X.Out = true;
          return;
        }
        X.Running = true;
        ptrace(PTRACE_CONT, T.Tid, nullptr, nullptr);
        return;
      }
    }
    Resume = deferSignal(T, Sig);
  } else if ((St >> 16) == 0 && Sig != (SIGTRAP | 0x80)) {
    Resume = deferSignal(T, Sig);
  }
  // Event stops (a group stop, seccomp) and syscall stops: go on.
  ptrace(PTRACE_CONT, T.Tid, nullptr,
         reinterpret_cast<void *>(static_cast<long>(Resume)));
}

/// The interrupt's stop is reported before a signal the thread had just
/// taken: if that was the SIGTRAP of one of our int3s, it would come after
/// the detach. Resumed, the thread reports it before running any code.
void collectQueuedTrap(Runner &X, uint64_t ReturnExit,
                       const AddressRanges &Code) {
  Thread &T = *X.T;
  for (unsigned N = 0; N < 4 && !X.Out && signalQueued(T.Tid, SIGTRAP); ++N) {
    int St = 0;
    if (ptrace(PTRACE_CONT, T.Tid, nullptr, nullptr) != 0 ||
        waitpid(T.Tid, &St, __WALL) != T.Tid || !WIFSTOPPED(St)) {
      X.Out = true; // gone
      return;
    }
    int Sig = WSTOPSIG(St);
    if ((St >> 16) != 0 || Sig == (SIGTRAP | 0x80))
      continue; // an event stop came first
    user_regs_struct R;
    if (Sig == SIGTRAP && ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) == 0)
      for (auto [At, Orig] : X.D->Traps)
        if (R.rip == At + 1) {
          X.Out = leaveThroughTrap(*X.D, T, R, At, ReturnExit, Code);
          return;
        }
    if (!T.PendingSignal)
      T.PendingSignal = Sig;
  }
}

/// Stops a runner that is still running when time is up.
void stopRunner(Runner &X, uint64_t ReturnExit, const AddressRanges &Code) {
  Thread &T = *X.T;
  if (ptrace(PTRACE_INTERRUPT, T.Tid, nullptr, nullptr) != 0) {
    X.Running = false;
    return;
  }
  for (;;) {
    int St = 0;
    pid_t W = waitpid(T.Tid, &St, __WALL);
    if (W < 0 && errno == EINTR)
      continue;
    if (W != T.Tid || !WIFSTOPPED(St) ||
        static_cast<unsigned>(St) >> 16 == PTRACE_EVENT_STOP)
      break;
    // Anything before the interrupt's own stop: handled as usual, and the
    // thread is let go on until that stop.
    bool WasOut = X.Out;
    onRunnerStop(X, St, ReturnExit, Code);
    if (X.Out && !WasOut)
      ptrace(PTRACE_CONT, T.Tid, nullptr, nullptr);
  }
  X.Running = false;
  collectQueuedTrap(X, ReturnExit, Code);
}

/// " (at agent+0x...)" or " (at 0x...)": where a thread stuck inside is.
std::string whereIs(PtraceProcess &P, Thread &T) {
  user_regs_struct R{};
  if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
    return {};
  char Buf[64];
  if (R.rip >= P.Agent.AgentBase &&
      R.rip < P.Agent.AgentBase + P.Agent.AgentSize)
    snprintf(Buf, sizeof(Buf), " (at agent+0x%llx)",
             static_cast<unsigned long long>(R.rip - P.Agent.AgentBase));
  else
    snprintf(Buf, sizeof(Buf), " (at 0x%llx)",
             static_cast<unsigned long long>(R.rip));
  return Buf;
}

} // namespace

void tscc::rt::pt::bringOutOfAgents(std::vector<AgentTakedown> &All) {
  std::vector<Runner> Runners;
  std::map<AgentTakedown *, std::pair<uint64_t, AddressRanges>> Exits;
  // Every return trampoline is decoded before any trap is planted: one
  // may be another's, in memory two processes share.
  for (AgentTakedown &D : All) {
    if (D.Inside.empty())
      continue;
    uint64_t ReturnExit = agentReturnExit(*D.P);
    if (!ReturnExit) {
      D.Stuck = "its return trampoline could not be decoded";
      continue;
    }
    Exits[&D] = {ReturnExit, agentCode(D.P->Agent)};
  }
  PlantedTraps Planted;
  for (size_t I = 0; I < All.size(); ++I) {
    AgentTakedown &D = All[I];
    auto It = Exits.find(&D);
    if (It == Exits.end())
      continue;
    plantTraps(D, It->second.first, memoryOf(All, I), Planted);
    for (Thread *T : D.Inside)
      Runners.push_back({&D, T});
  }
  for (Runner &X : Runners)
    X.Running = ptrace(PTRACE_CONT, X.T->Tid, nullptr,
                       reinterpret_cast<void *>(
                           static_cast<long>(firstResume(*X.T)))) == 0;
  auto Deadline = std::chrono::steady_clock::now() + RunOutLimit;
  for (bool Any = true; Any;) {
    Any = false;
    bool Progress = false;
    for (Runner &X : Runners) {
      if (!X.Running)
        continue;
      Any = true;
      int St = 0;
      if (waitpid(X.T->Tid, &St, __WALL | WNOHANG) != X.T->Tid)
        continue;
      Progress = true;
      auto &[ReturnExit, Code] = Exits[X.D];
      onRunnerStop(X, St, ReturnExit, Code);
    }
    if (Any && std::chrono::steady_clock::now() > Deadline)
      break;
    if (Any && !Progress)
      std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  // From here on, Inside lists the threads that are still there.
  for (auto &[D, E] : Exits)
    D->Inside.clear();
  for (Runner &X : Runners) {
    auto &[ReturnExit, Code] = Exits[X.D];
    if (X.Running)
      stopRunner(X, ReturnExit, Code);
    if (X.Out)
      continue;
    X.D->Inside.push_back(X.T);
    if (X.D->Stuck.empty())
      X.D->Stuck = "thread " + std::to_string(X.T->Tid) +
                   " did not leave the agent in time" + whereIs(*X.D->P, *X.T);
  }
  for (auto &[D, E] : Exits)
    removeTraps(*D);
}
