//===- JumpPatch.cpp - Displacing instructions with a 5-byte jump ---------===//
#include "JumpPatch.h"

#include "InsnFacts.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>

using namespace tscc::rt;
using namespace tscc::rt::ip;

namespace {

/// The rel32 that reaches Target from NextIp, the address right after the
/// instruction holding it. False when the distance does not fit; in 32-bit
/// mode every distance fits (addresses wrap at 4 GiB).
bool rel32Between(uint64_t NextIp, uint64_t Target, int32_t &Rel,
                  X86Mode Mode = X86Mode::Bits64) {
  if (Mode == X86Mode::Bits32) {
    Rel = static_cast<int32_t>(static_cast<uint32_t>(Target - NextIp));
    return true;
  }
  int64_t D = static_cast<int64_t>(Target - NextIp);
  if (D < INT32_MIN || D > INT32_MAX)
    return false;
  Rel = static_cast<int32_t>(D);
  return true;
}

/// A system call instruction, which runs as well from a copy: syscall, and
/// in 32-bit mode int $0x80 (i386's system call; threadsInTheWay and the
/// agent's removal know a thread may be in it). Not sysenter: the kernel
/// returns from it to the vDSO, not to the next instruction.
bool isSyscall(const X86Insn &I, const uint8_t *Bytes, X86Mode Mode) {
  if (I.Vex)
    return false;
  if (I.Map == 1 && I.Opcode == 0x05)
    return true;
  return Mode == X86Mode::Bits32 && I.Map == 0 && I.Opcode == 0xcd &&
         I.ImmSize == 1 && Bytes[I.ImmOffset] == 0x80;
}

bool isInt3(const X86Insn &I) {
  return !I.Vex && I.Map == 0 && I.Opcode == 0xcc;
}

/// xbegin (c7 f8 rel32) decodes as a plain mov-immediate, but its abort
/// target is relative to the instruction.
bool isXbegin(const X86Insn &I) {
  return !I.Vex && I.Map == 0 && I.Opcode == 0xc7 && I.ModRM == 0xf8;
}

bool isIndirectCall(const X86Insn &I) {
  return I.Flow == X86Flow::Indirect && I.modrmReg() == 2;
}

/// Whether the operand of the ff-group instruction I (Bytes) reads %rsp:
/// the register itself, or a SIB base of %rsp. (A SIB index of 100 without
/// REX.X means "no index", never %rsp.)
bool operandUsesRsp(const X86Insn &I, const uint8_t *Bytes) {
  if (!I.HasModRM || I.modrmRm() != 4 || (I.Rex & 1))
    return false;
  if (I.modrmMod() == 3)
    return true;
  uint8_t Sib = Bytes[I.ModRMOffset + 1];
  return (Sib & 7) == 4;
}

/// Why I (at Bytes, decoded in Mode) cannot run from a copy elsewhere, or
/// null if it can.
const char *whyNotRelocatable(const X86Insn &I, const uint8_t *Bytes,
                              X86Mode Mode) {
  switch (I.Flow) {
  case X86Flow::Normal:
    return isXbegin(I) ? "cannot relocate xbegin (its abort target is "
                         "relative)"
                       : nullptr;
  case X86Flow::Ret:
    return nullptr;
  case X86Flow::JmpRel:
  case X86Flow::JccRel:
  case X86Flow::CallRel:
    // With 0x66, AMD CPUs truncate the target to 16 bits; the rel32 form
    // the copy uses would not.
    return I.OpSize16 ? "cannot relocate a relative branch with an "
                        "operand-size prefix"
                      : nullptr;
  case X86Flow::LoopRel:
    return "cannot relocate loop/jrcxz";
  case X86Flow::Indirect:
    if (I.modrmReg() == 3 || I.modrmReg() == 5)
      return "cannot relocate a far indirect call or jump";
    if (I.modrmReg() == 4)
      return nullptr; // copied as is
    if (I.OpSize16)
      return "cannot relocate an indirect call with an operand-size prefix";
    // The copy pushes the return address itself before jumping through
    // the operand, which moves %rsp under it.
    if (operandUsesRsp(I, Bytes))
      return "cannot relocate an indirect call through the stack pointer";
    return nullptr;
  case X86Flow::Trap:
    if (isSyscall(I, Bytes, Mode))
      return nullptr;
    return isInt3(I) ? "cannot relocate an int3 (another debugger?)"
                     : "cannot relocate a trap, privileged or far transfer";
  }
  return "cannot relocate an unknown kind of instruction";
}

/// Why I may only be the last displaced instruction, or null. A call or a
/// syscall leaves a return address (or a restart point) after itself, which
/// must not be inside the patched bytes; after an unconditional transfer,
/// the following bytes are reached from elsewhere, if at all, and would be
/// skipped by the copy.
const char *whyOnlyLast(const X86Insn &I) {
  switch (I.Flow) {
  case X86Flow::CallRel:
    return "cannot relocate a call before the end of the patched bytes";
  case X86Flow::Indirect:
    return isIndirectCall(I)
               ? "cannot relocate a call before the end of the patched bytes"
               : "cannot relocate a jump before the end of the patched bytes";
  case X86Flow::JmpRel:
    return "cannot relocate a jump before the end of the patched bytes";
  case X86Flow::Ret:
    return "cannot relocate a return before the end of the patched bytes";
  case X86Flow::Trap:
    return "cannot relocate a syscall before the end of the patched bytes";
  default:
    return nullptr;
  }
}

/// Decodes the whole function from its entry, collecting the targets of
/// its direct branches, and checks that Site is an instruction boundary.
/// Compiled code decodes linearly; code that does not (data in text,
/// hand-written tricks) may hide branch targets, so it is not patched.
bool scanFunction(std::span<const uint8_t> Func, uint64_t FuncStart,
                  uint64_t Site, X86Mode Mode, std::vector<uint64_t> &Targets,
                  std::string &Why) {
  bool SiteSeen = false;
  for (size_t Pos = 0; Pos < Func.size();) {
    SiteSeen |= FuncStart + Pos == Site;
    X86Insn I;
    if (!decodeX86(Func.data() + Pos, Func.size() - Pos, Mode, I)) {
      Why = "cannot decode the function at " + hexAddr(FuncStart + Pos);
      return false;
    }
    if (hasRelTarget(I))
      Targets.push_back(branchTarget(FuncStart + Pos, I));
    Pos += I.Length;
  }
  if (!SiteSeen) {
    Why = "the site is not an instruction boundary";
    return false;
  }
  return true;
}

/// Whether I is alignment padding: int3 or a nop (90, 0f 1f /0, with any
/// of the prefixes assemblers pad with).
bool isPadding(const X86Insn &I) {
  if (I.Vex || I.Rep)
    return false;
  if (I.Map == 0)
    return I.Opcode == 0xcc || I.Opcode == 0x90;
  return I.Map == 1 && I.Opcode == 0x1f && I.modrmReg() == 0;
}

/// Whether execution never falls through I into what follows it.
bool endsFlow(const X86Insn &I) {
  return I.Flow == X86Flow::Ret || I.Flow == X86Flow::JmpRel ||
         isIndirectJump(I);
}

/// The window ran past the function's end at Len bytes from the site:
/// takes the alignment padding after it (Padding) to reach JumpSize bytes,
/// when the function's last instruction never falls into it. The padding
/// is displaced but never copied: nothing runs it.
bool borrowPadding(std::span<const uint8_t> Padding, PatchPlan &Plan,
                   unsigned &Len, std::string &Why) {
  Why = "the function is shorter than 5 bytes from the site";
  if (Padding.empty() || !endsFlow(Plan.Insns.back().Insn))
    return false;
  unsigned Pad = 0;
  while (Len + Pad < JumpSize) {
    X86Insn I;
    if (Pad >= Padding.size() ||
        !decodeX86(Padding.data() + Pad, Padding.size() - Pad, Plan.Mode, I) ||
        !isPadding(I) || Len + Pad + I.Length > MaxDisplaced)
      return false;
    Pad += I.Length;
  }
  std::memcpy(Plan.Original + Len, Padding.data(), Pad);
  Len += Pad;
  Plan.Padding = Pad;
  return true;
}

/// Fills Plan with the whole instructions from the site that cover
/// JumpSize bytes, all inside the function, or ending it and followed by
/// the padding the jump may borrow.
bool decodeWindow(std::span<const uint8_t> Func, size_t SiteOff,
                  std::span<const uint8_t> Padding, PatchPlan &Plan,
                  std::string &Why, unsigned MinLength = JumpSize) {
  unsigned Len = 0;
  while (Len < std::max(MinLength, JumpSize)) {
    size_t Pos = SiteOff + Len;
    X86Insn I;
    if (Pos >= Func.size()) {
      std::memcpy(Plan.Original, Func.data() + SiteOff, Len);
      if (!borrowPadding(Padding, Plan, Len, Why))
        return false;
      Plan.Length = Len;
      return true;
    }
    if (!decodeX86(Func.data() + Pos, Func.size() - Pos, Plan.Mode, I)) {
      Why = "cannot decode the function at " + hexAddr(Plan.Site + Len);
      return false;
    }
    Plan.Insns.push_back({static_cast<uint8_t>(Len), I});
    Len += I.Length;
  }
  static_assert(MaxDisplaced <= sizeof(PatchPlan::Original));
  if (Len > sizeof(PatchPlan::Original)) {
    Why = "the patched bytes would be too many";
    return false;
  }
  Plan.Length = Len;
  std::memcpy(Plan.Original, Func.data() + SiteOff, Len);
  return true;
}

/// The syscall of a system-call site (Plan.SyscallIndex) may be followed by
/// others: its trampoline makes the call itself (a restarted call restarts
/// there), so no return point lies inside the patched bytes.
bool checkWindow(const PatchPlan &Plan, std::string &Why) {
  for (size_t K = 0; K < Plan.Insns.size(); ++K) {
    const DisplacedInsn &D = Plan.Insns[K];
    const char *Reason =
        whyNotRelocatable(D.Insn, Plan.Original + D.Offset, Plan.Mode);
    bool SiteSyscall = Plan.SyscallIndex == static_cast<int>(K);
    if (!Reason && K + 1 < Plan.Insns.size() && !SiteSyscall)
      Reason = whyOnlyLast(D.Insn);
    if (Reason) {
      Why = Reason;
      return false;
    }
  }
  return true;
}

const char *describeEntry(EntryKind K) {
  switch (K) {
  case EntryKind::Branch:
    return "a branch target";
  case EntryKind::JumpTable:
    return "a jump table entry";
  case EntryKind::AddressTaken:
    return "a code address constant";
  case EntryKind::DataPointer:
    return "a code pointer in data";
  case EntryKind::LandingPad:
    return "an exception landing pad";
  case EntryKind::ProbeSite:
    return "another probe site";
  case EntryKind::FunctionEntry:
    return "another function's entry";
  }
  return "an entry";
}

/// Whether anything may arrive inside the patched bytes. A branch to Site
/// itself lands on the jump and runs the probe, as it would have with the
/// original instruction; one into the rest of the window would land in
/// the middle of the jump.
bool checkEntries(const PatchPlan &Plan, const std::vector<uint64_t> &Targets,
                  const EntryFacts &Known, std::string &Why) {
  auto Inside = [&](uint64_t A) {
    return A > Plan.Site && A < Plan.Site + Plan.Length;
  };
  for (uint64_t T : Targets) {
    if (Inside(T)) {
      Why = "a branch target inside the patched bytes (" + hexAddr(T) + ")";
      return false;
    }
  }
  const KnownEntry *First = nullptr;
  for (const KnownEntry &E : Known.Entries)
    if (Inside(E.Addr) && (!First || E.Addr < First->Addr))
      First = &E;
  if (First) {
    Why = std::string(describeEntry(First->Kind)) +
          " inside the patched bytes (" + hexAddr(First->Addr) + ")";
    return false;
  }
  // One instruction has no boundary inside the bytes that a jump could
  // target; between several, an unknown jump may land.
  if (Plan.Insns.size() > 1 && Known.Unresolved) {
    Why = "the jump would displace " + std::to_string(Plan.Insns.size()) +
          " instructions and the indirect jump at " +
          hexAddr(Known.Unresolved->Addr) +
          " may land between them: " + Known.Unresolved->Why;
    return false;
  }
  return true;
}

/// Appends to an Out whose byte Base will sit at address At.
class CopyWriter {
public:
  CopyWriter(std::vector<uint8_t> &Out, uint64_t At, X86Mode Mode)
      : Mode(Mode), Out(Out), Base(Out.size()), At(At) {}

  const X86Mode Mode;

  size_t offset() const { return Out.size() - Base; }
  uint64_t here() const { return At + offset(); }
  void rollback() { Out.resize(Base); }

  void bytes(std::initializer_list<uint8_t> B) {
    Out.insert(Out.end(), B.begin(), B.end());
  }
  void bytes(const uint8_t *B, size_t N) { Out.insert(Out.end(), B, B + N); }
  void le32(uint32_t V) {
    for (unsigned K = 0; K < 4; ++K)
      Out.push_back(static_cast<uint8_t>(V >> (8 * K)));
  }
  void patchByte(size_t Off, uint8_t V) { Out[Base + Off] = V; }
  /// Overwrites the 4 bytes at copy offset Off.
  void patch32(size_t Off, int32_t V) {
    std::memcpy(Out.data() + Base + Off, &V, 4);
  }

  /// Appends the rel32 that ends the current instruction and reaches
  /// Target. What names the target for Why.
  bool rel32To(uint64_t Target, const char *What, std::string &Why) {
    int32_t Rel;
    if (!rel32Between(here() + 4, Target, Rel, Mode)) {
      Why = cannotReach(What, Target);
      return false;
    }
    le32(static_cast<uint32_t>(Rel));
    return true;
  }

  std::string cannotReach(const char *What, uint64_t Target) const {
    return std::string("the copy at ") + hexAddr(here()) + " cannot reach " +
           What + " " + hexAddr(Target);
  }

private:
  std::vector<uint8_t> &Out;
  size_t Base;
  uint64_t At;
};

bool appendJmp(CopyWriter &W, uint64_t Target, const char *What,
               std::string &Why) {
  W.bytes({0xe9});
  return W.rel32To(Target, What, Why);
}

bool appendJcc(CopyWriter &W, uint8_t Cond, uint64_t Target, std::string &Why) {
  W.bytes({0x0f, static_cast<uint8_t>(0x80 | Cond)});
  return W.rel32To(Target, "the branch target", Why);
}

/// Pushes the 64-bit Ret the way a call would, without a call (which would
/// push the copy's own address) and without touching the flags (the
/// callee may read them): `push imm32` sign-extends, so two 32-bit stores.
///   lea -8(%rsp),%rsp; movl $lo,(%rsp); movl $hi,4(%rsp)
///
/// In 32-bit mode `push imm32` pushes exactly the 4-byte return address,
/// and leaves the flags alone too.
void appendPushReturn(CopyWriter &W, uint64_t Ret) {
  if (W.Mode == X86Mode::Bits32) {
    W.bytes({0x68});
    W.le32(static_cast<uint32_t>(Ret));
    return;
  }
  W.bytes({0x48, 0x8d, 0x64, 0x24, 0xf8});
  W.bytes({0xc7, 0x04, 0x24});
  W.le32(static_cast<uint32_t>(Ret));
  W.bytes({0xc7, 0x44, 0x24, 0x04});
  W.le32(static_cast<uint32_t>(Ret >> 32));
}

/// Copies I (Bytes, originally at Orig) as is, re-targeting a RIP-relative
/// displacement so the copy addresses what the original did.
bool appendCopy(CopyWriter &W, const uint8_t *Bytes, const X86Insn &I,
                uint64_t Orig, std::string &Why) {
  size_t Start = W.offset();
  uint64_t CopyNext = W.here() + I.Length;
  W.bytes(Bytes, I.Length);
  if (!I.RipRelative)
    return true;
  int32_t Disp;
  std::memcpy(&Disp, Bytes + I.DispOffset, 4);
  uint64_t Target = Orig + I.Length + static_cast<int64_t>(Disp);
  int32_t NewDisp;
  if (!rel32Between(CopyNext, Target, NewDisp)) {
    Why = W.cannotReach("the RIP-relative operand", Target);
    return false;
  }
  W.patch32(Start + I.DispOffset, NewDisp);
  return true;
}

/// call *X  =>  push the original return address; jmp *X (ff /2 -> ff /4,
/// same operand), so the callee returns past the patched bytes.
bool appendIndirectCall(CopyWriter &W, const uint8_t *Bytes, const X86Insn &I,
                        uint64_t Orig, std::string &Why) {
  appendPushReturn(W, Orig + I.Length);
  size_t Start = W.offset();
  if (!appendCopy(W, Bytes, I, Orig, Why))
    return false;
  W.patchByte(Start + I.ModRMOffset,
              static_cast<uint8_t>((I.ModRM & ~0x38) | (4 << 3)));
  return true;
}

bool appendRelocated(CopyWriter &W, const PatchPlan &Plan,
                     const DisplacedInsn &D, std::string &Why) {
  const X86Insn &I = D.Insn;
  const uint8_t *Bytes = Plan.Original + D.Offset;
  uint64_t Orig = Plan.Site + D.Offset;
  switch (I.Flow) {
  case X86Flow::JmpRel:
    return appendJmp(W, branchTarget(Orig, I), "the branch target", Why);
  case X86Flow::JccRel:
    return appendJcc(W, I.Cond, branchTarget(Orig, I), Why);
  case X86Flow::CallRel:
    appendPushReturn(W, Orig + I.Length);
    return appendJmp(W, branchTarget(Orig, I), "the callee", Why);
  case X86Flow::Indirect:
    if (isIndirectCall(I))
      return appendIndirectCall(W, Bytes, I, Orig, Why);
    return appendCopy(W, Bytes, I, Orig, Why);
  default:
    return appendCopy(W, Bytes, I, Orig, Why);
  }
}

/// The copy of every displaced instruction, then the jump back.
bool appendCopyOf(CopyWriter &W, const PatchPlan &Plan, BoundaryMap &Map,
                  std::string &Why) {
  for (const DisplacedInsn &D : Plan.Insns) {
    Map.emplace_back(D.Offset, static_cast<uint16_t>(W.offset()));
    if (!appendRelocated(W, Plan, D, Why))
      return false;
  }
  // Unreachable after an unconditional transfer, but kept so that every
  // copy ends the same way and Length always has a place in the copy.
  Map.emplace_back(static_cast<uint8_t>(Plan.Length),
                   static_cast<uint16_t>(W.offset()));
  return appendJmp(W, Plan.Site + Plan.Length, "the return point", Why);
}

} // namespace

bool tscc::rt::ip::planJumpPatch(std::span<const uint8_t> Func,
                                 uint64_t FuncStart, uint64_t Site,
                                 const EntryFacts &Known, PatchPlan &Plan,
                                 std::string &Why, X86Mode Mode,
                                 std::span<const uint8_t> Padding) {
  Plan = PatchPlan();
  Plan.Mode = Mode;
  Plan.Site = Site;
  if (Site < FuncStart || Site - FuncStart >= Func.size()) {
    Why = "the site is outside the function";
    return false;
  }
  std::vector<uint64_t> Targets;
  return scanFunction(Func, FuncStart, Site, Mode, Targets, Why) &&
         decodeWindow(Func, Site - FuncStart, Padding, Plan, Why) &&
         checkWindow(Plan, Why) && checkEntries(Plan, Targets, Known, Why);
}

namespace {

/// The instruction boundaries of the function up to and including Site,
/// the last at most MaxBack of them.
std::vector<uint64_t> boundariesBefore(std::span<const uint8_t> Func,
                                       uint64_t FuncStart, uint64_t Site,
                                       size_t MaxBack) {
  std::vector<uint64_t> Out;
  for (size_t Pos = 0; Pos < Func.size() && FuncStart + Pos <= Site;) {
    Out.push_back(FuncStart + Pos);
    X86Insn I;
    if (!decodeX86(Func.data() + Pos, Func.size() - Pos, X86Mode::Bits64, I))
      break;
    Pos += I.Length;
  }
  if (Out.size() > MaxBack + 1)
    Out.erase(Out.begin(), Out.end() - (MaxBack + 1));
  return Out;
}

} // namespace

bool tscc::rt::ip::planSyscallPatch(std::span<const uint8_t> Func,
                                    uint64_t FuncStart, uint64_t Syscall,
                                    const EntryFacts &Known, PatchPlan &Plan,
                                    std::string &Why) {
  Plan = PatchPlan();
  if (Syscall < FuncStart || Syscall - FuncStart >= Func.size()) {
    Why = "the site is outside the function";
    return false;
  }
  std::vector<uint64_t> Targets;
  if (!scanFunction(Func, FuncStart, Syscall, X86Mode::Bits64, Targets, Why))
    return false;
  // The jump starts at the syscall when the function goes on for 5 bytes
  // from it, else (`mov $nr, %eax; syscall; ret`) at an instruction before
  // it, nearest first.
  std::vector<uint64_t> Starts =
      boundariesBefore(Func, FuncStart, Syscall, /*MaxBack=*/4);
  if (Starts.empty() || Starts.back() != Syscall) {
    Why = "the site is not an instruction boundary";
    return false;
  }
  std::string FirstWhy;
  for (auto It = Starts.rbegin(); It != Starts.rend(); ++It) {
    PatchPlan Try;
    Try.Site = *It;
    std::string W;
    unsigned MinLength = static_cast<unsigned>(Syscall + 2 - *It);
    if (decodeWindow(Func, *It - FuncStart, {}, Try, W, MinLength)) {
      for (size_t K = 0; K < Try.Insns.size(); ++K)
        if (Try.Site + Try.Insns[K].Offset == Syscall)
          Try.SyscallIndex = static_cast<int>(K);
      if (Try.SyscallIndex < 0 ||
          !isSyscall(Try.Insns[Try.SyscallIndex].Insn,
                     Try.Original + Try.Insns[Try.SyscallIndex].Offset,
                     X86Mode::Bits64))
        W = "the site is not a syscall instruction";
      else if (checkWindow(Try, W) && checkEntries(Try, Targets, Known, W)) {
        Plan = std::move(Try);
        return true;
      }
    }
    if (FirstWhy.empty())
      FirstWhy = W;
  }
  Why = FirstWhy;
  return false;
}

bool tscc::rt::ip::relocateInsns(const PatchPlan &Plan, size_t First,
                                 size_t End, uint64_t At, bool JumpBack,
                                 uint16_t MapBase, std::vector<uint8_t> &Out,
                                 BoundaryMap &Map, std::string &Why) {
  CopyWriter W(Out, At, Plan.Mode);
  size_t MapSize = Map.size();
  auto Fail = [&] {
    W.rollback();
    Map.resize(MapSize);
    return false;
  };
  for (size_t K = First; K < End && K < Plan.Insns.size(); ++K) {
    const DisplacedInsn &D = Plan.Insns[K];
    Map.emplace_back(D.Offset, static_cast<uint16_t>(MapBase + W.offset()));
    if (!appendRelocated(W, Plan, D, Why))
      return Fail();
  }
  if (!JumpBack)
    return true;
  Map.emplace_back(static_cast<uint8_t>(Plan.Length),
                   static_cast<uint16_t>(MapBase + W.offset()));
  if (!appendJmp(W, Plan.Site + Plan.Length, "the return point", Why))
    return Fail();
  return true;
}

bool tscc::rt::ip::planTrapPatch(std::span<const uint8_t> Func,
                                 uint64_t FuncStart, uint64_t Site,
                                 PatchPlan &Plan, std::string &Why,
                                 X86Mode Mode) {
  Plan = PatchPlan();
  Plan.Mode = Mode;
  Plan.Site = Site;
  if (Site < FuncStart || Site - FuncStart >= Func.size()) {
    Why = "the site is outside the function";
    return false;
  }
  std::vector<uint64_t> Targets;
  if (!scanFunction(Func, FuncStart, Site, Mode, Targets, Why))
    return false;
  return planTrapAt(Func.subspan(Site - FuncStart), Site, Plan, Why, Mode);
}

bool tscc::rt::ip::planTrapAt(std::span<const uint8_t> Code, uint64_t Site,
                              PatchPlan &Plan, std::string &Why, X86Mode Mode) {
  Plan = PatchPlan();
  Plan.Mode = Mode;
  Plan.Site = Site;
  X86Insn I;
  if (!decodeX86(Code.data(), Code.size(), Mode, I)) {
    Why = "cannot decode the instruction at " + hexAddr(Site);
    return false;
  }
  Plan.Insns.push_back({0, I});
  Plan.Length = I.Length;
  Plan.Trap = true;
  std::memcpy(Plan.Original, Code.data(), I.Length);
  return checkWindow(Plan, Why);
}

bool tscc::rt::ip::relocateDisplaced(const PatchPlan &Plan, uint64_t At,
                                     std::vector<uint8_t> &Out,
                                     BoundaryMap &Map, std::string &Why) {
  CopyWriter W(Out, At, Plan.Mode);
  size_t MapSize = Map.size();
  if (appendCopyOf(W, Plan, Map, Why))
    return true;
  W.rollback();
  Map.resize(MapSize);
  return false;
}

bool tscc::rt::ip::jumpPatchBytes(const PatchPlan &Plan, uint64_t Trampoline,
                                  std::vector<uint8_t> &Out) {
  Out.clear();
  if (Plan.Trap) {
    Out.push_back(0xcc);
    return true;
  }
  int32_t Rel;
  if (Plan.Length < JumpSize ||
      !rel32Between(Plan.Site + JumpSize, Trampoline, Rel, Plan.Mode))
    return false;
  Out.push_back(0xe9);
  for (unsigned K = 0; K < 4; ++K)
    Out.push_back(static_cast<uint8_t>(static_cast<uint32_t>(Rel) >> (8 * K)));
  Out.resize(Plan.Length, 0xcc);
  return true;
}
