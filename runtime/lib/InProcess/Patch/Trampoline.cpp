//===- Trampoline.cpp - The code a jump-patched site jumps to -------------===//
#include "Trampoline.h"

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

bool fitsSlot(const std::vector<uint8_t> &Out, std::string &Why) {
  if (Out.size() <= TrampolineSlot)
    return true;
  Why = "the relocated instructions do not fit a trampoline";
  return false;
}

} // namespace

bool tscc::rt::ip::buildTrampoline(const PatchPlan &Plan, uint64_t At,
                                   uint64_t Enter, uint64_t HooksAt,
                                   uint32_t HookCount,
                                   std::vector<uint8_t> &Out,
                                   TrampolineInfo &Info, std::string &Why) {
  Out.assign(TSCC_TRAMPOLINE_CODE, 0);
  tscc_agent_site Site{};
  Site.address = Plan.Site;
  Site.enter = Enter;
  Site.hooks = HooksAt;
  Site.hook_count = HookCount;
  Site.length = Plan.Length;
  Site.kind = Plan.Trap ? TSCC_SITE_TRAP : TSCC_SITE_JUMP;
  static_assert(sizeof(Site.original) >= MaxDisplaced);
  memcpy(Site.original, Plan.Original, Plan.Length);
  static_assert(sizeof(Site) <= TSCC_TRAMPOLINE_CODE);
  memcpy(Out.data(), &Site, sizeof(Site));
  uint64_t Code = At + TSCC_TRAMPOLINE_CODE;
  uint64_t EnterSlot = At + offsetof(tscc_agent_site, enter);
  if (Plan.Mode == X86Mode::Bits32) {
    // No red zone in i386: call *enter (absolute), then the copy.
    put(Out, {0xff, 0x15});
    put32(Out, static_cast<uint32_t>(EnterSlot));
    static_assert(TSCC_TRAMPOLINE_CALL_END_I386 == 6);
    static_assert(TSCC_TRAMPOLINE_COPY_I386 == TSCC_TRAMPOLINE_CODE + 6);
    Info.At = At;
    Info.AgentCallEnd = Code + TSCC_TRAMPOLINE_CALL_END_I386;
    Info.CopyAt = At + Out.size();
    Info.Map.clear();
    if (!relocateDisplaced(Plan, Info.CopyAt, Out, Info.Map, Why))
      return false;
    return fitsSlot(Out, Why);
  }
  put(Out, {0x48, 0x8d, 0x64, 0x24, 0x80}); // lea -0x80(%rsp),%rsp
  // call *enter(%rip)
  put(Out, {0xff, 0x15});
  uint64_t Next = Code + 11;
  put32(Out, static_cast<uint32_t>(EnterSlot - Next));
  static_assert(TSCC_TRAMPOLINE_CALL_END == 11);
  put(Out, {0x48, 0x8d, 0xa4, 0x24, 0x80, 0, 0, 0}); // lea 0x80(%rsp),%rsp
  Info.At = At;
  Info.AgentCallEnd = Next;
  Info.CopyAt = At + Out.size();
  static_assert(TSCC_TRAMPOLINE_COPY == TSCC_TRAMPOLINE_CODE + 19);
  Info.Map.clear();
  if (!relocateDisplaced(Plan, Info.CopyAt, Out, Info.Map, Why))
    return false;
  return fitsSlot(Out, Why);
}
