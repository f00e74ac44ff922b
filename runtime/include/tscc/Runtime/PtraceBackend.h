//===- tscc/Runtime/PtraceBackend.h - Native x86-64 processes via ptrace --===//
//
// One PtraceBackend serves every native process of a session: commands it
// launches and processes it attaches to, plus every thread, fork/vfork/clone
// child and exec image they produce. All ptrace calls happen on the thread
// that calls start() and run().
//
// Probes are int3 breakpoints in a monitor table (address -> probes). The
// displaced instruction is executed out of line from a scratch page mapped
// into the target, or emulated, so a hit costs one ptrace stop and other
// threads never run over a restored original byte. See docs/runtime.md,
// "Native processes (ptrace)".
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACEBACKEND_H
#define TSCC_RUNTIME_PTRACEBACKEND_H

#include "tscc/Runtime/Backend.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tscc::rt {

class Session;

struct PtraceOptions {
  /// Commands to launch (`-c "cmd args"` is split by the caller, trailing
  /// `-- cmd args`): argv vectors, each run with the caller's environment.
  std::vector<std::vector<std::string>> Commands;
  /// Processes to attach to (`-p PID`), with all their threads.
  std::vector<int64_t> Pids;
  /// `--exe PATH`: every process whose executable or a mapped library is
  /// one of these files, running now or started later (ExeWatch.h). The
  /// backend then runs until the session ends, not when its last process
  /// does.
  std::vector<std::string> Executables;
  /// What happens to launched commands when the session ends before they
  /// do (Ctrl-C, exit()): true kills them (SIGKILL), false detaches them
  /// with every probe removed and lets them run on. Attached processes are
  /// always detached.
  bool KillLaunchedOnStop = true;
  /// How long the event loop may poll for the next stop before it sleeps,
  /// in microseconds; 0 never polls. Polling starts only while stops
  /// arrive within this time of each other (docs/runtime.md, *Waiting for
  /// hits*).
  unsigned SpinMicros = 50;
  /// Run the clauses of native 64-bit processes inside them (the agent;
  /// docs/runtime.md), where a site allows it. False: every hit is a
  /// ptrace stop and the clause runs in tsrun (--ptrace).
  bool InProcess = true;
  /// Let go of a process (no ptrace attachment) once it is set up with
  /// every site running in the process, and attach again only to end the
  /// session (tsrun's default, docs/runtime.md, *Detached processes*).
  /// False: stay attached to every traced process until the end
  /// (--no-detach).
  bool Detach = false;
  /// Attached native 64-bit processes with system-call probes: catch the
  /// calls no patched site catches with Syscall User Dispatch and the
  /// agent's SIGSYS handler, instead of PTRACE_SYSCALL
  /// (--syscall-dispatch; docs/runtime.md, *System calls inside the
  /// process*). Experimental: off by default.
  bool SyscallDispatch = false;
};

class PtraceBackend final : public Backend {
public:
  PtraceBackend(Session &S, PtraceOptions Opts);
  ~PtraceBackend() override;

  bool start(std::string &Error) override;
  void run() override;
  void interrupt() override;

  /// Whether this backend has anything to do (any command or pid).
  bool empty() const;

  class Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_PTRACEBACKEND_H
