//===- JumpSites.cpp - Probe sites that jump into the agent ---------------===//
#include "JumpSites.h"

#include "../../Ptrace/Inject.h"
#include "../Installer/Agent.h"

#include "IndirectJumps.h"
#include "JumpPatch.h"
#include "ModuleEntries.h"
#include "SyscallTrampoline.h"
#include "Trampoline.h"

#include "tscc/agent.h"

#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <sys/ptrace.h>
#include <sys/user.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

/// Functions larger than this are not decoded for branch targets; their
/// sites stay breakpoints.
constexpr uint64_t MaxFunctionBytes = 1u << 20;

struct Planned {
  const JumpRequest *C;
  ip::PatchPlan Plan;
};

bool withinRel32(uint64_t From, uint64_t To) {
  int64_t D = static_cast<int64_t>(To - From);
  return D >= INT32_MIN + 64 && D <= INT32_MAX - 64;
}

uint32_t hookKind(const JumpCandidate &C, const Hook &H) {
  if (C.isSyscall())
    return TSCC_HOOK_SYSCALL(H.Kind == HookKind::Exit ? TSCC_HOOK_SYSCALL_EXIT
                                                      : TSCC_HOOK_SYSCALL_ENTRY,
                             H.SyscallNr);
  switch (H.Kind) {
  case HookKind::Entry:
    return TSCC_HOOK_ENTRY;
  case HookKind::Exit:
    return TSCC_HOOK_EXIT;
  case HookKind::WithinEnter:
    return TSCC_HOOK_WITHIN;
  case HookKind::HealerGuard:
    break;
  }
  return 0;
}

/// The module-wide entries of M's file, found once per file while a
/// module uses it.
const ip::ModuleEntries &moduleEntries(const ModuleImage &M) {
  struct Cached {
    std::weak_ptr<const ElfFile> File;
    std::unique_ptr<ip::ModuleEntries> Entries;
  };
  static std::mutex Lock;
  static std::map<const ElfFile *, Cached> Cache;
  std::lock_guard<std::mutex> Guard(Lock);
  std::erase_if(Cache, [](const auto &E) { return E.second.File.expired(); });
  auto It = Cache.find(M.Elf.get());
  if (It == Cache.end())
    It =
        Cache
            .emplace(M.Elf.get(),
                     Cached{M.Elf, std::make_unique<ip::ModuleEntries>(*M.Elf)})
            .first;
  return *It->second.Entries;
}

/// Every way into C's function that its own direct branches do not show:
/// the module's (ModuleEntries.h) and its jump tables' entries, read from
/// the process, where they are relocated.
ip::EntryFacts entriesInto(JumpSiteTarget &P, const ModuleImage &M,
                           const JumpRequest &C, std::span<const uint8_t> Func,
                           const std::vector<uint64_t> &Sites) {
  ip::EntryFacts Facts;
  const ip::ModuleEntries &ME = moduleEntries(M);
  uint64_t Lo = C.FuncStart - M.Bias;
  ME.within(Lo, Lo + C.FuncSize, M.Bias, Facts.Entries);
  for (uint64_t S : Sites)
    if (S >= C.FuncStart && S < C.FuncStart + C.FuncSize)
      Facts.Entries.push_back({S, ip::EntryKind::ProbeSite});
  ip::FunctionCode Code;
  std::string Why;
  if (!ip::scanFunctionCode(Func, C.FuncStart, Code, Why, P.Mode))
    return Facts; // planJumpPatch refuses the site for the same reason
  ip::AddressRanges Ranges;
  for (const auto &[Start, End] : ME.code())
    Ranges.push_back({Start + M.Bias, End + M.Bias});
  auto Read = [&](uint64_t A, void *Dst, size_t Len) {
    return P.Acc.readMemory(A, Dst, Len);
  };
  for (const ip::IndirectJump &J : Code.Jumps)
    if (J.Kind == ip::IndirectKind::Unresolved && !Facts.Unresolved)
      Facts.Unresolved = J;
  std::vector<uint64_t> Targets;
  for (const ip::IndirectJump &T : Code.Tables)
    ip::readJumpTable(T, Ranges, Read, Targets);
  for (uint64_t T : Targets)
    Facts.Entries.push_back({T, ip::EntryKind::JumpTable});
  return Facts;
}

/// Why no thread may be where the jump goes, or "". A thread stopped
/// inside the bytes to be overwritten would resume in the middle of the
/// jump; one in a system call displaced last would be sent back into them
/// if the call restarts (the kernel moves the PC back over the syscall).
std::string ptraceThreadsInTheWay(PtraceProcess &P, const ip::PatchPlan &Plan) {
  const X86Insn &Last = Plan.Insns.back().Insn;
  // syscall, or i386's int $0x80 (sysenter is only in the vDSO).
  bool SyscallLast = !Last.Vex && ((Last.Map == 1 && Last.Opcode == 0x05) ||
                                   (Last.Map == 0 && Last.Opcode == 0xcd));
  for (const auto &[Tid, T] : P.Threads) {
    if (T.State != ThreadState::Stopped)
      continue;
    user_regs_struct R;
    if (ptrace(PTRACE_GETREGS, Tid, nullptr, &R) != 0)
      continue;
    if (R.rip > Plan.Site && R.rip < Plan.Site + Plan.Length)
      return "a thread is inside the bytes the jump would overwrite";
    if (SyscallLast && R.rip == Plan.Site + Plan.Length)
      return "a thread is in the system call the jump would displace";
  }
  return {};
}

/// What one batch of sites plans with: the probe sites (of the batch and
/// those already there) and the ways into each function planned so far,
/// which several sites of a function (entry, exit, offsets) share.
struct BatchFacts {
  std::vector<uint64_t> Sites;
  std::map<uint64_t, ip::EntryFacts> ByFunction;
};

/// Why a site with these hooks cannot be a jump, or "".
std::string plan(JumpSiteTarget &P, const ModuleImage &M, const JumpRequest &C,
                 BatchFacts &Batch, Planned &Out) {
  if (!C.FuncSize)
    return "the function's size is unknown";
  if (C.FuncSize > MaxFunctionBytes)
    return "the function is too large to check for branches into the site";
  std::vector<uint8_t> Func(C.FuncSize);
  if (!P.Acc.readMemory(C.FuncStart, Func.data(), Func.size()))
    return "the function cannot be read";
  std::string Why;
  auto Known = Batch.ByFunction.find(C.FuncStart);
  if (Known == Batch.ByFunction.end())
    Known = Batch.ByFunction
                .emplace(C.FuncStart, entriesInto(P, M, C, Func, Batch.Sites))
                .first;
  bool Ok = C.isSyscall()
                ? ip::planSyscallPatch(Func, C.FuncStart, C.Addr, Known->second,
                                       Out.Plan, Why)
                : ip::planJumpPatch(Func, C.FuncStart, C.Addr, Known->second,
                                    Out.Plan, Why, P.Mode);
  if (!Ok)
    return Why;
  // A system-call site's jump may start before the probed address: it
  // must cover no other site either.
  for (uint64_t S : Batch.Sites)
    if (S != C.Addr && S >= Out.Plan.Site &&
        S < Out.Plan.Site + Out.Plan.Length)
      return "another probe site is inside the patched bytes";
  if (std::string Busy = P.ThreadsInTheWay(Out.Plan); !Busy.empty())
    return Busy;
  Out.C = &C;
  return {};
}

/// Appends a trampoline to the agent's table of sites.
bool registerSite(JumpSiteTarget &P, uint64_t Trampoline) {
  AgentState &A = P.Agent;
  if (A.SiteCount >= A.SiteCapacity)
    return false;
  uint32_t Count = A.SiteCount + 1;
  // The table holds pointers of the process's width (little-endian).
  if (!P.Acc.writeMemory(A.SiteTable + uint64_t(A.SiteCount) * 8, &Trampoline,
                         8) ||
      !P.Acc.writeMemory(A.Config + offsetof(tscc_agent_config, site_count),
                         &Count, 4))
    return false;
  A.SiteCount = Count;
  return true;
}

} // namespace

std::map<uint64_t, std::string>
tscc::rt::pt::installJumpSites(PtraceProcess &P, pid_t Tid, const Module &M,
                               const std::vector<JumpCandidate> &Candidates,
                               const std::vector<uint64_t> &Sites) {
  PtraceAccess Acc(P, Tid);
  JumpSiteTarget T{
      Acc, P.Agent, P.mode(),
      [&P](const ip::PatchPlan &Plan) {
        return ptraceThreadsInTheWay(P, Plan);
      },
      [&P, Tid](uint64_t Lo, uint64_t Hi, uint64_t Size, std::string &Why) {
        return mapScratch(P, Tid, Lo, Hi, Size, Why);
      }};
  std::vector<JumpRequest> Requests;
  for (const JumpCandidate &C : Candidates) {
    JumpRequest R{C.Addr, C.FuncStart, C.FuncSize, {}, C.SyscallNrs};
    for (const Hook &H : C.Hooks)
      R.Hooks.push_back({hookKind(C, H), H.Index, H.Function, H.ModuleName});
    Requests.push_back(std::move(R));
  }
  std::vector<uint64_t> All = Sites;
  for (const auto &[Addr, Bp] : P.Breakpoints)
    All.push_back(Addr);
  return installJumpSites(T, M, Requests, std::move(All));
}

std::map<uint64_t, std::string>
tscc::rt::pt::installJumpSites(JumpSiteTarget &P, const ModuleImage &M,
                               const std::vector<JumpRequest> &Candidates,
                               std::vector<uint64_t> Sites) {
  std::map<uint64_t, std::string> Rejected;
  std::vector<Planned> Plans;
  BatchFacts Batch;
  Batch.Sites = std::move(Sites);
  for (const auto &[Addr, J] : P.Agent.Sites)
    Batch.Sites.push_back(Addr);
  auto Overlaps = [&](const ip::PatchPlan &New) {
    auto Meets = [&](uint64_t Start, uint64_t Length) {
      return New.Site < Start + Length && Start < New.Site + New.Length;
    };
    for (const Planned &Pl : Plans)
      if (Meets(Pl.Plan.Site, Pl.Plan.Length))
        return true;
    for (const auto &[Addr, J] : P.Agent.Sites)
      if (Meets(Addr, J.Length))
        return true;
    return false;
  };
  for (const JumpRequest &C : Candidates) {
    Planned Pl;
    std::string Why = plan(P, M, C, Batch, Pl);
    if (Why.empty() && Overlaps(Pl.Plan))
      Why = "another site's jump covers these bytes";
    if (Why.empty())
      Plans.push_back(std::move(Pl));
    else
      Rejected[C.Addr] = Why;
  }
  if (Plans.empty())
    return Rejected;

  // One area near the module: the trampolines, then their hooks, then the
  // names the hooks point at.
  size_t HookCount = 0;
  std::vector<uint64_t> SlotOff;
  uint64_t HooksOff = 0;
  for (const Planned &Pl : Plans) {
    HookCount += Pl.C->Hooks.size();
    SlotOff.push_back(HooksOff);
    HooksOff +=
        Pl.C->isSyscall() ? ip::SyscallTrampolineSlot : ip::TrampolineSlot;
  }
  size_t Strings = 0;
  for (const Planned &Pl : Plans)
    for (const JumpHook &H : Pl.C->Hooks)
      Strings += H.Function.size() + H.ModuleName.size() + 2;
  uint64_t StringsOff = HooksOff + HookCount * sizeof(tscc_agent_hook);
  uint64_t Size = StringsOff + Strings;
  std::string Error;
  uint64_t Area = P.MapScratch(M.Start, M.End, Size, Error);
  auto RejectAll = [&](const std::string &Why) {
    for (const Planned &Pl : Plans)
      Rejected[Pl.C->Addr] = Why;
    return Rejected;
  };
  if (!Area)
    return RejectAll("no memory for trampolines: " + Error);
  P.Agent.Areas.push_back({Area, (Size + 4095) & ~uint64_t(4095)});

  std::vector<uint8_t> Bytes(Size, 0xcc);
  uint64_t NextHook = Area + HooksOff, NextString = Area + StringsOff;
  auto AddString = [&](const std::string &S) {
    uint64_t At = NextString;
    memcpy(Bytes.data() + (At - Area), S.c_str(), S.size() + 1);
    NextString += S.size() + 1;
    return At;
  };
  struct BuiltSite {
    const Planned *Pl;
    ip::TrampolineInfo Info;
    uint64_t JumpTarget;
  };
  std::vector<BuiltSite> Built;
  for (size_t I = 0; I < Plans.size(); ++I) {
    const Planned &Pl = Plans[I];
    uint64_t At = Area + SlotOff[I];
    // (In a 32-bit process every address is within reach.)
    if (P.Mode == X86Mode::Bits64 &&
        !withinRel32(Pl.Plan.Site + ip::JumpSize, At)) {
      Rejected[Pl.C->Addr] = "no memory for a trampoline within reach";
      continue;
    }
    uint64_t HooksAt = NextHook;
    for (const JumpHook &H : Pl.C->Hooks) {
      tscc_agent_hook AH{};
      AH.kind = H.Kind;
      AH.index = H.Index;
      AH.func = AddString(H.Function);
      AH.module = AddString(H.ModuleName);
      memcpy(Bytes.data() + (NextHook - Area), &AH, sizeof(AH));
      NextHook += sizeof(AH);
    }
    std::vector<uint8_t> Code;
    ip::TrampolineInfo Info;
    std::string Why;
    uint64_t JumpTarget = At + TSCC_TRAMPOLINE_CODE;
    uint32_t Hooks = static_cast<uint32_t>(Pl.C->Hooks.size());
    bool Ok =
        Pl.C->isSyscall()
            ? ip::buildSyscallTrampoline(
                  Pl.Plan, At, P.Agent.EnterSyscall, P.Agent.SyscallGadget,
                  Pl.C->SyscallNrs, HooksAt, Hooks, Code, Info, JumpTarget, Why)
            : ip::buildTrampoline(Pl.Plan, At, P.Agent.Enter, HooksAt, Hooks,
                                  Code, Info, Why);
    if (!Ok) {
      Rejected[Pl.C->Addr] = Why;
      continue;
    }
    memcpy(Bytes.data() + (At - Area), Code.data(), Code.size());
    Built.push_back({&Pl, std::move(Info), JumpTarget});
  }
  // Read + execute already: code, for an emulator too.
  if (!P.Acc.writeCode(Area, Bytes.data(), Bytes.size()))
    return RejectAll("cannot write the trampolines");
  for (auto &[Pl, Info, JumpTarget] : Built) {
    std::vector<uint8_t> Jump;
    if (!ip::jumpPatchBytes(Pl->Plan, JumpTarget, Jump)) {
      Rejected[Pl->C->Addr] = "the trampoline is out of the jump's reach";
      continue;
    }
    // The agent learns of the site before the jump is written, so that it
    // can put the original bytes back by itself if tsrun dies.
    if (!registerSite(P, Info.At) ||
        !P.Acc.writeCode(Pl->Plan.Site, Jump.data(), Jump.size())) {
      Rejected[Pl->C->Addr] = "cannot write the jump";
      continue;
    }
    JumpSite J;
    J.Addr = Pl->Plan.Site;
    J.Length = Pl->Plan.Length;
    memcpy(J.Original, Pl->Plan.Original, sizeof(J.Original));
    J.Trampoline = Info.At;
    J.CopyAt = Info.CopyAt;
    J.Map = std::move(Info.Map);
    J.JumpTarget = JumpTarget;
    J.Syscall = Pl->C->isSyscall();
    P.Agent.Sites[J.Addr] = std::move(J);
  }
  return Rejected;
}
