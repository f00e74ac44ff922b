//===- JumpPatch.h - Displacing instructions with a 5-byte jump -----------===//
//
// The in-process fast path replaces a probe site's int3 with `jmp rel32` to
// a per-site trampoline within +-2 GiB. The jump overwrites whole
// instructions, not just one byte, so the trampoline must run a relocated
// copy of every instruction it displaced and then jump back. This file is
// the pure part of that: deciding whether a site may be overwritten at all
// (nothing may branch into the middle of the patched bytes, and nothing may
// leave a return address pointing into them) and building the relocated
// copy. Writing the bytes into a live process is someone else's business.
//
// x86-64 code, and i386 code of 32-bit processes (PatchPlan::Mode): there
// nothing is RIP-relative, a call pushes 4 bytes and every rel32 reaches
// (the address space wraps at 4 GiB).
//
// Calls in the window are emulated (the return address is pushed with plain
// stores, then a jmp), so the callee returns past the window as if called
// from the original place. A process running with a user-space shadow stack
// (CET SHSTK) would fault on that callee's ret: the caller must not patch a
// site whose plan contains a call in such a process.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_INPROCESS_JUMPPATCH_H
#define TSCC_RUNTIME_INPROCESS_JUMPPATCH_H

#include "IndirectJumps.h"

#include "tscc/Runtime/X86Insn.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tscc::rt::ip {

/// Size of `jmp rel32`, the patch written at a site.
constexpr unsigned JumpSize = 5;

/// The most bytes a patch can displace: up to JumpSize - 1 bytes of short
/// instructions, then one of at most 15 bytes that reaches past them.
constexpr unsigned MaxDisplaced = JumpSize - 1 + 15;

/// One instruction under the patch.
struct DisplacedInsn {
  uint8_t Offset = 0; ///< from the site
  X86Insn Insn;
};

/// Why execution may arrive at an address other than from the instruction
/// before it, besides a direct branch of the function itself.
enum class EntryKind : uint8_t {
  Branch,        ///< a direct branch elsewhere in the module (a .cold part)
  JumpTable,     ///< an entry of one of the function's jump tables
  AddressTaken,  ///< a constant of the code (computed goto, code pointer)
  DataPointer,   ///< a code pointer in the module's data
  LandingPad,    ///< where the unwinder resumes the function
  ProbeSite,     ///< another probe site: its own jump, breakpoint or hook
  FunctionEntry, ///< where a symbol starts: an entry any module may call
};

struct KnownEntry {
  uint64_t Addr = 0;
  EntryKind Kind = EntryKind::Branch;
};

/// What is known, besides the function's own direct branches, of the ways
/// into the function (IndirectJumps.h, ModuleEntries.h).
struct EntryFacts {
  std::vector<KnownEntry> Entries; ///< any order
  /// An indirect jump of the function whose targets are unknown
  /// (IndirectKind::Unresolved), if there is one.
  std::optional<IndirectJump> Unresolved;
};

/// What planJumpPatch found out about a site.
struct PatchPlan {
  X86Mode Mode = X86Mode::Bits64;
  uint64_t Site = 0;   ///< runtime address of the probed instruction
  unsigned Length = 0; ///< bytes displaced: whole instructions, >= JumpSize
  uint8_t Original[32] = {}; ///< the displaced bytes (Length of them)
  /// A trap site (planTrapPatch): an int3, not a jump, is written.
  bool Trap = false;
  /// The last bytes of Length that are alignment padding after the
  /// function, borrowed by the jump (planJumpPatch's Padding).
  unsigned Padding = 0;
  std::vector<DisplacedInsn> Insns;
  /// A system-call site's plan (planSyscallPatch): the index in Insns of
  /// its syscall; -1 otherwise.
  int SyscallIndex = -1;
};

/// (offset in the original, offset in the copy) of an instruction boundary.
using BoundaryMap = std::vector<std::pair<uint8_t, uint16_t>>;

/// Decides whether the instruction at Site can be overwritten by a 5-byte
/// jump. Func holds the bytes of the whole enclosing function, which starts
/// at FuncStart (Site lies inside it). Fills Plan on success; false with
/// Why when it cannot (the site is not an instruction boundary, the
/// function is too short from the site, an instruction cannot be
/// relocated, a branch of the function or a Known entry lies inside the
/// patched bytes...).
///
/// The jump leaves no instruction boundary inside the patched bytes but
/// the site's own. So when it displaces more than one instruction, a way
/// into the function that Known does not list would run half a jump: such
/// a site is refused whenever Known.Unresolved says there may be one.
///
/// Padding holds the bytes right after the function, where no symbol
/// starts (Known covers them too): when the window runs past the
/// function's end after an instruction that never falls through (ret,
/// jmp), the jump may borrow the alignment padding there (int3s and nops)
/// to reach 5 bytes, so that a function of 1 to 4 bytes still takes one.
bool planJumpPatch(std::span<const uint8_t> Func, uint64_t FuncStart,
                   uint64_t Site, const EntryFacts &Known, PatchPlan &Plan,
                   std::string &Why, X86Mode Mode = X86Mode::Bits64,
                   std::span<const uint8_t> Padding = {});

/// Plans a trap site, for where the jump cannot go: an int3 over the
/// first byte of the instruction at Site, which the agent's SIGTRAP
/// handler turns into the jump to the trampoline. Only that instruction is
/// displaced, and only its first byte is overwritten, so branch targets
/// and other entries after it do not matter; it must be an instruction
/// boundary of the function (Func at FuncStart, as for planJumpPatch) and
/// relocatable alone. False with Why otherwise.
bool planTrapPatch(std::span<const uint8_t> Func, uint64_t FuncStart,
                   uint64_t Site, PatchPlan &Plan, std::string &Why,
                   X86Mode Mode = X86Mode::Bits64);

/// planTrapPatch for a site known to be an instruction boundary without
/// its function (a USDT note's address in a module without symbols): Code
/// holds the bytes from the site, at least the whole instruction.
bool planTrapAt(std::span<const uint8_t> Code, uint64_t Site, PatchPlan &Plan,
                std::string &Why, X86Mode Mode = X86Mode::Bits64);

/// planJumpPatch for the x86-64 `syscall` at Syscall, which its trampoline
/// makes itself (SyscallTrampoline.h), so other instructions may follow it
/// under the jump. The jump starts at the syscall, or, where the function
/// ends too soon after it (`mov $nr, %eax; syscall; ret`), at one of the
/// few instructions before it: Plan.Site is where the jump goes and
/// Plan.SyscallIndex which displaced instruction the syscall is.
bool planSyscallPatch(std::span<const uint8_t> Func, uint64_t FuncStart,
                      uint64_t Syscall, const EntryFacts &Known,
                      PatchPlan &Plan, std::string &Why);

/// Appends the relocated copy of Plan.Insns[First, End) for execution at
/// At, and, when JumpBack, a jump to Site + Length. Map gets MapBase + the
/// offset in this copy for each. False with Why (Out and Map unchanged)
/// when a displacement cannot reach.
bool relocateInsns(const PatchPlan &Plan, size_t First, size_t End, uint64_t At,
                   bool JumpBack, uint16_t MapBase, std::vector<uint8_t> &Out,
                   BoundaryMap &Map, std::string &Why);

/// Appends to Out the relocated copy of Plan's instructions for execution
/// at address At, followed by a jump back to Site + Length. Appends to Map
/// (offset in the original, offset in the copy) for every displaced
/// instruction's start and for Length (the jump back), so that a stopped
/// thread can be moved between the two. A thread inside an emulated call's
/// sequence is at no boundary and must be let run out of it first. False
/// with Why (Out and Map unchanged) when a displacement cannot reach from
/// At.
bool relocateDisplaced(const PatchPlan &Plan, uint64_t At,
                       std::vector<uint8_t> &Out, BoundaryMap &Map,
                       std::string &Why);

/// Sets Out to the Plan.Length bytes written at the site: jmp rel32 to
/// Trampoline, the rest of the displaced bytes filled with int3 so that a
/// stray jump into them traps instead of running garbage. False if
/// Trampoline is out of rel32 reach of the site. A trap site's patch is
/// one int3.
bool jumpPatchBytes(const PatchPlan &Plan, uint64_t Trampoline,
                    std::vector<uint8_t> &Out);

} // namespace tscc::rt::ip

#endif // TSCC_RUNTIME_INPROCESS_JUMPPATCH_H
