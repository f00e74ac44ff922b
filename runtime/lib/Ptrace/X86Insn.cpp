//===- X86Insn.cpp - x86 instruction length decoder -----------------------===//
//
// A table-free length decoder: the opcode space is classified with small
// predicates that follow the layout of the Intel SDM opcode maps (volume 2,
// appendix A). Correctness matters more than speed here: it runs once per
// breakpoint installation, never per hit.
//
//===----------------------------------------------------------------------===//
#include "tscc/Runtime/X86Insn.h"

using namespace tscc::rt;

namespace {

constexpr unsigned MaxInsnLength = 15;

bool isLegacyPrefix(uint8_t B) {
  switch (B) {
  case 0xf0:
  case 0xf2:
  case 0xf3:
  case 0x2e:
  case 0x36:
  case 0x3e:
  case 0x26:
  case 0x64:
  case 0x65:
  case 0x66:
  case 0x67:
    return true;
  default:
    return false;
  }
}

/// One-byte opcodes that take a ModRM byte.
bool oneByteHasModRM(uint8_t Op) {
  if (Op < 0x40)
    return (Op & 7) < 4; // ALU r/m forms: xx0..xx3
  switch (Op) {
  case 0x62:
  case 0x63:
  case 0x69:
  case 0x6b:
  case 0xc0:
  case 0xc1:
  case 0xc4:
  case 0xc5:
  case 0xc6:
  case 0xc7:
  case 0xd0:
  case 0xd1:
  case 0xd2:
  case 0xd3:
  case 0xf6:
  case 0xf7:
  case 0xfe:
  case 0xff:
    return true;
  default:
    return (Op >= 0x80 && Op <= 0x8f) || (Op >= 0xd8 && Op <= 0xdf);
  }
}

bool invalidIn64(uint8_t Op) {
  switch (Op) {
  case 0x06:
  case 0x07:
  case 0x0e:
  case 0x16:
  case 0x17:
  case 0x1e:
  case 0x1f:
  case 0x27:
  case 0x2f:
  case 0x37:
  case 0x3f:
  case 0x60:
  case 0x61:
  case 0x82:
  case 0x9a:
  case 0xce:
  case 0xd4:
  case 0xd5:
  case 0xd6:
  case 0xea:
    return true;
  default:
    return false;
  }
}

/// Two-byte (0F xx) opcodes without a ModRM byte.
bool twoByteNoModRM(uint8_t Op) {
  switch (Op) {
  case 0x05:
  case 0x06:
  case 0x07:
  case 0x08:
  case 0x09:
  case 0x0b:
  case 0x0e:
  case 0x30:
  case 0x31:
  case 0x32:
  case 0x33:
  case 0x34:
  case 0x35:
  case 0x37:
  case 0x77:
  case 0xa0:
  case 0xa1:
  case 0xa2:
  case 0xa8:
  case 0xa9:
  case 0xaa:
    return true;
  default:
    return (Op >= 0x80 && Op <= 0x8f) || (Op >= 0xc8 && Op <= 0xcf);
  }
}

bool twoByteInvalid(uint8_t Op) {
  switch (Op) {
  case 0x04:
  case 0x0a:
  case 0x0c:
  case 0x36:
  case 0x39:
  case 0x3b:
  case 0x3c:
  case 0x3d:
  case 0x3e:
  case 0x3f:
    return true;
  default:
    return false;
  }
}

/// Map-1 opcodes (legacy 0F or VEX/EVEX map 1) with an imm8 after ModRM.
bool map1HasImm8(uint8_t Op) {
  switch (Op) {
  case 0x70:
  case 0x71:
  case 0x72:
  case 0x73:
  case 0xa4:
  case 0xac:
  case 0xba:
  case 0xc2:
  case 0xc4:
  case 0xc5:
  case 0xc6:
  case 0x0f:
    return true;
  default:
    return false;
  }
}

class Decoder {
public:
  Decoder(const uint8_t *Code, size_t Avail, X86Mode Mode, X86Insn &I)
      : Code(Code), Avail(Avail < MaxInsnLength ? Avail : MaxInsnLength),
        Mode(Mode), I(I) {}

  bool run();

private:
  bool have(unsigned N) const { return Pos + N <= Avail; }
  bool byte(uint8_t &B) {
    if (!have(1))
      return false;
    B = Code[Pos++];
    return true;
  }
  bool is64() const { return Mode == X86Mode::Bits64; }
  /// Size of an "Iz"/"Jz" operand: 2 with 0x66 outside 64-bit branches.
  unsigned immZ() const { return I.OpSize16 ? 2 : 4; }
  bool modrm();
  bool imm(unsigned N);
  bool oneByte(uint8_t Op);
  bool twoByte();
  bool threeByte(uint8_t Map);
  bool vex(uint8_t First);
  bool evex();
  bool xop();
  int64_t readSigned(unsigned Off, unsigned N) const;

  const uint8_t *Code;
  size_t Avail;
  X86Mode Mode;
  X86Insn &I;
  unsigned Pos = 0;
};

int64_t Decoder::readSigned(unsigned Off, unsigned N) const {
  uint64_t V = 0;
  for (unsigned K = 0; K < N; ++K)
    V |= uint64_t(Code[Off + K]) << (8 * K);
  unsigned Shift = 64 - 8 * N;
  return int64_t(V << Shift) >> Shift;
}

bool Decoder::imm(unsigned N) {
  if (!have(N))
    return false;
  if (!I.ImmSize)
    I.ImmOffset = Pos;
  I.ImmSize += N;
  Pos += N;
  return true;
}

bool Decoder::modrm() {
  I.HasModRM = true;
  I.ModRMOffset = Pos;
  if (!byte(I.ModRM))
    return false;
  unsigned Mod = I.ModRM >> 6, Rm = I.ModRM & 7;
  if (Mod == 3)
    return true;
  unsigned Disp = 0;
  bool Addr16 = !is64() && I.AddrSize;
  if (Addr16) {
    if (Mod == 0 && Rm == 6)
      Disp = 2;
    else
      Disp = Mod == 1 ? 1 : Mod == 2 ? 2 : 0;
  } else {
    if (Rm == 4) {
      uint8_t Sib;
      if (!byte(Sib))
        return false;
      if (Mod == 0 && (Sib & 7) == 5)
        Disp = 4;
    }
    if (Mod == 0 && Rm == 5) {
      Disp = 4;
      I.RipRelative = is64();
    } else if (Mod == 1) {
      Disp = 1;
    } else if (Mod == 2) {
      Disp = 4;
    }
  }
  if (Disp) {
    if (!have(Disp))
      return false;
    I.DispOffset = Pos;
    I.DispSize = Disp;
    Pos += Disp;
  }
  return true;
}

bool Decoder::run() {
  I = X86Insn();
  uint8_t B = 0;
  for (;;) {
    if (!byte(B))
      return false;
    if (!isLegacyPrefix(B))
      break;
    ++I.PrefixCount;
    if (B == 0x66)
      I.OpSize16 = true;
    else if (B == 0x67)
      I.AddrSize = true;
    else if (B == 0xf0)
      I.Lock = true;
    else if (B == 0xf2 || B == 0xf3)
      I.Rep = true;
  }
  if (is64() && (B & 0xf0) == 0x40) {
    I.Rex = B;
    if (!byte(B))
      return false;
  }
  I.OpcodeOffset = Pos - 1;
  bool Ok;
  if (B == 0x0f)
    Ok = twoByte();
  else
    Ok = oneByte(B);
  if (!Ok || Pos > MaxInsnLength)
    return false;
  I.Length = Pos;
  if (I.Flow == X86Flow::JmpRel || I.Flow == X86Flow::JccRel ||
      I.Flow == X86Flow::CallRel || I.Flow == X86Flow::LoopRel)
    I.RelTarget = readSigned(I.ImmOffset, I.ImmSize);
  return true;
}

bool Decoder::oneByte(uint8_t Op) {
  I.Map = 0;
  I.Opcode = Op;
  // VEX/EVEX/XOP escape bytes. In 32-bit mode C4/C5/62 are LES/LDS/BOUND
  // unless the next byte has mod == 11, which those cannot encode.
  if ((Op == 0xc4 || Op == 0xc5 || Op == 0x62) && have(1) &&
      (is64() || (Code[Pos] & 0xc0) == 0xc0)) {
    if (I.Rex)
      return false; // REX before VEX/EVEX is #UD.
    return Op == 0x62 ? evex() : vex(Op);
  }
  if (Op == 0x8f && have(1) && (Code[Pos] & 0x18) != 0)
    return xop();
  if (is64() && invalidIn64(Op))
    return false;
  if (oneByteHasModRM(Op) && !modrm())
    return false;

  bool W = I.Rex & 8;
  switch (Op) {
  case 0x04:
  case 0x0c:
  case 0x14:
  case 0x1c:
  case 0x24:
  case 0x2c:
  case 0x34:
  case 0x3c:
  case 0x6a:
  case 0x6b:
  case 0x80:
  case 0x82:
  case 0x83:
  case 0xa8:
  case 0xc0:
  case 0xc1:
  case 0xc6:
  case 0xcd:
  case 0xd4:
  case 0xd5:
  case 0xe4:
  case 0xe5:
  case 0xe6:
  case 0xe7:
    return imm(1) && (Op != 0xcd || (I.Flow = X86Flow::Trap, true));
  case 0x05:
  case 0x0d:
  case 0x15:
  case 0x1d:
  case 0x25:
  case 0x2d:
  case 0x35:
  case 0x3d:
  case 0x68:
  case 0x69:
  case 0x81:
  case 0xa9:
  case 0xc7:
    return imm(immZ());
  case 0xa0:
  case 0xa1:
  case 0xa2:
  case 0xa3: // mov moffs
    return imm(is64() ? (I.AddrSize ? 4 : 8) : (I.AddrSize ? 2 : 4));
  case 0xc2:
  case 0xca:
    I.Flow = Op == 0xc2 ? X86Flow::Ret : X86Flow::Trap;
    return imm(2);
  case 0xc3:
    I.Flow = X86Flow::Ret;
    return true;
  case 0xcb:
  case 0xcc:
  case 0xce:
  case 0xcf:
  case 0xf1:
  case 0xf4:
    I.Flow = X86Flow::Trap;
    return true;
  case 0xc8:
    return imm(2) && imm(1);
  case 0x9a:
  case 0xea: // far call/jmp ptr16:16/32 (32-bit mode only)
    I.Flow = X86Flow::Trap;
    return imm(I.OpSize16 ? 4 : 6);
  case 0xe8:
    I.Flow = X86Flow::CallRel;
    return imm(is64() ? 4 : immZ());
  case 0xe9:
    I.Flow = X86Flow::JmpRel;
    return imm(is64() ? 4 : immZ());
  case 0xeb:
    I.Flow = X86Flow::JmpRel;
    return imm(1);
  case 0xe0:
  case 0xe1:
  case 0xe2:
  case 0xe3:
    I.Flow = X86Flow::LoopRel;
    return imm(1);
  case 0xf6:
    return I.modrmReg() < 2 ? imm(1) : true;
  case 0xf7:
    return I.modrmReg() < 2 ? imm(immZ()) : true;
  case 0xff: {
    unsigned R = I.modrmReg();
    if (R >= 2 && R <= 5)
      I.Flow = X86Flow::Indirect;
    return R != 7;
  }
  default:
    break;
  }
  if (Op >= 0x70 && Op <= 0x7f) {
    I.Flow = X86Flow::JccRel;
    I.Cond = Op & 0xf;
    return imm(1);
  }
  if (Op >= 0xb0 && Op <= 0xb7)
    return imm(1);
  if (Op >= 0xb8 && Op <= 0xbf)
    return imm(W ? 8 : immZ());
  return true;
}

bool Decoder::twoByte() {
  uint8_t Op;
  if (!byte(Op))
    return false;
  if (Op == 0x38 || Op == 0x3a)
    return threeByte(Op == 0x38 ? 2 : 3);
  I.Map = 1;
  I.Opcode = Op;
  if (twoByteInvalid(Op))
    return false;
  if (Op == 0x05 || Op == 0x34 || Op == 0x0b || Op == 0x07 || Op == 0x35)
    I.Flow = X86Flow::Trap;
  if (Op >= 0x80 && Op <= 0x8f) {
    I.Flow = X86Flow::JccRel;
    I.Cond = Op & 0xf;
    return imm(is64() ? 4 : immZ());
  }
  if (twoByteNoModRM(Op))
    return true;
  if (!modrm())
    return false;
  if (Op == 0xb9 || Op == 0xff) // ud1/ud0
    I.Flow = X86Flow::Trap;
  return map1HasImm8(Op) ? imm(1) : true;
}

bool Decoder::threeByte(uint8_t Map) {
  I.Map = Map;
  if (!byte(I.Opcode) || !modrm())
    return false;
  return Map == 3 ? imm(1) : true;
}

bool Decoder::vex(uint8_t First) {
  I.Vex = true;
  if (I.OpSize16 || I.Rep || I.Lock)
    return false; // #UD with VEX.
  uint8_t P0, Map = 1;
  if (!byte(P0))
    return false;
  if (First == 0xc4) {
    uint8_t P1;
    if (!byte(P1))
      return false;
    Map = P0 & 0x1f;
    if (Map < 1 || Map > 3)
      return false;
  }
  I.Map = Map;
  I.OpcodeOffset = Pos;
  if (!byte(I.Opcode))
    return false;
  // vzeroupper/vzeroall carry no ModRM.
  if (Map == 1 && I.Opcode == 0x77)
    return true;
  if (!modrm())
    return false;
  if (Map == 3 || (Map == 1 && map1HasImm8(I.Opcode) && I.Opcode != 0x0f &&
                   I.Opcode != 0xa4 && I.Opcode != 0xac && I.Opcode != 0xba))
    return imm(1);
  return true;
}

bool Decoder::evex() {
  I.Vex = true;
  uint8_t P0, P1, P2;
  if (!byte(P0) || !byte(P1) || !byte(P2))
    return false;
  if (!(P1 & 0x04))
    return false; // EVEX.P1 bit 2 must be 1.
  uint8_t Map = P0 & 0x7;
  if (Map == 0 || Map == 4 || Map == 7)
    return false;
  I.Map = Map;
  I.OpcodeOffset = Pos;
  if (!byte(I.Opcode) || !modrm())
    return false;
  if (Map == 3 || (Map == 1 && (I.Opcode >= 0x70 && I.Opcode <= 0x73)) ||
      (Map == 1 && (I.Opcode == 0xc2 || I.Opcode == 0xc4 || I.Opcode == 0xc5 ||
                    I.Opcode == 0xc6)))
    return imm(1);
  return true;
}

bool Decoder::xop() {
  I.Vex = true;
  uint8_t P0, P1;
  if (!byte(P0) || !byte(P1))
    return false;
  uint8_t Map = P0 & 0x1f;
  if (Map < 8 || Map > 10)
    return false;
  I.Map = Map;
  I.OpcodeOffset = Pos;
  if (!byte(I.Opcode) || !modrm())
    return false;
  if (Map == 8)
    return imm(1);
  if (Map == 10)
    return imm(4);
  return true;
}

} // namespace

bool tscc::rt::decodeX86(const uint8_t *Code, size_t Avail, X86Mode Mode,
                         X86Insn &Out) {
  Decoder D(Code, Avail, Mode, Out);
  return D.run();
}

bool tscc::rt::isX86InsnBoundary(const uint8_t *Code, size_t Avail,
                                 size_t Offset, X86Mode Mode) {
  size_t Pos = 0;
  while (Pos < Offset) {
    X86Insn I;
    if (!decodeX86(Code + Pos, Avail - Pos, Mode, I))
      return false;
    Pos += I.Length;
  }
  return Pos == Offset;
}
