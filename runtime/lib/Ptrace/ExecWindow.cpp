//===- ExecWindow.cpp - exec while detached: a window to see it -----------===//
//
// A process tsrun has let go of (--detach) may exec at any time, and its
// new image must be traced from its first instruction. The agent sees the
// exec coming: the entries of libc's exec functions (execve, which
// execv/execvp/execl/system/popen and posix_spawn's child call, execveat
// and fexecve) jump to it with an ExecGate hook first at their site. There
// the thread asks for a window in its shard (window_tid) and waits;
// tsrun's reader, which sleeps on the domain's wake word the agent bumps,
// wakes this backend's event loop (Session::setWindowWake), which seizes
// every thread of the process and grants the window (window_grant). The
// asking thread then runs with PTRACE_SYSCALL: an execve() that succeeds
// brings the exec stop, where onExec() sets the new image up as for any
// traced process (and lets go of it again once it is settled); one that
// fails (execvp() tries each directory of PATH) brings its exit stop, and
// the process is let go of again (closeWindow).
//
// A vfork() child of a detached process (posix_spawn, system) asks in its
// parent's shard: tsrun did not know it, and seizes it as a process of
// its own. Not covered: an exec made with a raw system call, not through
// libc, runs untraced (tsrun says so when it attaches again).
//
//===----------------------------------------------------------------------===//
#include "BackendImpl.h"
#include "KillPoint.h"
#include "ProcMaps.h"

#include "tscc/Runtime/Session.h"
#include "tscc/Runtime/SharedStore.h"

#include <climits>
#include <csignal>
#include <linux/audit.h>
#include <linux/futex.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

/// libc's ways into an exec: execve (the others but two call it, and
/// posix_spawn's child too), execveat, and fexecve (a system call of its
/// own inside).
constexpr const char *ExecFunctions[] = {"execve", "execveat", "fexecve"};

} // namespace

void tscc::rt::pt::grantWindow(tscc_shard_header &H, uint32_t Word) {
  __atomic_store_n(&H.window_grant, Word, __ATOMIC_RELEASE);
  syscall(SYS_futex, &H.window_grant, FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

/// No window for the thread: it goes on into its exec untraced.
void tscc::rt::pt::refuseWindow(tscc_shard_header &H, uint32_t Word) {
  uint32_t Expected = Word;
  __atomic_compare_exchange_n(&H.window_tid, &Expected, 0, false,
                              __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
  syscall(SYS_futex, &H.window_tid, FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

void PtraceBackend::Impl::addExecGates(
    PtraceProcess &P, const Module &M,
    std::map<uint64_t, std::vector<Hook>> &Want,
    std::map<uint64_t, const ElfSymbol *> &Enclosing) {
  // A gate is only for a process tsrun may let go of; one that keeps its
  // system-call stops is never let go of.
  if (!Opts.Detach || !P.Agent.Installed ||
      (AnySyscallProbe && !P.Agent.SudOn) || P.UsesSyscallStops)
    return;
  for (const char *Name : ExecFunctions)
    if (const ElfSymbol *Sym = M.Elf->findFunction(Name)) {
      std::vector<Hook> &Hooks = Want[Sym->Value + M.Bias];
      // First at its site: the agent looks there only.
      Hooks.insert(Hooks.begin(),
                   Hook{HookKind::ExecGate, 0, Sym->Name, M.Name});
      Enclosing.emplace(Sym->Value + M.Bias, Sym);
    }
}

void PtraceBackend::Impl::openWindows() {
  for (PtraceProcess *Owner : detachedProcesses()) {
    Shard *Sh = S.shard(*Owner);
    if (!Sh)
      continue;
    tscc_shard_header &H = Sh->header();
    uint32_t Word = __atomic_load_n(&H.window_tid, __ATOMIC_ACQUIRE);
    auto Tid = static_cast<pid_t>(TSCC_WINDOW_TID(Word));
    if (Tid <= 0 || __atomic_load_n(&H.window_grant, __ATOMIC_ACQUIRE))
      continue;
    if (ShuttingDown) {
      refuseWindow(H, Word); // everything is taken out anyway
      continue;
    }
    if (Word & TSCC_WINDOW_LINK_MAP) { // a dlopen() or dlclose()
      linkMapWindow(H, Word);
      continue;
    }
    std::string Why;
    PtraceProcess *Q = windowProcess(*Owner, *Sh, Tid, Why);
    if (!Q || !openWindow(*Q, Tid, Why)) {
      warnOnce("pid " + std::to_string(tgidOf(Tid)) +
               ": an image it exec'd while detached ran untraced: " + Why);
      refuseWindow(H, Word);
      continue;
    }
    grantWindow(H, Word);
    for (auto &[Id, T] : Q->Threads)
      if (T.State == ThreadState::Stopped)
        resume(*Q, T, T.PendingSignal);
  }
}

PtraceProcess *PtraceBackend::Impl::windowProcess(PtraceProcess &Owner,
                                                  Shard &Sh, pid_t Tid,
                                                  std::string &Why) {
  pid_t Pid = tgidOf(Tid);
  if (Pid <= 0) {
    Why = "it is gone";
    return nullptr;
  }
  if (auto It = ByPid.find(Pid); It != ByPid.end())
    return It->second;
  // Only a process that maps this very shard may ask in it (a vfork()
  // child, or a fork() child tsrun has not found yet): anything else
  // naming a thread there is not ours to trace.
  if (!mapsFileOf(Pid, Sh.fd())) {
    Why = "thread " + std::to_string(Tid) + " does not use that shard";
    return nullptr;
  }
  All.push_back(std::make_unique<PtraceProcess>(Pid, Owner.Launched));
  PtraceProcess &Q = *All.back();
  std::string Ignored;
  Q.refreshIdentity(Ignored);
  Q.Detached = true;
  Q.WindowOnly = true;
  ByPid[Pid] = &Q;
  ByTid[Pid] = &Q;
  return &Q;
}

bool PtraceBackend::Impl::openWindow(PtraceProcess &P, pid_t Tid,
                                     std::string &Why) {
  if (!P.Detached) // traced already: its exec is seen anyway
    return P.Threads.count(Tid) != 0;
  P.Detached = false;
  // Not killed with tsrun: were it SIGKILLed now, the process goes on
  // (its new image untraced), as it would have while detached.
  if (!seizeThreads(P, Why, /*KillWithTsrun=*/false) || !P.Threads.count(Tid)) {
    if (Why.empty())
      Why = "its thread " + std::to_string(Tid) + " is gone";
    for (auto &[Id, T] : P.Threads) {
      ptrace(PTRACE_DETACH, Id, nullptr,
             reinterpret_cast<void *>(static_cast<long>(T.PendingSignal)));
      if (Id != P.Pid)
        ByTid.erase(Id);
    }
    P.Threads.clear();
    P.Detached = true;
    if (P.WindowOnly)
      forgetWindowOnly(P);
    return false;
  }
  Thread &T = P.Threads[Tid];
  T.ExecWindow = true;
  T.ExecEntered = false;
  P.WindowTid = Tid;
  S.note("pid " + std::to_string(P.Pid) + ": attached for an exec (a window)");
  killpoint::setWindow(killpoint::Window::Exec);
  killpoint::reached("exec-window");
  return true;
}

bool PtraceBackend::Impl::onWindowSyscall(PtraceProcess &P, Thread &T) {
  if (!T.ExecWindow)
    return false;
  __ptrace_syscall_info Info{};
  if (ptrace(PTRACE_GET_SYSCALL_INFO, T.Tid,
             reinterpret_cast<void *>(sizeof(Info)), &Info) <= 0) {
    resume(P, T);
    return true;
  }
  if (Info.op == PTRACE_SYSCALL_INFO_ENTRY) {
    DataModel DM =
        Info.arch == AUDIT_ARCH_I386 ? DataModel::ILP32 : DataModel::LP64;
    std::string_view Name = syscallName(DM, Info.entry.nr);
    T.ExecEntered = Name == "execve" || Name == "execveat";
    resume(P, T);
    return true;
  }
  if (Info.op == PTRACE_SYSCALL_INFO_EXIT && T.ExecEntered) {
    closeWindow(P, T); // a successful one brings the exec stop instead
    return true;
  }
  resume(P, T);
  return true;
}

void PtraceBackend::Impl::closeWindow(PtraceProcess &P, Thread &T) {
  T.ExecWindow = false;
  T.ExecEntered = false;
  P.WindowTid = 0;
  if (P.WindowOnly) {
    // Never a process of the session: it is let go of as it was.
    for (auto &[Id, Th] : P.Threads) {
      ptrace(PTRACE_DETACH, Id, nullptr,
             reinterpret_cast<void *>(static_cast<long>(Th.PendingSignal)));
      ByTid.erase(Id);
    }
    P.Threads.clear();
    forgetWindowOnly(P);
    return;
  }
  if (!detachIfSettled(P, T, 0))
    resume(P, T);
}

void PtraceBackend::Impl::forgetWindowOnly(PtraceProcess &P) {
  ByTid.erase(P.Pid);
  ByPid.erase(P.Pid);
  P.Exited = true; // for this session: nothing of it was traced
}

void PtraceBackend::Impl::execSeenInWindow(PtraceProcess &P, Thread &Leader) {
  Leader.ExecWindow = false;
  Leader.ExecEntered = false;
  P.WindowTid = 0;
  P.WindowOnly = false; // a process of the session from now on
  killpoint::reached("exec-stop");
  if (P.FollowedFrom) {
    // Its new image gets a shard of its own; its end now comes through
    // waitpid() (it is traced).
    S.leaveShard(P);
    if (P.PidFd >= 0)
      close(P.PidFd);
    P.PidFd = -1;
    P.FollowedFrom = 0;
  }
}
