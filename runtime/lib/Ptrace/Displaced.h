//===- Displaced.h - Running the instruction under a breakpoint -----------===//
//
// A probe's int3 displaces the first byte of an instruction. The original
// bytes are never put back while the process runs: the instruction is
// either emulated on the stopped thread's registers (branches, calls,
// returns, register moves, no-ops) or executed from an out-of-line
// copy in a scratch page that jumps back after it. Either way a hit costs
// exactly one ptrace stop.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_DISPLACED_H
#define TSCC_RUNTIME_PTRACE_DISPLACED_H

#include "PtraceProcess.h"

#include <string>
#include <vector>

namespace tscc::rt::pt {

/// Upper bound of an out-of-line stub's size; stubs are laid out in slots
/// of this size.
constexpr unsigned StubSlot = 48;

/// Decodes Bp.Orig and chooses Bp.How. False (with Why) when the
/// instruction cannot be displaced (int3 already there, invalid encoding,
/// privileged or far control transfer, indirect call through rsp).
bool planDisplaced(Breakpoint &Bp, X86Mode Mode, std::string &Why);

/// Whether Bp's instruction (planned OutOfLine) can be single-stepped in
/// place instead, with every other thread stopped (Resume::StepOver).
/// Not a system call (it could block on a thread that is stopped), nor
/// pushf (it would push the trap flag the step sets). False with Why.
bool canStepOver(const Breakpoint &Bp, std::string &Why);

/// Whether the planned stub needs to be within +-2 GiB of Bp.Addr.
bool stubNeedsNearness(const Breakpoint &Bp);

/// The out-of-line stub for Bp placed at StubAddr. Sets Bp.Stub and
/// Bp.StubResume. False when a RIP-relative displacement cannot reach.
bool buildStub(Breakpoint &Bp, X86Mode Mode, uint64_t StubAddr,
               std::vector<uint8_t> &Out);

/// Performs Bp's instruction on R (registers after the int3, with rip
/// already set back to Bp.Addr). May write the target's stack.
bool emulateDisplaced(const Breakpoint &Bp, PtraceProcess &P,
                      user_regs_struct &R);

/// Whether the condition code Cond (0..15) holds for Flags.
bool conditionHolds(uint8_t Cond, uint64_t Flags);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_DISPLACED_H
