//===- tscc/Runtime/X86Insn.h - x86 instruction length decoder ------------===//
//
// Breakpoints replace the first byte of an instruction with int3; to resume
// without restoring that byte the backend must know the whole displaced
// instruction: its length, and whether it depends on where it executes
// (RIP-relative operands, relative branches, calls, returns). This decoder
// answers exactly that for the general-purpose, x87, SSE/AVX (VEX) and
// EVEX opcode space in 64-bit and 32-bit mode. It does not produce
// mnemonics.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_X86INSN_H
#define TSCC_RUNTIME_X86INSN_H

#include <cstddef>
#include <cstdint>

namespace tscc::rt {

enum class X86Mode : uint8_t { Bits32, Bits64 };

/// Where an instruction's behaviour depends on its address.
enum class X86Flow : uint8_t {
  Normal,   ///< falls through; may still be RIP-relative
  JmpRel,   ///< jmp rel8/rel32
  JccRel,   ///< jcc rel8/rel32 (Cond holds the condition code)
  CallRel,  ///< call rel32
  LoopRel,  ///< loop/loope/loopne/jrcxz rel8
  Ret,      ///< ret / ret imm16
  Indirect, ///< call/jmp through a register or memory
  Trap,     ///< int3, int n, into, ud2, hlt, syscall, sysenter, iret...
};

struct X86Insn {
  uint8_t Length = 0;
  uint8_t PrefixCount = 0; ///< legacy prefixes
  uint8_t Rex = 0;         ///< the REX byte, 0 if none
  uint8_t Map = 0;         ///< 0: one-byte, 1: 0F, 2: 0F38, 3: 0F3A
  uint8_t Opcode = 0;
  uint8_t OpcodeOffset = 0;
  bool HasModRM = false;
  uint8_t ModRM = 0;
  uint8_t ModRMOffset = 0;
  uint8_t DispOffset = 0, DispSize = 0;
  uint8_t ImmOffset = 0, ImmSize = 0;
  bool Vex = false;      ///< VEX or EVEX or XOP encoded
  bool OpSize16 = false; ///< 0x66 prefix
  bool AddrSize = false; ///< 0x67 prefix
  bool Lock = false;
  bool Rep = false; ///< F2 or F3
  /// ModRM with mod == 00 and rm == 101 in 64-bit mode: disp32 is relative
  /// to the next instruction.
  bool RipRelative = false;
  X86Flow Flow = X86Flow::Normal;
  uint8_t Cond = 0; ///< JccRel: the condition code (0..15)
  int64_t RelTarget =
      0; ///< branch displacement (JmpRel/JccRel/CallRel/LoopRel)

  uint8_t modrmMod() const { return ModRM >> 6; }
  uint8_t modrmReg() const { return (ModRM >> 3) & 7; }
  uint8_t modrmRm() const { return ModRM & 7; }
};

/// Decodes one instruction from Code (at most Avail bytes). Returns false
/// for an invalid or truncated encoding, or one longer than 15 bytes.
bool decodeX86(const uint8_t *Code, size_t Avail, X86Mode Mode, X86Insn &Out);

/// Whether Offset is an instruction boundary when decoding Code from 0
/// (i.e. linear decoding from a function's entry lands on it).
bool isX86InsnBoundary(const uint8_t *Code, size_t Avail, size_t Offset,
                       X86Mode Mode);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_X86INSN_H
