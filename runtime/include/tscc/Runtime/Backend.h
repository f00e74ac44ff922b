//===- tscc/Runtime/Backend.h - A way of reaching processes ----------------===//
//
// tsrun creates one Backend per kind of target (one PtraceBackend for all
// launched and attached native processes, one RemoteBackend per --remote
// stub) and runs each on its own thread. All of a backend's OS or protocol
// calls happen on that thread (ptrace requires it).
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_BACKEND_H
#define TSCC_RUNTIME_BACKEND_H

#include <string>

namespace tscc::rt {

class Session;

class Backend {
public:
  virtual ~Backend() = default;

  /// Launches or attaches to this backend's processes and installs every
  /// probe of the session's program that applies to them. Called on the
  /// backend's own thread; returns false with a message on failure.
  virtual bool start(std::string &Error) = 0;

  /// The event loop: delivers FireEvents to the session until every target
  /// of this backend is gone or Session::stopRequested(). Before returning it
  /// removes every patched instruction and detaches (attached processes) or
  /// handles launched ones as documented in docs/runtime.md.
  virtual void run() = 0;

  /// Thread-safe and async-signal-safe: asks run() to clean up and return
  /// promptly (Ctrl-C, SIGTERM, exit()).
  virtual void interrupt() = 0;
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_BACKEND_H
