//===- AttachPermission.cpp - Why an attach was refused -------------------===//
#include "AttachPermission.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/prctl.h>
#include <unistd.h>

using namespace tscc::rt;

namespace {

/// The first number after "Key:" in /proc/PID/status, or -1.
long statusField(pid_t Pid, const char *Key) {
  std::ifstream In("/proc/" + std::to_string(Pid) + "/status");
  std::string Line;
  size_t KeyLen = strlen(Key);
  while (std::getline(In, Line))
    if (Line.compare(0, KeyLen, Key) == 0 && Line.size() > KeyLen &&
        Line[KeyLen] == ':')
      return strtol(Line.c_str() + KeyLen + 1, nullptr, 10);
  return -1;
}

std::string comm(pid_t Pid) {
  std::ifstream In("/proc/" + std::to_string(Pid) + "/comm");
  std::string Name;
  std::getline(In, Name);
  return Name;
}

int ptraceScope() {
  std::ifstream In("/proc/sys/kernel/yama/ptrace_scope");
  int Scope = -1;
  In >> Scope;
  return In ? Scope : -1;
}

} // namespace

std::string pt::describeAttachFailure(pid_t Pid, int Errno) {
  std::string Head = "cannot attach to pid " + std::to_string(Pid);
  if (Errno == ESRCH)
    return "no process with pid " + std::to_string(Pid);
  if (Errno != EPERM && Errno != EACCES)
    return Head + ": " + strerror(Errno);
  std::string Why = Head + ": permission denied";
  long Tracer = statusField(Pid, "TracerPid");
  if (Tracer > 0)
    return Why + ": it is already traced by pid " + std::to_string(Tracer) +
           " (" + comm(static_cast<pid_t>(Tracer)) +
           "); a process has one tracer at a time";
  // "Uid:" lists real, effective, saved and filesystem uids; the real one
  // is the owner that matters here.
  long Owner = statusField(Pid, "Uid");
  uid_t Me = geteuid();
  if (Owner >= 0 && static_cast<uid_t>(Owner) != Me && Me != 0)
    return Why + ": it belongs to uid " + std::to_string(Owner) +
           " and tsrun runs as uid " + std::to_string(Me) +
           "; tracing another user's process needs root (CAP_SYS_PTRACE)";
  switch (ptraceScope()) {
  case 1:
    return Why + ": kernel.yama.ptrace_scope is 1, so only a process's "
                 "ancestors may trace it; launch it with tsrun instead "
                 "(tsrun probe.o -- CMD), run tsrun as root, or set "
                 "kernel.yama.ptrace_scope=0";
  case 2:
    return Why + ": kernel.yama.ptrace_scope is 2, so only root "
                 "(CAP_SYS_PTRACE) may attach";
  case 3:
    return Why + ": kernel.yama.ptrace_scope is 3, so no process may "
                 "attach to another (launch the program with tsrun instead)";
  default:
    break;
  }
  return Why + ": the process is not dumpable (a setuid or setgid program, "
               "or one that called prctl(PR_SET_DUMPABLE, 0)), or a security "
               "module refused; tracing it needs root (CAP_SYS_PTRACE)";
}
