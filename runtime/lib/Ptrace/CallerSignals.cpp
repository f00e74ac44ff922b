//===- CallerSignals.cpp - What launched commands inherit -----------------===//
#include "tscc/Runtime/CallerSignals.h"

#include <mutex>

using namespace tscc::rt;

namespace {
CallerSignals Recorded;
std::once_flag RecordOnce;

void record() {
  sigemptyset(&Recorded.Ignored);
  pthread_sigmask(SIG_SETMASK, nullptr, &Recorded.Mask);
  for (int Sig = 1; Sig < NSIG; ++Sig) {
    struct sigaction Old{};
    if (sigaction(Sig, nullptr, &Old) == 0 && Old.sa_handler == SIG_IGN &&
        !(Old.sa_flags & SA_SIGINFO))
      sigaddset(&Recorded.Ignored, Sig);
  }
}
} // namespace

void tscc::rt::rememberCallerSignals() { std::call_once(RecordOnce, record); }

const CallerSignals &tscc::rt::callerSignals() {
  rememberCallerSignals();
  return Recorded;
}

void tscc::rt::restoreCallerSignals(const CallerSignals &C) {
  struct sigaction Default{};
  Default.sa_handler = SIG_DFL;
  sigemptyset(&Default.sa_mask);
  struct sigaction Ignore = Default;
  Ignore.sa_handler = SIG_IGN;
  for (int Sig = 1; Sig < NSIG; ++Sig) {
    if (Sig == SIGKILL || Sig == SIGSTOP)
      continue;
    // EINVAL for the signals glibc reserves for itself; nothing to do.
    sigaction(Sig, sigismember(&C.Ignored, Sig) ? &Ignore : &Default, nullptr);
  }
  sigprocmask(SIG_SETMASK, &C.Mask, nullptr);
}
