//===- Adopt.cpp - Processes found by --exe -------------------------------===//
//
// The watcher (ExeWatch.h) finds processes; this backend's thread, the only
// one that may ptrace, takes them on: a thread about to exec the file is
// seized before its execve() goes on, so its new image is set up at the
// exec stop like a launched command's (onExec) and traced from its first
// instruction; a process that maps the file is attached like `-p PID`.
//
//===----------------------------------------------------------------------===//
#include "BackendImpl.h"

#include "tscc/Runtime/Session.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/ptrace.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

bool PtraceBackend::Impl::startWatching(std::string &Error) {
  Watch = std::make_unique<ExeWatch>([this] {
    if (pid_t W = WakerPid.load(); W > 0)
      kill(W, SIGKILL);
  });
  for (const std::string &Path : Opts.Executables)
    if (!Watch->add(Path, Error))
      return false;
  // New ones first: a process that starts while the running ones are
  // being attached is not missed.
  std::string How;
  Watch->start(How);
  if (How != "fanotify")
    S.warn("--exe: " + How);
  size_t Running = 0;
  for (pid_t Pid : Watch->runningNow()) {
    if (ByPid.count(Pid))
      continue;
    std::string Why;
    if (attach(Pid, Why, /*StartUp=*/false))
      ++Running;
    else
      warnOnce("--exe: " + Why);
  }
  S.note("--exe: attached to " + std::to_string(Running) +
         " running process(es); watching for new ones (" + How + ")");
  return true;
}

bool PtraceBackend::Impl::seizeAtExec(pid_t Pid, pid_t Tid,
                                      const std::string &Path,
                                      std::string &Error) {
  if (ptrace(PTRACE_SEIZE, Tid, nullptr,
             seizeOptions(false, Agents != nullptr)) != 0) {
    Error = "pid " + std::to_string(Pid) +
            ": ptrace(SEIZE): " + std::strerror(errno);
    return false;
  }
  // Running (inside execve); its first stop is the exec, where onExec()
  // sets the new image up. The execing thread becomes the leader. The
  // execve() can still fail after the file was opened (E2BIG, ENOMEM): an
  // interrupt asked for now stops the thread when it returns to user space
  // if no exec stop came first (an exec stop clears a pending interrupt),
  // and then it is let go (execFailed()).
  ptrace(PTRACE_INTERRUPT, Tid, nullptr, nullptr);
  All.push_back(std::make_unique<PtraceProcess>(Pid, /*Launched=*/false));
  PtraceProcess &P = *All.back();
  P.AwaitingExecOf = Path;
  P.UsesSyscallStops = AnySyscallProbe;
  Thread &T = P.Threads[Tid];
  T.Tid = Tid;
  T.State = ThreadState::Running;
  ByPid[Pid] = &P;
  ByTid[Tid] = &P;
  ByTid[Pid] = &P;
  return true;
}

void PtraceBackend::Impl::execFailed(PtraceProcess &P, int Sig) {
  S.note("--exe: pid " + std::to_string(P.Pid) + ": its execve() of " +
         P.AwaitingExecOf +
         " failed after the file was opened; it goes on untraced");
  for (auto &[Tid, T] : P.Threads) {
    ptrace(PTRACE_DETACH, Tid, nullptr,
           reinterpret_cast<void *>(static_cast<intptr_t>(Sig)));
    ByTid.erase(Tid);
  }
  P.Threads.clear();
  P.Exited = true; // for this session: nothing of it is traced
  ByPid.erase(P.Pid);
}

void PtraceBackend::Impl::adoptRequested() {
  for (const AdoptRequest &R : Watch->takeRequests()) {
    std::string Why;
    // Ours already (a launched command, a child we follow): the usual exec
    // handling covers it.
    bool Known = ByPid.count(R.Pid) || ByTid.count(R.Tid);
    if (!Known && !ShuttingDown) {
      bool Ok = R.AtExec ? seizeAtExec(R.Pid, R.Tid, R.Path, Why)
                         : attach(R.Pid, Why, /*StartUp=*/false);
      if (!Ok)
        warnOnce("--exe: " + Why);
    }
    Watch->done(R.Serial);
  }
}
