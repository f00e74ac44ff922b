//===- SyscallTrampoline.cpp - The code a system-call site jumps to -------===//
#include "SyscallTrampoline.h"

#include "tscc/agent.h"

#include <cstddef>
#include <cstring>

using namespace tscc::rt;
using namespace tscc::rt::ip;

namespace {

void put(std::vector<uint8_t> &Out, std::initializer_list<uint8_t> Bytes) {
  Out.insert(Out.end(), Bytes.begin(), Bytes.end());
}

void put32(std::vector<uint8_t> &Out, uint32_t V) {
  for (unsigned I = 0; I < 4; ++I)
    Out.push_back(static_cast<uint8_t>(V >> (8 * I)));
}

/// The rel32 of an instruction ending at End (address) that reaches To.
uint32_t rel(uint64_t End, uint64_t To) {
  return static_cast<uint32_t>(static_cast<int64_t>(To - End));
}

/// `call *Slot(%rip)` at address Here (the next byte of Out at Base).
void callThrough(std::vector<uint8_t> &Out, uint64_t Base, uint64_t Slot) {
  put(Out, {0xff, 0x15});
  put32(Out, rel(Base + Out.size() + 4, Slot));
}

} // namespace

bool tscc::rt::ip::buildSyscallTrampoline(
    const PatchPlan &Plan, uint64_t At, uint64_t Enter, uint64_t Gadget,
    const std::vector<TracedSyscall> &Nrs, uint64_t HooksAt, uint32_t HookCount,
    std::vector<uint8_t> &Out, TrampolineInfo &Info, uint64_t &JumpTarget,
    std::string &Why) {
  if (Plan.SyscallIndex < 0 || Nrs.empty() || Nrs.size() > MaxInlineSyscalls) {
    Why = "not a system-call site";
    return false;
  }
  size_t Sys = static_cast<size_t>(Plan.SyscallIndex);
  Out.assign(TSCC_TRAMPOLINE_CODE, 0);
  if (Plan.Length >= sizeof(tscc_agent_site::original)) {
    Why = "the patched bytes would be too many";
    return false;
  }
  // address and length are what the heal path puts back: from the jump's
  // start, which is before the syscall when instructions precede it.
  tscc_agent_site Site{};
  Site.address = Plan.Site;
  Site.enter = Enter;
  Site.hooks = HooksAt;
  Site.hook_count = HookCount;
  Site.length = Plan.Length;
  memcpy(Site.original, Plan.Original, Plan.Length);
  Site.original[TSCC_SYSCALL_SITE_OFFSET] = Plan.Insns[Sys].Offset;
  memcpy(Out.data(), &Site, sizeof(Site));
  const uint64_t C = At + TSCC_TRAMPOLINE_CODE;
  const uint64_t EnterSlot = At + offsetof(tscc_agent_site, enter);
  // The gadget's address sits in the last 8 bytes of the slot.
  const uint64_t GadgetSlot = At + SyscallTrampolineSlot - 8;

  put(Out, {0x48, 0x8d, 0x64, 0x24, 0x80}); // lea -0x80(%rsp),%rsp
  put(Out, {0x50});                         // push %rax
  callThrough(Out, At, EnterSlot);
  static_assert(TSCC_SYSCALL_TRAMPOLINE_ENTRY_END == 12);
  callThrough(Out, At, GadgetSlot);
  callThrough(Out, At, EnterSlot);
  static_assert(TSCC_SYSCALL_TRAMPOLINE_EXIT_END == 24);
  put(Out, {0x48, 0x8d, 0xa4, 0x24, 0x88, 0, 0, 0}); // lea 0x88(%rsp),%rsp
  size_t JmpAfter = Out.size();                      // jmp <copy + 2>
  put(Out, {0xe9, 0, 0, 0, 0});
  static_assert(TSCC_SYSCALL_TRAMPOLINE_ENTRY_ONLY == 37);
  put(Out, {0x48, 0x8d, 0x64, 0x24, 0x80}); // lea -0x80(%rsp),%rsp
  put(Out, {0x50});                         // push %rax
  callThrough(Out, At, EnterSlot);
  static_assert(TSCC_SYSCALL_TRAMPOLINE_ENTRY_ONLY_END == 49);
  put(Out, {0x2e}); // cs: marks the call as this entry's
  callThrough(Out, At, GadgetSlot);
  put(Out, {0x48, 0x8d, 0xa4, 0x24, 0x88, 0, 0, 0}); // lea 0x88(%rsp),%rsp
  size_t JmpAfterEntryOnly = Out.size();             // jmp <copy + 2>
  put(Out, {0xe9, 0, 0, 0, 0});
  static_assert(TSCC_SYSCALL_TRAMPOLINE_LANDING == 69);

  // The site's jump lands on the instructions before the syscall.
  JumpTarget = At + Out.size();
  Info.At = At;
  Info.AgentCallEnd = C + TSCC_SYSCALL_TRAMPOLINE_ENTRY_END;
  Info.CopyAt = JumpTarget;
  Info.Map.clear();
  if (!relocateInsns(Plan, 0, Sys, JumpTarget, false, 0, Out, Info.Map, Why))
    return false;
  for (const TracedSyscall &T : Nrs) {
    put(Out, {0x3d}); // cmp $nr,%eax
    put32(Out, T.Nr);
    put(Out, {0x0f, 0x84}); // je C+0, or the entry-only block
    put32(Out, rel(At + Out.size() + 4,
                   T.Exit ? C : C + TSCC_SYSCALL_TRAMPOLINE_ENTRY_ONLY));
  }
  uint64_t CopyAt = At + Out.size();
  uint16_t MapBase = static_cast<uint16_t>(CopyAt - JumpTarget);
  if (!relocateInsns(Plan, Sys, Plan.Insns.size(), CopyAt, true, MapBase, Out,
                     Info.Map, Why))
    return false;
  for (size_t Jmp : {JmpAfter, JmpAfterEntryOnly}) {
    uint32_t AfterRel = rel(At + Jmp + 5, CopyAt + 2);
    memcpy(Out.data() + Jmp + 1, &AfterRel, 4);
  }
  if (Out.size() > SyscallTrampolineSlot - 8) {
    Why = "the relocated instructions do not fit a trampoline";
    return false;
  }
  Out.resize(SyscallTrampolineSlot - 8, 0xcc);
  for (unsigned I = 0; I < 8; ++I)
    Out.push_back(static_cast<uint8_t>(Gadget >> (8 * I)));
  return true;
}
