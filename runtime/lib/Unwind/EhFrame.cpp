//===- EhFrame.cpp - CFA rules from a module's .eh_frame ------------------===//
//
// Reads a module's .eh_frame once (every CIE and FDE) and runs an FDE's CFA
// instructions up to a PC: the common DW_CFA operations (CFA = register +
// offset, registers saved at CFA + offset, remember/restore state) and the
// one DWARF expression compiled C uses for a CFA (breg + deref). Only the
// stack and frame pointers and the return address are tracked: that is all
// a CFA rule for compiled C needs.
//
//===----------------------------------------------------------------------===//
#include "EhFrame.h"

#include "../Elf/EhReader.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

using namespace tscc::rt;
using namespace tscc::rt::unwind;

namespace {

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

struct State {
  unsigned CfaReg = 0;
  int64_t CfaOff = 8;
  bool CfaDeref = false; ///< CfaRules::CfaDeref
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

/// Every FDE of a module's .eh_frame.
std::unique_ptr<FrameTable> readFrameTable(const ElfFile &Elf) {
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
  return T;
}

/// Frame tables by file, each read once. An entry lives as long as its
/// file: a file freed and another opened at the same address is read
/// anew. Tables are read-only once built, so lookups need no lock.
const FrameTable *frameTable(const std::shared_ptr<const ElfFile> &Elf) {
  struct Entry {
    std::weak_ptr<const ElfFile> File;
    std::unique_ptr<FrameTable> Table;
  };
  static std::mutex Lock;
  static std::map<const ElfFile *, Entry> Cache;
  std::lock_guard<std::mutex> G(Lock);
  auto It = Cache.find(Elf.get());
  if (It != Cache.end() && !It->second.File.expired())
    return It->second.Table.get();
  std::erase_if(Cache, [](const auto &KV) { return KV.second.File.expired(); });
  Entry &E = Cache[Elf.get()];
  E.File = Elf;
  E.Table = readFrameTable(*Elf);
  return E.Table.get();
}

/// Called as the location advances: S holds for [From, To).
using RowSink = std::function<void(uint64_t From, uint64_t To, const State &S)>;

/// Runs CFA instructions [Start, End) until the location passes Target.
/// Loc is where the rules in S start to hold; Rows, if set, gets every
/// range the location advances over.
void execute(const FrameTable &T, size_t Start, size_t End, const Cie &C,
             uint64_t &Loc, uint64_t Target, State &S, const State &Initial,
             unsigned PtrSize, const DwarfRegs &Dw,
             const RowSink *Rows = nullptr) {
  Reader R{T.Bytes.data(), End, Start, T.Addr};
  std::vector<State> Stack;
  // Moves the location; false once it passes Target.
  auto Advance = [&](uint64_t To) {
    if (Rows && To > Loc)
      (*Rows)(Loc, To, S);
    Loc = To;
    return Loc <= Target;
  };
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
      if (!Advance(Loc + Lo * C.CodeAlign))
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
      if (!Advance(R.encoded(C.FdeEnc, PtrSize)))
        return;
      break;
    case 0x02:
    case 0x03:
    case 0x04: {
      uint64_t D = R.fixed(Op == 0x02 ? 1 : Op == 0x03 ? 2 : 4);
      if (!Advance(Loc + D * C.CodeAlign))
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
      SetRule(Reg, {Rule::Unknown, 0});
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
        SetRule(Reg, {Rule::Unknown, 0});
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
      SetRule(Reg, {Rule::Unknown, 0});
      break;
    }
    case 0x16: {
      unsigned Reg = R.uleb();
      R.Pos += R.uleb();
      SetRule(Reg, {Rule::Unknown, 0});
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

/// The FDE of T whose range holds PC, or null.
const Fde *fdeAt(const FrameTable &T, uint64_t PC) {
  auto It =
      std::upper_bound(T.Fdes.begin(), T.Fdes.end(), PC,
                       [](uint64_t V, const Fde &F) { return V < F.Start; });
  if (It == T.Fdes.begin() || PC >= std::prev(It)->End)
    return nullptr;
  return &*std::prev(It);
}

} // namespace

bool tscc::rt::unwind::fdeRangeAt(const std::shared_ptr<const ElfFile> &Elf,
                                  uint64_t PC, uint64_t &Start, uint64_t &End) {
  const Fde *F = fdeAt(*frameTable(Elf), PC);
  if (!F)
    return false;
  Start = F->Start;
  End = F->End;
  return true;
}

namespace {

/// The rules of S as cfaRulesAt gives them.
RulesLookup classify(const State &S, const DwarfRegs &Dw, CfaRules &Out) {
  if (S.Ra.K == Rule::Undefined)
    return RulesLookup::Outermost;
  if (!S.CfaOk || (S.CfaReg != Dw.Sp && S.CfaReg != Dw.Fp) ||
      S.Ra.K != Rule::Offset)
    return RulesLookup::Unsupported;
  Out.CfaReg = S.CfaReg;
  Out.CfaOff = S.CfaOff;
  Out.CfaDeref = S.CfaDeref;
  Out.Fp = S.Rbp;
  Out.Ra = S.Ra;
  return RulesLookup::Found;
}

/// The state every FDE of C starts from: its CIE's instructions run.
State initialState(const FrameTable &T, const Cie &C, const Fde &F,
                   const DwarfRegs &Dw) {
  State Initial;
  Initial.CfaReg = Dw.Sp;
  Initial.CfaOff = Dw.PtrSize;
  Initial.Ra = {Rule::Offset, -int64_t(Dw.PtrSize)};
  uint64_t Loc = F.Start;
  execute(T, C.InsnStart, C.InsnEnd, C, Loc, UINT64_MAX, Initial, Initial,
          Dw.PtrSize, Dw);
  return Initial;
}

} // namespace

RulesLookup
tscc::rt::unwind::cfaRulesAt(const std::shared_ptr<const ElfFile> &Elf,
                             uint64_t PC, CfaRules &Out) {
  const FrameTable *T = frameTable(Elf);
  const Fde *Found = fdeAt(*T, PC);
  if (!Found)
    return RulesLookup::NoFde;
  const Fde &F = *Found;
  auto CIt = T->Cies.find(F.CiePos);
  if (CIt == T->Cies.end())
    return RulesLookup::NoFde;
  const Cie &C = CIt->second;
  const DwarfRegs &Dw = dwarfRegs(*Elf);
  State Initial = initialState(*T, C, F, Dw);
  State S = Initial;
  uint64_t Loc = F.Start;
  execute(*T, F.InsnStart, F.InsnEnd, C, Loc, PC, S, Initial, Dw.PtrSize, Dw);
  return classify(S, Dw, Out);
}

std::vector<RulesRow>
tscc::rt::unwind::allRules(const std::shared_ptr<const ElfFile> &Elf) {
  const FrameTable *T = frameTable(Elf);
  const DwarfRegs &Dw = dwarfRegs(*Elf);
  std::vector<RulesRow> Out;
  for (const Fde &F : T->Fdes) {
    // FDEs may overlap in a broken file: fdeAt() finds the one that
    // starts last, so it cuts the rows of those before it short.
    while (!Out.empty() && Out.back().Start >= F.Start)
      Out.pop_back();
    if (!Out.empty() && Out.back().End > F.Start)
      Out.back().End = F.Start;
    auto CIt = T->Cies.find(F.CiePos);
    if (CIt == T->Cies.end())
      continue;
    const Cie &C = CIt->second;
    State Initial = initialState(*T, C, F, Dw);
    State S = Initial;
    auto Add = [&](uint64_t From, uint64_t To, const State &At) {
      From = std::max(From, F.Start);
      To = std::min(To, F.End);
      if (From >= To || (!Out.empty() && From < Out.back().End))
        return;
      RulesRow Row{From, To, RulesLookup::Found, {}};
      Row.Kind = classify(At, Dw, Row.Rules);
      Out.push_back(Row);
    };
    RowSink Rows = Add;
    uint64_t Loc = F.Start;
    execute(*T, F.InsnStart, F.InsnEnd, C, Loc, UINT64_MAX, S, Initial,
            Dw.PtrSize, Dw, &Rows);
    Add(Loc, F.End, S);
  }
  return Out;
}
