//===- Trampoline.h - The code a jump-patched site jumps to ------*- C++ -*-===//
//
// One trampoline per site (the layout is tscc/agent.h's): a tscc_agent_site
// header, then code that skips the red zone, calls the agent, comes back
// and runs the instructions the jump displaced, relocated, before jumping
// back behind them.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_INPROCESS_TRAMPOLINE_H
#define TSCC_RUNTIME_INPROCESS_TRAMPOLINE_H

#include "JumpPatch.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tscc::rt::ip {

/// Bytes reserved per trampoline in a trampoline area.
constexpr unsigned TrampolineSlot = 192;

struct TrampolineInfo {
  uint64_t At = 0;           ///< the trampoline (its tscc_agent_site header)
  uint64_t CopyAt = 0;       ///< the relocated displaced instructions
  uint64_t AgentCallEnd = 0; ///< return address of the call into the agent
  BoundaryMap Map;           ///< original offset -> offset from CopyAt
};

/// The trampoline for Plan at address At, calling Enter, with the site's
/// hooks at HooksAt. False with Why when a displacement cannot reach.
bool buildTrampoline(const PatchPlan &Plan, uint64_t At, uint64_t Enter,
                     uint64_t HooksAt, uint32_t HookCount,
                     std::vector<uint8_t> &Out, TrampolineInfo &Info,
                     std::string &Why);

} // namespace tscc::rt::ip

#endif
