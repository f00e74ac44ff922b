//===- Install.cpp - Modules and probe installation -----------------------===//
//
// Modules come from two places: /proc/PID/maps right after exec or attach
// (the executable and the dynamic loader are all there is after exec), and
// the dynamic loader's link map (r_debug) each time the loader calls its
// debugger hook, _dl_debug_state (r_brk), with r_state == RT_CONSISTENT.
// That hook runs after a library is mapped and relocated and before its
// initialisers, so probes in constructors fire, for dlopen() too.
//
//===----------------------------------------------------------------------===//
#include "../InProcess/Installer/Agent.h"
#include "../InProcess/Installer/Healer.h"
#include "../InProcess/Patch/JumpSites.h"
#include "BackendImpl.h"
#include "Displaced.h"
#include "ExecCost.h"
#include "Inject.h"
#include "PathPlan.h"

#include "tscc/Runtime/LinkMap.h"
#include "tscc/Runtime/ProbeCoverage.h"
#include "tscc/Runtime/Session.h"

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <elf.h>
#include <fstream>
#include <optional>
#include <sstream>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

struct MapsLine {
  uint64_t Start, End, Offset;
  bool Exec;
  std::string Path;
};

std::vector<MapsLine> readMaps(pid_t Pid) {
  std::vector<MapsLine> Out;
  std::ifstream In("/proc/" + std::to_string(Pid) + "/maps");
  std::string Line;
  while (std::getline(In, Line)) {
    MapsLine M{};
    char Perms[8] = {};
    unsigned long long S, E, Off;
    int PathPos = 0;
    if (sscanf(Line.c_str(), "%llx-%llx %7s %llx %*s %*s %n", &S, &E, Perms,
               &Off, &PathPos) < 4)
      continue;
    M.Start = S;
    M.End = E;
    M.Offset = Off;
    M.Exec = Perms[2] == 'x';
    if (PathPos > 0 && static_cast<size_t>(PathPos) < Line.size())
      M.Path = Line.substr(PathPos);
    if (M.Path.empty() || M.Path[0] != '/')
      continue; // anonymous, [heap], [vdso], ...
    Out.push_back(std::move(M));
  }
  return Out;
}

/// The file of a library the loader found through a relative path
/// (`LD_LIBRARY_PATH=.`, `dlopen("./libplug.so")`): its link-map name is
/// relative to a working directory that may have changed since, but the
/// kernel knows the file mapped at its load address.
std::string pathOfRelativeLibrary(pid_t Pid, const std::string &Name,
                                  uint64_t Bias) {
  std::vector<MapsLine> Maps = readMaps(Pid);
  // A shared object's first segment usually has address 0: it starts at
  // the bias; otherwise the nearest mapping above it of the same name.
  const MapsLine *Best = nullptr;
  for (const MapsLine &M : Maps) {
    if (M.Offset != 0 || M.Start < Bias)
      continue;
    if (M.Start == Bias)
      return M.Path;
    if (moduleBaseName(M.Path) == moduleBaseName(Name) &&
        (!Best || M.Start < Best->Start))
      Best = &M;
  }
  if (Best)
    return Best->Path;
  char Buf[PATH_MAX];
  std::string InCwd = "/proc/" + std::to_string(Pid) + "/cwd/" + Name;
  return realpath(InCwd.c_str(), Buf) ? std::string(Buf) : std::string();
}

/// The NUL-terminated string at Addr in P, of fewer than PATH_MAX bytes:
/// read up to each page's end at a time, since nothing may be mapped after
/// the page where it ends (one read for a usual library name, where a byte
/// at a time took one per byte).
std::string readString(PtraceProcess &P, uint64_t Addr) {
  std::string Out;
  char Buf[4096];
  while (Out.size() + 1 < PATH_MAX) {
    size_t Len = std::min<size_t>(4096 - (Addr & 4095), PATH_MAX - Out.size());
    if (!P.readMemory(Addr, Buf, Len))
      break;
    size_t N = strnlen(Buf, Len);
    Out.append(Buf, N);
    if (N < Len)
      return Out;
    Addr += Len;
  }
  // Unterminated within PATH_MAX, or unreadable: what was read, as before.
  if (Out.size() >= PATH_MAX)
    Out.resize(PATH_MAX - 1);
  return Out;
}

/// A hook of the agent's own (not a probe) at the entry of M's function
/// Name, first at its site: the agent looks there only.
void addAgentGate(const Module &M, const char *Name, HookKind Kind,
                  std::map<uint64_t, std::vector<Hook>> &Want,
                  std::map<uint64_t, const ElfSymbol *> &Enclosing) {
  const ElfSymbol *Sym = M.Elf->findFunction(Name);
  if (!Sym)
    return;
  std::vector<Hook> &Hooks = Want[Sym->Value + M.Bias];
  Hooks.insert(Hooks.begin(), Hook{Kind, 0, Sym->Name, M.Name});
  Enclosing.emplace(Sym->Value + M.Bias, Sym);
}

/// Takes out the hooks that are worth nothing as a breakpoint (a gate of
/// the agent's that could not be a jump): true if nothing is left there.
/// Whether a clause at these hooks keys an aggregation by a stack.
bool keysByStack(const std::vector<Hook> &Hooks, const ProbeProgram &Prog) {
  for (const Hook &H : Hooks)
    if ((H.Kind == HookKind::Entry || H.Kind == HookKind::Exit) &&
        H.Index < Prog.probes().size() &&
        (Prog.clauses()[Prog.probes()[H.Index].clause].flags &
         TSCC_CLAUSE_CALLS_STACK_ID))
      return true;
  return false;
}

bool dropGatesOnly(std::vector<Hook> &Hooks) {
  std::erase_if(Hooks,
                [](const Hook &H) { return H.Kind == HookKind::SigmaskGate; });
  return Hooks.empty();
}

} // namespace

void PtraceBackend::Impl::warnOnce(const std::string &Message) {
  if (Warned.insert(Message).second)
    S.warn(Message);
}

std::shared_ptr<const ElfFile>
PtraceBackend::Impl::loadElf(const std::string &Path) {
  std::string Error;
  cost::Timer Cost(cost::Phase::ElfOpen);
  std::shared_ptr<const ElfFile> F = Elves.get(Path, Error);
  // A debug file that was found but not used leaves names out: say why.
  for (const std::string &Why :
       F ? F->debugProblems() : std::vector<std::string>())
    warnOnce(Why);
  return F;
}

Module *PtraceBackend::Impl::addModule(PtraceProcess &P,
                                       const std::string &RawPath,
                                       uint64_t Bias, bool IsMain) {
  std::string Path = canonicalModulePath(RawPath);
  for (const auto &M : P.Modules)
    if (M->Path == Path && M->Bias == Bias)
      return M.get();
  auto M = std::make_unique<Module>();
  if (!M->describe(Path, loadElf(Path), Bias, IsMain))
    return nullptr;
  P.Modules.push_back(std::move(M));
  return P.Modules.back().get();
}

bool PtraceBackend::Impl::setupImage(PtraceProcess &P, pid_t Tid,
                                     std::string &Error) {
  if (!P.refreshIdentity(Error))
    return false;
  warnSyscallProblems(P.dataModel());
  P.FaultBreaks = !P.Launched;
  P.Reaped = &Deferred;
  if (!choosePath(P, Tid, Error))
    return false;
  scanMaps(P, Tid);
  if (P.Modules.empty()) {
    Error = "cannot read the executable " + P.ExePath;
    return false;
  }
  // Attached: libraries are already loaded and r_debug is filled in.
  if (findRDebug(P)) {
    syncLinkMap(P, Tid);
    return true;
  }
  // Just exec'ed: hook the loader's debugger function directly.
  for (const auto &M : P.Modules) {
    if (M->IsMain)
      continue;
    if (const ElfSymbol *Sym = M->Elf->findFunction("_dl_debug_state")) {
      installLoaderBreak(P, Tid, Sym->Value + M->Bias);
      break;
    }
  }
  return true;
}

bool PtraceBackend::Impl::choosePath(PtraceProcess &P, pid_t Tid,
                                     std::string &Error) {
  std::string Who = "pid " + std::to_string(P.Pid);
  std::optional<cost::Timer> PlanCost(cost::Phase::PathPlan);
  PathPlan Plan = planPath(P, Tid, Agents != nullptr, P.FaultBreaks);
  PlanCost.reset();
  P.SandboxSummary = Plan.Sandbox;
  P.NoInjection = Plan.NoInjection;
  P.AgentMayHeal = Plan.NoAgentHeal.empty();
  std::optional<cost::Timer> HomeCost(cost::Phase::HomePage);
  if (P.NoInjection.empty() && !createHomePage(P, Tid, Error)) {
    if (P.Exited)
      return false;
    // Nothing was put into the process: the path that needs nothing.
    P.NoInjection = "cannot map memory in it: " + Error;
  }
  HomeCost.reset();
  P.PathName = P.NoInjection.empty() ? "breakpoints" : "breakpoints-no-inject";
  if (!P.NoInjection.empty())
    S.note(Who + ": no system call is injected: " + P.NoInjection);
  if (P.FaultBreaks && !placeHealer(P, Tid, Plan.NoHealer))
    return false;
  if (Agents && !placeAgent(P, Tid, Plan))
    return false;
  if (P.SandboxSummary.empty())
    return true;
  const char *How = P.PathName == "agent" ? "clauses run in the process"
                    : P.PathName == "breakpoints"
                        ? "probes are breakpoints"
                        : "probes are breakpoints, stepped over in place, "
                          "with no system call injected";
  S.note(Who + ": sandboxed (" + P.SandboxSummary + "): " + How);
  return true;
}

bool PtraceBackend::Impl::placeHealer(PtraceProcess &P, pid_t Tid,
                                      std::string Why) {
  cost::Timer Cost(cost::Phase::Healer);
  std::string Who = "pid " + std::to_string(P.Pid);
  if (!P.NoInjection.empty())
    Why = P.NoInjection;
  unsigned Repaired = 0;
  if (Why.empty() && !installHealer(P, Tid, Why, Repaired) && P.Exited)
    return false;
  if (!Why.empty())
    warnOnce(Who + ": no recovery if tsrun is killed: " + Why);
  if (Repaired)
    S.warn(Who + ": removed " + std::to_string(Repaired) + " breakpoint" +
           (Repaired == 1 ? "" : "s") +
           " left behind by a tsrun that was killed");
  return true;
}

bool PtraceBackend::Impl::placeAgent(PtraceProcess &P, pid_t Tid,
                                     const PathPlan &Plan) {
  cost::Timer Cost(cost::Phase::Agent);
  std::string Who = "pid " + std::to_string(P.Pid);
  std::string Why = P.NoInjection.empty() ? Plan.NoAgent : P.NoInjection;
  if (Why.empty() && installAgent(P, Tid, *Agents, Why)) {
    P.PathName = "agent";
    S.note(Who + ": clauses run in the process (in-process agent)");
    if (!P.AgentMayHeal)
      S.note(Who +
             ": if tsrun is killed, the agent disarms and leaves its "
             "sites patched: " +
             Plan.NoAgentHeal);
    return true;
  }
  if (P.Exited)
    return false;
  discardFailedAgent(P, Tid);
  S.note(Who + ": clauses run in tsrun: " + Why);
  return true;
}

void PtraceBackend::Impl::scanMaps(PtraceProcess &P, pid_t Tid) {
  cost::Timer Cost(cost::Phase::Maps);
  std::vector<MapsLine> Maps = readMaps(P.Pid);
  // The lowest mapping of each file that has executable code.
  std::vector<std::string> Order;
  std::map<std::string, const MapsLine *> Lowest;
  std::set<std::string> HasExec;
  for (const MapsLine &L : Maps) {
    if (L.Exec)
      HasExec.insert(L.Path);
    auto [It, New] = Lowest.emplace(L.Path, &L);
    if (New)
      Order.push_back(L.Path);
    else if (L.Start < It->second->Start)
      It->second = &L;
  }
  for (const std::string &Path : Order) {
    if (!HasExec.count(Path))
      continue;
    std::shared_ptr<const ElfFile> Elf = loadElf(Path);
    if (!Elf)
      continue;
    const MapsLine &L = *Lowest[Path];
    std::optional<uint64_t> VA = Elf->offsetToVAddr(L.Offset);
    if (!VA)
      continue;
    uint64_t Bias = L.Start - (*VA & ~0xfffull);
    bool IsMain = Path == P.ExePath;
    if (Module *M = addModule(P, Path, Bias, IsMain))
      installModule(P, Tid, *M);
  }
  syncUnwindImage(P, Tid);
}

uint64_t PtraceBackend::Impl::findRDebug(PtraceProcess &P) {
  if (P.RDebug)
    return P.RDebug;
  const Module *Main = nullptr;
  for (const auto &M : P.Modules)
    if (M->IsMain)
      Main = M.get();
  if (!Main)
    return 0;
  unsigned Ptr = P.pointerSize();
  for (const ElfSegment &Seg : Main->Elf->segments()) {
    if (Seg.Type != PT_DYNAMIC)
      continue;
    uint64_t Addr = Seg.VAddr + Main->Bias;
    for (uint64_t Off = 0; Off + 2 * Ptr <= Seg.MemSize; Off += 2 * Ptr) {
      bool Ok1 = false, Ok2 = false;
      uint64_t Tag = P.readPointer(Addr + Off, Ok1);
      uint64_t Val = P.readPointer(Addr + Off + Ptr, Ok2);
      if (!Ok1 || !Ok2 || Tag == DT_NULL)
        break;
      if (Tag == DT_DEBUG) {
        P.RDebug = Val;
        return Val;
      }
    }
  }
  return 0;
}

bool PtraceBackend::Impl::installLoaderBreak(PtraceProcess &P, pid_t Tid,
                                             uint64_t Addr) {
  if (!Addr || P.LoaderBreak == Addr)
    return true;
  Breakpoint Bp;
  Bp.Addr = Addr;
  Bp.Role = BpRole::LoaderBreak;
  if (!P.readMemory(Addr, Bp.Orig, sizeof(Bp.Orig)))
    return false;
  std::string Why;
  if (!planDisplaced(Bp, P.mode(), Why)) {
    warnOnce("cannot follow library loads in pid " + std::to_string(P.Pid) +
             ": " + Why);
    return false;
  }
  if (Bp.How == Resume::OutOfLine && !P.Home) {
    // No home page for its stub: step it over (StepOver.cpp).
    if (!canStepOver(Bp, Why)) {
      warnOnce("cannot follow library loads in pid " + std::to_string(P.Pid) +
               ": " + P.NoInjection + ", and " + Why);
      return false;
    }
    Bp.How = Resume::StepOver;
  }
  if (Bp.How == Resume::OutOfLine) {
    if (P.HomeUsed + StubSlot > PtraceProcess::FarStubLimit)
      return false;
    std::vector<uint8_t> Stub;
    if (!buildStub(Bp, P.mode(), P.Home + P.HomeUsed, Stub) ||
        !P.writeMemory(Bp.Stub, Stub.data(), Stub.size()))
      return false;
    P.HomeUsed += StubSlot;
  }
  std::string Error;
  if (!syncHealerBreakpoints(P, Tid, {&Bp}, Error))
    warnOnce("pid " + std::to_string(P.Pid) + ": " + Error);
  uint8_t Break = P.breakOpcode();
  if (!P.writeMemory(Addr, &Break, 1))
    return false;
  P.LoaderBreak = Addr;
  P.Breakpoints[Addr] = Bp;
  return true;
}

bool PtraceBackend::Impl::syncLinkMap(PtraceProcess &P, pid_t Tid) {
  cost::Timer Cost(cost::Phase::LinkMap);
  uint64_t RDebug = findRDebug(P);
  if (!RDebug)
    return false;
  LinkMapLayout L = linkMapLayout(P.pointerSize());
  int32_t State = -1;
  if (!P.read(RDebug + L.RState, State) || State != 0 /*RT_CONSISTENT*/)
    return false;
  bool Ok = false;
  uint64_t Brk = P.readPointer(RDebug + L.RBrk, Ok);
  // Not over the in-process gate of a process tsrun let go of once.
  if (Ok && Brk && !P.LoaderBreak && P.LoaderGate != Brk)
    installLoaderBreak(P, Tid, Brk);

  std::set<std::pair<uint64_t, std::string>> Live;
  uint64_t Map = P.readPointer(RDebug + L.RMap, Ok);
  for (unsigned N = 0; Ok && Map && N < 4096; ++N) {
    bool A = false, B = false, C = false;
    uint64_t Bias = P.readPointer(Map + L.LAddr, A);
    uint64_t NameAddr = P.readPointer(Map + L.LName, B);
    uint64_t Next = P.readPointer(Map + L.LNext, C);
    if (!A || !B || !C)
      break;
    std::string Path = NameAddr ? readString(P, NameAddr) : std::string();
    if (!Path.empty() && Path[0] != '/')
      Path = pathOfRelativeLibrary(P.Pid, Path, Bias);
    if (!Path.empty() && Path[0] == '/') {
      Path = canonicalModulePath(Path);
      Live.insert({Bias, Path});
      if (Module *M = addModule(P, Path, Bias, false)) {
        M->FromLinkMap = true;
        installModule(P, Tid, *M);
      }
    }
    Map = Next;
  }
  // dlclose(): drop modules that left the list. Their code is unmapped, so
  // their breakpoints are forgotten, not restored.
  bool Dropped = false;
  for (auto It = P.Modules.begin(); It != P.Modules.end();) {
    Module &M = **It;
    if (M.IsMain || !M.FromLinkMap || Live.count({M.Bias, M.Path})) {
      ++It;
      continue;
    }
    for (auto B = P.Breakpoints.begin(); B != P.Breakpoints.end();)
      B = (B->first >= M.Start && B->first < M.End) ? P.Breakpoints.erase(B)
                                                    : std::next(B);
    // Its jump sites too: a library loaded there later gets sites of its
    // own, in the table entries and trampoline areas these leave.
    forgetJumpSites(P, Tid, M);
    P.StubAreas.release(M.Start);
    P.Installed.erase({M.Bias, M.Path});
    std::erase_if(P.Semaphores,
                  [&](uint64_t A) { return A >= M.Start && A < M.End; });
    It = P.Modules.erase(It);
    Dropped = true;
  }
  std::string Error;
  if (Dropped && !syncHealerBreakpoints(P, Tid, {}, Error))
    warnOnce("pid " + std::to_string(P.Pid) + ": " + Error);
  syncUnwindImage(P, Tid);
  return Ok && !Map; // the whole list was read
}

void PtraceBackend::Impl::installModule(PtraceProcess &P, pid_t Tid,
                                        Module &M) {
  if (!P.Installed.insert({M.Bias, M.Path}).second)
    return;
  cost::Timer Cost(cost::Phase::Module);
  std::optional<cost::Timer> MatchCost(cost::Phase::Match);
  ModuleRef Ref{M.Path, M.Elf->soname(), M.IsMain};
  std::vector<std::string> Problems;
  std::vector<int> Found;
  std::vector<ProbeSite> Sites =
      Matcher.matchModule(*M.Elf, Ref, Problems, &Found);
  for (const std::string &Msg : Problems)
    warnOnce(Msg);
  // Probes this process does not take (another pid) looked for nothing.
  for (uint32_t I = 0; I < Found.size(); ++I)
    if (!probeApplies(P, I))
      Found[I] = NotSearched;
  S.moduleSearched(M.Name, M.IsMain, *M.Elf, Found);
  MatchCost.reset();

  // Runtime address -> hooks; std::map keeps installation deterministic.
  std::map<uint64_t, std::vector<Hook>> Want;
  std::map<uint64_t, std::vector<std::pair<uint32_t, std::string>>> Attached;
  // The function each site is in: a jump must stay inside it.
  std::map<uint64_t, const ElfSymbol *> Enclosing;
  for (const ProbeSite &Site : Sites) {
    if (!probeApplies(P, Site.Probe))
      continue;
    HookKind K =
        Site.Kind == TSCC_PROBE_UFT_EXIT ? HookKind::Exit : HookKind::Entry;
    uint64_t Addr = Site.Address + M.Bias;
    std::string Name(Site.name());
    Want[Addr].push_back(Hook{K, Site.Probe, Name, M.Name, Site.Usdt, M.Bias});
    Attached[Addr].push_back({Site.Probe, Name});
    if (Site.Symbol)
      Enclosing[Addr] = Site.Symbol;
    if (Site.Usdt && Site.Usdt->Semaphore)
      setSemaphore(P, *Site.Usdt, M.Bias);
  }
  // A program that sets its own SIGILL handler after we attached would
  // replace the healer; watch where glibc's sigaction() and signal() meet.
  if (P.Heal.Header)
    if (const ElfSymbol *Sym = M.Elf->findFunction(HealerGuardFunction))
      Want[Sym->Value + M.Bias].push_back(
          Hook{HookKind::HealerGuard, 0, Sym->Name, M.Name});
  // With the agent alone, the agent itself keeps the program's
  // dispositions there, first at its site (TSCC_HOOK_SIGNAL_GATE).
  if (P.Agent.Installed && !P.Heal.Header)
    addAgentGate(M, HealerGuardFunction, HookKind::SignalGate, Want, Enclosing);
  // In a process it may let go of, the agent keeps SIGTRAP open for trap
  // sites (as exec gates, only there).
  if (P.Agent.Installed && Opts.Detach)
    addAgentGate(M, "pthread_sigmask", HookKind::SigmaskGate, Want, Enclosing);
  for (uint32_t W = 0; W < WithinNames.size(); ++W)
    if (const ElfSymbol *Sym = M.Elf->findFunction(WithinNames[W])) {
      Want[Sym->Value + M.Bias].insert(
          Want[Sym->Value + M.Bias].begin(),
          Hook{HookKind::WithinEnter, W, Sym->Name, M.Name});
      Enclosing.emplace(Sym->Value + M.Bias, Sym);
    }
  startSyscallDispatch(P, Tid);
  addExecGates(P, M, Want, Enclosing);
  reportSyscallMechanisms(P);
  if (Want.empty()) {
    installSyscallSitesOf(P, Tid, M);
    return;
  }

  // Sites whose clauses can run in the process jump to the agent, or trap
  // into it where a jump cannot go; the others, and those neither can be
  // put at, are breakpoints.
  std::map<uint64_t, std::string> Mechanism;
  if (P.Agent.Installed) {
    std::vector<JumpCandidate> Jumps;
    std::vector<uint64_t> Sites; // a jump must not cover another one
    for (auto &[Addr, Hooks] : Want) {
      Sites.push_back(Addr);
      std::string Why = inProcessObstacle(
          Hooks, keysByStack(Hooks, S.program()) && stackKeysInProcess(P, Tid));
      if (Why.empty() && P.Breakpoints.count(Addr))
        Why = "a breakpoint is already there";
      auto E = Enclosing.find(Addr);
      bool Usdt = std::any_of(Hooks.begin(), Hooks.end(),
                              [](const Hook &H) { return H.Usdt; });
      if (Why.empty() && E != Enclosing.end())
        Jumps.push_back(
            {Addr, E->second->Value + M.Bias, E->second->Size, Hooks, {}});
      else if (Why.empty() && Usdt) // a note's site is an instruction
        Jumps.push_back({Addr, 0, 0, Hooks, {}});
      else
        Mechanism[Addr] =
            "breakpoint (" +
            (Why.empty() ? std::string("no symbol gives the enclosing function")
                         : Why) +
            ")";
    }
    std::map<uint64_t, std::string> Traps;
    PlanCounts Plans;
    std::map<uint64_t, std::string> Rejected =
        installJumpSites(P, Tid, M, Jumps, Sites, Traps, &Plans);
    // Part of the exec-cost diagnostics (ExecCost.h), not of every -v.
    if (cost::enabled() && Plans.Reused + Plans.Made)
      S.note("pid " + std::to_string(P.Pid) + ": " + M.Name + ": " +
             std::to_string(Plans.Reused) +
             " site plans reused from an earlier image of the same file, " +
             std::to_string(Plans.Made) + " made");
    for (const JumpCandidate &J : Jumps) {
      auto R = Rejected.find(J.Addr);
      if (R != Rejected.end()) {
        if (dropGatesOnly(Want[J.Addr]))
          Want.erase(J.Addr);
        else
          Mechanism[J.Addr] = "breakpoint (" + R->second + ")";
        continue;
      }
      auto T = Traps.find(J.Addr);
      Mechanism[J.Addr] = T == Traps.end()
                              ? std::string("in-process jump")
                              : "in-process trap (" + T->second + ")";
      Want.erase(J.Addr);
    }
  }

  // Plan every new breakpoint, then allocate one scratch area near the
  // module for all out-of-line stubs of this batch.
  std::vector<Breakpoint> New;
  for (auto &[Addr, Hooks] : Want) {
    if (auto It = P.Breakpoints.find(Addr); It != P.Breakpoints.end()) {
      for (Hook &H : Hooks)
        It->second.Hooks.push_back(std::move(H));
      continue;
    }
    Breakpoint Bp;
    Bp.Addr = Addr;
    Bp.Hooks = std::move(Hooks);
    // Near the end of a mapping fewer than 16 bytes may be readable.
    size_t Got = sizeof(Bp.Orig);
    while (Got && !P.readMemory(Addr, Bp.Orig, Got))
      --Got;
    std::string Why;
    if (!Got || !planDisplaced(Bp, P.mode(), Why)) {
      warnOnce("cannot probe " + Bp.Hooks.front().Function + " in " + M.Path +
               ": " + (Got ? Why : "unreadable"));
      Attached.erase(Addr);
      continue;
    }
    New.push_back(std::move(Bp));
  }
  std::vector<uint64_t> Dropped;
  for (uint64_t Addr : placeStubs(P, Tid, M, New, Dropped))
    Mechanism[Addr] = "breakpoint, stepped over in place";
  for (uint64_t Addr : Dropped)
    Attached.erase(Addr);
  // The healer must know every breakpoint before it is written.
  std::vector<const Breakpoint *> Pending;
  for (const Breakpoint &Bp : New)
    Pending.push_back(&Bp);
  std::string HealError;
  if (!syncHealerBreakpoints(P, Tid, Pending, HealError))
    warnOnce("pid " + std::to_string(P.Pid) + ": " + HealError);
  uint8_t Break = P.breakOpcode();
  for (Breakpoint &Bp : New) {
    if (!Bp.Addr)
      continue;
    if (!P.writeMemory(Bp.Addr, &Break, 1)) {
      warnOnce("cannot write a breakpoint in " + M.Path);
      Attached.erase(Bp.Addr);
      continue;
    }
    uint64_t Addr = Bp.Addr;
    P.Breakpoints[Addr] = std::move(Bp);
  }
  for (const auto &[Addr, List] : Attached) {
    auto How = Mechanism.find(Addr);
    for (const auto &[Probe, Func] : List)
      S.probeAttached(P, Probe, Func, M.Name, Addr,
                      How == Mechanism.end() ? std::string_view("breakpoint")
                                             : std::string_view(How->second));
  }
  // After the probes of M's functions, which a system-call site's jump
  // must not cover.
  installSyscallSitesOf(P, Tid, M);
}

std::vector<uint64_t>
PtraceBackend::Impl::placeStubs(PtraceProcess &P, pid_t Tid, Module &M,
                                std::vector<Breakpoint> &New,
                                std::vector<uint64_t> &Dropped) {
  size_t OOL = std::count_if(New.begin(), New.end(), [](const Breakpoint &B) {
    return B.How == Resume::OutOfLine;
  });
  std::vector<uint64_t> Stepped;
  if (!OOL)
    return Stepped;
  // One scratch area near the module for every stub of this batch; where
  // the process's sandbox lets tsrun map none, or one cannot be had, the
  // instructions are stepped over in place instead.
  std::string NoArea = P.NoInjection;
  uint64_t Area = 0;
  bool Rel32 = P.mode() == X86Mode::Bits64;
  if (NoArea.empty() &&
      !(Area = P.StubAreas.take(M.Start, M.End, OOL * StubSlot, Rel32))) {
    Area = mapScratch(P, Tid, M.Start, M.End, OOL * StubSlot, NoArea);
    if (Area)
      P.StubAreas.add(Area, (OOL * StubSlot + 4095) & ~uint64_t(4095), M.Start);
    else
      warnOnce("cannot map scratch memory in pid " + std::to_string(P.Pid) +
               ": " + NoArea + "; its breakpoints are stepped over in place");
  }
  std::vector<uint8_t> Code(OOL * StubSlot, 0xcc);
  size_t Slot = 0;
  for (Breakpoint &Bp : New) {
    if (Bp.How != Resume::OutOfLine)
      continue;
    std::vector<uint8_t> Stub;
    uint64_t At = Area + Slot * StubSlot;
    if (Area && buildStub(Bp, P.mode(), At, Stub)) {
      std::copy(Stub.begin(), Stub.end(), Code.begin() + Slot * StubSlot);
      ++Slot;
      continue;
    }
    std::string Why;
    if (canStepOver(Bp, Why)) {
      Bp.How = Resume::StepOver;
      Stepped.push_back(Bp.Addr);
      continue;
    }
    warnOnce("cannot probe " + Bp.Hooks.front().Function + " in " + M.Path +
             ": " + (Area ? "no scratch memory within reach" : NoArea) +
             ", and " + Why);
    Dropped.push_back(Bp.Addr);
    Bp.Addr = 0;
  }
  if (Area && !P.writeMemory(Area, Code.data(), Code.size()))
    warnOnce("cannot write scratch memory in pid " + std::to_string(P.Pid));
  return Stepped;
}

void PtraceBackend::Impl::setSemaphore(PtraceProcess &P, const UsdtProbe &U,
                                       uint64_t Bias) {
  uint64_t Addr = U.Semaphore + Bias;
  if (P.Semaphores.count(Addr))
    return;
  if (adjustUsdtSemaphore(Addr, +1, semaphoreReader(P), semaphoreWriter(P)))
    P.Semaphores.insert(Addr);
  else
    warnOnce("pid " + std::to_string(P.Pid) +
             ": cannot set the semaphore of USDT probe " + U.Provider + ":" +
             U.Name);
}

UsdtMemoryReader PtraceBackend::Impl::semaphoreReader(PtraceProcess &P) {
  return [&P](uint64_t A, void *Dst, size_t Len) {
    return P.readMemory(A, Dst, Len);
  };
}

UsdtMemoryWriter PtraceBackend::Impl::semaphoreWriter(PtraceProcess &P) {
  return [&P](uint64_t A, const void *Src, size_t Len) {
    return P.writeMemory(A, Src, Len);
  };
}

std::string
PtraceBackend::Impl::inProcessObstacle(const std::vector<Hook> &Hooks,
                                       bool StackKeysIn) const {
  const ProbeProgram &Prog = S.program();
  for (const Hook &H : Hooks) {
    if (H.Kind == HookKind::HealerGuard)
      return "tsrun watches sigaction() here";
    if (H.Kind == HookKind::WithinEnter || H.Kind == HookKind::ExecGate ||
        H.Kind == HookKind::SignalGate || H.Kind == HookKind::SigmaskGate ||
        H.Kind == HookKind::LoaderGate)
      continue;
    uint32_t Flags = Prog.clauses()[Prog.probes()[H.Index].clause].flags;
    if ((Flags & TSCC_CLAUSE_CALLS_STACK_ID) && !StackKeysIn)
      return "the clause uses a stack as a key";
  }
  return {};
}
