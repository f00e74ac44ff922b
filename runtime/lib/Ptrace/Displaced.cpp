//===- Displaced.cpp - Running the instruction under a breakpoint ---------===//
#include "Displaced.h"

#include <cstring>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

/// General register N (x86 encoding order: rax, rcx, rdx, rbx, rsp, rbp,
/// rsi, rdi, r8..r15).
unsigned long long &gpr(user_regs_struct &R, unsigned N) {
  switch (N) {
  case 0:
    return R.rax;
  case 1:
    return R.rcx;
  case 2:
    return R.rdx;
  case 3:
    return R.rbx;
  case 4:
    return R.rsp;
  case 5:
    return R.rbp;
  case 6:
    return R.rsi;
  case 7:
    return R.rdi;
  case 8:
    return R.r8;
  case 9:
    return R.r9;
  case 10:
    return R.r10;
  case 11:
    return R.r11;
  case 12:
    return R.r12;
  case 13:
    return R.r13;
  case 14:
    return R.r14;
  default:
    return R.r15;
  }
}

bool isEndbr(const Breakpoint &Bp) {
  static const uint8_t E64[] = {0xf3, 0x0f, 0x1e, 0xfa};
  static const uint8_t E32[] = {0xf3, 0x0f, 0x1e, 0xfb};
  return Bp.Insn.Length == 4 && (std::memcmp(Bp.Orig, E64, 4) == 0 ||
                                 std::memcmp(Bp.Orig, E32, 4) == 0);
}

bool isNop(const Breakpoint &Bp) {
  const X86Insn &I = Bp.Insn;
  if (I.Map == 0 && I.Opcode == 0x90 && !(I.Rex & 1) && !I.Rep)
    return true; // not xchg %r8,%rax, not pause
  return I.Map == 1 && I.Opcode == 0x1f && I.HasModRM && I.modrmReg() == 0;
}

/// mov r, r of 32 or 64 bits (89 /r or 8B /r with mod == 11).
bool isMovRegReg(const Breakpoint &Bp) {
  const X86Insn &I = Bp.Insn;
  return I.Map == 0 && (I.Opcode == 0x89 || I.Opcode == 0x8b) && I.HasModRM &&
         I.modrmMod() == 3 && !I.OpSize16 && !I.Vex;
}

void putLE(std::vector<uint8_t> &Out, uint64_t V, unsigned N) {
  for (unsigned K = 0; K < N; ++K)
    Out.push_back(static_cast<uint8_t>(V >> (8 * K)));
}

/// Appends a jump to Target that works from anywhere: jmp *0(%rip) with
/// the absolute address after it (64-bit), or jmp rel32 (32-bit).
void appendJumpTo(std::vector<uint8_t> &Out, X86Mode Mode, uint64_t Here,
                  uint64_t Target) {
  if (Mode == X86Mode::Bits32) {
    Out.push_back(0xe9);
    putLE(Out, static_cast<uint32_t>(Target - (Here + Out.size() + 4)), 4);
    return;
  }
  const uint8_t Jmp[] = {0xff, 0x25, 0, 0, 0, 0};
  Out.insert(Out.end(), Jmp, Jmp + sizeof(Jmp));
  putLE(Out, Target, 8);
}

/// Copies the instruction, re-targeting a RIP-relative displacement so the
/// copy at At addresses what the original at Bp.Addr did.
bool appendRelocated(std::vector<uint8_t> &Out, const Breakpoint &Bp,
                     uint64_t At) {
  const X86Insn &I = Bp.Insn;
  size_t Start = Out.size();
  Out.insert(Out.end(), Bp.Orig, Bp.Orig + I.Length);
  if (!I.RipRelative)
    return true;
  int32_t Disp;
  std::memcpy(&Disp, Bp.Orig + I.DispOffset, 4);
  int64_t Target = static_cast<int64_t>(Bp.Addr + I.Length) + Disp;
  int64_t NewDisp = Target - static_cast<int64_t>(At + I.Length);
  if (NewDisp < INT32_MIN || NewDisp > INT32_MAX)
    return false;
  int32_t D32 = static_cast<int32_t>(NewDisp);
  std::memcpy(Out.data() + Start + I.DispOffset, &D32, 4);
  return true;
}

} // namespace

bool tscc::rt::pt::conditionHolds(uint8_t Cond, uint64_t F) {
  bool CF = F & 0x1, PF = F & 0x4, ZF = F & 0x40, SF = F & 0x80, OF = F & 0x800;
  bool R;
  switch (Cond >> 1) {
  case 0:
    R = OF;
    break;
  case 1:
    R = CF;
    break;
  case 2:
    R = ZF;
    break;
  case 3:
    R = CF || ZF;
    break;
  case 4:
    R = SF;
    break;
  case 5:
    R = PF;
    break;
  case 6:
    R = SF != OF;
    break;
  default:
    R = ZF || SF != OF;
    break;
  }
  return (Cond & 1) ? !R : R;
}

bool tscc::rt::pt::planDisplaced(Breakpoint &Bp, X86Mode Mode,
                                 std::string &Why) {
  if (!decodeX86(Bp.Orig, sizeof(Bp.Orig), Mode, Bp.Insn)) {
    Why = "cannot decode the instruction";
    return false;
  }
  const X86Insn &I = Bp.Insn;
  switch (I.Flow) {
  case X86Flow::JmpRel:
  case X86Flow::JccRel:
  case X86Flow::CallRel:
  case X86Flow::LoopRel:
  case X86Flow::Ret:
    Bp.How = Resume::Emulate;
    return true;
  case X86Flow::Trap:
    // System calls run fine out of line: syscall, and in 32-bit mode
    // int $0x80. Not sysenter there: the kernel returns from it to the
    // vDSO's landing pad, not to the next instruction. Traps and
    // privileged or far transfers do not either.
    if ((I.Map == 1 && I.Opcode == 0x05) ||
        (Mode == X86Mode::Bits64 && I.Map == 1 && I.Opcode == 0x34) ||
        (Mode == X86Mode::Bits32 && I.Map == 0 && I.Opcode == 0xcd &&
         I.ImmSize == 1 && Bp.Orig[I.ImmOffset] == 0x80)) {
      Bp.How = Resume::OutOfLine;
      return true;
    }
    Why = Bp.Orig[0] == 0xcc ? "an int3 is already there (another debugger?)"
                             : "a trap or far control transfer";
    return false;
  case X86Flow::Indirect: {
    unsigned R = I.modrmReg();
    if (R == 3 || R == 5) {
      Why = "a far indirect call or jump";
      return false;
    }
    // An out-of-line indirect call pushes its own return address which is
    // then overwritten; that moves rsp before the operand is evaluated.
    bool UsesRsp = I.HasModRM &&
                   ((I.modrmMod() == 3 && I.modrmRm() == 4 && !(I.Rex & 1)) ||
                    (I.modrmMod() != 3 && I.modrmRm() == 4));
    if (R == 2 && UsesRsp) {
      Why = "an indirect call through the stack pointer";
      return false;
    }
    Bp.How = Resume::OutOfLine;
    return true;
  }
  case X86Flow::Normal:
    break;
  }
  // Register-only instructions are emulated. A push runs out of line:
  // emulating it would cost a write to the target's stack on every hit.
  if (isEndbr(Bp) || isNop(Bp) || isMovRegReg(Bp)) {
    Bp.How = Resume::Emulate;
    return true;
  }
  Bp.How = Resume::OutOfLine;
  return true;
}

bool tscc::rt::pt::canStepOver(const Breakpoint &Bp, std::string &Why) {
  const X86Insn &I = Bp.Insn;
  if (I.Flow == X86Flow::Trap) {
    Why = "a system call instruction cannot be stepped over (it could wait "
          "for a thread that is stopped meanwhile)";
    return false;
  }
  if (I.Map == 0 && I.Opcode == 0x9c) {
    Why = "pushf cannot be stepped over (it would push the trap flag)";
    return false;
  }
  return true;
}

bool tscc::rt::pt::stubNeedsNearness(const Breakpoint &Bp) {
  return Bp.How == Resume::OutOfLine && Bp.Insn.RipRelative;
}

bool tscc::rt::pt::buildStub(Breakpoint &Bp, X86Mode Mode, uint64_t StubAddr,
                             std::vector<uint8_t> &Out) {
  Out.clear();
  const X86Insn &I = Bp.Insn;
  uint64_t Next = Bp.Addr + I.Length;
  Bp.Stub = StubAddr;
  if (I.Flow == X86Flow::Indirect && I.modrmReg() == 2) {
    // call *X  =>  call 1f; 1: mov $Next, (%rsp); jmp *X
    // The pushed slot is rewritten with the original return address, so
    // the callee returns past the probe as if called from there.
    Out.push_back(0xe8);
    putLE(Out, 0, 4);
    if (Mode == X86Mode::Bits64) {
      const uint8_t Lo[] = {0xc7, 0x04, 0x24};
      Out.insert(Out.end(), Lo, Lo + 3);
      putLE(Out, Next & 0xffffffff, 4);
      const uint8_t Hi[] = {0xc7, 0x44, 0x24, 0x04};
      Out.insert(Out.end(), Hi, Hi + 4);
      putLE(Out, Next >> 32, 4);
    } else {
      const uint8_t Lo[] = {0xc7, 0x04, 0x24};
      Out.insert(Out.end(), Lo, Lo + 3);
      putLE(Out, Next & 0xffffffff, 4);
    }
    size_t At = Out.size();
    if (!appendRelocated(Out, Bp, StubAddr + At))
      return false;
    // Turn /2 (call) into /4 (jmp), same operand.
    Out[At + I.ModRMOffset] = (I.ModRM & ~0x38) | (4 << 3);
    Bp.StubResume = 0; // no jump back: the jmp leaves the stub
    return Out.size() <= StubSlot;
  }
  if (!appendRelocated(Out, Bp, StubAddr))
    return false;
  Bp.StubResume = StubAddr + Out.size();
  appendJumpTo(Out, Mode, StubAddr, Next);
  return Out.size() <= StubSlot;
}

bool tscc::rt::pt::emulateDisplaced(const Breakpoint &Bp, PtraceProcess &P,
                                    user_regs_struct &R) {
  const X86Insn &I = Bp.Insn;
  bool Is64 = P.mode() == X86Mode::Bits64;
  uint64_t Mask = Is64 ? ~0ull : 0xffffffffull;
  unsigned Ptr = Is64 ? 8 : 4;
  uint64_t Next = (Bp.Addr + I.Length) & Mask;
  auto Push = [&](uint64_t V) {
    R.rsp = (R.rsp - Ptr) & Mask;
    return P.writeMemory(R.rsp, &V, Ptr);
  };
  switch (I.Flow) {
  case X86Flow::JmpRel:
    R.rip = (Next + I.RelTarget) & Mask;
    return true;
  case X86Flow::JccRel:
    R.rip =
        conditionHolds(I.Cond, R.eflags) ? (Next + I.RelTarget) & Mask : Next;
    return true;
  case X86Flow::CallRel:
    if (!Push(Next))
      return false;
    R.rip = (Next + I.RelTarget) & Mask;
    return true;
  case X86Flow::LoopRel: {
    uint64_t CMask = I.AddrSize ? 0xffffffffull : Mask;
    bool Taken;
    if (I.Opcode == 0xe3) {
      Taken = (R.rcx & CMask) == 0;
    } else {
      uint64_t C = (R.rcx - 1) & CMask;
      R.rcx = (R.rcx & ~CMask) | C;
      bool ZF = R.eflags & 0x40;
      Taken = C != 0 && (I.Opcode == 0xe2 || (I.Opcode == 0xe1 ? ZF : !ZF));
    }
    R.rip = Taken ? (Next + I.RelTarget) & Mask : Next;
    return true;
  }
  case X86Flow::Ret: {
    uint64_t Ret = 0;
    if (!P.readMemory(R.rsp, &Ret, Ptr))
      return false;
    uint16_t Pop = 0;
    if (I.ImmSize == 2)
      std::memcpy(&Pop, Bp.Orig + I.ImmOffset, 2);
    R.rsp = (R.rsp + Ptr + Pop) & Mask;
    R.rip = Ret & Mask;
    return true;
  }
  default:
    break;
  }
  if (isEndbr(Bp) || isNop(Bp)) {
    R.rip = Next;
    return true;
  }
  if (isMovRegReg(Bp)) {
    unsigned Reg = I.modrmReg() | ((I.Rex & 4) << 1);
    unsigned Rm = I.modrmRm() | ((I.Rex & 1) << 3);
    unsigned Dst = I.Opcode == 0x89 ? Rm : Reg;
    unsigned Src = I.Opcode == 0x89 ? Reg : Rm;
    uint64_t V = gpr(R, Src);
    gpr(R, Dst) = (I.Rex & 8) ? V : (V & 0xffffffffull);
    R.rip = Next;
    return true;
  }
  return false;
}
