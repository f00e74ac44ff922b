//===- RemoteModules.cpp - Modules of the remote process and probes -------===//
//
// A stub hands us the process stopped before its first instruction (qemu
// and gdbserver both stop at the dynamic loader's entry). At that point the
// executable and the loader are mapped; libraries are not. The executable's
// load bias comes from the auxiliary vector (AT_ENTRY against the ELF entry,
// or AT_PHDR), falling back to qOffsets; the loader's from AT_BASE.
// Libraries come from qXfer:libraries-svr4 when the stub offers it, else from
// walking r_debug/link_map in target memory (r_debug found through the
// executable's DT_DEBUG), each time the loader calls its debugger hook
// (_dl_debug_state, r_brk) with r_state == RT_CONSISTENT.
//
//===----------------------------------------------------------------------===//
#include "RemoteImpl.h"
#include "TargetXml.h"

#include "tscc/Runtime/Auxv.h"
#include "tscc/Runtime/LinkMap.h"
#include "tscc/Runtime/ProbeCoverage.h"
#include "tscc/Runtime/Session.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <elf.h>

using namespace tscc::rt;
using namespace tscc::rt::remote;

void RemoteBackend::Impl::warnOnce(const std::string &Message) {
  if (Warned.insert(Message).second)
    S.warn(Message);
}

std::shared_ptr<const ElfFile>
RemoteBackend::Impl::loadElf(const std::string &Path) {
  std::string Error;
  std::shared_ptr<const ElfFile> F = Elves.get(Path, Error);
  if (!F)
    warnOnce(where() + ": cannot read " + Error +
             "; its functions cannot be probed");
  for (const std::string &Why :
       F ? F->debugProblems() : std::vector<std::string>())
    warnOnce(where() + ": " + Why);
  return F;
}

Module *RemoteBackend::Impl::addModule(const std::string &RawPath,
                                       uint64_t Bias, bool IsMain,
                                       bool FromLinkMap) {
  std::string Path = canonicalModulePath(RawPath);
  for (Module *M : Tgt->liveModules())
    if (M->Path == Path && M->Bias == Bias)
      return M;
  auto M = std::make_unique<Module>();
  if (!M->describe(Path, IsMain && ExeElf ? ExeElf : loadElf(Path), Bias,
                   IsMain))
    return nullptr;
  M->FromLinkMap = FromLinkMap;
  Module *Added = Tgt->addModule(std::move(M));
  // Symbols of another build would put breakpoints inside instructions.
  ImageCheck C = checkImage(*Added);
  if (C.Result == ImageMatch::Different) {
    Added->Mismatched = true;
    reportMismatch(mismatchMessage(*Added, C));
    S.moduleSkipped(Added->Name,
                    ModuleRef{Added->Path, Added->Elf->soname(), Added->IsMain},
                    "the file tsrun read is not the one the target maps");
    return Added;
  }
  Added->Verified = C.Result == ImageMatch::Same;
  installModule(*Added);
  return Added;
}

void RemoteBackend::Impl::readAuxv() {
  // Pairs of target-width words.
  if (!Client->features().XferAuxv)
    return;
  std::optional<std::string> Auxv = Client->readXfer("auxv", "");
  if (!Auxv)
    return;
  std::map<uint64_t, uint64_t> Aux =
      parseAuxv({reinterpret_cast<const uint8_t *>(Auxv->data()), Auxv->size()},
                Tgt->pointerSize());
  auto Get = [&](uint64_t Type) {
    auto It = Aux.find(Type);
    return It == Aux.end() ? 0 : It->second;
  };
  AuxvEntry = Get(AT_ENTRY);
  AuxvBase = Get(AT_BASE);
  AuxvPhdr = Get(AT_PHDR);
  AuxvPhnum = Get(AT_PHNUM);
  HaveAuxv = AuxvEntry != 0;
}

bool RemoteBackend::Impl::loadInitialModules(std::string &Error) {
  uint64_t Bias = 0;
  if (ExeElf->isRelocatable()) {
    if (HaveAuxv) {
      Bias = AuxvEntry - ExeElf->entry();
    } else if (std::optional<std::string> Off = Client->request("qOffsets");
               Off && Off->rfind("Text=", 0) == 0) {
      std::string_view V = std::string_view(*Off).substr(5);
      rsp::parseHexNumber(V.substr(0, V.find(';')), Bias);
    } else {
      warnOnce(where() +
               ": the stub reports neither auxv nor qOffsets; "
               "assuming " +
               Opts.Executable +
               " is loaded at its link "
               "address");
    }
  }
  Module *Main = addModule(Opts.Executable, Bias, /*IsMain=*/true, false);
  if (!StartError.empty()) {
    Error = StartError;
    return false;
  }
  if (!Main) {
    Error = "cannot use " + Opts.Executable;
    return false;
  }
  // The dynamic loader: probes in it, and its debugger hook for libraries.
  if (!ExeElf->interpreter().empty() && AuxvBase) {
    Module *LD = addModule(ExeElf->interpreter(), AuxvBase, false, false);
    if (LD && !LD->Mismatched) {
      if (const ElfSymbol *Sym = LD->Elf->findFunction("_dl_debug_state")) {
        Hook H;
        H.Kind = HookKind::LoaderBreak;
        H.Function = Sym->Name;
        H.ModuleName = LD->Name;
        H.Owner = LD;
        addHook(Sym->Value + LD->Bias, std::move(H));
      } else {
        warnOnce(where() + ": " + LD->Path +
                 " has no _dl_debug_state; "
                 "libraries loaded later will not be probed");
      }
    }
  }
  // Attached to a running process: libraries are already there.
  syncLibraries();
  Error = StartError;
  return StartError.empty();
}

uint64_t RemoteBackend::Impl::findRDebug() {
  if (RDebug)
    return RDebug;
  // DT_DEBUG in the executable's dynamic section, filled in by the loader.
  Module *Main = nullptr;
  for (Module *M : Tgt->liveModules())
    if (M->IsMain)
      Main = M;
  if (!Main)
    return 0;
  for (const ElfSegment &Seg : Main->Elf->segments()) {
    if (Seg.Type != PT_DYNAMIC)
      continue;
    unsigned W = Tgt->pointerSize();
    uint64_t Addr = Seg.VAddr + Main->Bias;
    for (uint64_t Off = 0; Off + 2 * W <= Seg.MemSize; Off += 2 * W) {
      bool Ok1 = false, Ok2 = false;
      uint64_t Tag = Tgt->readPointer(Addr + Off, Ok1);
      uint64_t Val = Tgt->readPointer(Addr + Off + W, Ok2);
      if (!Ok1 || !Ok2 || Tag == DT_NULL)
        break;
      if (Tag == DT_DEBUG) {
        RDebug = Val;
        return Val;
      }
    }
  }
  return 0;
}

void RemoteBackend::Impl::syncLibraries() {
  if (Client->features().XferLibrariesSvr4 && syncFromSvr4())
    return;
  syncFromLinkMap();
}

bool RemoteBackend::Impl::syncFromSvr4() {
  std::optional<std::string> Xml = Client->readXfer("libraries-svr4", "");
  if (!Xml)
    return false;
  std::set<std::pair<std::string, uint64_t>> Seen;
  size_t Pos = 0;
  while ((Pos = Xml->find("<library ", Pos)) != std::string::npos) {
    size_t End = Xml->find('>', Pos);
    if (End == std::string::npos)
      break;
    std::string_view Tag(Xml->data() + Pos + 1, End - Pos - 1);
    Pos = End;
    std::optional<std::string> Name = rsp::xmlAttribute(Tag, "name");
    std::optional<std::string> LAddr = rsp::xmlAttribute(Tag, "l_addr");
    uint64_t Bias = 0;
    // Entries without a path (the vDSO) have no file to read symbols from.
    if (!Name || Name->empty() || (*Name)[0] != '/' || !LAddr ||
        !rsp::parseHexNumber(
            std::string_view(*LAddr).substr(LAddr->rfind("0x", 0) == 0 ? 2 : 0),
            Bias))
      continue;
    Seen.insert({canonicalModulePath(*Name), Bias});
    addModule(*Name, Bias, false, true);
  }
  for (Module *M : Tgt->liveModules())
    if (M->FromLinkMap && !Seen.count({M->Path, M->Bias}))
      dropModule(*M);
  return true;
}

void RemoteBackend::Impl::syncFromLinkMap() {
  uint64_t R = findRDebug();
  if (!R)
    return;
  LinkMapLayout L = linkMapLayout(Tgt->pointerSize());
  int32_t State = 0;
  if (!Tgt->readMemory(R + L.RState, &State, sizeof(State)) || State != 0)
    return; // RT_ADD / RT_DELETE: the list is being changed
  bool Ok = false;
  uint64_t LM = Tgt->readPointer(R + L.RMap, Ok);
  std::set<std::pair<std::string, uint64_t>> Seen;
  for (unsigned Guard = 0; Ok && LM && Guard < 4096; ++Guard) {
    bool OkA = false, OkN = false, OkX = false;
    uint64_t Bias = Tgt->readPointer(LM + L.LAddr, OkA);
    uint64_t NameAddr = Tgt->readPointer(LM + L.LName, OkN);
    uint64_t Next = Tgt->readPointer(LM + L.LNext, OkX);
    if (!OkA || !OkN || !OkX)
      break;
    char Name[PATH_MAX] = {};
    if (NameAddr) {
      // Read in small steps: a name may end near the end of a mapping.
      for (size_t I = 0; I + 1 < sizeof(Name); I += 64) {
        size_t N = std::min<size_t>(64, sizeof(Name) - 1 - I);
        if (!Tgt->readMemory(NameAddr + I, Name + I, N) ||
            std::memchr(Name + I, 0, N))
          break;
      }
    }
    if (Name[0] == '/') { // the executable and the vDSO have no path
      Seen.insert({canonicalModulePath(Name), Bias});
      addModule(Name, Bias, false, true);
    }
    LM = Next;
  }
  for (Module *M : Tgt->liveModules())
    if (M->FromLinkMap && !Seen.count({M->Path, M->Bias}))
      dropModule(*M);
}

bool RemoteBackend::Impl::adjustSemaphore(uint64_t Addr, int Delta) {
  return adjustUsdtSemaphore(
      Addr, Delta,
      [&](uint64_t A, void *Dst, size_t Len) {
        return Tgt->readMemory(A, Dst, Len);
      },
      [&](uint64_t A, const void *Src, size_t Len) {
        Tgt->invalidateCache();
        return Client->writeMemory(A, Src, Len);
      });
}

void RemoteBackend::Impl::dropModule(Module &M) {
  M.Live = false;
  for (auto It = GuestTraps.begin(); It != GuestTraps.end();) {
    std::erase_if(It->second, [&](const Hook &H) { return H.Owner == &M; });
    It = It->second.empty() ? GuestTraps.erase(It) : std::next(It);
  }
  // Its semaphores went with its data.
  std::erase_if(Semaphores,
                [&](uint64_t A) { return A >= M.Start && A < M.End; });
  for (auto It = Breakpoints.begin(); It != Breakpoints.end();) {
    Breakpoint &B = It->second;
    std::erase_if(B.Hooks, [&](const Hook &H) { return H.Owner == &M; });
    if (B.Hooks.empty() && !B.ReturnRefs) {
      // dlclose() unmapped the code: nothing to restore for memory
      // breakpoints, and z0 of a stale Z0 breakpoint is harmless.
      if (B.Inserted && !B.ByMemory)
        Client->removeBreakpoint(B.Addr, 1);
      It = Breakpoints.erase(It);
      continue;
    }
    ++It;
  }
}

bool RemoteBackend::Impl::insertBreakpoint(Breakpoint &B) {
  if (B.Inserted)
    return true;
  if (!Z0Unsupported) {
    bool Unsupported = false;
    if (Client->insertBreakpoint(B.Addr, 1, Unsupported)) {
      B.Inserted = true;
      return true;
    }
    if (!Unsupported)
      return false;
    Z0Unsupported = true;
    warnOnce(where() + ": the stub does not support Z0 breakpoints; "
                       "writing int3 instructions into the target instead");
  }
  uint8_t Int3 = 0xcc;
  if (!Client->readMemory(B.Addr, &B.Orig, 1) ||
      !Client->writeMemory(B.Addr, &Int3, 1))
    return false;
  Tgt->invalidateCache();
  B.Inserted = B.ByMemory = true;
  return true;
}

bool RemoteBackend::Impl::removeBreakpoint(Breakpoint &B) {
  if (!B.Inserted)
    return true;
  bool Ok = B.ByMemory ? Client->writeMemory(B.Addr, &B.Orig, 1)
                       : Client->removeBreakpoint(B.Addr, 1);
  if (B.ByMemory)
    Tgt->invalidateCache();
  if (Ok)
    B.Inserted = false;
  return Ok;
}

void RemoteBackend::Impl::addHook(uint64_t Addr, Hook H) {
  Breakpoint &B = Breakpoints[Addr];
  B.Addr = Addr;
  B.Hooks.push_back(std::move(H));
  if (!insertBreakpoint(B)) {
    warnOnce(where() + ": cannot set a breakpoint at 0x" +
             rsp::hexNumber(Addr) + " (" + B.Hooks.back().Function + ")");
    B.Hooks.pop_back();
    if (B.Hooks.empty() && !B.ReturnRefs)
      Breakpoints.erase(Addr);
  }
}

bool RemoteBackend::Impl::probeApplies(uint32_t Probe) const {
  int64_t Want = S.probePid(Probe);
  return Want < 0 || Want == Tgt->pid();
}

void RemoteBackend::Impl::addProbeHooks(
    Module &M, const std::vector<ProbeSite> &Sites,
    const std::map<uint64_t, std::string> &InGuest) {
  // Sites that jump into the agent in the guest need no breakpoint.
  for (const ProbeSite &Site : Sites) {
    if (!probeApplies(Site.Probe) || (!Site.Symbol && !Site.Usdt))
      continue;
    uint64_t At = Site.Address + M.Bias;
    // A USDT probe's semaphore counts tracers, whatever runs its clause.
    if (Site.Usdt && Site.Usdt->Semaphore) {
      uint64_t Sem = Site.Usdt->Semaphore + M.Bias;
      if (!Semaphores.count(Sem)) {
        if (adjustSemaphore(Sem, +1))
          Semaphores.insert(Sem);
        else
          warnOnce(where() + ": cannot set the semaphore of USDT probe " +
                   Site.Usdt->Provider + ":" + Site.Usdt->Name);
      }
    }
    Hook H;
    H.Kind =
        Site.Kind == TSCC_PROBE_UFT_EXIT ? HookKind::Exit : HookKind::Entry;
    H.Index = Site.Probe;
    H.Function = std::string(Site.name());
    H.ModuleName = M.Name;
    H.Owner = &M;
    H.Usdt = Site.Usdt;
    std::string Mechanism;
    if (auto It = InGuest.find(At); It != InGuest.end()) {
      if (It->second.empty()) {
        // The agent traps to tsrun for it, one thread at a time.
        auto Trap = GuestTrapWhy.find(At);
        if (Trap != GuestTrapWhy.end())
          GuestTraps[At].push_back(H);
        S.probeAttached(*Tgt, Site.Probe, Site.name(), M.Name, At,
                        Trap == GuestTrapWhy.end()
                            ? "in-process jump"
                            : "in-process jump, clause in tsrun (" +
                                  Trap->second + ")");
        continue;
      }
      Mechanism = "breakpoint (" + It->second + ")";
    } else if (!Access) {
      // The whole target keeps its clauses in tsrun.
      Mechanism = "breakpoint (" + NoAgentWhy + ")";
    }
    uint64_t Addr = Site.Address + M.Bias;
    addHook(Addr, H);
    S.probeAttached(*Tgt, Site.Probe, H.Function, H.ModuleName, Addr,
                    Mechanism);
  }
}

void RemoteBackend::Impl::installModule(Module &M) {
  ModuleRef Ref{M.Path, M.Elf->soname(), M.IsMain};
  std::vector<const ElfSymbol *> Within;
  for (const std::string &Name : WithinNames) {
    const ElfSymbol *Sym = M.Elf->findFunction(Name);
    Within.push_back(Sym && !Sym->IFunc ? Sym : nullptr);
  }
  std::vector<std::string> Problems;
  std::vector<int> Found;
  std::vector<ProbeSite> Sites;
  if (Matcher.anyModuleMatches(Ref))
    Sites = Matcher.matchModule(*M.Elf, Ref, Problems, &Found);
  // Without a build-id to go by, every site is compared before a
  // breakpoint goes in.
  std::vector<std::pair<uint64_t, std::string>> Check;
  for (const ProbeSite &Site : Sites)
    if (probeApplies(Site.Probe) && (Site.Symbol || Site.Usdt))
      Check.emplace_back(Site.Address, std::string(Site.name()));
  for (const ElfSymbol *Sym : Within)
    if (Sym)
      Check.emplace_back(Sym->Value, Sym->Name);
  if (!sitesMatch(M, Check))
    return;
  std::map<uint64_t, std::string> InGuest = installAgentSites(M, Sites, Within);
  if (Matcher.anyModuleMatches(Ref)) {
    for (uint32_t I = 0; I < Found.size(); ++I)
      if (!probeApplies(I))
        Found[I] = NotSearched;
    S.moduleSearched(M.Name, M.IsMain, *M.Elf, Found);
    addProbeHooks(M, Sites, InGuest);
    for (const std::string &P : Problems)
      warnOnce(where() + ": " + P);
  }
  // within("f"): every definition of f in any module.
  for (uint32_t I = 0; I < Within.size(); ++I) {
    const ElfSymbol *Sym = Within[I];
    if (!Sym)
      continue;
    uint64_t At = Sym->Value + M.Bias;
    auto It = InGuest.find(At);
    std::string How =
        It != InGuest.end() && It->second.empty()
            ? "in-process jump"
            : "breakpoint (" + (It != InGuest.end() ? It->second : NoAgentWhy) +
                  ")";
    S.note("pid " + std::to_string(Tgt->pid()) + ": within(\"" +
           WithinNames[I] + "\") at " + Sym->Name + " in " + M.Name + " (0x" +
           rsp::hexNumber(At) + "), " + How);
    if (It != InGuest.end() && It->second.empty())
      continue; // the agent counts it in the guest
    Hook H;
    H.Kind = HookKind::WithinEnter;
    H.Index = I;
    H.Function = Sym->Name;
    H.ModuleName = M.Name;
    H.Owner = &M;
    addHook(Sym->Value + M.Bias, H);
  }
}

void RemoteBackend::Impl::installSyscalls() {
  if (!Matcher.hasKind(TSCC_PROBE_SYSCALL_ENTRY) &&
      !Matcher.hasKind(TSCC_PROBE_SYSCALL_EXIT))
    return;
  if (!Client->features().CatchSyscalls) {
    S.warn(where() +
           ": the stub does not support catching system calls "
           "(no QCatchSyscalls, as with qemu-user); @@syscall probes will "
           "not fire in " +
           Tgt->name() + " (pid " + std::to_string(Tgt->pid()) + ")");
    return;
  }
  std::vector<std::string> Problems;
  std::vector<uint64_t> Numbers;
  for (const SyscallSite &Site : Matcher.matchSyscalls(Tgt->DM, Problems)) {
    if (!probeApplies(Site.Probe))
      continue;
    (Site.Exit ? SysExit : SysEntry)[Site.Number].push_back(Site.Probe);
    Numbers.push_back(Site.Number);
    S.probeAttached(*Tgt, Site.Probe, Site.Name, "syscall", Site.Number,
                    "system-call stop (QCatchSyscalls)");
  }
  for (const std::string &P : Problems)
    warnOnce(where() + ": " + P);
  if (Numbers.empty())
    return;
  std::sort(Numbers.begin(), Numbers.end());
  Numbers.erase(std::unique(Numbers.begin(), Numbers.end()), Numbers.end());
  if (!Client->catchSyscalls(true, Numbers))
    S.warn(where() + ": the stub refused QCatchSyscalls; @@syscall probes "
                     "will not fire");
}
