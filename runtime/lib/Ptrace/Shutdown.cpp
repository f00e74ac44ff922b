//===- Shutdown.cpp - Leaving every process as we found it ----------------===//
//
// On Ctrl-C, SIGTERM, exit() or when the session ends otherwise, every
// thread of every live process is stopped, then per process:
//   - every breakpoint gets its original byte back;
//   - every hijacked return address on every thread's stack is restored;
//   - a thread stopped inside an out-of-line stub is moved back to the
//     matching place in the original code;
// and only then is it detached (attached processes, and launched ones when
// asked to) or killed (launched commands by default). The scratch pages
// stay mapped but nothing refers to them any more. An attached process
// also gets its SIGILL disposition back and loses its healer's journal,
// and a process with an in-process agent loses the agent (Agent.h).
//
//===----------------------------------------------------------------------===//
#include "Agent.h"
#include "BackendImpl.h"
#include "Displaced.h"
#include "Healer.h"

#include "tscc/Runtime/Session.h"

#include <cerrno>
#include <csignal>
#include <sys/ptrace.h>
#include <sys/wait.h>

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

} // namespace

void PtraceBackend::Impl::shutdown() {
  ShuttingDown = true;
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
  // 2. Restore and release each process.
  std::vector<PtraceProcess *> Live;
  std::vector<pid_t> ToReap;
  for (auto &[Pid, P] : ByPid)
    Live.push_back(P);
  for (PtraceProcess *P : Live) {
    for (auto &[Tid, T] : P->Threads) {
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
    bool Kill = P->Launched && (Opts.KillLaunchedOnStop || P->SeccompFilter);
    if (!Kill && P->Agent.Installed && !P->Threads.empty()) {
      AgentRemoval R = removeAgent(*P, P->Threads.begin()->first);
      S.note("pid " + std::to_string(P->Pid) + ": agent removed: " +
             std::to_string(R.SitesRestored) + " sites and " +
             std::to_string(R.ReturnsRestored) + " return addresses restored" +
             (R.Unmapped ? ", its memory unmapped"
                         : ", its memory left mapped (" + R.KeptBecause + ")"));
    }
    if (Kill) {
      kill(P->Pid, SIGKILL);
      ToReap.push_back(P->Pid);
      continue;
    }
    // Every byte is back: give SIGILL back to whatever the process had.
    if (!P->Threads.empty())
      if (std::string Kept = uninstallHealer(*P, P->Threads.begin()->first);
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
  // 3. Reap killed commands so their end is reported like any other exit.
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
