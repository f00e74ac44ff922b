//===- Unwind.cpp - Call stacks of a stopped thread -----------------------===//
//
// Each frame is unwound with the module's .eh_frame CFA rules when it has
// an FDE for the PC (the common DW_CFA operations: CFA = register + offset,
// registers saved at CFA + offset, remember/restore state); frames without
// one fall back to the frame-pointer chain. Only rsp, rbp and the return
// address are tracked: that is all a CFA rule for compiled C needs.
//
//===----------------------------------------------------------------------===//
#include "Unwind.h"

#include "PtraceProcess.h"

#include "../Elf/EhReader.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

/// The DWARF numbers of the registers an unwind tracks: the stack and
/// frame pointers and the return address, which differ between x86-64
/// and i386 (whose .eh_frame numbers esp 4, ebp 5, eip 8).
struct DwarfRegs {
  unsigned Sp, Fp, Ra;
};
constexpr DwarfRegs X86_64Regs{7, 6, 16};
constexpr DwarfRegs I386Regs{4, 5, 8};

const DwarfRegs &dwarfRegs(const ElfFile &Elf) {
  return Elf.is64() ? X86_64Regs : I386Regs;
}

using Reader = EhReader;

struct Cie {
  uint64_t CodeAlign = 1;
  int64_t DataAlign = -8;
  unsigned RaReg = 0;
  uint8_t FdeEnc = 0;
  size_t InsnStart = 0, InsnEnd = 0;
};

struct Fde {
  uint64_t Start = 0, End = 0; ///< link-time PC range
  size_t CiePos = 0;
  size_t InsnStart = 0, InsnEnd = 0;
};

struct Rule {
  /// Offset: saved at CFA + Off. AtReg: saved at register Reg + Off (a
  /// DW_CFA_expression of one DW_OP_breg).
  enum Kind : uint8_t { Same, Undefined, Offset, AtReg } K = Same;
  int64_t Off = 0;
  unsigned Reg = 0;
};

struct State {
  unsigned CfaReg = 0;
  int64_t CfaOff = 8;
  /// CFA = [CfaReg + CfaOff]: a DW_CFA_def_cfa_expression of DW_OP_breg
  /// and DW_OP_deref, which GCC emits for functions that realign their
  /// stack (i386 main: the caller's esp is kept below the frame pointer).
  bool CfaDeref = false;
  bool CfaOk = true;
  Rule Rbp, Ra;
};

/// A DWARF expression of the one form CFA rules of compiled C use beyond
/// register + offset: DW_OP_breg<Reg> Off, then an optional DW_OP_deref.
struct SimpleExpr {
  unsigned Reg = 0;
  int64_t Off = 0;
  bool Deref = false;
};

std::optional<SimpleExpr> parseSimpleExpr(const uint8_t *Data, size_t Size) {
  Reader R{Data, Size, 0, 0};
  uint8_t Op = R.fixed(1);
  if (!R.Ok || Op < 0x70 || Op > 0x8f) // DW_OP_breg0..31
    return std::nullopt;
  SimpleExpr E;
  E.Reg = Op - 0x70;
  E.Off = R.sleb();
  if (R.Ok && R.Pos < Size) {
    E.Deref = R.fixed(1) == 0x06; // DW_OP_deref
    if (!E.Deref)
      return std::nullopt;
  }
  if (!R.Ok || R.Pos != Size)
    return std::nullopt;
  return E;
}

struct FrameTable {
  std::vector<uint8_t> Bytes;
  uint64_t Addr = 0;
  std::map<size_t, Cie> Cies;
  std::vector<Fde> Fdes; ///< sorted by Start
};

bool parseCie(FrameTable &T, size_t Pos, unsigned PtrSize, Cie &Out) {
  if (auto It = T.Cies.find(Pos); It != T.Cies.end()) {
    Out = It->second;
    return true;
  }
  Reader R{T.Bytes.data(), T.Bytes.size(), Pos, T.Addr};
  uint64_t Len = R.fixed(4);
  if (Len == 0xffffffff || !R.Ok)
    return false;
  size_t End = R.Pos + Len;
  if (End > T.Bytes.size())
    return false;
  R.fixed(4); // CIE id
  uint8_t Version = R.fixed(1);
  std::string Aug;
  while (R.need(1) && R.Data[R.Pos])
    Aug += char(R.Data[R.Pos++]);
  R.fixed(1);
  Out.CodeAlign = R.uleb();
  Out.DataAlign = R.sleb();
  Out.RaReg = Version == 1 ? R.fixed(1) : R.uleb();
  if (!Aug.empty() && Aug[0] == 'z') {
    uint64_t AugLen = R.uleb();
    size_t AugEnd = R.Pos + AugLen;
    for (char C : Aug.substr(1)) {
      if (C == 'R')
        Out.FdeEnc = R.fixed(1);
      else if (C == 'P') {
        uint8_t Enc = R.fixed(1);
        R.encoded(Enc & 0x7f, PtrSize);
      } else if (C == 'L')
        R.fixed(1);
    }
    R.Pos = AugEnd;
  }
  Out.InsnStart = R.Pos;
  Out.InsnEnd = End;
  if (!R.Ok)
    return false;
  T.Cies[Pos] = Out;
  return true;
}

/// Reads every FDE of a module's .eh_frame once.
const FrameTable *frameTable(const ElfFile &Elf) {
  static std::map<const ElfFile *, std::unique_ptr<FrameTable>> Cache;
  auto It = Cache.find(&Elf);
  if (It != Cache.end())
    return It->second.get();
  auto T = std::make_unique<FrameTable>();
  std::optional<ElfRange> EF = Elf.ehFrame();
  unsigned PtrSize = Elf.is64() ? 8 : 4;
  if (EF) {
    std::string_view B = Elf.bytes(EF->Offset, EF->Size);
    T->Bytes.assign(B.begin(), B.end());
    T->Addr = EF->VAddr;
  }
  size_t Pos = 0;
  while (Pos + 8 <= T->Bytes.size()) {
    Reader R{T->Bytes.data(), T->Bytes.size(), Pos, T->Addr};
    uint64_t Len = R.fixed(4);
    if (Len == 0 || Len == 0xffffffff)
      break;
    size_t End = R.Pos + Len;
    if (End > T->Bytes.size())
      break;
    size_t IdPos = R.Pos;
    uint32_t Id = R.fixed(4);
    if (Id != 0) {
      Fde F;
      F.CiePos = IdPos - Id;
      Cie C;
      if (F.CiePos < T->Bytes.size() && parseCie(*T, F.CiePos, PtrSize, C)) {
        F.Start = R.encoded(C.FdeEnc, PtrSize);
        F.End = F.Start + R.encoded(C.FdeEnc & 0x0f, PtrSize);
        R.Pos += R.uleb(); // augmentation data ('z')
        F.InsnStart = R.Pos;
        F.InsnEnd = End;
        if (R.Ok && F.End > F.Start)
          T->Fdes.push_back(F);
      }
    }
    Pos = End;
  }
  std::sort(T->Fdes.begin(), T->Fdes.end(),
            [](const Fde &A, const Fde &B) { return A.Start < B.Start; });
  return (Cache[&Elf] = std::move(T)).get();
}

/// Runs CFA instructions [Start, End) until the location passes Target.
void execute(const FrameTable &T, size_t Start, size_t End, const Cie &C,
             uint64_t Loc, uint64_t Target, State &S, const State &Initial,
             unsigned PtrSize, const DwarfRegs &Dw) {
  Reader R{T.Bytes.data(), End, Start, T.Addr};
  std::vector<State> Stack;
  auto SetRule = [&](unsigned Reg, Rule Ru) {
    if (Reg == Dw.Fp)
      S.Rbp = Ru;
    else if (Reg == C.RaReg)
      S.Ra = Ru;
  };
  auto Restore = [&](unsigned Reg) {
    if (Reg == Dw.Fp)
      S.Rbp = Initial.Rbp;
    else if (Reg == C.RaReg)
      S.Ra = Initial.Ra;
  };
  while (R.Ok && R.Pos < End) {
    uint8_t Op = R.fixed(1);
    uint8_t Hi = Op & 0xc0, Lo = Op & 0x3f;
    if (Hi == 0x40) {
      Loc += Lo * C.CodeAlign;
      if (Loc > Target)
        return;
      continue;
    }
    if (Hi == 0x80) {
      SetRule(Lo, {Rule::Offset, int64_t(R.uleb()) * C.DataAlign});
      continue;
    }
    if (Hi == 0xc0) {
      Restore(Lo);
      continue;
    }
    switch (Op) {
    case 0x00:
      break;
    case 0x01:
      Loc = R.encoded(C.FdeEnc, PtrSize);
      break;
    case 0x02:
    case 0x03:
    case 0x04: {
      uint64_t D = R.fixed(Op == 0x02 ? 1 : Op == 0x03 ? 2 : 4);
      Loc += D * C.CodeAlign;
      if (Loc > Target)
        return;
      break;
    }
    case 0x05: {
      unsigned Reg = R.uleb();
      SetRule(Reg, {Rule::Offset, int64_t(R.uleb()) * C.DataAlign});
      break;
    }
    case 0x06:
      Restore(R.uleb());
      break;
    case 0x07:
      SetRule(R.uleb(), {Rule::Undefined, 0});
      break;
    case 0x08:
      SetRule(R.uleb(), {Rule::Same, 0});
      break;
    case 0x09: {
      unsigned Reg = R.uleb();
      R.uleb();
      SetRule(Reg, {Rule::Undefined, 0});
      break;
    }
    case 0x0a:
      Stack.push_back(S);
      break;
    case 0x0b:
      if (!Stack.empty()) {
        S = Stack.back();
        Stack.pop_back();
      }
      break;
    case 0x0c:
      S.CfaReg = R.uleb();
      S.CfaOff = R.uleb();
      S.CfaOk = true;
      S.CfaDeref = false;
      break;
    case 0x0d:
      S.CfaReg = R.uleb();
      S.CfaDeref = false;
      break;
    case 0x0e:
      S.CfaOff = R.uleb();
      break;
    case 0x0f: {
      uint64_t Len = R.uleb();
      std::optional<SimpleExpr> E;
      if (R.need(Len))
        E = parseSimpleExpr(R.Data + R.Pos, Len);
      R.Pos += Len;
      S.CfaOk = E.has_value();
      if (E) {
        S.CfaReg = E->Reg;
        S.CfaOff = E->Off;
        S.CfaDeref = E->Deref;
      }
      break;
    }
    case 0x10: {
      unsigned Reg = R.uleb();
      uint64_t Len = R.uleb();
      std::optional<SimpleExpr> E;
      if (R.need(Len))
        E = parseSimpleExpr(R.Data + R.Pos, Len);
      R.Pos += Len;
      if (E && !E->Deref)
        SetRule(Reg, {Rule::AtReg, E->Off, E->Reg});
      else
        SetRule(Reg, {Rule::Undefined, 0});
      break;
    }
    case 0x11: {
      unsigned Reg = R.uleb();
      SetRule(Reg, {Rule::Offset, R.sleb() * C.DataAlign});
      break;
    }
    case 0x12:
      S.CfaReg = R.uleb();
      S.CfaOff = R.sleb() * C.DataAlign;
      S.CfaOk = true;
      S.CfaDeref = false;
      break;
    case 0x13:
      S.CfaOff = R.sleb() * C.DataAlign;
      break;
    case 0x14:
    case 0x15: {
      unsigned Reg = R.uleb();
      Op == 0x14 ? (void)R.uleb() : (void)R.sleb();
      SetRule(Reg, {Rule::Undefined, 0});
      break;
    }
    case 0x16: {
      unsigned Reg = R.uleb();
      R.Pos += R.uleb();
      SetRule(Reg, {Rule::Undefined, 0});
      break;
    }
    case 0x2e:
      R.uleb();
      break;
    case 0x2f: {
      unsigned Reg = R.uleb();
      SetRule(Reg, {Rule::Offset, -int64_t(R.uleb()) * C.DataAlign});
      break;
    }
    default:
      S.CfaOk = false;
      return; // unknown: give up on this frame
    }
  }
}

/// CFA rules of the frame at link-time PC, if the module has an FDE.
std::optional<State> rulesFor(const ElfFile &Elf, uint64_t PC) {
  const FrameTable *T = frameTable(Elf);
  auto It =
      std::upper_bound(T->Fdes.begin(), T->Fdes.end(), PC,
                       [](uint64_t V, const Fde &F) { return V < F.Start; });
  if (It == T->Fdes.begin())
    return std::nullopt;
  const Fde &F = *--It;
  if (PC >= F.End)
    return std::nullopt;
  auto CIt = T->Cies.find(F.CiePos);
  if (CIt == T->Cies.end())
    return std::nullopt;
  const Cie &C = CIt->second;
  unsigned PtrSize = Elf.is64() ? 8 : 4;
  const DwarfRegs &Dw = dwarfRegs(Elf);
  State Initial;
  Initial.CfaReg = Dw.Sp;
  Initial.CfaOff = PtrSize;
  Initial.Ra = {Rule::Offset, -int64_t(PtrSize)};
  execute(*T, C.InsnStart, C.InsnEnd, C, F.Start, UINT64_MAX, Initial, Initial,
          PtrSize, Dw);
  State S = Initial;
  execute(*T, F.InsnStart, F.InsnEnd, C, F.Start, PC, S, Initial, PtrSize, Dw);
  if (!S.CfaOk || (S.CfaReg != Dw.Sp && S.CfaReg != Dw.Fp) ||
      S.Ra.K != Rule::Offset)
    return std::nullopt;
  return S;
}

} // namespace

std::vector<uint64_t> tscc::rt::pt::unwindWith(PtraceProcess &P,
                                               const uint64_t *Regs,
                                               unsigned MaxDepth,
                                               const UnwindSource &Src) {
  std::vector<uint64_t> PCs;
  if (!MaxDepth)
    return PCs;
  uint64_t PC = Regs[TSCC_REG_RIP];
  uint64_t SP = Regs[TSCC_REG_RSP];
  uint64_t FP = Regs[TSCC_REG_RBP];
  unsigned Ptr = P.pointerSize();
  auto Read = [&](uint64_t Addr, bool &Ok) {
    uint64_t W = 0;
    Ok = Src.Read(Addr, W);
    return Ptr == 8 ? W : (W & 0xffffffffull);
  };
  bool Innermost = true;
  while (PCs.size() < MaxDepth && PC) {
    // Return addresses hijacked by exit probes point at a trampoline.
    PC = Src.RealReturn(PC);
    PCs.push_back(PC);
    // A return address points after the call; look the rules up inside it.
    uint64_t Lookup = Innermost ? PC : PC - 1;
    Innermost = false;
    const Module *M = P.moduleFor(Lookup);
    std::optional<State> S;
    if (M)
      S = rulesFor(*M->Elf, Lookup - M->Bias);
    bool Ok1 = false, Ok2 = true;
    if (S) {
      const DwarfRegs &Dw = dwarfRegs(*M->Elf);
      auto RegValue = [&](unsigned Reg) { return Reg == Dw.Sp ? SP : FP; };
      uint64_t Cfa = RegValue(S->CfaReg) + S->CfaOff;
      bool OkCfa = true;
      if (S->CfaDeref)
        Cfa = Read(Cfa, OkCfa);
      uint64_t Ret = Read(Cfa + S->Ra.Off, Ok1);
      if (S->Rbp.K == Rule::Offset)
        FP = Read(Cfa + S->Rbp.Off, Ok2);
      else if (S->Rbp.K == Rule::AtReg &&
               (S->Rbp.Reg == Dw.Sp || S->Rbp.Reg == Dw.Fp))
        FP = Read(RegValue(S->Rbp.Reg) + S->Rbp.Off, Ok2);
      if (!OkCfa || !Ok1 || !Ok2 || Cfa <= SP)
        break;
      SP = Cfa;
      PC = Ret;
      continue;
    }
    // No unwind info: [fp] = caller's fp, [fp + ptr] = return address.
    if (!FP || FP < SP)
      break;
    uint64_t NextFP = Read(FP, Ok1);
    uint64_t Ret = Read(FP + Ptr, Ok2);
    if (!Ok1 || !Ok2)
      break;
    SP = FP + 2 * Ptr;
    FP = NextFP;
    PC = Ret;
  }
  return PCs;
}

std::vector<uint64_t>
tscc::rt::pt::unwind(PtraceProcess &P, const uint64_t *Regs, unsigned MaxDepth,
                     const std::vector<ShadowFrame> *Shadow) {
  size_t NextShadow = Shadow ? Shadow->size() : 0;
  UnwindSource Src;
  Src.Read = [&P](uint64_t Addr, uint64_t &Word) {
    bool Ok = false;
    Word = P.readPointer(Addr, Ok);
    return Ok;
  };
  // Breakpoint exit probes' trampoline (in the home page, or the
  // unmappable address of a process without one); the real addresses are
  // on the thread's shadow stack, innermost last.
  Src.RealReturn = [&](uint64_t PC) {
    if (PC == P.returnTrampoline() && NextShadow > 0)
      return (*Shadow)[--NextShadow].ReturnAddr;
    return PC;
  };
  return unwindWith(P, Regs, MaxDepth, Src);
}
