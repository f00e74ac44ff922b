//===- SyscallTrampoline.h - The code a system-call site jumps to -*- C++ -*-===//
//
// The trampoline of an x86-64 system-call site (the layout is tscc/agent.h's):
// the instructions the jump displaced before the syscall, relocated; a
// compare of the call's number with each traced one; for a traced call,
// the agent before it, the call itself from the gadget (the one address
// tsrun's seccomp filter lets through unstopped), the agent after it; and
// for any other call, the syscall as the site made it. Both then run the
// displaced instructions after the syscall and jump back.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_INPROCESS_SYSCALLTRAMPOLINE_H
#define TSCC_RUNTIME_INPROCESS_SYSCALLTRAMPOLINE_H

#include "Trampoline.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tscc::rt::ip {

/// Bytes reserved per system-call trampoline in a trampoline area.
constexpr unsigned SyscallTrampolineSlot = 320;

/// The most numbers a trampoline compares with; a site of a script that
/// traces more is not patched.
constexpr unsigned MaxInlineSyscalls = 8;

/// The code of a process's syscall gadget: `syscall; ret`.
constexpr uint8_t SyscallGadgetCode[] = {0x0f, 0x05, 0xc3};

/// A traced number, and whether it has exit clauses (else its call makes
/// no exit call into the agent).
struct TracedSyscall {
  uint32_t Nr = 0;
  bool Exit = false;
};

/// The trampoline for Plan (planSyscallPatch) at address At, whose site
/// calls Enter (tscc_agent_enter_syscall) for the numbers Nrs and makes
/// those calls at Gadget, with the site's hooks at HooksAt. JumpTarget is
/// where the site's jump goes (not the start of the code). False with Why
/// when a displacement cannot reach or the code does not fit.
bool buildSyscallTrampoline(const PatchPlan &Plan, uint64_t At, uint64_t Enter,
                            uint64_t Gadget,
                            const std::vector<TracedSyscall> &Nrs,
                            uint64_t HooksAt, uint32_t HookCount,
                            std::vector<uint8_t> &Out, TrampolineInfo &Info,
                            uint64_t &JumpTarget, std::string &Why);

} // namespace tscc::rt::ip

#endif // TSCC_RUNTIME_INPROCESS_SYSCALLTRAMPOLINE_H
