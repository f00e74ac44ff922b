//===- StepOver.cpp - Breakpoints in a process tsrun cannot map memory in -===//
//
// A breakpoint's displaced instruction usually runs from an out-of-line
// copy in a scratch page (Displaced.h). A process whose sandbox forbids
// every way for tsrun to map one (PathPlan.h) gets no scratch page, so its
// instruction is run where it is, the way debuggers step over breakpoints:
//   1. every other thread of the process is stopped (PTRACE_INTERRUPT), so
//      that none runs past the site unseen while its byte is back;
//   2. the original byte goes back, and the thread single-steps the
//      instruction (signals that arrive meanwhile are kept and delivered
//      after; a fault of the instruction itself is delivered as it is);
//   3. the breakpoint goes back, and the stopped threads go on.
// Nothing of this needs a system call in the process, so no seccomp filter
// can forbid it. A hit costs one stop more than usual, and stopping every
// other thread of a multi-threaded process; news from those threads that
// arrives meanwhile is kept for the event loop (Deferred).
//
//===----------------------------------------------------------------------===//
#include "BackendImpl.h"

#include <cerrno>
#include <csignal>
#include <sys/ptrace.h>
#include <sys/wait.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

constexpr unsigned MaxStepTries = 64;

bool isStopSignal(int Sig) {
  return Sig == SIGSTOP || Sig == SIGTSTP || Sig == SIGTTIN || Sig == SIGTTOU;
}

bool isFault(int Sig) {
  return Sig == SIGSEGV || Sig == SIGBUS || Sig == SIGFPE || Sig == SIGILL;
}

pid_t waitThread(pid_t Tid, int &St) {
  for (;;) {
    pid_t R = waitpid(Tid, &St, __WALL);
    if (R >= 0 || errno != EINTR)
      return R;
  }
}

} // namespace

std::vector<pid_t> PtraceBackend::Impl::pauseOthers(PtraceProcess &P,
                                                    pid_t Except) {
  std::vector<pid_t> Asked, Paused;
  for (auto &[Tid, T] : P.Threads) {
    // Stopped ones, new ones not yet started, and those whose news is
    // already waiting in Deferred run no code.
    if (Tid == Except || T.State != ThreadState::Running ||
        std::any_of(Deferred.begin(), Deferred.end(),
                    [Tid](const auto &D) { return D.first == Tid; }))
      continue;
    if (!T.Interrupted && ptrace(PTRACE_INTERRUPT, Tid, nullptr, nullptr) != 0)
      continue; // gone
    T.Interrupted = true;
    Asked.push_back(Tid);
  }
  for (pid_t Tid : Asked) {
    int St = 0;
    if (waitThread(Tid, St) != Tid)
      continue;
    Thread &T = P.Threads[Tid];
    unsigned Event = static_cast<unsigned>(St) >> 16;
    if (WIFSTOPPED(St) && Event == PTRACE_EVENT_STOP &&
        !isStopSignal(WSTOPSIG(St))) {
      T.Interrupted = false;
      T.State = ThreadState::Stopped;
      Paused.push_back(Tid);
      continue;
    }
    // Something else stopped it first (a hit, a signal, an exit): that is
    // for the event loop; our interrupt comes after it and is resumed there.
    Deferred.push_back({Tid, St});
  }
  return Paused;
}

PtraceBackend::Impl::StepResult
PtraceBackend::Impl::stepInPlace(PtraceProcess &P, Thread &T, uint64_t At,
                                 std::vector<int> &Later) {
  for (unsigned Try = 0; Try < MaxStepTries; ++Try) {
    int St = 0;
    if (ptrace(PTRACE_SINGLESTEP, T.Tid, nullptr, nullptr) != 0 ||
        waitThread(T.Tid, St) != T.Tid)
      return StepResult::Failed;
    if (WIFEXITED(St) || WIFSIGNALED(St)) {
      Deferred.push_back({T.Tid, St}); // the event loop reports the end
      return StepResult::Gone;
    }
    unsigned Event = static_cast<unsigned>(St) >> 16;
    int Sig = WSTOPSIG(St);
    if (Event != 0)
      continue; // an interrupt or event stop before the step: step again
    siginfo_t Info{};
    ptrace(PTRACE_GETSIGINFO, T.Tid, nullptr, &Info);
    if (Sig == SIGTRAP && Info.si_code > 0)
      return StepResult::Stepped; // the step's own trap
    // A signal came first: kept for later, and the step is tried again;
    // unless the instruction itself faulted, which is the program's.
    if (!T.PendingSignal)
      T.PendingSignal = Sig;
    else
      Later.push_back(Sig);
    user_regs_struct Now;
    if (isFault(Sig) && Info.si_code > 0 &&
        ptrace(PTRACE_GETREGS, T.Tid, nullptr, &Now) == 0 && Now.rip == At)
      return StepResult::Stepped;
  }
  return StepResult::Failed;
}

bool PtraceBackend::Impl::stepOver(PtraceProcess &P, Thread &T,
                                   const Breakpoint &Bp, user_regs_struct &R,
                                   std::string &Error) {
  std::vector<pid_t> Paused = pauseOthers(P, T.Tid);
  std::vector<int> Later; // signals beyond the one PendingSignal holds
  R.rip = Bp.Addr;
  StepResult Res = StepResult::Failed;
  if (P.writeMemory(Bp.Addr, Bp.Orig, 1) &&
      ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R) == 0)
    Res = stepInPlace(P, T, Bp.Addr, Later);
  if (Res != StepResult::Gone) {
    uint8_t Break = P.breakOpcode();
    P.writeMemory(Bp.Addr, &Break, 1);
    if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
      Res = StepResult::Failed;
  }
  for (pid_t Tid : Paused)
    if (auto It = P.Threads.find(Tid); It != P.Threads.end())
      resume(P, It->second);
  // Signals beyond the first come again, in order, once it runs on.
  for (int Sig : Later)
    tgkill(P.Pid, T.Tid, Sig);
  if (Res == StepResult::Failed)
    Error = "cannot step over the instruction at " + P.symbolize(Bp.Addr);
  return Res == StepResult::Stepped;
}
