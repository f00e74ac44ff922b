//===- tscc/Runtime/CallerSignals.h - What launched commands inherit ------===//
//
// A command tsrun launches must start as it would without tsrun: with the
// signal mask and the ignored signals of tsrun's caller, not with tsrun's
// own (tsrun ignores SIGPIPE to report a closed output as an error; a
// launched `yes | head -1` must still die quietly of SIGPIPE). The driver
// records the caller's state before it changes anything; the child restores
// it between fork and exec.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_CALLERSIGNALS_H
#define TSCC_RUNTIME_CALLERSIGNALS_H

#include <csignal>

namespace tscc::rt {

struct CallerSignals {
  sigset_t Mask;
  sigset_t Ignored; ///< signals whose disposition was SIG_IGN
};

/// Records the calling thread's mask and the process's ignored signals.
/// Call once, first thing in main(); later calls do nothing.
void rememberCallerSignals();

/// What rememberCallerSignals() recorded (recorded now if it never ran).
const CallerSignals &callerSignals();

/// In a forked child, before exec: every signal back to its default
/// disposition except those the caller ignored, and the caller's mask.
/// Async-signal-safe.
void restoreCallerSignals(const CallerSignals &C);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_CALLERSIGNALS_H
