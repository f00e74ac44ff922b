//===- RegisterDefs.cpp - What an x86 instruction does to a register -----===//
#include "RegisterDefs.h"

#include <initializer_list>

using namespace tscc::rt;
using namespace tscc::rt::ip;

namespace {

constexpr unsigned Rax = 0, Rcx = 1, Rdx = 2, Rbx = 3, Rsp = 4, Rbp = 5,
                   Rsi = 6, Rdi = 7, R11 = 11;

int64_t readSigned(const uint8_t *B, unsigned N) {
  uint64_t V = 0;
  for (unsigned K = 0; K < N; ++K)
    V |= uint64_t(B[K]) << (8 * K);
  unsigned Shift = 64 - 8 * N;
  return int64_t(V << Shift) >> Shift;
}

uint64_t readUnsigned(const uint8_t *B, unsigned N) {
  uint64_t V = 0;
  for (unsigned K = 0; K < N; ++K)
    V |= uint64_t(B[K]) << (8 * K);
  return V;
}

bool oneOf(unsigned R, std::initializer_list<unsigned> L) {
  for (unsigned X : L)
    if (X == R)
      return true;
  return false;
}

/// Registers the System V ABI lets a callee change (i386: eax, ecx, edx).
bool callerSaved(unsigned R, X86Mode Mode) {
  if (Mode == X86Mode::Bits32)
    return oneOf(R, {Rax, Rcx, Rdx});
  return oneOf(R, {Rax, Rcx, Rdx, Rsi, Rdi, 8, 9, 10, 11});
}

/// The ModRM fields as full register numbers (REX.R / REX.B applied).
struct Fields {
  unsigned Reg = 0, Rm = 0;
  bool Mod3 = false;
};

Fields fieldsOf(const X86Insn &I) {
  Fields F;
  F.Reg = I.modrmReg() | ((I.Rex & 4) ? 8 : 0);
  F.Rm = I.modrmRm() | ((I.Rex & 1) ? 8 : 0);
  F.Mod3 = I.HasModRM && I.modrmMod() == 3;
  return F;
}

RegDef def(RegWrite K, unsigned Src = 0, unsigned Src2 = 0) {
  RegDef D;
  D.Kind = K;
  D.Src = Src;
  D.Src2 = Src2;
  return D;
}

RegDef constant(uint64_t V) {
  RegDef D = def(RegWrite::Const);
  D.Value = V;
  return D;
}

/// mov/movsxd r, r/m (8b, 63): a copy, a load or an indexed load into Reg.
RegDef loadInto(const PlacedInsn &D, const Fields &F, unsigned R) {
  if (F.Reg != R)
    return {};
  if (F.Mod3)
    return F.Rm == R ? def(RegWrite::Same) : def(RegWrite::Copy, F.Rm);
  RegDef Out;
  if (!memOperandOf(D, Out.Mem))
    return def(RegWrite::Unknown);
  Out.Kind = Out.Mem.Index >= 0 ? RegWrite::IndexedLoad : RegWrite::Load;
  return Out;
}

/// lea: a RIP-relative address is a constant; lea (%a,%b),%r a sum.
RegDef leaInto(const PlacedInsn &D, const Fields &F, unsigned R) {
  if (F.Reg != R)
    return {};
  MemOperand M;
  if (!memOperandOf(D, M))
    return def(RegWrite::Unknown);
  if (M.Rip)
    return constant(static_cast<uint64_t>(M.Disp));
  if (M.Base >= 0 && M.Index >= 0 && M.Scale == 1 && M.Disp == 0)
    return def(RegWrite::Add, M.Base, M.Index);
  return def(RegWrite::Unknown);
}

/// Whether an opcode without a ModRM byte writes R.
bool implicitWrite(const X86Insn &I, unsigned R) {
  uint8_t Op = I.Opcode;
  unsigned Low = (Op & 7) | ((I.Rex & 1) ? 8 : 0);
  if (Op >= 0xb0 && Op <= 0xb7)
    return Low == R; // mov $imm8, %r8
  if (Op >= 0x91 && Op <= 0x97)
    return Low == R || R == Rax; // xchg with rax
  if (Op < 0x40 && ((Op & 7) == 4 || (Op & 7) == 5) && Op != 0x3c && Op != 0x3d)
    return R == Rax; // ALU %al/%eax, $imm
  if (Op == 0x90)
    return (I.Rex & 1) && (R == Rax || R == 8);
  switch (Op) {
  case 0x99: // cqo
    return R == Rdx;
  case 0xa0:
  case 0xa1:
  case 0xe4:
  case 0xe5:
  case 0xec:
  case 0xed:
  case 0x9f:
  case 0xd7:
    return R == Rax;
  case 0xc8:
  case 0xc9: // enter, leave
    return R == Rsp || R == Rbp;
  default:
    // String instructions move rsi/rdi, count rcx, load rax.
    return Op >= 0xa4 && Op <= 0xaf && oneOf(R, {Rax, Rcx, Rsi, Rdi});
  }
}

/// Map-0 opcodes whose ModRM operands are only read (or written to
/// memory): comparisons, tests, pushes, stores.
bool onlyReadsModRM(const X86Insn &I, const Fields &F) {
  uint8_t Op = I.Opcode;
  if (Op < 0x40 && (Op & 7) < 2 && !F.Mod3)
    return true; // ALU r/m, r with a memory destination
  if (Op >= 0x38 && Op <= 0x3b)
    return true; // cmp
  switch (Op) {
  case 0x84:
  case 0x85: // test
    return true;
  case 0x88:
  case 0x89:
  case 0xc6:
  case 0xc7:
    return !F.Mod3; // stores
  case 0x80:
  case 0x81:
  case 0x83:
    return !F.Mod3 || I.modrmReg() == 7; // memory destination, or cmp
  case 0xf6:
  case 0xf7:
    return I.modrmReg() < 2 || (!F.Mod3 && I.modrmReg() < 4);
  case 0xfe:
  case 0xff:
    return !F.Mod3 || I.modrmReg() >= 2; // inc/dec of memory; call/jmp/push
  default:
    return false;
  }
}

/// Whether D operates on whole addresses: 32 bits in i386 code, 64 (REX.W)
/// in x86-64, where a 32-bit add truncates.
bool fullWidth(const PlacedInsn &D) {
  return D.Mode == X86Mode::Bits32 ? !D.I.OpSize16 : (D.I.Rex & 8) != 0;
}

/// Map 0 (one-byte opcodes), legacy encoding.
RegDef oneByteWrite(const PlacedInsn &D, unsigned R) {
  const X86Insn &I = D.I;
  Fields F = fieldsOf(I);
  uint8_t Op = I.Opcode;
  bool WritesRm = F.Mod3 && F.Rm == R;
  switch (Op) {
  case 0x8b:
  case 0x63:
    return loadInto(D, F, R);
  case 0x89:
    if (!WritesRm)
      return {};
    return F.Reg == R ? def(RegWrite::Same) : def(RegWrite::Copy, F.Reg);
  case 0x8d:
    return leaInto(D, F, R);
  case 0x01:
    return WritesRm ? def(RegWrite::Add, R, F.Reg) : RegDef();
  case 0x03: {
    if (F.Reg != R)
      return {};
    if (F.Mod3)
      return def(RegWrite::Add, R, F.Rm);
    // add t(%base,%idx,4),%r: a relative table's entry added to its base
    // (gcc's i386 position-independent switch).
    RegDef Out;
    if (!memOperandOf(D, Out.Mem) || Out.Mem.Index < 0)
      return def(RegWrite::Unknown);
    Out.Kind = RegWrite::AddEntry;
    return Out;
  }
  case 0x05:
  case 0x2d: { // add/sub $imm,%eax (no ModRM)
    if (R != Rax)
      return {};
    if (!fullWidth(D))
      return def(RegWrite::Unknown);
    RegDef Out = def(RegWrite::AddConst);
    int64_t Imm = readSigned(D.Bytes + I.ImmOffset, I.ImmSize);
    Out.Value = static_cast<uint64_t>(Op == 0x05 ? Imm : -Imm);
    return Out;
  }
  case 0x81:
  case 0x83:
    // add/sub $imm,%r: a constant moved by a constant (add $GOT-., %ebx).
    if (WritesRm && fullWidth(D) && (I.modrmReg() == 0 || I.modrmReg() == 5)) {
      RegDef Out = def(RegWrite::AddConst);
      int64_t Imm = readSigned(D.Bytes + I.ImmOffset, I.ImmSize);
      Out.Value = static_cast<uint64_t>(I.modrmReg() == 0 ? Imm : -Imm);
      return Out;
    }
    break;
  case 0x98: // cltq
    return R == Rax ? def(RegWrite::Same) : RegDef();
  case 0xc7:
    if (WritesRm && I.modrmReg() == 0)
      return constant(
          static_cast<uint64_t>(readSigned(D.Bytes + I.ImmOffset, I.ImmSize)));
    break;
  case 0xe8:
    return callerSaved(R, D.Mode) ? def(RegWrite::CallResult) : RegDef();
  case 0xff:
    if (I.modrmReg() == 2 || I.modrmReg() == 3)
      return callerSaved(R, D.Mode) ? def(RegWrite::CallResult) : RegDef();
    break;
  default:
    break;
  }
  if (Op >= 0x58 && Op <= 0x5f) // pop: a load from the stack
    return ((Op & 7) | ((I.Rex & 1) ? 8 : 0)) == R ? def(RegWrite::Load)
                                                   : RegDef();
  if (Op == 0x8f && WritesRm)
    return def(RegWrite::Load);
  if (Op >= 0xb8 && Op <= 0xbf) {
    if (((Op & 7) | ((I.Rex & 1) ? 8 : 0)) != R)
      return {};
    return constant(readUnsigned(D.Bytes + I.ImmOffset, I.ImmSize));
  }
  if (Op >= 0xd8 && Op <= 0xdf) // x87: only fnstsw %ax writes a GPR
    return Op == 0xdf && I.ModRM == 0xe0 && R == Rax ? def(RegWrite::Unknown)
                                                     : RegDef();
  if (!I.HasModRM)
    return implicitWrite(I, R) ? def(RegWrite::Unknown) : RegDef();
  if (onlyReadsModRM(I, F))
    return {};
  // Groups whose reg field extends the opcode: only r/m is written.
  if (Op == 0xc0 || Op == 0xc1 || (Op >= 0xd0 && Op <= 0xd3) || Op == 0x8f ||
      Op == 0xc6 || Op == 0xc7 || Op == 0x80 || Op == 0x81 || Op == 0x83 ||
      Op == 0xfe || Op == 0xff)
    return WritesRm ? def(RegWrite::Unknown) : RegDef();
  if (Op == 0xf6 || Op == 0xf7) // not, neg; mul and div write rax, rdx
    return WritesRm || (I.modrmReg() >= 4 && (R == Rax || R == Rdx))
               ? def(RegWrite::Unknown)
               : RegDef();
  return F.Reg == R || WritesRm ? def(RegWrite::Unknown) : RegDef();
}

/// 0F xx opcodes that only touch vector registers, prefetch or do nothing.
bool map1VectorOnly(const X86Insn &I) {
  uint8_t Op = I.Opcode;
  if (Op == 0x50 || Op == 0x2c || Op == 0x2d || Op == 0xc5 || Op == 0xd7)
    return false; // movmskps, cvt*2si, pextrw, pmovmskb write a GPR
  if (Op == 0x7e)
    return I.Rep; // f3 0f 7e is movq xmm; 66 0f 7e writes r/m
  return (Op >= 0x10 && Op <= 0x1f) || (Op >= 0x28 && Op <= 0x2f) ||
         (Op >= 0x51 && Op <= 0x7f) || Op == 0x0d || Op == 0xc2 || Op == 0xc4 ||
         Op == 0xc6 || Op >= 0xd0;
}

/// 0F xx opcodes, legacy encoding.
RegDef twoByteWrite(const PlacedInsn &D, unsigned R) {
  const X86Insn &I = D.I;
  uint8_t Op = I.Opcode;
  switch (Op) {
  case 0x05: // syscall
    return oneOf(R, {Rax, Rcx, R11}) ? def(RegWrite::Unknown) : RegDef();
  case 0x01: // rdtscp, xgetbv, ...
  case 0x31:
  case 0x33:
  case 0xa2:
    return oneOf(R, {Rax, Rcx, Rdx, Rbx}) ? def(RegWrite::Unknown) : RegDef();
  default:
    break;
  }
  if (Op >= 0xc8 && Op <= 0xcf) // bswap
    return ((Op & 7) | ((I.Rex & 1) ? 8 : 0)) == R ? def(RegWrite::Unknown)
                                                   : RegDef();
  if (!I.HasModRM || map1VectorOnly(I))
    return {};
  if (Op == 0xa3 || (Op == 0xba && I.modrmReg() == 4))
    return {}; // bt
  Fields F = fieldsOf(I);
  bool Implicit = (Op == 0xb0 || Op == 0xb1 || Op == 0xc7) &&
                  (R == Rax || (Op == 0xc7 && R == Rdx));
  if (Implicit || F.Reg == R || (F.Mod3 && F.Rm == R))
    return def(RegWrite::Unknown);
  return {};
}

/// 0F 38 / 0F 3A and VEX/EVEX/XOP encodings: vector instructions, except
/// the few that write a GPR. VEX keeps REX.R/B inverted in its own prefix,
/// which X86Insn does not decode, so registers compare on their low 3 bits
/// (more Unknowns, never fewer).
RegDef otherMapWrite(const X86Insn &I, unsigned R) {
  uint8_t Op = I.Opcode;
  bool Bmi = (I.Map == 2 && Op >= 0xf0) || (I.Map == 3 && Op == 0xf0);
  bool Extract = I.Map == 3 && (Op == 0x14 || Op == 0x16 || Op == 0x17);
  bool ToReg = I.Vex && I.Map == 1 &&
               (Op == 0x50 || Op == 0x2c || Op == 0x2d || Op == 0xc5 ||
                Op == 0xd7 || Op == 0x7e);
  if (I.Map == 3 && Op >= 0x60 && Op <= 0x63 && R == Rcx)
    return def(RegWrite::Unknown); // pcmp[ei]stri: index in ecx
  if (Bmi || I.Map >= 8)           // BMI, and AMD's TBM in XOP maps
    return def(RegWrite::Unknown);
  if (!Extract && !ToReg)
    return {};
  unsigned Low = R & 7;
  bool Mod3 = I.HasModRM && I.modrmMod() == 3;
  if (I.modrmReg() == Low || (Mod3 && I.modrmRm() == Low))
    return def(RegWrite::Unknown);
  return {};
}

} // namespace

bool tscc::rt::ip::memOperandOf(const PlacedInsn &D, MemOperand &M) {
  const X86Insn &I = D.I;
  if (!I.HasModRM || I.modrmMod() == 3 || I.Vex)
    return false;
  M = MemOperand();
  if (I.DispSize)
    M.Disp = readSigned(D.Bytes + I.DispOffset, I.DispSize);
  if (I.RipRelative) {
    M.Rip = true;
    M.Disp += static_cast<int64_t>(D.Addr + I.Length);
    return true;
  }
  bool B = I.Rex & 1, X = I.Rex & 2;
  // i386's disp32 with no base is an absolute address, zero-extended.
  bool Bits32 = D.Mode == X86Mode::Bits32;
  auto Absolute = [&] {
    if (Bits32 && M.Base < 0)
      M.Disp = static_cast<int64_t>(static_cast<uint32_t>(M.Disp));
    return true;
  };
  if (Bits32 && I.modrmMod() == 0 && I.modrmRm() == 5)
    return Absolute();
  if (I.modrmRm() != 4) {
    M.Base = I.modrmRm() | (B ? 8 : 0);
    return true;
  }
  uint8_t Sib = D.Bytes[I.ModRMOffset + 1];
  unsigned Index = ((Sib >> 3) & 7) | (X ? 8 : 0);
  if (Index != Rsp) {
    M.Index = static_cast<int>(Index);
    M.Scale = 1u << (Sib >> 6);
  }
  if (!((Sib & 7) == 5 && I.modrmMod() == 0))
    M.Base = (Sib & 7) | (B ? 8 : 0);
  return Absolute();
}

RegDef tscc::rt::ip::registerWrite(const PlacedInsn &D, unsigned R) {
  const X86Insn &I = D.I;
  if (I.Vex || I.Map >= 2)
    return otherMapWrite(I, R);
  if (I.Map == 1)
    return twoByteWrite(D, R);
  return oneByteWrite(D, R);
}

bool tscc::rt::ip::pcThunkRegister(std::span<const uint8_t> T, unsigned &R) {
  // 8b /r with mod 00, rm 100 and SIB 0x24: mov (%esp),%REG; then ret.
  if (T.size() < 4 || T[0] != 0x8b || (T[1] & 0xc7) != 0x04 || T[2] != 0x24 ||
      T[3] != 0xc3)
    return false;
  R = (T[1] >> 3) & 7;
  return R != Rsp;
}

unsigned tscc::rt::ip::jumpRegister(const X86Insn &I) {
  return I.modrmRm() | ((I.Rex & 1) ? 8 : 0);
}
