//===- Detach.cpp - Letting go of processes whose clauses run inside -----===//
//
// With --detach, a process whose every site runs in the process (the
// in-process agent) is let go of once it is set up: at the loader's first
// consistent link map (its startup libraries installed, before their
// initialisers run), at its exec stop when it has no loader, or at once
// when tsrun attached to it. From then on no thread of it is
// ptrace-attached, so signals, faults in clauses and system calls cost it
// nothing, and gdb or strace can attach to it. Its records and counters
// come through the shared store as before; its end comes through
// waitpid() (tsrun's child) or a pidfd (any other). To end the session
// tsrun attaches again (reattachDetached), and the usual teardown
// (Shutdown.cpp) removes every site. If tsrun is killed meanwhile, the
// agent puts the sites back itself (the lifeline, heal.c).
//
// A fork() child of a detached process arms itself (Agent/follow.c): tsrun
// makes the shard inheritable before it lets go (letForksFollow). An exec
// through libc gets a window (ExecWindow.cpp), and so does a change of its
// libraries (dlopen, dlclose): the loader's breakpoint becomes an
// in-process gate when tsrun lets go (placeLoaderGate, LinkMapWindow.cpp).
// What a detached process does that tsrun does not follow (yet): an image
// exec'd with a raw system call runs untraced (noticed when tsrun attaches
// again), and a SIGSEGV, SIGBUS or SIGFPE handler the program sets
// replaces the agent's until tsrun attaches again (it then chains to it,
// as when it watches sigaction()).
//
//===----------------------------------------------------------------------===//
#include "../InProcess/Installer/Agent.h"
#include "BackendImpl.h"
#include "KillPoint.h"

#include "../InProcess/Patch/JumpSites.h"

#include "tscc/Runtime/LinkMap.h"
#include "tscc/Runtime/Session.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

std::string
PtraceBackend::Impl::attachmentNeeded(const PtraceProcess &P) const {
  if (!P.Agent.Installed)
    return "its clauses run in tsrun (" + P.PathName + ")";
  if (P.Agent.ShardPending)
    return "its agent is not armed yet";
  // System-call probes let it go only where Syscall User Dispatch catches
  // every traced call in the process (InProcessSyscalls.cpp).
  if (P.SeccompFilter || P.UsesSyscallStops ||
      (AnySyscallProbe && !P.Agent.SudOn))
    return "the script has system-call probes, which stop it" +
           (P.Agent.SudWhy.empty() ? std::string()
                                   : " (" + P.Agent.SudWhy + ")");
  for (const auto &[Addr, Bp] : P.Breakpoints)
    for (const Hook &H : Bp.Hooks)
      if (!H.watchesSigaction())
        return "a probe site needs tsrun (a breakpoint at " + H.Function + ")";
  if ((P.Agent.Sharers && P.Agent.Sharers->Members.size() > 1) || P.VforkParent)
    return "another process shares its memory";
  for (const auto &[Tid, T] : P.Threads)
    if (!T.Shadow.empty())
      return "a return is hijacked by a breakpoint";
  return "";
}

namespace {

void setPc(pid_t Tid, uint64_t Pc) {
  user_regs_struct R;
  if (ptrace(PTRACE_GETREGS, Tid, nullptr, &R) == 0) {
    R.rip = Pc;
    ptrace(PTRACE_SETREGS, Tid, nullptr, &R);
  }
}

/// T is at the entry of the loader's debugger hook, _dl_debug_state, which
/// does nothing (it exists for debuggers to break on): T returns from it,
/// as its `ret` would.
void returnFromLoaderHook(PtraceProcess &P, Thread &T) {
  user_regs_struct R;
  if (ptrace(PTRACE_GETREGS, T.Tid, nullptr, &R) != 0)
    return;
  bool Ok = false;
  uint64_t Sp =
      P.dataModel() == DataModel::ILP32 ? R.rsp & 0xffffffffull : R.rsp;
  uint64_t Ret = P.readPointer(Sp, Ok);
  if (!Ok)
    return;
  R.rip = Ret;
  R.rsp += P.pointerSize();
  ptrace(PTRACE_SETREGS, T.Tid, nullptr, &R);
}

bool writeDetachedFlag(PtraceProcess &P, uint32_t Value) {
  return P.Agent.Installed &&
         P.writeMemory(P.Agent.Config + offsetof(tscc_agent_config, detached),
                       &Value, sizeof(Value));
}

/// Lets go of one stopped thread, with the signal it was to get. Where the
/// process has trap sites, the thread no longer blocks SIGTRAP:
/// the int3 of a trap site would be forced on it, and nobody is there to
/// repair that (the agent keeps SIGTRAP open from now on, Agent/signal.c).
void detachThread(pid_t Tid, int Signal, bool OpenTrap) {
  uint64_t Mask = 0;
  if (OpenTrap && ptrace(PTRACE_GETSIGMASK, Tid, sizeof(Mask), &Mask) == 0 &&
      (Mask & (1ull << (SIGTRAP - 1)))) {
    Mask &= ~(1ull << (SIGTRAP - 1));
    ptrace(PTRACE_SETSIGMASK, Tid, sizeof(Mask), &Mask);
  }
  ptrace(PTRACE_DETACH, Tid, nullptr,
         reinterpret_cast<void *>(static_cast<long>(Signal)));
}

/// Tells the agent it is on its own: threads are told apart by their ids
/// (a thread that ends while detached keeps its entry, and a new one may
/// get its fs base), and a fork() child arms itself at its first hit, in
/// its parent's shard (or, where that cannot be, says it is not followed).
bool tellAgentDetached(PtraceProcess &P, pid_t Tid, Session &S,
                       std::string &Why) {
  if (!agentTellsThreadsById(P, Why))
    return false;
  std::string NoFollow;
  if (!letForksFollow(P, Tid, NoFollow))
    S.note("pid " + std::to_string(P.Pid) +
           ": children it forks while detached run untraced: " + NoFollow);
  // The loader's hook asks for a window at consistent link maps only.
  uint64_t State =
      P.RDebug ? P.RDebug + linkMapLayout(P.pointerSize()).RState : 0;
  uint32_t One = 1;
  if (P.writeMemory(P.Agent.Config + offsetof(tscc_agent_config, loader_state),
                    &State, sizeof(State)) &&
      P.writeMemory(P.Agent.Config + offsetof(tscc_agent_config, detached),
                    &One, sizeof(One)))
    return true;
  Why = "cannot tell the agent it is detached";
  return false;
}

} // namespace

bool PtraceBackend::Impl::placeLoaderGate(PtraceProcess &P, pid_t Tid,
                                          uint64_t Addr, std::string &Why) {
  if (P.LoaderGate == Addr)
    return true;
  const Module *Loader = nullptr;
  for (const auto &M : P.Modules)
    if (Addr >= M->Start && Addr < M->End)
      Loader = M.get();
  if (!Loader) {
    Why = "no module holds it";
    return false;
  }
  // Its function, for the planner: a jump must stay inside it (it is one
  // `ret` in glibc, so it takes a trap).
  uint64_t Start = 0, Size = 0;
  const ElfSymbol *Sym = Loader->Elf->findFunction("_dl_debug_state");
  if (Sym && Sym->Value + Loader->Bias == Addr) {
    Start = Addr;
    Size = Sym->Size;
  }
  JumpCandidate Gate{
      Addr,
      Start,
      Size,
      {Hook{HookKind::LoaderGate, 0, "_dl_debug_state", Loader->Name}},
      {}};
  std::map<uint64_t, std::string> Traps;
  std::map<uint64_t, std::string> Rejected =
      installJumpSites(P, Tid, *Loader, {Gate}, {Addr}, Traps);
  if (auto R = Rejected.find(Addr); R != Rejected.end()) {
    Why = R->second;
    return false;
  }
  if (!P.Agent.Sites.count(Addr)) {
    Why = "it was not patched";
    return false;
  }
  P.LoaderGate = Addr;
  return true;
}

bool PtraceBackend::Impl::detachIfSettled(PtraceProcess &P, Thread &T,
                                          uint64_t ResumeAt) {
  if (!Opts.Detach || ShuttingDown || P.Detached)
    return false;
  std::string Why = attachmentNeeded(P);
  // Not tsrun's child (attached with -p or --exe, made by fork() in a
  // traced process): waitpid() would not hear of its end once it is let
  // go of, a pidfd does.
  if (Why.empty() && !watchEndByPidFd(P))
    Why = "it is not tsrun's child, and no pidfd can watch its end";
  std::vector<pid_t> Paused;
  if (Why.empty()) {
    // Every other thread stopped, with nothing of it waiting for us.
    Paused = pauseOthers(P, T.Tid);
    bool Pending = std::any_of(Deferred.begin(), Deferred.end(), [&](auto &D) {
      auto It = ByTid.find(D.first);
      return It != ByTid.end() && It->second == &P;
    });
    if (Pending)
      Why = "busy"; // tried again at its next settled stop
    else if (!tellAgentDetached(P, T.Tid, S, Why))
      warnOnce("pid " + std::to_string(P.Pid) + ": " + Why);
  }
  if (!Why.empty()) {
    for (pid_t Tid : Paused)
      resume(P, P.Threads[Tid]);
    if (Why != "busy" && P.AttachedBecause != Why)
      S.note("pid " + std::to_string(P.Pid) + ": stays attached: " + Why);
    P.AttachedBecause = Why;
    return false;
  }
  // The loader's breakpoint and the sigaction() watch go: nobody would
  // take their traps. The loader's hook becomes an in-process gate.
  uint64_t Loader = P.LoaderBreak;
  for (const auto &[Addr, Bp] : P.Breakpoints)
    P.writeMemory(Addr, Bp.Orig, 1);
  P.Breakpoints.clear();
  P.LoaderBreak = 0;
  if (ResumeAt && ResumeAt == Loader)
    returnFromLoaderHook(P, T); // the gate must not take this very call
  else if (ResumeAt)
    setPc(T.Tid, ResumeAt);
  if (Loader && !placeLoaderGate(P, T.Tid, Loader, Why)) {
    // Not let go of after all: a library it loads would not be probed.
    installLoaderBreak(P, T.Tid, Loader);
    if (ResumeAt == Loader)
      setPc(T.Tid, ResumeAt);
    writeDetachedFlag(P, 0);
    for (pid_t Tid : Paused)
      resume(P, P.Threads[Tid]);
    Why = "the loader's hook cannot take an in-process trap (" + Why + ")";
    if (P.AttachedBecause != Why)
      S.note("pid " + std::to_string(P.Pid) + ": stays attached: " + Why);
    P.AttachedBecause = Why;
    return false;
  }
  for (auto &[Tid, Th] : P.Threads) {
    detachThread(Tid, Th.PendingSignal, P.Agent.TrapSites != 0);
    if (Tid != P.Pid)
      ByTid.erase(Tid);
  }
  P.Threads.clear();
  ByTid[P.Pid] = &P; // its end comes through waitpid(), or its pidfd
  P.Detached = true;
  P.AttachedBecause.clear();
  S.note("pid " + std::to_string(P.Pid) +
         ": detached: every site runs in the process");
  killpoint::setWindow(killpoint::Window::None);
  return true;
}

namespace {

/// The image tsrun set up is still there: the agent's configuration reads
/// back (an exec replaces the memory, and /proc/PID/mem of the old one
/// reads nothing).
bool sameImage(PtraceProcess &P) {
  uint64_t Magic = 0;
  return P.Agent.Installed && P.read(P.Agent.Config, Magic) &&
         Magic == TSCC_AGENT_MAGIC;
}

/// What tsrun knew of an image that is gone: nothing of it is to be put
/// back.
void forgetImage(PtraceProcess &P) {
  P.Agent = AgentState{};
  P.Modules.clear();
  P.Breakpoints.clear();
  P.Installed.clear();
  P.Semaphores.clear();
  P.Home = 0;
  P.Heal = HealState{};
  P.RDebug = 0;
  P.LoaderBreak = 0;
  P.LoaderGate = 0;
}

} // namespace

bool PtraceBackend::Impl::reattach(PtraceProcess &P) {
  std::string Pid = std::to_string(P.Pid);
  if (P.PidFd >= 0 && followedEnded(P)) {
    finishFollowed(P);
    return true;
  }
  int St = 0;
  if (waitpid(P.Pid, &St, WNOHANG | __WALL | __WNOTHREAD) == P.Pid &&
      (WIFEXITED(St) || WIFSIGNALED(St))) {
    finishProcess(P, WIFEXITED(St) ? WEXITSTATUS(St) : 0,
                  WIFSIGNALED(St) ? WTERMSIG(St) : 0);
    return true;
  }
  std::string Error;
  if (!seizeThreads(P, Error) || P.Threads.empty()) {
    // Another tracer has it (gdb), say. It is left as it is: its agent is
    // disarmed with the session, and puts its sites back itself once tsrun
    // is gone.
    warnOnce("pid " + Pid + ": cannot attach again to remove its probes (" +
             (Error.empty() ? std::string("no thread") : Error) +
             "); it puts them back itself at its next hit after tsrun ends");
    for (auto &[Tid, T] : P.Threads)
      ptrace(PTRACE_DETACH, Tid, nullptr, nullptr);
    return false;
  }
  P.Detached = false;
  pid_t Tid = P.Threads.begin()->first;
  if (!sameImage(P)) {
    warnOnce("pid " + Pid +
             " exec'd while detached without libc (a raw execve system "
             "call): its new image ran untraced");
    forgetImage(P);
    return true;
  }
  if (!reclaimAgentHandlers(P, Tid, Error))
    warnOnce("pid " + Pid + ": " + Error);
  S.note("pid " + Pid + ": attached again to end the session");
  return true;
}

void PtraceBackend::Impl::reattachDetached() {
  // Children forked since the last look are cleaned up with the others.
  findFollowed(true);
  std::vector<PtraceProcess *> Detached;
  for (auto &[Pid, P] : ByPid)
    if (P->Detached)
      Detached.push_back(P);
  for (PtraceProcess *P : Detached) {
    if (reattach(*P))
      continue;
    // Left alone: a launched one that is to die is killed without tsrun's
    // attachment; the others leave the session as they are.
    if (willKill(*P))
      kill(P->Pid, SIGKILL);
    if (P->PidFd >= 0) { // not tsrun's child: no waitpid() for it
      finishFollowed(*P);
      continue;
    }
    int St = 0;
    if (willKill(*P) && waitpid(P->Pid, &St, __WALL | __WNOTHREAD) == P->Pid) {
      finishProcess(*P, 0, SIGKILL);
      continue;
    }
    ByTid.erase(P->Pid);
    ByPid.erase(P->Pid);
  }
}
