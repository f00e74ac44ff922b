//===- Usdt.cpp - SystemTap SDT probes of a module ------------------------===//
//
// Note layout (per note, 4-byte aligned name and descriptor):
//   namesz, descsz, type (3 = NT_STAPSDT), "stapsdt\0",
//   desc: pc, base, semaphore (each 4 or 8 bytes by ELF class),
//         provider\0 name\0 arguments\0
// When the file has a `.stapsdt.base` section, pc and semaphore are moved by
// (its address - base): the note recorded addresses before any later change
// of the layout (prelink), and the section is where `base` now is.
//
//===----------------------------------------------------------------------===//
#include "tscc/Runtime/Usdt.h"

#include "tscc/Runtime/ElfFile.h"
#include "tscc/Runtime/Target.h"

#include <cstring>
#include <elf.h>
#include <iterator>
#include <string_view>

using namespace tscc::rt;

namespace {

constexpr uint32_t NtStapsdt = 3;

struct RegName {
  std::string_view Name;
  int Reg;
  bool HighByte;
  bool Only64; ///< does not exist in i386
};

// Every spelling GCC uses in SDT operands, each mapped to its 64-bit slot.
const RegName RegNames[] = {
    {"rax", TSCC_REG_RAX, false, true},  {"eax", TSCC_REG_RAX, false, false},
    {"ax", TSCC_REG_RAX, false, false},  {"al", TSCC_REG_RAX, false, false},
    {"ah", TSCC_REG_RAX, true, false},   {"rbx", TSCC_REG_RBX, false, true},
    {"ebx", TSCC_REG_RBX, false, false}, {"bx", TSCC_REG_RBX, false, false},
    {"bl", TSCC_REG_RBX, false, false},  {"bh", TSCC_REG_RBX, true, false},
    {"rcx", TSCC_REG_RCX, false, true},  {"ecx", TSCC_REG_RCX, false, false},
    {"cx", TSCC_REG_RCX, false, false},  {"cl", TSCC_REG_RCX, false, false},
    {"ch", TSCC_REG_RCX, true, false},   {"rdx", TSCC_REG_RDX, false, true},
    {"edx", TSCC_REG_RDX, false, false}, {"dx", TSCC_REG_RDX, false, false},
    {"dl", TSCC_REG_RDX, false, false},  {"dh", TSCC_REG_RDX, true, false},
    {"rsi", TSCC_REG_RSI, false, true},  {"esi", TSCC_REG_RSI, false, false},
    {"si", TSCC_REG_RSI, false, false},  {"sil", TSCC_REG_RSI, false, true},
    {"rdi", TSCC_REG_RDI, false, true},  {"edi", TSCC_REG_RDI, false, false},
    {"di", TSCC_REG_RDI, false, false},  {"dil", TSCC_REG_RDI, false, true},
    {"rbp", TSCC_REG_RBP, false, true},  {"ebp", TSCC_REG_RBP, false, false},
    {"bp", TSCC_REG_RBP, false, false},  {"bpl", TSCC_REG_RBP, false, true},
    {"rsp", TSCC_REG_RSP, false, true},  {"esp", TSCC_REG_RSP, false, false},
    {"sp", TSCC_REG_RSP, false, false},  {"spl", TSCC_REG_RSP, false, true},
    {"rip", TSCC_REG_RIP, false, true},  {"eip", TSCC_REG_RIP, false, false},
};

/// r8..r15 with their d/w/b suffixes.
bool numberedReg(std::string_view N, int &Reg) {
  if (N.size() < 2 || N[0] != 'r')
    return false;
  size_t I = 1;
  unsigned V = 0;
  while (I < N.size() && N[I] >= '0' && N[I] <= '9' && I < 3)
    V = V * 10 + unsigned(N[I++] - '0');
  if (I == 1 || V < 8 || V > 15)
    return false;
  std::string_view Suffix = N.substr(I);
  if (!Suffix.empty() && Suffix != "d" && Suffix != "w" && Suffix != "b")
    return false;
  Reg = TSCC_REG_R8 + int(V - 8);
  return true;
}

bool lookupReg(std::string_view N, bool Is64, int &Reg, bool &High) {
  High = false;
  for (const RegName &R : RegNames)
    if (R.Name == N) {
      if (R.Only64 && !Is64)
        return false;
      Reg = R.Reg;
      High = R.HighByte;
      return true;
    }
  return Is64 && numberedReg(N, Reg);
}

bool parseInt(std::string_view S, int64_t &Out) {
  bool Neg = false;
  if (!S.empty() && (S[0] == '-' || S[0] == '+')) {
    Neg = S[0] == '-';
    S.remove_prefix(1);
  }
  if (S.empty())
    return false;
  unsigned Base = 10;
  if (S.size() > 2 && S[0] == '0' && (S[1] == 'x' || S[1] == 'X')) {
    Base = 16;
    S.remove_prefix(2);
  }
  uint64_t V = 0;
  for (char C : S) {
    unsigned D;
    if (C >= '0' && C <= '9')
      D = unsigned(C - '0');
    else if (Base == 16 && C >= 'a' && C <= 'f')
      D = unsigned(C - 'a' + 10);
    else if (Base == 16 && C >= 'A' && C <= 'F')
      D = unsigned(C - 'A' + 10);
    else
      return false;
    V = V * Base + D;
  }
  Out = Neg ? -int64_t(V) : int64_t(V);
  return true;
}

/// Address of a data or function symbol named Name in .symtab or .dynsym.
template <class Sym>
bool findSymbolIn(const ElfFile &File, const ElfSection &Tab,
                  std::string_view Name, uint64_t &Value) {
  if (Tab.Link >= File.sections().size())
    return false;
  const ElfSection &Str = File.sections()[Tab.Link];
  std::string_view Strings = File.bytes(Str.Offset, Str.Size);
  std::string_view Syms = File.bytes(Tab.Offset, Tab.Size);
  for (size_t Off = 0; Off + sizeof(Sym) <= Syms.size(); Off += sizeof(Sym)) {
    Sym S;
    std::memcpy(&S, Syms.data() + Off, sizeof(S));
    if (S.st_shndx == SHN_UNDEF || S.st_name >= Strings.size())
      continue;
    std::string_view N = Strings.substr(S.st_name);
    N = N.substr(0, N.find('\0'));
    if (N == Name) {
      Value = S.st_value;
      return true;
    }
  }
  return false;
}

bool findSymbol(const ElfFile &File, std::string_view Name, uint64_t &Value) {
  for (uint32_t Type : {uint32_t(SHT_SYMTAB), uint32_t(SHT_DYNSYM)})
    for (const ElfSection &Sec : File.sections()) {
      if (Sec.Type != Type)
        continue;
      if (File.is64() ? findSymbolIn<Elf64_Sym>(File, Sec, Name, Value)
                      : findSymbolIn<Elf32_Sym>(File, Sec, Name, Value))
        return true;
    }
  return false;
}

/// Splits "a b  c" at spaces.
std::vector<std::string> splitArgs(std::string_view S) {
  std::vector<std::string> Out;
  size_t I = 0;
  while (I < S.size()) {
    while (I < S.size() && S[I] == ' ')
      ++I;
    size_t J = I;
    while (J < S.size() && S[J] != ' ')
      ++J;
    if (J > I)
      Out.emplace_back(S.substr(I, J - I));
    I = J;
  }
  return Out;
}

uint64_t extend(uint64_t V, int8_t Size) {
  unsigned Bytes = unsigned(Size < 0 ? -Size : Size);
  if (Bytes >= 8)
    return V;
  unsigned Bits = Bytes * 8;
  uint64_t Mask = (uint64_t(1) << Bits) - 1;
  V &= Mask;
  if (Size < 0 && (V >> (Bits - 1)) & 1)
    V |= ~Mask;
  return V;
}

} // namespace

bool tscc::rt::parseUsdtArg(const std::string &Text, bool Is64, UsdtArg &Out,
                            std::string &Why) {
  Out = UsdtArg{};
  Out.Text = Text;
  std::string_view S = Text;
  // SIZE@ is optional in old notes; the operand is then pointer-sized.
  Out.Size = Is64 ? 8 : 4;
  // A number before the first '@' is the size (`sym@GOTOFF(%ebx)` has none).
  int64_t Size = 0;
  if (size_t At = S.find('@');
      At != std::string_view::npos && parseInt(S.substr(0, At), Size)) {
    if (Size != 1 && Size != 2 && Size != 4 && Size != 8 && Size != -1 &&
        Size != -2 && Size != -4 && Size != -8) {
      Why = "bad size";
      return false;
    }
    Out.Size = int8_t(Size);
    S.remove_prefix(At + 1);
  }
  if (S.empty()) {
    Why = "empty operand";
    return false;
  }
  if (S[0] == '$') {
    Out.Kind = UsdtOperand::Constant;
    if (!parseInt(S.substr(1), Out.Value)) {
      Why = "not a numeric constant";
      return false;
    }
    return true;
  }
  if (S[0] == '%') {
    Out.Kind = UsdtOperand::Register;
    if (!lookupReg(S.substr(1), Is64, Out.Reg, Out.HighByte)) {
      Why = "unknown register";
      return false;
    }
    if (!Is64 && (Out.Size == 8 || Out.Size == -8) && !Out.HighByte) {
      static const int GccOrder[] = {TSCC_REG_RAX, TSCC_REG_RDX, TSCC_REG_RCX,
                                     TSCC_REG_RBX, TSCC_REG_RSI, TSCC_REG_RDI,
                                     TSCC_REG_RBP};
      for (size_t I = 0; I + 1 < std::size(GccOrder); ++I)
        if (GccOrder[I] == Out.Reg)
          Out.HighReg = GccOrder[I + 1];
    }
    return true;
  }
  // disp(base,index,scale): disp is a number, or sym[@GOTOFF][+-number].
  Out.Kind = UsdtOperand::Memory;
  size_t Paren = S.find('(');
  std::string_view Disp = S.substr(0, Paren);
  if (!Disp.empty()) {
    if (!parseInt(Disp, Out.Value)) {
      size_t Sign = Disp.find_first_of("+-", 1);
      std::string_view Sym = Disp.substr(0, Sign);
      int64_t Add = 0;
      if (Sign != std::string_view::npos && !parseInt(Disp.substr(Sign), Add)) {
        Why = "bad displacement";
        return false;
      }
      if (size_t AtGot = Sym.find("@GOTOFF"); AtGot != std::string_view::npos)
        Sym = Sym.substr(0, AtGot);
      if (Sym.empty() || Sym.find('@') != std::string_view::npos) {
        Why = "unsupported symbol reference";
        return false;
      }
      Out.SymbolRelative = true;
      Out.Value = Add;
      Out.Text = std::string(Sym); // resolved by the caller
    }
  }
  if (Paren == std::string_view::npos) {
    if (!Out.SymbolRelative) {
      Why = "absolute addresses are not supported";
      return false;
    }
    return true;
  }
  std::string_view Inner = S.substr(Paren + 1);
  if (Inner.empty() || Inner.back() != ')') {
    Why = "unterminated operand";
    return false;
  }
  Inner.remove_suffix(1);
  std::string_view Parts[3];
  unsigned NParts = 0;
  while (NParts < 3) {
    size_t Comma = Inner.find(',');
    Parts[NParts++] = Inner.substr(0, Comma);
    if (Comma == std::string_view::npos)
      break;
    Inner.remove_prefix(Comma + 1);
  }
  bool High = false;
  if (!Parts[0].empty() &&
      (Parts[0][0] != '%' ||
       !lookupReg(Parts[0].substr(1), Is64, Out.Reg, High) || High)) {
    Why = "bad base register";
    return false;
  }
  if (NParts > 1 && !Parts[1].empty() &&
      (Parts[1][0] != '%' ||
       !lookupReg(Parts[1].substr(1), Is64, Out.Index, High) || High)) {
    Why = "bad index register";
    return false;
  }
  if (NParts > 2) {
    int64_t Scale = 0;
    if (!parseInt(Parts[2], Scale) ||
        (Scale != 1 && Scale != 2 && Scale != 4 && Scale != 8)) {
      Why = "bad scale";
      return false;
    }
    Out.Scale = uint8_t(Scale);
  }
  if (Out.SymbolRelative) {
    // `sym(%rip)` and `sym@GOTOFF(%ebx)` both mean the symbol itself; with
    // another base the symbol is an array the registers index.
    if (Out.Reg == TSCC_REG_RIP || S.find("@GOTOFF") != std::string_view::npos)
      Out.Reg = -1;
  } else if (Out.Reg == TSCC_REG_RIP) {
    Why = "a numeric %rip displacement";
    return false;
  }
  return true;
}

std::vector<UsdtProbe>
tscc::rt::readUsdtProbes(const ElfFile &File,
                         std::vector<std::string> &Problems) {
  std::vector<UsdtProbe> Out;
  const ElfSection *Notes = File.section(".note.stapsdt");
  if (!Notes || Notes->Type != SHT_NOTE)
    return Out;
  const ElfSection *Base = File.section(".stapsdt.base");
  std::string_view Data = File.bytes(Notes->Offset, Notes->Size);
  unsigned Word = File.is64() ? 8 : 4;
  auto ReadWord = [&](std::string_view D, size_t Off) {
    uint64_t V = 0;
    std::memcpy(&V, D.data() + Off, Word); // little-endian, x86 only
    return V;
  };
  auto Align4 = [](uint64_t V) { return (V + 3) & ~uint64_t(3); };
  size_t Off = 0;
  while (Off + 12 <= Data.size()) {
    uint32_t NameSz, DescSz, Type;
    std::memcpy(&NameSz, Data.data() + Off, 4);
    std::memcpy(&DescSz, Data.data() + Off + 4, 4);
    std::memcpy(&Type, Data.data() + Off + 8, 4);
    uint64_t NameOff = Off + 12;
    uint64_t DescOff = NameOff + Align4(NameSz);
    uint64_t Next = DescOff + Align4(DescSz);
    if (Next > Data.size() || Next <= Off) {
      Problems.push_back(File.path() + ": truncated .note.stapsdt");
      break;
    }
    Off = Next;
    std::string_view Name = Data.substr(NameOff, NameSz);
    if (Type != NtStapsdt || Name != std::string_view("stapsdt\0", 8))
      continue;
    std::string_view Desc = Data.substr(DescOff, DescSz);
    if (Desc.size() < 3 * Word) {
      Problems.push_back(File.path() + ": truncated USDT note");
      continue;
    }
    UsdtProbe P;
    P.Address = ReadWord(Desc, 0);
    uint64_t NoteBase = ReadWord(Desc, Word);
    P.Semaphore = ReadWord(Desc, 2 * Word);
    std::string_view Strings = Desc.substr(3 * Word);
    std::string_view Parts[3];
    bool Ok = true;
    for (std::string_view &Part : Parts) {
      size_t Nul = Strings.find('\0');
      if (Nul == std::string_view::npos) {
        Ok = false;
        break;
      }
      Part = Strings.substr(0, Nul);
      Strings.remove_prefix(Nul + 1);
    }
    if (!Ok || Parts[0].empty() || Parts[1].empty()) {
      Problems.push_back(File.path() + ": malformed USDT note");
      continue;
    }
    P.Provider = Parts[0];
    P.Name = Parts[1];
    P.ArgText = Parts[2];
    if (Base && NoteBase) {
      P.Address += Base->Addr - NoteBase;
      if (P.Semaphore)
        P.Semaphore += Base->Addr - NoteBase;
    }
    std::vector<std::string> Args = splitArgs(P.ArgText);
    if (Args.size() > TSCC_USDT_MAX_ARGS) {
      Problems.push_back(File.path() + ": USDT probe " + P.Provider + ":" +
                         P.Name + " has more than 12 arguments");
      Args.resize(TSCC_USDT_MAX_ARGS);
    }
    for (const std::string &A : Args) {
      UsdtArg Arg;
      std::string Why;
      if (!parseUsdtArg(A, File.is64(), Arg, Why)) {
        Problems.push_back(File.path() + ": USDT probe " + P.Provider + ":" +
                           P.Name + ": cannot evaluate argument '" + A + "' (" +
                           Why + "); it reads as 0");
        Arg = UsdtArg{};
        Arg.Text = A;
        Arg.Kind = UsdtOperand::Constant;
      } else if (Arg.SymbolRelative) {
        uint64_t Sym = 0;
        if (!findSymbol(File, Arg.Text, Sym)) {
          Problems.push_back(File.path() + ": USDT probe " + P.Provider + ":" +
                             P.Name + ": argument '" + A +
                             "' names an unknown symbol; it reads as 0");
          Arg = UsdtArg{};
          Arg.Kind = UsdtOperand::Constant;
        } else {
          Arg.Value += static_cast<int64_t>(Sym);
        }
        Arg.Text = A;
      }
      P.Args.push_back(std::move(Arg));
    }
    Out.push_back(std::move(P));
  }
  return Out;
}

uint32_t tscc::rt::evaluateUsdtArgs(const UsdtProbe &Probe,
                                    const uint64_t (&Regs)[TSCC_REG_COUNT],
                                    uint64_t Bias, bool Is64,
                                    const UsdtMemoryReader &Read,
                                    uint64_t (&Out)[TSCC_USDT_MAX_ARGS],
                                    bool &Faulted) {
  std::memset(Out, 0, sizeof(Out));
  Faulted = false;
  uint64_t AddrMask = Is64 ? ~uint64_t(0) : 0xffffffffull;
  uint32_t N = 0;
  for (const UsdtArg &A : Probe.Args) {
    if (N == TSCC_USDT_MAX_ARGS)
      break;
    uint64_t V = 0;
    switch (A.Kind) {
    case UsdtOperand::Constant:
      V = static_cast<uint64_t>(A.Value);
      break;
    case UsdtOperand::Register:
      V = Regs[A.Reg];
      if (A.HighByte)
        V >>= 8;
      if (A.HighReg >= 0)
        V = (V & 0xffffffffull) | (Regs[A.HighReg] << 32);
      break;
    case UsdtOperand::Memory: {
      uint64_t Addr = static_cast<uint64_t>(A.Value);
      if (A.SymbolRelative)
        Addr += Bias;
      if (A.Reg >= 0)
        Addr += Regs[A.Reg];
      if (A.Index >= 0)
        Addr += Regs[A.Index] * A.Scale;
      Addr &= AddrMask;
      unsigned Bytes = unsigned(A.Size < 0 ? -A.Size : A.Size);
      if (!Read(Addr, &V, Bytes)) { // little-endian: low bytes first
        V = 0;
        Faulted = true;
      }
      break;
    }
    }
    Out[N++] = extend(V, A.Size);
  }
  return N;
}

bool tscc::rt::fillUsdtArgs(FireEvent &E, const UsdtProbe &U, uint64_t Bias) {
  Target *T = E.Tgt;
  bool Is64 = T && T->dataModel() == DataModel::LP64;
  UsdtMemoryReader Read = [T](uint64_t Addr, void *Dst, size_t Len) {
    return T && T->readMemory(Addr, Dst, Len);
  };
  bool Faulted = false;
  E.UsdtArgCount =
      evaluateUsdtArgs(U, E.Regs, Bias, Is64, Read, E.UsdtArgs, Faulted);
  return !Faulted;
}

bool tscc::rt::adjustUsdtSemaphore(uint64_t Addr, int Delta,
                                   const UsdtMemoryReader &Read,
                                   const UsdtMemoryWriter &Write) {
  uint16_t Count = 0;
  if (!Read(Addr, &Count, sizeof(Count)))
    return false;
  Count = static_cast<uint16_t>(Count + Delta);
  return Write(Addr, &Count, sizeof(Count));
}
