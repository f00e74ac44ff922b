//===- LinkMapWindow.cpp - dlopen() while detached: a window to probe it --===//
//
// A process tsrun has let go of (--detach) may dlopen() a library at any
// time, and the library's probes must fire from its first call, its
// constructors' included. While the process was attached tsrun watched the
// loader's debugger hook (_dl_debug_state, r_brk) with a breakpoint; when
// it lets go, that hook becomes an in-process trap site instead (Detach.cpp,
// placeLoaderGate), whose agent, at a consistent link map (the new library
// mapped and relocated, its initialisers not run yet), asks for a window
// in its shard with TSCC_WINDOW_LINK_MAP and waits (Agent/follow.c).
//
// The window is the whole of the work here: tsrun seizes every thread of
// the process (not to be killed with tsrun: killed now, the process goes
// on with the sites it has, and heals them), reads the link map as at any
// loader stop (new libraries installed, unloaded ones forgotten), lets go
// of the process again, and only then grants the window: the waiting
// thread returns into the loader, which runs the new library's
// constructors. A process that cannot be let go of again (the new library
// has a site that needs tsrun) stays attached, and says why.
//
//===----------------------------------------------------------------------===//
#include "BackendImpl.h"
#include "KillPoint.h"

#include "tscc/Runtime/Session.h"
#include "tscc/Runtime/SharedStore.h"

#include <sys/ptrace.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

void PtraceBackend::Impl::linkMapWindow(tscc_shard_header &H, uint32_t Word) {
  auto Tid = static_cast<pid_t>(TSCC_WINDOW_TID(Word));
  pid_t Pid = tgidOf(Tid);
  auto It = ByPid.find(Pid);
  if (It == ByPid.end()) { // a fork() child not found yet
    findFollowed(true);
    It = ByPid.find(Pid);
  }
  PtraceProcess *P = It == ByPid.end() ? nullptr : It->second;
  std::string Why = Pid <= 0 ? "it is gone"
                    : !P     ? "it is not a process of the session"
                             : "";
  if (P && P->Detached) {
    P->Detached = false;
    if (!seizeThreads(*P, Why, /*KillWithTsrun=*/false) ||
        !P->Threads.count(Tid)) {
      if (Why.empty())
        Why = "its thread " + std::to_string(Tid) + " is gone";
      for (auto &[Id, T] : P->Threads) {
        ptrace(PTRACE_DETACH, Id, nullptr,
               reinterpret_cast<void *>(static_cast<long>(T.PendingSignal)));
        if (Id != P->Pid)
          ByTid.erase(Id);
      }
      P->Threads.clear();
      P->Detached = true;
    } else {
      S.note("pid " + std::to_string(Pid) +
             ": attached for a change of its libraries (a window)");
      killpoint::setWindow(killpoint::Window::Link);
      killpoint::reached("link-window");
    }
  } else if (P && Why.empty()) {
    // Attached meanwhile (another thread's exec window): tsrun took the
    // gate's trap on the way here and read the link map then.
    grantWindow(H, Word);
    return;
  }
  if (!Why.empty()) {
    warnOnce("pid " + std::to_string(Pid) +
             ": libraries it loaded while detached are not probed: " + Why);
    refuseWindow(H, Word);
    return;
  }
  if (!syncLinkMap(*P, Tid))
    warnOnce("pid " + std::to_string(Pid) +
             ": cannot read its list of libraries after a dlopen()");
  // Granted before it runs again: it finds the grant when it wakes.
  grantWindow(H, Word);
  Thread &T = P->Threads[Tid];
  if (detachIfSettled(*P, T, 0))
    return;
  // Staying attached: the agent is told so (tsrun takes the loader's trap
  // from now on), and every thread goes on.
  uint32_t Zero = 0;
  P->writeMemory(P->Agent.Config + offsetof(tscc_agent_config, detached), &Zero,
                 sizeof(Zero));
  for (auto &[Id, Th] : P->Threads)
    if (Th.State == ThreadState::Stopped)
      resume(*P, Th, Th.PendingSignal);
  killpoint::setWindow(killpoint::Window::None);
}
