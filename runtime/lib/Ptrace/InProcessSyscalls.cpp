//===- InProcessSyscalls.cpp - Which system calls trace in the process ----===//
//
// PtraceBackend's part of SyscallSites.h: which traced numbers can run
// their clauses in the process, patching the sites of each module, and
// saying per probe which mechanism it uses.
//
//===----------------------------------------------------------------------===//
#include "BackendImpl.h"

#include "../InProcess/Patch/SyscallDispatch.h"
#include "../InProcess/Patch/SyscallTrampoline.h"

#include "tscc/Runtime/Session.h"

#include <algorithm>
#include <functional>

using namespace tscc::rt;
using namespace tscc::rt::pt;

void PtraceBackend::Impl::planInProcessSyscalls() {
  if (!Agents)
    return;
  for (DataModel DM : {DataModel::LP64, DataModel::ILP32})
    planInProcessSyscalls(DM);
}

void PtraceBackend::Impl::planInProcessSyscalls(DataModel DM) {
  unsigned D = modelIndex(DM);
  std::map<uint32_t, std::vector<Hook>> ByNr;
  for (auto *Table : {&SysEntry[D], &SysExit[D]})
    for (const auto &[Nr, Probes] : *Table)
      for (uint32_t Probe : Probes) {
        Hook H{Table == &SysExit[D] ? HookKind::Exit : HookKind::Entry, Probe,
               std::string(syscallName(DM, Nr)), ""};
        H.SyscallNr = static_cast<uint32_t>(Nr);
        ByNr[static_cast<uint32_t>(Nr)].push_back(std::move(H));
      }
  std::map<uint32_t, std::vector<Hook>> Ok;
  for (auto &[Nr, Hooks] : ByNr) {
    std::string Why = syscallStaysStopped(DM, Nr)
                          ? "the call does not return to where it was made"
                          : inProcessObstacle(Hooks, false);
    if (Why.empty())
      Ok[Nr] = std::move(Hooks);
    else
      SyscallsStopped[D][Nr] = Why;
  }
  if (Ok.size() > ip::MaxInlineSyscalls) {
    for (const auto &[Nr, Hooks] : Ok)
      SyscallsStopped[D][Nr] = "the script traces more than " +
                               std::to_string(ip::MaxInlineSyscalls) +
                               " system calls";
    return;
  }
  for (auto &[Nr, Hooks] : Ok) {
    bool Exit = std::any_of(Hooks.begin(), Hooks.end(), [](const Hook &H) {
      return H.Kind == HookKind::Exit;
    });
    InProcessSyscalls[D].Nrs.push_back({Nr, Exit});
    for (Hook &H : Hooks)
      InProcessSyscalls[D].Hooks.push_back(std::move(H));
  }
}

/// Syscall User Dispatch is asked for (--syscall-dispatch), or the default
/// for processes tsrun lets go of (--detach): once detached nothing of
/// theirs is stopped, so no SIGSYS can be dropped by a tsrun that dies
/// (*Known problem* in docs/runtime.md), and the catch-all is what lets a
/// process with system-call probes be let go of at all.
static bool dispatchWanted(const PtraceOptions &O) {
  return O.SyscallDispatch || O.Detach;
}

bool PtraceBackend::Impl::dispatchReplacesFilter() const {
  return Agents && dispatchWanted(Opts) && SyscallsStopped[0].empty() &&
         SyscallsStopped[1].empty();
}

namespace {

SyscallHooks hooksFor(const SyscallHooks &Plan,
                      const std::function<bool(uint32_t)> &Applies) {
  SyscallHooks H;
  H.Nrs = Plan.Nrs;
  for (const Hook &K : Plan.Hooks)
    if (Applies(K.Index))
      H.Hooks.push_back(K);
  return H;
}

} // namespace

void PtraceBackend::Impl::startSyscallDispatch(PtraceProcess &P, pid_t Tid) {
  AgentState &A = P.Agent;
  if (A.SudTried || P.SeccompFilter || !AnySyscallProbe || !Agents ||
      !A.Installed)
    return;
  A.SudTried = true;
  unsigned D = modelIndex(P.dataModel());
  bool Lp64 = P.dataModel() == DataModel::LP64;
  if (Lp64 && !A.EnterSyscall)
    return;
  if (!dispatchWanted(Opts)) {
    A.SudWhy = "Syscall User Dispatch is off (--syscall-dispatch)";
    return;
  }
  if (!SyscallsStopped[D].empty()) {
    A.SudWhy = "a traced call needs tsrun (" +
               SyscallsStopped[D].begin()->second + ")";
    return;
  }
  if (InProcessSyscalls[D].Nrs.empty()) {
    A.SudWhy = "no traced call runs in the process";
    return;
  }
  SyscallHooks H = hooksFor(InProcessSyscalls[D],
                            [&](uint32_t I) { return probeApplies(P, I); });
  std::string Error;
  // A 64-bit process's SUD code page starts with the system-call sites'
  // gadget; a 32-bit one has no sites (enableSyscallDispatch maps it all).
  if ((Lp64 && !ensureSyscallGadget(P, Tid, Error)) ||
      !enableSyscallDispatch(P, Tid, H, Error)) {
    A.SudWhy = "no Syscall User Dispatch: " + Error;
    return;
  }
  // Calls no site catches raise a SIGSYS in the process from now on.
  P.UsesSyscallStops = false;
  if (Lp64)
    return;
  // No site to say it at (installSyscallSitesOf): every call is caught by
  // SUD, so the probes say so here.
  std::string How = "in-process: every call is caught by Syscall User "
                    "Dispatch (a SIGSYS in the process; int $0x80 and the "
                    "vDSO's sysenter alike)";
  for (const Hook &K : H.Hooks)
    S.probeAttached(P, K.Index, K.Function, "syscall", K.SyscallNr, How);
}

void PtraceBackend::Impl::installSyscallSitesOf(PtraceProcess &P, pid_t Tid,
                                                Module &M) {
  // Under tsrun's filter or Syscall User Dispatch: what lets the gadget's
  // calls through and catches the others (an attached process without SUD
  // stops at every call, PTRACE_SYSCALL).
  bool Sud = P.Agent.SudOn;
  const SyscallHooks &Plan = InProcessSyscalls[modelIndex(DataModel::LP64)];
  if (Plan.Nrs.empty() || !P.Agent.Installed || !P.Agent.EnterSyscall ||
      !(P.SeccompFilter || Sud) || P.dataModel() != DataModel::LP64)
    return;
  SyscallHooks H =
      hooksFor(Plan, [&](uint32_t I) { return probeApplies(P, I); });
  std::string Error;
  SyscallSiteCount N = installSyscallSites(P, Tid, M, H, Error);
  if (!Error.empty())
    warnOnce("pid " + std::to_string(P.Pid) +
             (Sud ? ": system calls stay at Syscall User Dispatch: "
                  : ": system calls stay at the seccomp stop: ") +
             Error);
  if (!N.Patched)
    return;
  std::string How = "in-process at " + std::to_string(N.Patched) +
                    " system-call site" + (N.Patched == 1 ? "" : "s");
  if (N.Refused)
    How += " (" + std::to_string(N.Refused) + " not: " + N.FirstWhy + ")";
  How += Sud ? "; calls made elsewhere are caught in the process by Syscall "
               "User Dispatch (a SIGSYS)"
             : "; calls made elsewhere stop at the seccomp filter";
  for (const Hook &K : H.Hooks)
    S.probeAttached(P, K.Index, K.Function, M.Name, N.First, How);
}

void PtraceBackend::Impl::reportSyscallMechanisms(PtraceProcess &P) {
  if (P.SyscallsReported || !AnySyscallProbe)
    return;
  P.SyscallsReported = true;
  unsigned D = modelIndex(P.dataModel());
  std::string Why;
  if (!Agents)
    Why = "--ptrace";
  else if (!P.Agent.Installed)
    Why = "the process has no agent";
  else if (!P.SeccompFilter && !P.Agent.SudOn)
    Why = std::string(P.Launched ? "a process" : "an attached process") +
          " whose every call stops (PTRACE_SYSCALL)" +
          (P.Agent.SudWhy.empty() ? std::string() : ": " + P.Agent.SudWhy);
  else if (P.dataModel() != DataModel::LP64 && !P.Agent.SudOn)
    Why = "a 32-bit process, whose calls only Syscall User Dispatch catches "
          "in the process (--syscall-dispatch)";
  for (auto *Table : {&SysEntry[D], &SysExit[D]})
    for (const auto &[Nr, Probes] : *Table) {
      std::string NrWhy = Why;
      auto It = SyscallsStopped[D].find(static_cast<uint32_t>(Nr));
      if (NrWhy.empty() && It != SyscallsStopped[D].end())
        NrWhy = It->second;
      if (NrWhy.empty())
        continue; // installSyscallSitesOf says where it runs in the process
      for (uint32_t Probe : Probes)
        if (probeApplies(P, Probe))
          S.probeAttached(
              P, Probe, syscallName(P.dataModel(), Nr), "syscall", Nr,
              (P.SeccompFilter ? "seccomp stop (" : "ptrace stop (") + NrWhy +
                  ")");
    }
}
