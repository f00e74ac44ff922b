//===- Events.cpp - Handling ptrace stops ---------------------------------===//
//
// One stop, one decision, one resume: a breakpoint hit fires its probes,
// performs or redirects the displaced instruction and continues the thread
// with a single SETREGS + CONT. Nothing is single-stepped.
//
//===----------------------------------------------------------------------===//
#include "../InProcess/Installer/Agent.h"
#include "../InProcess/Installer/Healer.h"
#include "BackendImpl.h"

#include "../InProcess/Patch/SyscallDispatch.h"
#include "Displaced.h"
#include "ExecCost.h"
#include "Seccomp.h"

#include "tscc/Runtime/Session.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <linux/audit.h>
#include <linux/kcmp.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

/// The thread pointer the agent keys a thread's entry by (agent/*/arch.h):
/// the fs base, or in a 32-bit process the TCB, which is the gs base.
uint64_t threadPointerOf(const PtraceProcess &P, const user_regs_struct &R) {
  return P.dataModel() == DataModel::LP64 ? R.fs_base : R.gs_base;
}

/// Whether New, a child of P's thread T that is not its thread, uses P's
/// memory (vfork(), clone(CLONE_VM)): the kernel says so (kcmp), or else
/// the flags of the call T is stopped in.
bool sharesMemory(const PtraceProcess &P, const Thread &T, pid_t New,
                  unsigned Event) {
  long Same = syscall(SYS_kcmp, P.Pid, New, KCMP_VM, 0, 0);
  if (Same >= 0)
    return Same == 0;
  if (Event == PTRACE_EVENT_VFORK)
    return true; // vfork() is CLONE_VM | CLONE_VFORK
  user_regs_struct R;
  if (Event != PTRACE_EVENT_CLONE ||
      ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
    return false;
  if (R.orig_rax == SYS_clone)
    return (R.rdi & CLONE_VM) != 0;
  uint64_t Flags = 0; // clone3: struct clone_args starts with the flags
  auto &Self = const_cast<PtraceProcess &>(P);
  return R.orig_rax == SYS_clone3 && Self.read(R.rdi, Flags) &&
         (Flags & CLONE_VM) != 0;
}

bool isStopSignal(int Sig) {
  return Sig == SIGSTOP || Sig == SIGTSTP || Sig == SIGTTIN || Sig == SIGTTOU;
}

/// At the entry of HealerGuardFunction, sigaction(sig, act, oact): the
/// signal whose disposition the program is setting, if it is one whose
/// handler tsrun keeps in front (the healer's P.faultSignal(), the agent's
/// SIGSEGV/SIGBUS/SIGFPE, and its SIGTRAP for trap sites); 0 otherwise.
int guardedSignal(PtraceProcess &P, const user_regs_struct &R) {
  uint64_t Args[2] = {R.rdi, R.rsi};
  if (P.dataModel() == DataModel::ILP32) {
    // cdecl: the arguments are on the stack, above the return address.
    uint32_t Stack[2] = {};
    if (!P.readMemory((R.rsp & 0xffffffffull) + 4, Stack, sizeof(Stack)))
      return 0;
    Args[0] = Stack[0];
    Args[1] = Stack[1];
  }
  if (Args[1] == 0)
    return 0; // only reading it
  int Sig = static_cast<int>(Args[0]);
  if (Sig == P.faultSignal() && P.Heal.Header)
    return Sig;
  if ((Sig == SIGSEGV || Sig == SIGBUS || Sig == SIGFPE) && P.Agent.Installed)
    return Sig;
  if (Sig == SIGTRAP && P.Agent.Installed && P.Agent.TrapHandler)
    return Sig;
  return 0;
}

/// Whether T's breakSignal() stop is one of our breakpoints faulting
/// rather than a signal that found rip on one. Only asked where that signal
/// is common: in 32-bit processes breakpoints raise SIGSEGV, which kill()
/// and real faults raise too; ours is the #GP of `hlt` (SI_KERNEL).
bool isBreakpointFault(const PtraceProcess &P, const Thread &T) {
  if (!P.FaultBreaks || P.breakSignal() != SIGSEGV)
    return true;
  siginfo_t Info{};
  return ptrace(PTRACE_GETSIGINFO, T.Tid, nullptr, &Info) == 0 &&
         Info.si_code == SI_KERNEL;
}

/// T stopped with the SIGTRAP of a trap site's int3 (JumpSites.h): sends
/// it where the agent's handler would have, the trampoline's call into the
/// agent, or back onto the site when the session ends (its original byte
/// goes back before the thread runs again). False when the SIGTRAP is not
/// one of ours.
bool takeTrapSite(PtraceProcess &P, Thread &T, bool Rewind) {
  siginfo_t Info{};
  user_regs_struct R;
  if (P.Agent.Sites.empty() ||
      ptrace(PTRACE_GETSIGINFO, T.Tid, nullptr, &Info) != 0 ||
      Info.si_code != SI_KERNEL ||
      ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
    return false;
  auto It = P.Agent.Sites.find(R.rip - 1);
  if (It == P.Agent.Sites.end() || !It->second.Trap)
    return false;
  R.rip =
      Rewind ? It->second.Addr : It->second.Trampoline + TSCC_TRAMPOLINE_CODE;
  return ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R) == 0;
}

/// T stopped at the int3 of the loader's in-process gate (placeLoaderGate).
bool atLoaderGate(const PtraceProcess &P, const Thread &T) {
  user_regs_struct R;
  return P.LoaderGate && ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) == 0 &&
         R.rip - 1 == P.LoaderGate;
}

/// T stopped with a SIGSEGV or SIGBUS of the agent's safe copy of memory
/// (a bad pointer in a clause): sends it where the agent's handler would
/// have, the copy's fault exit (it returns -1 and the clause counts a
/// fault), so the signal is not delivered. False when the fault is not in
/// a safe copy.
bool takeSafeReadFault(PtraceProcess &P, Thread &T, int Sig) {
  const AgentState &A = P.Agent;
  siginfo_t Info{};
  user_regs_struct R;
  if ((Sig != SIGSEGV && Sig != SIGBUS) || !A.Installed || !A.SafeFault ||
      ptrace(PTRACE_GETSIGINFO, T.Tid, nullptr, &Info) != 0 ||
      Info.si_code <= 0 || ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
    return false;
  if (R.rip < A.SafeBegin || R.rip >= A.SafeEnd)
    return false;
  R.rip = A.SafeFault;
  return ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R) == 0;
}

} // namespace

void PtraceBackend::Impl::handleStatus(pid_t Tid, int St) {
  auto It = ByTid.find(Tid);
  if (It == ByTid.end()) {
    // A new thread or child reporting before its parent's event.
    Orphans[Tid].push_back(St);
    return;
  }
  PtraceProcess &P = *It->second;
  if (WIFEXITED(St) || WIFSIGNALED(St)) {
    cost::Timer Cost(cost::Phase::Exit);
    int Code = WIFEXITED(St) ? WEXITSTATUS(St) : 0;
    int Sig = WIFSIGNALED(St) ? WTERMSIG(St) : 0;
    if (Tid == P.Pid) {
      // Children it forked while detached count in its shard: known
      // before it goes, they keep it (the session hands it over).
      if (P.Detached)
        findFollowed(true);
      finishProcess(P, Code, Sig);
      return;
    }
    P.Threads.erase(Tid);
    ByTid.erase(Tid);
    S.threadExited(P, Tid);
    return;
  }
  if (!WIFSTOPPED(St))
    return;
  auto TIt = P.Threads.find(Tid);
  if (TIt == P.Threads.end())
    return;
  handleStop(P, TIt->second, St);
}

void PtraceBackend::Impl::checkNewThreadTls(PtraceProcess &P, Thread &T) {
  T.CheckFs = false;
  user_regs_struct R;
  if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0 ||
      threadPointerOf(P, R) != T.CreatorFs)
    return;
  // Made without a TLS of its own, it has its creator's fs base: the agent
  // must tell the two apart by their ids, before the new one runs.
  std::string Why;
  if (!agentTellsThreadsById(P, Why))
    warnOnce("pid " + std::to_string(P.Pid) + ": " + Why);
}

void PtraceBackend::Impl::dispatchNewThread(PtraceProcess &P, Thread &T) {
  T.DispatchPending = false;
  std::string Why;
  if (dispatchThread(P, T.Tid, Why))
    return;
  // Its calls that no site catches would go unseen: it stops at them.
  P.UsesSyscallStops = true;
  warnOnce("pid " + std::to_string(P.Pid) + ": thread " +
           std::to_string(T.Tid) +
           " has no Syscall User Dispatch, the process stops at every "
           "system call (PTRACE_SYSCALL) from now on: " +
           Why);
}

void PtraceBackend::Impl::handleStop(PtraceProcess &P, Thread &T, int St) {
  int Sig = WSTOPSIG(St);
  unsigned Event = static_cast<unsigned>(St) >> 16;
  T.State = ThreadState::Stopped;
  cost::countStop(Event);
  switch (Event) {
  case PTRACE_EVENT_STOP:
    T.Interrupted = false;
    if (ShuttingDown)
      return; // stay stopped for cleanup
    if (!P.AwaitingExecOf.empty()) {
      execFailed(P, 0);
      return;
    }
    if (T.CheckFs)
      checkNewThreadTls(P, T);
    if (T.DispatchPending)
      dispatchNewThread(P, T);
    // A group-stop keeps the thread stopped (job control) until SIGCONT,
    // unless it is in a clause: then it finishes that first (its agent
    // stops it again right after), so that no other thread waits for it.
    if (isStopSignal(Sig)) {
      if (Agents && finishClauseBeforeStop(P, T.Tid, *Agents)) {
        resume(P, T);
        return;
      }
      ptrace(PTRACE_LISTEN, T.Tid, nullptr, nullptr);
      T.State = ThreadState::Running;
      return;
    }
    if (P.Agent.ShardPending && Agents) {
      // A fork child's first stop: its agent gets a shard of its own.
      cost::Timer Cost(cost::Phase::ChildStop);
      std::string Why;
      if (!finishChildAgent(P, T.Tid, *Agents, Why))
        warnOnce("pid " + std::to_string(P.Pid) + ": " + Why);
      else if (detachIfSettled(P, T, 0)) // --detach: it is set up
        return;
    }
    resume(P, T); // a new tracee's first stop, or an old interrupt
    return;
  case PTRACE_EVENT_CLONE:
  case PTRACE_EVENT_FORK:
  case PTRACE_EVENT_VFORK:
    onNewChild(P, T, Event);
    if (!ShuttingDown)
      resume(P, T);
    return;
  case PTRACE_EVENT_EXEC:
    onExec(P, T);
    return;
  case PTRACE_EVENT_VFORK_DONE:
    // The child has exec'ed or exited: the memory is the parent's again.
    for (auto &[Pid, C] : ByPid)
      if (C->VforkParent == P.Pid)
        leaveSharedMemory(*C);
    if (!ShuttingDown)
      resume(P, T);
    return;
  case PTRACE_EVENT_EXIT:
    // Before the thread's stack and TCB can be reused by another. It goes
    // on ending even while we shut down: nothing is left to restore in it,
    // and a command we killed must be reaped. The lock it may hold (it was
    // killed in a clause) is freed now, not when it is reaped: it is freed
    // before its joiners learn it is gone (the kernel wakes them later in
    // its exit), so no other thread's hit is given up on a dead owner.
    agentThreadEnding(P, T.Tid);
    S.threadEnding(P, T.Tid);
    T.State = ThreadState::Running;
    ptrace(PTRACE_CONT, T.Tid, nullptr, nullptr);
    return;
  case PTRACE_EVENT_SECCOMP:
    if (!ShuttingDown)
      onSeccomp(P, T);
    return;
  default:
    break;
  }
  if (Sig == SIGTRAP && !ShuttingDown && atLoaderGate(P, T))
    syncLinkMap(P, T.Tid); // attached again after a window: as at r_brk
  if (Sig == SIGTRAP && takeTrapSite(P, T, ShuttingDown)) {
    repairOwnSignal(P, T, SIGTRAP);
    if (!ShuttingDown)
      resume(P, T);
    return;
  }
  if (takeSafeReadFault(P, T, Sig)) {
    repairOwnSignal(P, T, Sig);
    if (!ShuttingDown)
      resume(P, T);
    return;
  }
  if (ShuttingDown) {
    if (Sig == P.breakSignal() || Sig == SIGSEGV) {
      // A breakpoint or return trampoline hit: rewind or complete it so the
      // thread carries on correctly once the original bytes are back.
      user_regs_struct R;
      if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) == 0) {
        uint64_t At = P.breakAt(R.rip);
        if (P.isReturnStop(Sig, R.rip)) {
          onReturn(P, T, R, /*Fire=*/false);
        } else if (Sig == P.breakSignal() && P.Breakpoints.count(At)) {
          R.rip = At;
          ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R);
        } else {
          T.PendingSignal = Sig;
        }
      }
    } else if (Sig != (SIGTRAP | 0x80)) {
      T.PendingSignal = Sig;
    }
    return;
  }
  if (Sig == (SIGTRAP | 0x80)) {
    if (!onWindowSyscall(P, T))
      onSyscallStop(P, T);
    return;
  }
  // Breakpoints trap; without a home page, returns fault (SIGSEGV).
  if ((Sig == P.breakSignal() || (Sig == SIGSEGV && !P.Home)) &&
      onTrap(P, T, Sig))
    return;
  // A signal-delivery-stop: pass the signal on. Before any exec stop of an
  // --exe execve() it, too, means that execve() failed (a signal stop
  // clears the interrupt that would have said so).
  if (!P.AwaitingExecOf.empty()) {
    execFailed(P, Sig);
    return;
  }
  if (Sig == SIGSYS && P.Agent.SudOn)
    rewindDispatchedCall(P, T.Tid);
  resume(P, T, Sig);
}

void PtraceBackend::Impl::repairOwnSignal(PtraceProcess &P, Thread &T,
                                          int Sig) {
  std::string Why;
  if (!repairForcedSignal(P, T.Tid, Sig, /*Reblock=*/true, Why))
    warnOnce("pid " + std::to_string(P.Pid) + ": thread " +
             std::to_string(T.Tid) + " blocks signal " + std::to_string(Sig) +
             ", which the kernel then reset to its default action; the "
             "agent's handler could not be put back: " +
             Why);
}

void PtraceBackend::Impl::repairOwnBreakSignal(PtraceProcess &P, Thread &T,
                                               int Sig) {
  const AgentState &A = P.Agent;
  bool AgentHandles =
      A.Installed &&
      (Sig == SIGTRAP ? A.TrapHandler
                      : Sig == SIGSEGV || Sig == SIGBUS || Sig == SIGFPE);
  if (AgentHandles)
    repairOwnSignal(P, T, Sig);
}

void PtraceBackend::Impl::resume(PtraceProcess &P, Thread &T, int Sig) {
  // The session failed before anything could be traced (no probe can
  // fire): a launched program must not run on for nothing while the
  // session ends; it stays stopped until it is killed.
  if (S.failed() && P.Launched && Opts.KillLaunchedOnStop)
    return;
  if (T.PendingSignal && !Sig) {
    Sig = T.PendingSignal;
  }
  T.PendingSignal = 0;
  auto Req = (P.UsesSyscallStops || T.InSyscallExitWait || T.ExecWindow)
                 ? PTRACE_SYSCALL
                 : PTRACE_CONT;
  T.State = ThreadState::Running;
  ptrace(Req, T.Tid, nullptr, reinterpret_cast<void *>(static_cast<long>(Sig)));
}

bool PtraceBackend::Impl::probeApplies(const PtraceProcess &P,
                                       uint32_t Probe) const {
  int64_t Want = S.probePid(Probe);
  return Want < 0 || Want == P.Pid;
}

void PtraceBackend::Impl::fireProbe(PtraceProcess &P, pid_t Tid, uint32_t Probe,
                                    const user_regs_struct &R,
                                    std::string_view Func,
                                    std::string_view Module, uint64_t SyscallNr,
                                    int32_t Err, const Hook *Usdt) {
  if (!probeApplies(P, Probe))
    return;
  FireEvent E;
  E.Tgt = &P;
  E.Tid = Tid;
  E.Probe = Probe;
  regsToTscc(R, E.Regs, P.dataModel());
  E.Errno = Err;
  E.SyscallNr = SyscallNr;
  E.Function = Func;
  E.Module = Module;
  if (Usdt && Usdt->Usdt && !fillUsdtArgs(E, *Usdt->Usdt, Usdt->Bias))
    warnOnce("pid " + std::to_string(P.Pid) +
             ": cannot read an argument of USDT probe " + Usdt->Usdt->Provider +
             ":" + Usdt->Usdt->Name + " (" + Usdt->Usdt->ArgText +
             "); it reads as 0");
  S.fire(E);
}

bool PtraceBackend::Impl::onTrap(PtraceProcess &P, Thread &T, int Sig) {
  user_regs_struct R;
  if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
    return false;
  // In an attached 32-bit process breakpoints raise SIGSEGV (hlt), which
  // a kill() or a real fault may raise with rip on one of ours too.
  if (P.isReturnStop(Sig, R.rip) && (!P.Home || isBreakpointFault(P, T))) {
    repairOwnBreakSignal(P, T, Sig);
    onReturn(P, T, R, /*Fire=*/true);
    return true;
  }
  if (Sig != P.breakSignal())
    return false; // a fault of the program's own
  uint64_t At = P.breakAt(R.rip);
  auto It = P.Breakpoints.find(At);
  if (It == P.Breakpoints.end())
    return false; // not ours: the program's own SIGTRAP or SIGILL
  if (!isBreakpointFault(P, T))
    return false; // a kill() or fault that came with rip on one of ours
  repairOwnBreakSignal(P, T, Sig);
  R.rip = At;
  if (It->second.Role == BpRole::LoaderBreak) {
    // --detach: once its startup libraries are in, let go of it.
    if (syncLinkMap(P, T.Tid) && detachIfSettled(P, T, At))
      return true;
    // New breakpoints may have rehashed the table.
    It = P.Breakpoints.find(At);
    if (It == P.Breakpoints.end())
      return false;
  }
  // Copy what we need: a clause may end the session, and firing must not
  // see a table that a later step changes.
  const Breakpoint &Bp = It->second;
  std::vector<Hook> Returning;
  for (const Hook &H : Bp.Hooks) {
    if (H.Kind == HookKind::WithinEnter) {
      S.withinEnter(P, T.Tid, H.Index);
      Returning.push_back(H);
    }
  }
  for (const Hook &H : Bp.Hooks) {
    if (H.Kind == HookKind::Entry)
      fireProbe(P, T.Tid, H.Index, R, H.Function, H.ModuleName, 0, 0, &H);
    // Collection off: the exit of this call is not collected either.
    else if (H.Kind == HookKind::Exit && probeApplies(P, H.Index) &&
             S.collecting())
      Returning.push_back(H);
    else if (H.watchesSigaction())
      if (int Sig = guardedSignal(P, R)) {
        Hook G = H;
        G.Index = static_cast<uint32_t>(Sig);
        Returning.push_back(G);
      }
  }
  if (!Returning.empty())
    hijackReturn(P, T, R, std::move(Returning));
  const Breakpoint &B = P.Breakpoints.find(At)->second;
  if (B.How == Resume::StepOver) {
    std::string Error;
    if (stepOver(P, T, B, R, Error) || !Error.empty()) {
      if (!Error.empty())
        warnOnce(Error);
      resume(P, T);
    }
    return true;
  }
  if (B.How == Resume::Emulate) {
    if (!emulateDisplaced(B, P, R)) {
      warnOnce("cannot emulate the instruction at " + P.symbolize(At) +
               "; the thread gets SIGSEGV");
      resume(P, T, SIGSEGV);
      return true;
    }
  } else {
    R.rip = B.Stub;
  }
  ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R);
  resume(P, T);
  return true;
}

/// Whether the hijacked return address at Slot is still there. A frame
/// deeper than the current one whose slot holds something else was
/// skipped (a longjmp, an exception) and its stack reused; one whose slot
/// still holds the trampoline may be another stack's (coroutines:
/// swapcontext, boost.context) and returns later. (The agent keeps the
/// same rules: Agent/returns.c.)
static bool holdsReturnTrampoline(PtraceProcess &P, uint64_t Slot) {
  bool Ok = false;
  uint64_t Now = P.readPointer(Slot, Ok);
  return Ok && Now == P.returnTrampoline();
}

void PtraceBackend::Impl::dropShadowFrame(PtraceProcess &P, Thread &T,
                                          size_t Index) {
  for (const Hook &H : T.Shadow[Index].Hooks)
    if (H.Kind == HookKind::WithinEnter)
      S.withinExit(P, T.Tid, H.Index);
  T.Shadow.erase(T.Shadow.begin() + static_cast<ptrdiff_t>(Index));
}

void PtraceBackend::Impl::dropDeadShadowFrames(PtraceProcess &P, Thread &T,
                                               uint64_t Slot) {
  while (!T.Shadow.empty() && T.Shadow.back().SlotAddr < Slot &&
         !holdsReturnTrampoline(P, T.Shadow.back().SlotAddr))
    dropShadowFrame(P, T, T.Shadow.size() - 1);
}

/// The newest frame of T at Slot among the Limit newest, or -1.
static ptrdiff_t findShadowFrame(const Thread &T, uint64_t Slot, size_t Limit) {
  const auto &Shadow = T.Shadow;
  for (size_t Above = 0; Above < Shadow.size() && Above < Limit; ++Above) {
    size_t I = Shadow.size() - 1 - Above;
    if (Shadow[I].SlotAddr == Slot)
      return static_cast<ptrdiff_t>(I);
  }
  return -1;
}

void PtraceBackend::Impl::hijackReturn(PtraceProcess &P, Thread &T,
                                       user_regs_struct &R,
                                       std::vector<Hook> Hooks) {
  bool Ok = false;
  uint64_t Slot = R.rsp;
  uint64_t Ret = P.readPointer(Slot, Ok);
  if (!Ok)
    return;
  uint64_t Tramp = P.returnTrampoline();
  dropDeadShadowFrames(P, T, Slot);
  // A frame at this slot is one whose return was missed, except a frame
  // whose slot already holds the trampoline: a tail call reusing its
  // caller's return slot. That frame stays and returns right after ours.
  for (ptrdiff_t Stale;
       Ret != Tramp && (Stale = findShadowFrame(T, Slot, 16)) >= 0;)
    dropShadowFrame(P, T, static_cast<size_t>(Stale));
  std::string Warning;
  bool Written = hijackSlot(P, Slot, Ret, Warning);
  if (!Warning.empty())
    warnOnce(Warning);
  if (!Written)
    return;
  T.Shadow.push_back(ShadowFrame{Slot, Ret, std::move(Hooks)});
}

void PtraceBackend::Impl::onReturn(PtraceProcess &P, Thread &T,
                                   user_regs_struct &R, bool Fire) {
  uint64_t Slot = R.rsp - P.pointerSize();
  auto &Shadow = T.Shadow;
  dropDeadShadowFrames(P, T, Slot);
  // Not the innermost hijacked return: another stack's frames are over it.
  ptrdiff_t At = findShadowFrame(T, Slot, 4096);
  if (At < 0) {
    // Returned through the trampoline with no record of where to: the
    // stack was corrupted. Nothing sane to continue with.
    warnOnce("thread " + std::to_string(T.Tid) +
             " returned through the exit-probe trampoline without a shadow "
             "frame; it gets SIGSEGV");
    if (Fire)
      resume(P, T, SIGSEGV);
    return;
  }
  if (static_cast<size_t>(At) + 1 != Shadow.size()) {
    ShadowFrame Mine = std::move(Shadow[static_cast<size_t>(At)]);
    Shadow.erase(Shadow.begin() + At);
    Shadow.push_back(std::move(Mine));
  }
  ShadowFrame F = std::move(Shadow.back());
  Shadow.pop_back();
  R.rip = F.ReturnAddr;
  if (Fire) {
    for (const Hook &H : F.Hooks)
      if (H.Kind == HookKind::Exit)
        fireProbe(P, T.Tid, H.Index, R, H.Function, H.ModuleName);
  }
  for (const Hook &H : F.Hooks) {
    if (H.Kind == HookKind::WithinEnter)
      S.withinExit(P, T.Tid, H.Index);
    // The program's handler is in place now (if the call worked): put the
    // healer back in front of it, chaining to it, and the agent in front
    // of both (in a 32-bit process both want SIGSEGV).
    uint64_t Rv = P.dataModel() == DataModel::LP64 ? R.rax : R.rax & 0xffffffff;
    if (H.watchesSigaction() && Fire && Rv == 0) {
      std::string Error;
      int Sig = static_cast<int>(H.Index);
      bool Ok = true;
      if (Sig == P.faultSignal() && P.Heal.Header)
        Ok = reinstallHealer(P, T.Tid, Error);
      if (Ok)
        Ok = reinstallAgentHandler(P, T.Tid, Sig, Error);
      if (!Ok)
        warnOnce("pid " + std::to_string(P.Pid) + ": " + Error);
    }
  }
  ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R);
  if (Fire)
    resume(P, T);
}

bool PtraceBackend::Impl::ownArchSyscall(PtraceProcess &P, uint32_t AuditArch) {
  uint32_t Own =
      P.dataModel() == DataModel::LP64 ? AUDIT_ARCH_X86_64 : AUDIT_ARCH_I386;
  if (AuditArch == Own)
    return true;
  // int $0x80 from 64-bit code: an i386 call of a 64-bit process, whose
  // arguments are not where the process's clause code looks for them.
  warnOnce("pid " + std::to_string(P.Pid) +
           " made system calls of another architecture (int $0x80 from 64-bit "
           "code); system-call probes do not fire for them");
  return false;
}

void PtraceBackend::Impl::onSeccomp(PtraceProcess &P, Thread &T) {
  user_regs_struct R;
  unsigned long Msg = 0;
  __ptrace_syscall_info Info{};
  if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0 ||
      ptrace(PTRACE_GETEVENTMSG, T.Tid, nullptr, &Msg) != 0 ||
      ptrace(PTRACE_GET_SYSCALL_INFO, T.Tid,
             reinterpret_cast<void *>(sizeof(Info)), &Info) <= 0) {
    resume(P, T);
    return;
  }
  uint64_t Nr = R.orig_rax;
  if (Msg != OurTraceData) {
    // The program's own filter asks for a tracer (SECCOMP_RET_TRACE), and
    // tsrun is not the one it means: without tsrun the call would fail
    // with ENOSYS, unexecuted, so it does (Sandbox.h).
    R.orig_rax = ~0ull;
    R.rax = static_cast<uint64_t>(-ENOSYS);
    ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R);
    R.orig_rax = Nr;
  }
  if (!ownArchSyscall(P, Info.arch)) {
    resume(P, T);
    return;
  }
  unsigned D = modelIndex(P.dataModel());
  std::string_view Name = syscallName(P.dataModel(), Nr);
  if (auto It = SysEntry[D].find(Nr); It != SysEntry[D].end())
    for (uint32_t Probe : It->second)
      fireProbe(P, T.Tid, Probe, R, Name, "", Nr);
  if (SysExit[D].count(Nr)) {
    T.InSyscallExitWait = true;
    T.SyscallNr = Nr;
    T.SyscallCollected = S.collecting();
  }
  resume(P, T);
}

void PtraceBackend::Impl::onSyscallStop(PtraceProcess &P, Thread &T) {
  __ptrace_syscall_info Info{};
  long N = ptrace(PTRACE_GET_SYSCALL_INFO, T.Tid,
                  reinterpret_cast<void *>(sizeof(Info)), &Info);
  user_regs_struct R;
  if (N <= 0 || ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0) {
    resume(P, T);
    return;
  }
  unsigned D = modelIndex(P.dataModel());
  if (Info.op == PTRACE_SYSCALL_INFO_ENTRY && !ownArchSyscall(P, Info.arch)) {
    T.SyscallNr = ~uint64_t(0); // neither its entry nor its exit fires
  } else if (Info.op == PTRACE_SYSCALL_INFO_ENTRY) {
    uint64_t Nr = Info.entry.nr;
    T.SyscallNr = Nr;
    T.SyscallCollected = S.collecting();
    std::string_view Name = syscallName(P.dataModel(), Nr);
    if (auto It = SysEntry[D].find(Nr); It != SysEntry[D].end())
      for (uint32_t Probe : It->second)
        fireProbe(P, T.Tid, Probe, R, Name, "", Nr);
  } else if (Info.op == PTRACE_SYSCALL_INFO_EXIT) {
    uint64_t Nr = T.SyscallNr;
    T.InSyscallExitWait = false;
    std::string_view Name = syscallName(P.dataModel(), Nr);
    int64_t Rv = P.dataModel() == DataModel::LP64 ? static_cast<int64_t>(R.rax)
                                                  : static_cast<int32_t>(R.rax);
    int32_t Err = Rv < 0 && Rv >= -4095 ? static_cast<int32_t>(-Rv) : 0;
    if (auto It = SysExit[D].find(Nr);
        It != SysExit[D].end() && T.SyscallCollected)
      for (uint32_t Probe : It->second)
        fireProbe(P, T.Tid, Probe, R, Name, "", Nr, Err);
    T.SyscallCollected = true;
  }
  resume(P, T);
}

pid_t tscc::rt::pt::tgidOf(pid_t Tid) {
  std::ifstream Status("/proc/" + std::to_string(Tid) + "/status");
  std::string Line;
  while (std::getline(Status, Line))
    if (Line.rfind("Tgid:", 0) == 0)
      return static_cast<pid_t>(std::strtol(Line.c_str() + 5, nullptr, 10));
  return 0;
}

void tscc::rt::pt::inheritTracing(PtraceProcess &C, const PtraceProcess &P,
                                  bool CopiesMemory) {
  C.DM = P.DM;
  for (const auto &M : P.Modules)
    C.Modules.push_back(std::make_unique<Module>(*M));
  C.Breakpoints = P.Breakpoints;
  C.Home = P.Home;
  C.HomeUsed = P.HomeUsed;
  C.Heal = P.Heal; // its memory holds a copy of the journal
  C.FaultBreaks = P.FaultBreaks;
  C.RDebug = P.RDebug;
  C.LoaderBreak = P.LoaderBreak;
  C.LoaderGate = P.LoaderGate;
  C.Installed = P.Installed;
  if (CopiesMemory)
    C.Semaphores = P.Semaphores;
  C.SeccompFilter = P.SeccompFilter;
  C.UsesSyscallStops = P.UsesSyscallStops;
  // Its filters are its parent's (fork copies them), and so is its path.
  C.NoInjection = P.NoInjection;
  C.PathName = P.PathName;
  C.SandboxSummary = P.SandboxSummary;
  C.AgentMayHeal = P.AgentMayHeal;
  C.Reaped = P.Reaped;
  C.Seccomp.setOwnFilter(P.Seccomp.ownFilter());
  C.Agent = P.Agent;
}

void PtraceBackend::Impl::onNewChild(PtraceProcess &P, Thread &T,
                                     unsigned Event) {
  cost::Timer Cost(cost::Phase::NewChild);
  unsigned long Msg = 0;
  if (ptrace(PTRACE_GETEVENTMSG, T.Tid, nullptr, &Msg) != 0 || !Msg)
    return;
  pid_t New = static_cast<pid_t>(Msg);
  if (ByTid.count(New))
    return;
  bool IsThread = Event == PTRACE_EVENT_CLONE && tgidOf(New) == P.Pid;
  PtraceProcess *Owner = &P;
  if (IsThread) {
    Thread &NT = P.Threads[New];
    NT.Tid = New;
    NT.State = ThreadState::NewPending;
    NT.DispatchPending = P.Agent.SudOn;
    ByTid[New] = &P;
    user_regs_struct R;
    if (P.Agent.Installed && ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) == 0) {
      NT.CheckFs = true;
      NT.CreatorFs = threadPointerOf(P, R);
    }
  } else {
    // A new process: a copy of the parent's address space, breakpoints,
    // scratch pages and all; the forking thread's hijacked returns too.
    All.push_back(std::make_unique<PtraceProcess>(New, P.Launched));
    PtraceProcess &C = *All.back();
    std::string Ignored;
    C.refreshIdentity(Ignored);
    // A forked child has a copy of the counters we incremented, to put back
    // when we detach from it; a vforked one shares the parent's.
    inheritTracing(C, P, /*CopiesMemory=*/Event != PTRACE_EVENT_VFORK);
    if (Event == PTRACE_EVENT_VFORK)
      C.VforkParent = P.Pid;
    std::string Why;
    if (P.Agent.Installed && Agents && sharesMemory(P, T, New, Event)) {
      // A vfork() child, or clone(CLONE_VM) without CLONE_THREAD: it uses
      // the parent's memory, agent included, as a process of its own.
      if (!shareAgent(P, C, *Agents, Why))
        warnOnce("pid " + std::to_string(New) + ": " + Why);
    } else if (Agents) {
      if (!rearmAgent(C, P, T.Tid, *Agents, Why))
        warnOnce("pid " + std::to_string(New) + ": " + Why);
    }
    Thread &NT = C.Threads[New];
    NT.Tid = New;
    NT.State = ThreadState::NewPending;
    NT.Shadow = T.Shadow;
    NT.DispatchPending = C.Agent.SudOn;
    ByPid[New] = &C;
    ByTid[New] = &C;
    Owner = &C;
    S.targetAttached(C, Event == PTRACE_EVENT_VFORK ? "vfork" : "fork");
  }
  // Its first stop may already have been reported.
  auto OIt = Orphans.find(New);
  if (OIt == Orphans.end())
    return;
  std::vector<int> Pending = std::move(OIt->second);
  Orphans.erase(OIt);
  for (int St : Pending) {
    if (!ByTid.count(New))
      break;
    handleStatus(New, St);
  }
  (void)Owner;
}

void PtraceBackend::Impl::fireExecExit(PtraceProcess &P,
                                       std::string_view ExecName) {
  // The number as the new image's data model knows the call.
  std::optional<uint32_t> Nr = syscallNumber(P.dataModel(), ExecName);
  unsigned D = modelIndex(P.dataModel());
  auto It = Nr ? SysExit[D].find(*Nr) : SysExit[D].end();
  user_regs_struct R;
  if (It == SysExit[D].end() || ptrace(PTRACE_GETREGS, P.Pid, nullptr, &R) != 0)
    return;
  R.rax = 0;
  for (uint32_t Probe : It->second)
    fireProbe(P, P.Pid, Probe, R, syscallName(P.dataModel(), *Nr), "", *Nr, 0);
}

void PtraceBackend::Impl::onExec(PtraceProcess &P, Thread &T) {
  cost::Timer Cost(cost::Phase::Exec);
  // The execve() that succeeded returns 0 in the new image. Its own
  // syscall-exit stop is lost to the setup below (which resumes the thread
  // to run injected code), so exit probes on it fire here, at the exec
  // stop, as strace shows `execve(...) = 0`.
  P.AwaitingExecOf.clear();
  bool ExecExitWanted = T.InSyscallExitWait;
  std::string_view ExecName = syscallName(P.dataModel(), T.SyscallNr);
  // Every other thread is gone; the execing thread now has tid == pid.
  for (auto It = P.Threads.begin(); It != P.Threads.end();) {
    if (It->first != P.Pid) {
      ByTid.erase(It->first);
      S.threadExited(P, It->first);
      It = P.Threads.erase(It);
    } else {
      ++It;
    }
  }
  Thread &Leader = P.Threads[P.Pid];
  Leader.Tid = P.Pid;
  Leader.State = ThreadState::Stopped;
  Leader.Shadow.clear();
  Leader.InSyscallExitWait = false;
  ByTid[P.Pid] = &P;
  if (P.WindowTid)
    execSeenInWindow(P, Leader);
  // The old image's breakpoints, modules and scratch pages are gone with
  // it; resolve everything again in the new one.
  leaveSharedMemory(P);
  P.Agent = AgentState{};
  P.SyscallsReported = false;
  P.Modules.clear();
  P.Breakpoints.clear();
  P.Installed.clear();
  P.Semaphores.clear(); // the old image is gone, and its counters with it
  P.Home = 0;
  P.Heal = HealState{};
  P.RDebug = 0;
  P.LoaderBreak = 0;
  P.LoaderGate = 0;
  // Its seccomp filters survive exec; its path is chosen again from them.
  P.Seccomp.forgetAll();
  P.NoInjection.clear();
  P.AgentMayHeal = true;
  if (ShuttingDown)
    return; // nothing to remove in the new image; stay stopped
  std::string Error;
  P.FreshImage = true;
  bool SetUp = setupImage(P, P.Pid, Error);
  P.FreshImage = false;
  if (!SetUp)
    warnOnce("pid " + std::to_string(P.Pid) + " after exec: " + Error);
  else
    S.targetAttached(P, "exec");
  if (ExecExitWanted)
    fireExecExit(P, ExecName);
  // --detach: a program without a loader is set up now.
  if (!P.LoaderBreak && detachIfSettled(P, Leader, 0))
    return;
  resume(P, Leader);
  (void)T;
}
