//===- Unwinder.cpp - Call stacks, for every backend ----------------------===//
//
// A frame is stepped with its module's .eh_frame rules where they exist;
// otherwise (no module, no FDE, rules this unwinder cannot follow) with the
// frame-pointer chain: [fp] is the caller's fp, [fp + ptr] the return
// address. The first instruction of a function is special-cased there:
// its frame is not set up yet, the return address is at [sp].
//
// How the walk ends is classified, so that output can mark a stack that
// stopped early: the outermost frame is the one whose rules leave the
// return address undefined (glibc's _start), or a return address of 0, or
// (frame pointers only) fp == 0, the psABI's mark of the deepest frame.
//
//===----------------------------------------------------------------------===//
#include "tscc/Runtime/Unwinder.h"

#include "EhFrame.h"

#include "tscc/Runtime/ModuleImage.h"

#include <cstring>

using namespace tscc;
using namespace tscc::rt;
using namespace tscc::rt::unwind;

namespace {

/// The registers an unwind tracks, for the frame being stepped.
struct Frame {
  uint64_t PC = 0, SP = 0, FP = 0;
};

/// One step: the caller's frame, or why there is none.
struct Step {
  std::optional<StackEnd> End; ///< set: no caller (Complete: outermost)
  Frame Caller;
};

class Walker {
public:
  Walker(const UnwindSource &Src, DataModel DM)
      : Src(Src), Dw(DM == DataModel::ILP32 ? I386Regs : X86_64Regs),
        Mask(Dw.PtrSize == 8 ? ~uint64_t(0) : 0xffffffffull) {}

  /// The caller of F; Innermost: F.PC is where the thread stopped, not a
  /// return address (which points after its call).
  Step step(const Frame &F, bool Innermost) const {
    uint64_t Lookup = Innermost ? F.PC : F.PC - 1;
    const ModuleImage *M = Src.ModuleAt ? Src.ModuleAt(Lookup) : nullptr;
    if (M && M->Elf && (M->Elf->is64() == (Dw.PtrSize == 8))) {
      CfaRules R;
      switch (cfaRulesAt(M->Elf, Lookup - M->Bias, R)) {
      case RulesLookup::Found:
        return byRules(F, R);
      case RulesLookup::Outermost:
        return {StackEnd::Complete, {}};
      case RulesLookup::NoFde:
      case RulesLookup::Unsupported:
        break;
      }
      if (Innermost && atFunctionEntry(*M, F.PC))
        return byEntry(F);
    }
    return byFramePointer(F);
  }

  uint64_t mask(uint64_t V) const { return V & Mask; }

private:
  const UnwindSource &Src;
  const DwarfRegs &Dw;
  uint64_t Mask;

  bool read(uint64_t Addr, uint64_t &Word) const {
    Word = 0;
    if (!Src.Read || !Src.Read(mask(Addr), Word))
      return false;
    Word = mask(Word);
    return true;
  }

  Step byRules(const Frame &F, const CfaRules &R) const {
    auto RegValue = [&](unsigned Reg) { return Reg == Dw.Sp ? F.SP : F.FP; };
    uint64_t Cfa = mask(RegValue(R.CfaReg) + R.CfaOff);
    if (R.CfaDeref && !read(Cfa, Cfa))
      return {StackEnd::Unreadable, {}};
    Frame C;
    C.FP = F.FP;
    if (!read(Cfa + R.Ra.Off, C.PC))
      return {StackEnd::Unreadable, {}};
    bool FpOk = true;
    if (R.Fp.K == Rule::Offset)
      FpOk = read(Cfa + R.Fp.Off, C.FP);
    else if (R.Fp.K == Rule::AtReg && (R.Fp.Reg == Dw.Sp || R.Fp.Reg == Dw.Fp))
      FpOk = read(RegValue(R.Fp.Reg) + R.Fp.Off, C.FP);
    if (!FpOk)
      return {StackEnd::Unreadable, {}};
    // The caller's frame lies above its callee's: anything else is a
    // loop or a smashed stack, which would otherwise go on forever.
    if (Cfa <= F.SP)
      return {StackEnd::Corrupt, {}};
    C.SP = Cfa;
    return {std::nullopt, C};
  }

  static bool atFunctionEntry(const ModuleImage &M, uint64_t PC) {
    const ElfSymbol *Sym = M.Elf->functionContaining(PC - M.Bias);
    return Sym && Sym->Value + M.Bias == PC;
  }

  /// At a function's first instruction: the caller is at [sp] and fp is
  /// still the caller's.
  Step byEntry(const Frame &F) const {
    Frame C;
    if (!read(F.SP, C.PC))
      return {StackEnd::Unreadable, {}};
    C.SP = mask(F.SP + Dw.PtrSize);
    C.FP = F.FP;
    return {std::nullopt, C};
  }

  Step byFramePointer(const Frame &F) const {
    if (!F.FP)
      return {StackEnd::Complete, {}};
    if (F.FP < F.SP)
      return {StackEnd::NoUnwindInfo, {}};
    Frame C;
    if (!read(F.FP, C.FP) || !read(F.FP + Dw.PtrSize, C.PC))
      return {StackEnd::Unreadable, {}};
    C.SP = mask(F.FP + 2 * Dw.PtrSize);
    return {std::nullopt, C};
  }
};

} // namespace

UnwoundStack tscc::rt::unwindStack(const UnwindSource &Src, DataModel DM,
                                   const uint64_t *Regs, unsigned MaxDepth) {
  UnwoundStack Out;
  if (!MaxDepth)
    return Out;
  Walker W(Src, DM);
  Frame F{W.mask(Regs[TSCC_REG_RIP]), W.mask(Regs[TSCC_REG_RSP]),
          W.mask(Regs[TSCC_REG_RBP])};
  for (bool Innermost = true; F.PC; Innermost = false) {
    // Return addresses hijacked by exit probes point at a trampoline.
    if (Src.RealReturn)
      F.PC = Src.RealReturn(F.PC);
    Out.PCs.push_back(F.PC);
    Step S = W.step(F, Innermost);
    if (S.End) {
      Out.End = *S.End;
      break;
    }
    F = S.Caller;
    // A return address of 0 ends the chain as well as any rule does.
    if (F.PC && Out.PCs.size() >= MaxDepth) {
      Out.End = StackEnd::DepthLimit;
      break;
    }
  }
  return Out;
}

UnwoundStack tscc::rt::unwindSnapshot(
    const StackSnapshot &Snap, DataModel DM,
    std::function<const ModuleImage *(uint64_t Addr)> ModuleAt,
    std::function<bool(uint64_t Addr, uint64_t &Word)> Beyond,
    unsigned MaxDepth) {
  uint64_t Sp = Snap.Regs[TSCC_REG_RSP];
  unsigned Ptr = DM == DataModel::LP64 ? 8 : 4;
  size_t NextShadow = Snap.Shadow.size();
  UnwindSource Src;
  Src.Read = [&](uint64_t Addr, uint64_t &Word) {
    if (Addr >= Sp && Addr - Sp + Ptr <= Snap.Stack.size()) {
      Word = 0;
      std::memcpy(&Word, Snap.Stack.data() + (Addr - Sp), Ptr);
      return true;
    }
    return Beyond && Beyond(Addr, Word);
  };
  Src.ModuleAt = std::move(ModuleAt);
  Src.RealReturn = [&](uint64_t PC) {
    if (PC == Snap.ReturnTrampoline && NextShadow > 0)
      return Snap.Shadow[--NextShadow];
    return PC;
  };
  return unwindStack(Src, DM, Snap.Regs, MaxDepth);
}

std::string_view tscc::rt::stackEndMarker(StackEnd End) {
  switch (End) {
  case StackEnd::Complete:
    return {};
  case StackEnd::DepthLimit:
    return "[truncated: depth limit]";
  case StackEnd::NoUnwindInfo:
    return "[truncated: no unwind info]";
  case StackEnd::Unreadable:
    return "[truncated: unreadable stack]";
  case StackEnd::Corrupt:
    return "[truncated: corrupt stack]";
  }
  return "[truncated]";
}

std::vector<std::string>
tscc::rt::withStackEndMarker(std::vector<std::string> Frames, StackEnd End) {
  if (std::string_view M = stackEndMarker(End); !M.empty())
    Frames.emplace_back(M);
  return Frames;
}

std::optional<std::string_view>
tscc::rt::stackEndReason(std::string_view Frame) {
  constexpr std::string_view Prefix = "[truncated";
  if (Frame.size() < Prefix.size() + 1 ||
      Frame.substr(0, Prefix.size()) != Prefix || Frame.back() != ']')
    return std::nullopt;
  std::string_view Rest =
      Frame.substr(Prefix.size(), Frame.size() - Prefix.size() - 1);
  if (Rest.empty())
    return "unknown";
  if (Rest.substr(0, 2) != ": ")
    return std::nullopt;
  return Rest.substr(2);
}
