//===- JumpSites.cpp - Probe sites that jump into the agent ---------------===//
#include "JumpSites.h"

#include "../../Ptrace/Inject.h"
#include "../Installer/Agent.h"

#include "IndirectJumps.h"
#include "JumpPatch.h"
#include "ModuleEntries.h"
#include "SyscallDispatch.h"
#include "SyscallTrampoline.h"
#include "Trampoline.h"

#include "../../Unwind/EhFrame.h"

#include "tscc/Runtime/Usdt.h"
#include "tscc/agent.h"

#include <algorithm>
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

/// The most bytes after a function read as padding a jump may borrow
/// (ip::planJumpPatch): one alignment's worth.
constexpr uint64_t MaxPadding = 16;

/// The bytes after C's function, up to MaxPadding, inside the module's
/// code (link-time ranges of M's file): what a jump may borrow as padding.
std::vector<uint8_t> paddingAfter(JumpSiteTarget &P, const ModuleImage &M,
                                  const ip::ModuleEntries &ME,
                                  const JumpRequest &C) {
  uint64_t End = C.FuncStart + C.FuncSize - M.Bias;
  uint64_t Len = 0;
  for (const auto &[Start, Stop] : ME.code())
    if (End >= Start && End < Stop)
      Len = std::min<uint64_t>(MaxPadding, Stop - End);
  std::vector<uint8_t> Out(Len);
  while (!Out.empty() &&
         !P.Acc.readMemory(C.FuncStart + C.FuncSize, Out.data(), Out.size()))
    Out.pop_back();
  return Out;
}

struct Planned {
  const JumpRequest *C;
  ip::PatchPlan Plan;
  std::string NoJump; ///< a trap site: why not a jump
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
  case HookKind::ExecGate:
    return TSCC_HOOK_EXEC_GATE;
  case HookKind::SignalGate:
    return TSCC_HOOK_SIGNAL_GATE;
  case HookKind::SigmaskGate:
    return TSCC_HOOK_SIGMASK_GATE;
  case HookKind::LoaderGate:
    return TSCC_HOOK_LOADER_GATE;
  case HookKind::HealerGuard:
    break;
  }
  return 0;
}

size_t usdtArgCount(const UsdtProbe &U) {
  return std::min<size_t>(U.Args.size(), TSCC_USDT_MAX_ARGS);
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
  // The padding after the function too, which a jump may borrow.
  ME.within(Lo, Lo + C.FuncSize + MaxPadding, M.Bias, Facts.Entries);
  for (uint64_t S : Sites)
    if (S >= C.FuncStart && S < C.FuncStart + C.FuncSize)
      Facts.Entries.push_back({S, ip::EntryKind::ProbeSite});
  ip::ReadMemory Read = [&](uint64_t A, void *Dst, size_t Len) {
    return P.Acc.readMemory(A, Dst, Len);
  };
  ip::FunctionCode Code;
  std::string Why;
  if (!ip::scanFunctionCode(Func, C.FuncStart, Code, Why, P.Mode, &Read))
    return Facts; // planJumpPatch refuses the site for the same reason
  ip::AddressRanges Ranges;
  for (const auto &[Start, End] : ME.code())
    Ranges.push_back({Start + M.Bias, End + M.Bias});
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
  return dispatchInTheWay(P, Plan.Site, Plan.Length);
}

/// The words on every stopped thread's stack (from its stack pointer up,
/// at most StackScanBytes) that are addresses in [Lo, Hi), sorted. A
/// thread in a signal handler has the pc it was interrupted at in its
/// signal frame, which sigreturn goes back to (a signal is most often
/// taken right after a system call: raise(), a restarted call): into the
/// middle of a jump written over that instruction since. Return addresses are
/// there too. A word that only looks like such an address costs that site its
/// jump.
std::vector<uint64_t> pcsOnStacks(PtraceProcess &P, uint64_t Lo, uint64_t Hi) {
  constexpr uint64_t StackScanBytes = 256 * 1024, Chunk = 4096;
  unsigned Word = P.dataModel() == DataModel::LP64 ? 8 : 4;
  std::vector<uint64_t> Out;
  std::vector<uint8_t> Buf(Chunk);
  for (const auto &[Tid, T] : P.Threads) {
    user_regs_struct R{};
    if (T.State != ThreadState::Stopped ||
        ptrace(PTRACE_GETREGS, Tid, nullptr, &R) != 0)
      continue;
    uint64_t Sp = R.rsp & ~uint64_t(Word - 1);
    for (uint64_t At = Sp; At < Sp + StackScanBytes;) {
      uint64_t Len = std::min<uint64_t>(Chunk - (At & (Chunk - 1)),
                                        Sp + StackScanBytes - At);
      if (!P.readMemory(At, Buf.data(), Len))
        break; // the end of the stack
      for (uint64_t I = 0; I + Word <= Len; I += Word) {
        uint64_t V = 0;
        memcpy(&V, Buf.data() + I, Word);
        if (V >= Lo && V < Hi)
          Out.push_back(V);
      }
      At += Len;
    }
  }
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// What one batch of sites plans with: the probe sites (of the batch and
/// those already there) and the ways into each function planned so far,
/// which several sites of a function (entry, exit, offsets) share.
struct BatchFacts {
  std::vector<uint64_t> Sites;
  std::map<uint64_t, ip::EntryFacts> ByFunction;
};

/// A site whose function is unknown, but that is an instruction boundary
/// (a USDT note says so): a trap site, which needs only its instruction.
std::string planTrapOnly(JumpSiteTarget &P, const JumpRequest &C, Planned &Out,
                         const std::string &NoJump) {
  uint8_t Code[16];
  size_t N = sizeof(Code);
  while (N && !P.Acc.readMemory(C.Addr, Code, N))
    --N;
  std::string NoTrap;
  if (!N)
    return NoJump + "; no trap either: the site cannot be read";
  if (!ip::planTrapAt({Code, N}, C.Addr, Out.Plan, NoTrap, P.Mode))
    return NoJump + "; no trap either: " + NoTrap;
  Out.C = &C;
  Out.NoJump = NoJump;
  return {};
}

std::string plan(JumpSiteTarget &P, const ModuleImage &M, const JumpRequest &C,
                 BatchFacts &Batch, Planned &Out);

/// A site that no symbol places in a function (a USDT note in a stripped
/// module, such as Debian's python3): the .eh_frame FDE around it bounds
/// the function, so its branches can be checked as a symbol's would be,
/// and it takes a jump or a trap like any site. Without an FDE, or where
/// the function cannot be checked from it, only its own instruction is
/// used: a trap site.
std::string planUnbounded(JumpSiteTarget &P, const ModuleImage &M,
                          const JumpRequest &C, BatchFacts &Batch,
                          Planned &Out) {
  uint64_t Start = 0, End = 0;
  std::string Why = "no symbol or .eh_frame entry gives the enclosing function";
  if (M.Elf && unwind::fdeRangeAt(M.Elf, C.Addr - M.Bias, Start, End)) {
    JumpRequest Bounded = C;
    Bounded.FuncStart = Start + M.Bias;
    Bounded.FuncSize = End - Start;
    Why = plan(P, M, Bounded, Batch, Out);
    if (Why.empty()) {
      Out.C = &C; // Bounded ends here; the plan holds addresses only
      return {};
    }
    Why = Why.substr(0, Why.find("; no trap either"));
  }
  Out = Planned{};
  return P.InstallTrapHandler ? planTrapOnly(P, C, Out, Why) : Why;
}

/// Why a site with these hooks cannot be a jump, or "".
std::string plan(JumpSiteTarget &P, const ModuleImage &M, const JumpRequest &C,
                 BatchFacts &Batch, Planned &Out) {
  if (!C.FuncSize)
    return planUnbounded(P, M, C, Batch, Out);
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
  if (C.isSyscall()) {
    // A system-call site is a jump or stays on the seccomp path; its jump
    // may start before the probed address and must cover no other site.
    Out.C = &C;
    if (!ip::planSyscallPatch(Func, C.FuncStart, C.Addr, Known->second,
                              Out.Plan, Why))
      return Why;
    for (uint64_t S : Batch.Sites)
      if (S != C.Addr && S >= Out.Plan.Site &&
          S < Out.Plan.Site + Out.Plan.Length)
        return "another probe site is inside the patched bytes";
    return P.ThreadsInTheWay(Out.Plan);
  }
  Out.C = &C;
  std::vector<uint8_t> Padding = paddingAfter(P, M, moduleEntries(M), C);
  if (ip::planJumpPatch(Func, C.FuncStart, C.Addr, Known->second, Out.Plan, Why,
                        P.Mode, Padding)) {
    Why = P.ThreadsInTheWay(Out.Plan);
    if (Why.empty())
      return {};
  }
  if (!P.InstallTrapHandler)
    return Why; // no SIGTRAP handler of the agent's in this target
  // The agent's own signal gates are never traps: the thread that calls
  // sigaction() or pthread_sigmask() may block SIGTRAP.
  if (std::all_of(C.Hooks.begin(), C.Hooks.end(), [](const JumpHook &H) {
        return H.Kind == TSCC_HOOK_SIGNAL_GATE ||
               H.Kind == TSCC_HOOK_SIGMASK_GATE;
      }))
    return Why;
  // An int3 over the first byte leaves every instruction boundary where it
  // was: no entry, no thread can be caught in the middle of it.
  std::string NoTrap;
  if (!ip::planTrapPatch(Func, C.FuncStart, C.Addr, Out.Plan, NoTrap, P.Mode))
    return Why + "; no trap either: " + NoTrap;
  Out.NoJump = Why;
  return {};
}

/// Enters a trampoline in the agent's table of sites: in an entry a
/// dlclose()d module left, or appended. Slot says which.
bool registerSite(JumpSiteTarget &P, uint64_t Trampoline, uint32_t &Slot) {
  AgentState &A = P.Agent;
  // The table holds pointers of the process's width (little-endian).
  if (!A.FreeSiteSlots.empty()) {
    Slot = A.FreeSiteSlots.back();
    if (!P.Acc.writeMemory(A.SiteTable + uint64_t(Slot) * 8, &Trampoline, 8))
      return false;
    A.FreeSiteSlots.pop_back();
    return true;
  }
  if (A.SiteCount >= A.SiteCapacity)
    return false;
  uint32_t Count = A.SiteCount + 1;
  if (!P.Acc.writeMemory(A.SiteTable + uint64_t(A.SiteCount) * 8, &Trampoline,
                         8) ||
      !P.Acc.writeMemory(A.Config + offsetof(tscc_agent_config, site_count),
                         &Count, 4))
    return false;
  Slot = A.SiteCount;
  A.SiteCount = Count;
  return true;
}

} // namespace

std::vector<tscc_agent_usdt_arg> tscc::rt::pt::agentUsdtArgs(const UsdtProbe &U,
                                                             uint64_t Bias) {
  std::vector<tscc_agent_usdt_arg> Out;
  for (size_t I = 0; I < usdtArgCount(U); ++I) {
    const UsdtArg &A = U.Args[I];
    tscc_agent_usdt_arg G{};
    G.value = A.Value;
    if (A.Kind == UsdtOperand::Memory && A.SymbolRelative)
      G.value += static_cast<int64_t>(Bias);
    G.size = A.Size;
    G.kind = A.Kind == UsdtOperand::Register ? TSCC_USDT_REGISTER
             : A.Kind == UsdtOperand::Memory ? TSCC_USDT_MEMORY
                                             : TSCC_USDT_CONSTANT;
    G.reg = static_cast<int8_t>(A.Reg);
    G.index = static_cast<int8_t>(A.Index);
    G.high_reg = static_cast<int8_t>(A.HighReg);
    G.scale = A.Scale;
    G.high_byte = A.HighByte;
    Out.push_back(G);
  }
  return Out;
}

std::map<uint64_t, std::string>
tscc::rt::pt::installJumpSites(PtraceProcess &P, pid_t Tid, const Module &M,
                               const std::vector<JumpCandidate> &Candidates,
                               const std::vector<uint64_t> &Sites,
                               std::map<uint64_t, std::string> &Traps) {
  PtraceAccess Acc(P, Tid);
  // The agent's SIGTRAP handler goes in front of the program's whether or
  // not a trap site needs it: tsrun then knows what the process's SIGTRAP
  // disposition must be, and can put it back where the kernel resets it
  // (a thread that blocks SIGTRAP hits one of tsrun's int3s; see
  // repairForcedSignal), the program's own handler still chained behind
  // it. Where that cannot be done, only trap sites need it (asked below).
  if (!Candidates.empty()) {
    std::string Later;
    installAgentTrapHandler(P, Tid, Later);
  }
  // Every thread stays stopped while the batch is patched.
  std::vector<uint64_t> OnStacks = pcsOnStacks(P, M.Start, M.End);
  JumpSiteTarget T{
      Acc,
      P.Agent,
      P.mode(),
      [&P, &OnStacks](const ip::PatchPlan &Plan) {
        auto It = std::upper_bound(OnStacks.begin(), OnStacks.end(), Plan.Site);
        if (It != OnStacks.end() && *It < Plan.Site + Plan.Length)
          return std::string("a thread's stack holds an address inside the "
                             "bytes (a signal frame or a return address), "
                             "which it would come back to");
        return ptraceThreadsInTheWay(P, Plan);
      },
      [&P, Tid](uint64_t Lo, uint64_t Hi, uint64_t Size, std::string &Why) {
        return mapScratch(P, Tid, Lo, Hi, Size, Why);
      },
      [&P, Tid](std::string &Why) {
        return installAgentTrapHandler(P, Tid, Why);
      },
      {}};
  std::vector<JumpRequest> Requests;
  for (const JumpCandidate &C : Candidates) {
    JumpRequest R{C.Addr, C.FuncStart, C.FuncSize, {}, C.SyscallNrs};
    for (const Hook &H : C.Hooks)
      R.Hooks.push_back({hookKind(C, H), H.Index, H.Function, H.ModuleName,
                         H.Usdt ? agentUsdtArgs(*H.Usdt, H.Bias)
                                : std::vector<tscc_agent_usdt_arg>()});
    Requests.push_back(std::move(R));
  }
  std::vector<uint64_t> All = Sites;
  for (const auto &[Addr, Bp] : P.Breakpoints)
    All.push_back(Addr);
  std::map<uint64_t, std::string> Rejected =
      installJumpSites(T, M, Requests, std::move(All));
  Traps = std::move(T.Traps);
  return Rejected;
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
  std::string NoHandler;
  for (const JumpRequest &C : Candidates) {
    Planned Pl;
    std::string Why = plan(P, M, C, Batch, Pl);
    if (Why.empty() && Overlaps(Pl.Plan))
      Why = "another site's jump covers these bytes";
    // The agent's SIGTRAP handler is in front before the first int3.
    if (Why.empty() && Pl.Plan.Trap && NoHandler.empty() &&
        (!P.InstallTrapHandler || !P.InstallTrapHandler(NoHandler)) &&
        NoHandler.empty())
      NoHandler = "the agent's SIGTRAP handler cannot be installed here";
    if (Why.empty() && Pl.Plan.Trap && !NoHandler.empty())
      Why = Pl.NoJump + "; no trap either: " + NoHandler;
    if (Why.empty())
      Plans.push_back(std::move(Pl));
    else
      Rejected[C.Addr] = Why;
  }
  if (Plans.empty())
    return Rejected;

  // One area near the module: the trampolines (a system-call site's is
  // larger), then their hooks, then the USDT arguments, then the names the
  // hooks point at.
  size_t HookCount = 0;
  std::vector<uint64_t> SlotOff;
  uint64_t HooksOff = 0;
  for (const Planned &Pl : Plans) {
    HookCount += Pl.C->Hooks.size();
    SlotOff.push_back(HooksOff);
    HooksOff +=
        Pl.C->isSyscall() ? ip::SyscallTrampolineSlot : ip::TrampolineSlot;
  }
  size_t Strings = 0, UsdtArgs = 0;
  for (const Planned &Pl : Plans)
    for (const JumpHook &H : Pl.C->Hooks) {
      Strings += H.Function.size() + H.ModuleName.size() + 2;
      UsdtArgs += H.Usdt.size();
    }
  uint64_t UsdtOff = HooksOff + HookCount * sizeof(tscc_agent_hook);
  uint64_t StringsOff = UsdtOff + UsdtArgs * sizeof(tscc_agent_usdt_arg);
  uint64_t Size = StringsOff + Strings;
  std::string Error;
  uint64_t Area =
      P.Agent.Areas.take(M.Start, M.End, Size, P.Mode == X86Mode::Bits64);
  bool Reused = Area != 0;
  if (!Reused)
    Area = P.MapScratch(M.Start, M.End, Size, Error);
  auto RejectAll = [&](const std::string &Why) {
    for (const Planned &Pl : Plans)
      Rejected[Pl.C->Addr] = Why;
    return Rejected;
  };
  if (!Area)
    return RejectAll("no memory for trampolines: " + Error);
  if (!Reused)
    P.Agent.Areas.add(Area, (Size + 4095) & ~uint64_t(4095), M.Start);

  std::vector<uint8_t> Bytes(Size, 0xcc);
  uint64_t NextHook = Area + HooksOff, NextString = Area + StringsOff;
  uint64_t NextUsdt = Area + UsdtOff;
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
      if (!H.Usdt.empty()) {
        AH.usdt = NextUsdt;
        AH.usdt_count = static_cast<uint32_t>(H.Usdt.size());
        size_t Len = H.Usdt.size() * sizeof(tscc_agent_usdt_arg);
        memcpy(Bytes.data() + (NextUsdt - Area), H.Usdt.data(), Len);
        NextUsdt += Len;
      }
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
    uint32_t Slot = 0;
    if (!registerSite(P, Info.At, Slot) ||
        !P.Acc.writeCode(Pl->Plan.Site, Jump.data(), Jump.size())) {
      Rejected[Pl->C->Addr] = "cannot write the jump";
      continue;
    }
    if (Pl->Plan.Trap) {
      P.Traps[Pl->Plan.Site] = Pl->NoJump;
      uint32_t Count = ++P.Agent.TrapSites;
      P.Acc.writeMemory(P.Agent.Config +
                            offsetof(tscc_agent_config, trap_sites),
                        &Count, sizeof(Count));
    }
    JumpSite J;
    J.Trap = Pl->Plan.Trap;
    J.Addr = Pl->Plan.Site;
    J.Length = Pl->Plan.Length;
    memcpy(J.Original, Pl->Plan.Original, sizeof(J.Original));
    J.Trampoline = Info.At;
    J.CopyAt = Info.CopyAt;
    J.Map = std::move(Info.Map);
    J.JumpTarget = JumpTarget;
    J.Syscall = Pl->C->isSyscall();
    J.Slot = Slot;
    P.Agent.Sites[J.Addr] = std::move(J);
  }
  return Rejected;
}

void tscc::rt::pt::forgetJumpSites(PtraceProcess &P, pid_t Tid,
                                   const Module &M) {
  PtraceAccess Acc(P, Tid);
  AgentState &A = P.Agent;
  const uint64_t Empty = 0;
  for (auto It = A.Sites.lower_bound(M.Start);
       It != A.Sites.end() && It->first < M.End; It = A.Sites.erase(It)) {
    // The agent skips an empty entry (Agent/heal.c); one that cannot be
    // emptied stays taken.
    uint32_t Slot = It->second.Slot;
    if (Slot < A.SiteCount &&
        Acc.writeMemory(A.SiteTable + uint64_t(Slot) * 8, &Empty, 8))
      A.FreeSiteSlots.push_back(Slot);
  }
  A.Areas.release(M.Start);
}
