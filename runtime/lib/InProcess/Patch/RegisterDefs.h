//===- RegisterDefs.h - What an x86 instruction does to a register --------===//
//
// The backward trace of IndirectJumps.cpp asks one question of each
// instruction before an indirect jump: does it write general-purpose
// register R, and if so, how? Only the few ways compilers compute a jump
// target are told apart (a copy, a load, a constant address, the sum of two
// registers, a call's result); any other write is Unknown. An instruction
// is only said not to write R when that is certain for its opcode; the
// rest that name R in their ModRM byte are Unknown. Unknown makes the
// caller conservative, never wrong.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_INPROCESS_REGISTERDEFS_H
#define TSCC_RUNTIME_INPROCESS_REGISTERDEFS_H

#include "tscc/Runtime/X86Insn.h"

#include <cstdint>
#include <span>

namespace tscc::rt::ip {

/// An instruction decoded at its address.
struct PlacedInsn {
  uint64_t Addr = 0;
  const uint8_t *Bytes = nullptr; ///< I.Length bytes
  X86Insn I;
  X86Mode Mode = X86Mode::Bits64; ///< what it was decoded as
};

/// A memory operand: Disp (+ Base) (+ Index * Scale). RIP-relative operands
/// have Disp already resolved to the address they name; i386's absolute
/// ones (no base, no index) have the address, zero-extended.
struct MemOperand {
  bool Rip = false;
  int Base = -1;  ///< register number, -1 if none
  int Index = -1; ///< register number, -1 if none
  unsigned Scale = 1;
  int64_t Disp = 0;
};

/// The memory operand of D's ModRM, if it has one (not mod == 11). Only
/// for legacy (non-VEX) encodings, whose REX bits X86Insn keeps.
bool memOperandOf(const PlacedInsn &D, MemOperand &M);

enum class RegWrite : uint8_t {
  None,        ///< R keeps its value
  Same,        ///< R is extended from its own low half (cltq, mov %edi,%edi)
  Copy,        ///< R = register Src
  Load,        ///< R = load from Mem, no index (or pop): a pointer
  IndexedLoad, ///< R = load from Mem with an index: a table entry
  Add,         ///< R = R + Src (or Src + Src2 for lea (%a,%b))
  AddConst,    ///< R = R + Value (add $imm, sub $imm)
  AddEntry,    ///< R = R + load from Mem with an index (add t(,%i,4),%r)
  Const,       ///< R = Value (lea x(%rip), mov $imm)
  CallResult,  ///< R is a call's result (rax, rdx) or clobbered by it
  Unknown,     ///< anything else, or not certain
};

struct RegDef {
  RegWrite Kind = RegWrite::None;
  unsigned Src = 0, Src2 = 0; ///< Copy, Add
  MemOperand Mem;             ///< Load, IndexedLoad
  uint64_t Value = 0;         ///< Const, AddConst
};

/// What D does to general-purpose register R (0 = rax ... 15 = r15; i386
/// code has only the first 8, eax to edi).
RegDef registerWrite(const PlacedInsn &D, unsigned R);

/// Whether the bytes at a call's target are an i386 PC thunk (gcc's
/// __x86.get_pc_thunk.REG: `mov (%esp),%REG; ret`), and which register it
/// loads with the call's return address.
bool pcThunkRegister(std::span<const uint8_t> Target, unsigned &R);

/// The register an indirect `jmp *%r` (ff /4, mod 11) jumps through.
unsigned jumpRegister(const X86Insn &I);

} // namespace tscc::rt::ip

#endif // TSCC_RUNTIME_INPROCESS_REGISTERDEFS_H
