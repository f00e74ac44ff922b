//===- Shutdown.cpp - Leaving every process as we found it ----------------===//
//
// On Ctrl-C, SIGTERM, exit() or when the session ends otherwise, every
// thread of every live process is stopped, then per process:
//   - every breakpoint gets its original byte back;
//   - every hijacked return address on every thread's stack is restored;
//   - a thread stopped inside an out-of-line stub is moved back to the
//     matching place in the original code;
// then every in-process agent is taken out (AgentRemoval.cpp), all
// processes' together, and only then is each process detached (attached
// processes, and launched ones when asked to) or killed (launched commands
// by default). The scratch pages stay mapped but nothing refers to them
// any more. An attached process also gets its SIGILL disposition back and
// loses its healer's journal.
//
//===----------------------------------------------------------------------===//
#include "../InProcess/Installer/Agent.h"
#include "../InProcess/Installer/AgentExit.h"
#include "../InProcess/Installer/Healer.h"
#include "BackendImpl.h"
#include "Displaced.h"

#include "tscc/Runtime/Session.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <linux/kcmp.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

constexpr int WaitFlags = __WALL | __WNOTHREAD;

/// Moves a thread that is inside an out-of-line stub back into the
/// original code, at the equivalent point.
void leaveStub(PtraceProcess &P, Thread &T) {
  user_regs_struct R;
  if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
    return;
  for (const auto &[Addr, Bp] : P.Breakpoints) {
    if (Bp.How != Resume::OutOfLine || !Bp.Stub)
      continue;
    if (R.rip == Bp.Stub) {
      R.rip = Bp.Addr; // about to run the copy: run the original instead
    } else if (Bp.StubResume && R.rip == Bp.StubResume) {
      R.rip = Bp.Addr + Bp.Insn.Length; // ran it: continue after it
    } else {
      continue;
    }
    ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R);
    return;
  }
}

void restoreReturns(PtraceProcess &P, Thread &T) {
  uint64_t Tramp = P.returnTrampoline();
  for (auto It = T.Shadow.rbegin(); It != T.Shadow.rend(); ++It) {
    bool Ok = false;
    uint64_t Cur = P.readPointer(It->SlotAddr, Ok);
    if (Ok && Cur == Tramp)
      P.writeMemory(It->SlotAddr, &It->ReturnAddr, P.pointerSize());
  }
  T.Shadow.clear();
}

/// Waits for the stop of Tid, which was just resumed and should stop at
/// once; interrupts it if it has not within a second.
bool waitBriefly(pid_t Tid, int &St) {
  for (unsigned Polls = 0; Polls < 1000; ++Polls) {
    pid_t W = waitpid(Tid, &St, WaitFlags | WNOHANG);
    if (W == Tid)
      return true;
    if (W < 0 && errno != EINTR)
      return false;
    usleep(1000);
  }
  ptrace(PTRACE_INTERRUPT, Tid, nullptr, nullptr);
  for (;;) {
    pid_t W = waitpid(Tid, &St, WaitFlags);
    if (W == Tid)
      return true;
    if (W < 0 && errno != EINTR)
      return false;
  }
}

} // namespace

/// A thread stopped right after a `ret` took it to the exit-probe
/// trampoline, before it trapped there, would trap after the detach: it
/// gets its real return address now, as if it had trapped.
void PtraceBackend::Impl::finishReturn(PtraceProcess &P, Thread &T) {
  user_regs_struct R;
  if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) == 0 &&
      R.rip == P.returnTrampoline())
    onReturn(P, T, R, /*Fire=*/false);
}

/// A thread that took a breakpoint's trap (int3) or fault (0x06) just as
/// PTRACE_INTERRUPT stopped it reports the interrupt first, and keeps the
/// SIGTRAP or SIGILL queued: detached like that, it would get the signal
/// and die of it once the breakpoint's byte is back (and the healer gone).
/// Resumed, it reports the signal before running any code, and handleStop
/// rewinds it to the breakpoint.
void PtraceBackend::Impl::collectQueuedBreak(pid_t Pid, pid_t Tid) {
  for (unsigned N = 0; N < 4; ++N) {
    auto PIt = ByPid.find(Pid);
    if (PIt == ByPid.end())
      return;
    PtraceProcess &P = *PIt->second;
    auto It = P.Threads.find(Tid);
    // SIGTRAP too: the int3 padding of a jump-patched site.
    if (It == P.Threads.end() || It->second.PendingSignal ||
        !(signalQueued(Tid, P.breakSignal()) || signalQueued(Tid, SIGTRAP)))
      return;
    if (ptrace(PTRACE_CONT, Tid, nullptr, nullptr) != 0)
      return;
    It->second.State = ThreadState::Running;
    int St = 0;
    if (!waitBriefly(Tid, St))
      return;
    handleStatus(Tid, St);
  }
}

/// A launched command is killed at the end unless --keep-launched; one with
/// our seccomp filter always is (its traced system calls would fail).
bool PtraceBackend::Impl::willKill(const PtraceProcess &P) const {
  return P.Launched && (Opts.KillLaunchedOnStop || P.SeccompFilter);
}

/// Every thread that runs in P's memory: P's own, and those of a vfork
/// child that borrows it.
std::vector<Thread *> PtraceBackend::Impl::threadsInMemoryOf(PtraceProcess &P) {
  std::vector<Thread *> Out;
  for (auto &[Tid, T] : P.Threads)
    Out.push_back(&T);
  for (auto &[Pid, C] : ByPid)
    if (C->VforkParent == P.Pid)
      for (auto &[Tid, T] : C->Threads)
        Out.push_back(&T);
  return Out;
}

/// Whether a process of Live after P, which is detached after it, uses
/// P's memory (vfork, clone(CLONE_VM)).
bool PtraceBackend::Impl::sharedWithLater(
    const PtraceProcess &P, const std::vector<PtraceProcess *> &Live) const {
  auto It = std::find(Live.begin(), Live.end(), &P);
  if (It == Live.end())
    return false;
  for (++It; It != Live.end(); ++It)
    if (!willKill(**It) && !(*It)->Threads.empty() &&
        syscall(SYS_kcmp, P.Pid, (*It)->Pid, KCMP_VM, 0, 0) == 0)
      return true;
  return false;
}

void PtraceBackend::Impl::shutdown() {
  ShuttingDown = true;
  // Detached processes are attached again first (Detach.cpp).
  reattachDetached();
  // Agents start no new clause from now on: their processes are about to
  // be stopped, detached or killed.
  for (auto &[Pid, P] : ByPid)
    disarmAgent(*P);
  // 1. Stop every running thread, and wait until all of them are stopped.
  //    New threads and children can appear while we do; they are stopped
  //    too (they start in a ptrace stop).
  handleDeferred();
  for (;;) {
    bool Waiting = false;
    for (auto &[Pid, P] : ByPid)
      for (auto &[Tid, T] : P->Threads) {
        if (T.State == ThreadState::Running && !T.Interrupted) {
          if (ptrace(PTRACE_INTERRUPT, Tid, nullptr, nullptr) == 0)
            T.Interrupted = true;
        }
        if (T.State != ThreadState::Stopped)
          Waiting = true;
      }
    if (!Waiting)
      break;
    int St = 0;
    pid_t Tid = waitpid(-1, &St, WaitFlags);
    if (Tid < 0) {
      if (errno == EINTR)
        continue;
      break; // ECHILD: nothing left
    }
    if (Tid == WakerPid.load()) {
      WakerPid.store(0);
      continue;
    }
    handleStatus(Tid, St);
  }
  // A thread whose trap at a breakpoint was overtaken by our interrupt
  // still has the signal queued: collect it now, as the stop it is. (A
  // process may exit meanwhile, and be freed: by ids, not pointers.)
  std::vector<std::pair<pid_t, pid_t>> Tids;
  for (auto &[Pid, P] : ByPid)
    for (auto &[Tid, T] : P->Threads)
      Tids.push_back({Pid, Tid});
  for (auto [Pid, Tid] : Tids)
    collectQueuedBreak(Pid, Tid);
  std::vector<PtraceProcess *> Live;
  std::vector<pid_t> ToReap;
  for (auto &[Pid, P] : ByPid)
    Live.push_back(P);
  // 2. Put back what the ptrace path changed in each process.
  for (PtraceProcess *P : Live) {
    for (auto &[Tid, T] : P->Threads) {
      finishReturn(*P, T);
      restoreReturns(*P, T);
      if (P->Home)
        leaveStub(*P, T);
    }
    for (const auto &[Addr, Bp] : P->Breakpoints)
      P->writeMemory(Addr, Bp.Orig, 1);
    P->Breakpoints.clear();
    for (uint64_t Sem : P->Semaphores)
      adjustUsdtSemaphore(Sem, -1, semaphoreReader(*P), semaphoreWriter(*P));
    P->Semaphores.clear();
  }
  // 3. Take the in-process agents out, every process's at once: a thread
  //    inside one process's agent may be waiting for the session lock that
  //    a thread of another holds, and must be let go on together with it.
  //    Processes about to be killed take part too, for that reason.
  std::vector<AgentTakedown> Takedowns;
  for (PtraceProcess *P : Live)
    if (P->Agent.Installed && !P->Threads.empty())
      Takedowns.push_back(beginAgentRemoval(*P, threadsInMemoryOf(*P)));
  bringOutOfAgents(Takedowns);
  // 4. Finish those that live on, before any thread is let go: a vfork
  //    child runs in its parent's memory.
  for (AgentTakedown &D : Takedowns) {
    PtraceProcess *P = D.P;
    if (willKill(*P))
      continue;
    AgentRemoval R = finishAgentRemoval(D);
    S.note("pid " + std::to_string(P->Pid) + ": agent removed: " +
           std::to_string(R.SitesRestored) + " sites and " +
           std::to_string(R.ReturnsRestored) + " return addresses restored" +
           (R.Unmapped ? ", its memory unmapped"
                       : ", its memory left mapped (" + R.KeptBecause + ")"));
  }
  // 5. Detach or kill each process.
  for (PtraceProcess *P : Live) {
    if (willKill(*P)) {
      kill(P->Pid, SIGKILL);
      ToReap.push_back(P->Pid);
      continue;
    }
    // Every byte is back: give SIGILL back to whatever the process had.
    if (!P->Threads.empty())
      if (std::string Kept = uninstallHealer(*P, P->Threads.begin()->first,
                                             sharedWithLater(*P, Live));
          !Kept.empty())
        S.note("pid " + std::to_string(P->Pid) + ": " + Kept);
    for (auto &[Tid, T] : P->Threads)
      ptrace(PTRACE_DETACH, Tid, nullptr,
             reinterpret_cast<void *>(static_cast<long>(T.PendingSignal)));
    for (auto &[Tid, T] : P->Threads)
      ByTid.erase(Tid);
    P->Threads.clear();
    ByPid.erase(P->Pid);
  }
  // 6. Reap killed commands so their end is reported like any other exit.
  //    Every thread's exit must be collected before the leader's.
  auto AnyLeft = [&] {
    for (pid_t Pid : ToReap)
      if (ByPid.count(Pid))
        return true;
    return false;
  };
  while (AnyLeft()) {
    int St = 0;
    pid_t Tid = waitpid(-1, &St, WaitFlags);
    if (Tid < 0) {
      if (errno == EINTR)
        continue;
      break;
    }
    if (Tid == WakerPid.load()) {
      WakerPid.store(0);
      continue;
    }
    handleStatus(Tid, St);
  }
  for (pid_t Pid : ToReap)
    if (auto It = ByPid.find(Pid); It != ByPid.end())
      finishProcess(*It->second, 0, SIGKILL);
  Orphans.clear();
}
