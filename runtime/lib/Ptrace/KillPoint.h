//===- KillPoint.h - SIGKILL tsrun at a chosen moment (tests) --*- C++ -*-===//
//
// A SIGKILL of tsrun must never break a process it has let go of
// (--detach), even one it has attached again for a short window. Such a
// moment cannot be chosen from outside: a window lasts microseconds. With
// TSCC_TEST_SIGKILL_AT=POINT:N in its environment, tsrun sends itself
// SIGKILL the Nth time it reaches POINT, exactly as a kill from outside
// would end it there (test/Ptrace/window-sigkill.t). The points:
//
//   link-window, exec-window  just attached for a library or exec window
//   exec-stop                 the exec of a window seen, before the new
//                             image is set up
//   WINDOW-inject-set         an injected system call's registers set,
//   WINDOW-inject-entry       ...at its system-call entry,
//   WINDOW-inject-exit        ...at its exit, before its registers are
//                             put back (WINDOW: link or exec; calls
//                             injected outside a window do not count)
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_KILLPOINT_H
#define TSCC_RUNTIME_PTRACE_KILLPOINT_H

namespace tscc::rt::pt::killpoint {

/// The window tsrun works in now, which names the injection points.
enum class Window { None, Link, Exec };
void setWindow(Window W);

/// Ends tsrun with SIGKILL if TSCC_TEST_SIGKILL_AT names Point and this is
/// its Nth time.
void reached(const char *Point);

/// The same for an injection point, STAGE being set, entry or exit.
void injection(const char *Stage);

} // namespace tscc::rt::pt::killpoint

#endif // TSCC_RUNTIME_PTRACE_KILLPOINT_H
