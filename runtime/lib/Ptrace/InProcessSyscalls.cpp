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
  unsigned D = modelIndex(DataModel::LP64);
  std::map<uint32_t, std::vector<Hook>> ByNr;
  for (auto *Table : {&SysEntry[D], &SysExit[D]})
    for (const auto &[Nr, Probes] : *Table)
      for (uint32_t Probe : Probes) {
        Hook H{Table == &SysExit[D] ? HookKind::Exit : HookKind::Entry, Probe,
               std::string(syscallName(DataModel::LP64, Nr)), ""};
        H.SyscallNr = static_cast<uint32_t>(Nr);
        ByNr[static_cast<uint32_t>(Nr)].push_back(std::move(H));
      }
  std::map<uint32_t, std::vector<Hook>> Ok;
  for (auto &[Nr, Hooks] : ByNr) {
    std::string Why = syscallStaysStopped(Nr)
                          ? "the call does not return to where it was made"
                          : inProcessObstacle(Hooks, false);
    if (Why.empty())
      Ok[Nr] = std::move(Hooks);
    else
      SyscallsStopped[Nr] = Why;
  }
  if (Ok.size() > ip::MaxInlineSyscalls) {
    for (const auto &[Nr, Hooks] : Ok)
      SyscallsStopped[Nr] = "the script traces more than " +
                            std::to_string(ip::MaxInlineSyscalls) +
                            " system calls";
    return;
  }
  for (auto &[Nr, Hooks] : Ok) {
    bool Exit = std::any_of(Hooks.begin(), Hooks.end(), [](const Hook &H) {
      return H.Kind == HookKind::Exit;
    });
    InProcessSyscalls.Nrs.push_back({Nr, Exit});
    for (Hook &H : Hooks)
      InProcessSyscalls.Hooks.push_back(std::move(H));
  }
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
      !A.Installed || !A.EnterSyscall || P.dataModel() != DataModel::LP64)
    return;
  A.SudTried = true;
  if (!Opts.SyscallDispatch) {
    A.SudWhy = "Syscall User Dispatch is off (--syscall-dispatch)";
    return;
  }
  if (!SyscallsStopped.empty()) {
    A.SudWhy =
        "a traced call needs tsrun (" + SyscallsStopped.begin()->second + ")";
    return;
  }
  if (InProcessSyscalls.Nrs.empty()) {
    A.SudWhy = "no traced call runs in the process";
    return;
  }
  SyscallHooks H = hooksFor(InProcessSyscalls,
                            [&](uint32_t I) { return probeApplies(P, I); });
  std::string Error;
  if (!ensureSyscallGadget(P, Tid, Error) ||
      !enableSyscallDispatch(P, Tid, H, Error)) {
    A.SudWhy = "no Syscall User Dispatch: " + Error;
    return;
  }
  // Calls no site catches raise a SIGSYS in the process from now on.
  P.UsesSyscallStops = false;
}

void PtraceBackend::Impl::installSyscallSitesOf(PtraceProcess &P, pid_t Tid,
                                                Module &M) {
  // Under tsrun's filter or Syscall User Dispatch: what lets the gadget's
  // calls through and catches the others (an attached process without SUD
  // stops at every call, PTRACE_SYSCALL).
  bool Sud = P.Agent.SudOn;
  if (InProcessSyscalls.Nrs.empty() || !P.Agent.Installed ||
      !P.Agent.EnterSyscall || !(P.SeccompFilter || Sud) ||
      P.dataModel() != DataModel::LP64)
    return;
  SyscallHooks H = hooksFor(InProcessSyscalls,
                            [&](uint32_t I) { return probeApplies(P, I); });
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
  if (P.dataModel() != DataModel::LP64)
    Why = "a 32-bit process";
  else if (!Agents)
    Why = "--ptrace";
  else if (!P.Agent.Installed)
    Why = "the process has no agent";
  else if (!P.SeccompFilter && !P.Agent.SudOn)
    Why = "an attached process, whose every call stops (PTRACE_SYSCALL)" +
          (P.Agent.SudWhy.empty() ? std::string() : ": " + P.Agent.SudWhy);
  for (auto *Table : {&SysEntry[D], &SysExit[D]})
    for (const auto &[Nr, Probes] : *Table) {
      std::string NrWhy = Why;
      auto It = SyscallsStopped.find(static_cast<uint32_t>(Nr));
      if (NrWhy.empty() && It != SyscallsStopped.end())
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
