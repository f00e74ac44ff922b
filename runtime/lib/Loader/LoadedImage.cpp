//===- LoadedImage.cpp - Map and relocate a probe object ------------------===//
//
// A deliberately small static loader for the objects codegen produces: ELF64
// little-endian x86-64 ET_REL, small code model, PIC. Every offset, size and
// index read from the file is checked before use: the input is untrusted.
//
//===----------------------------------------------------------------------===//

#include "LoadedImage.h"

#include "Image32.h"
#include "RelocatableElf.h"

#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

using namespace tscc::rt;

namespace tscc::rt {

namespace {

constexpr uint64_t MaxImageSize = 1ull << 30; // far below the PC32 reach
constexpr uint64_t StubSize = 8;              // jmp *GOT(%rip); 2 x int3

/// The libc functions LLVM may emit calls to for memory intrinsics.
struct LibcSymbol {
  const char *Name;
  uint64_t Address;
};

} // namespace
} // namespace tscc::rt

// libc's, behind a check that the clause may write the destination
// (runtime/lib/Session/Helpers.cpp).
extern "C" void *tscc_clause_memcpy(void *, const void *, size_t);
extern "C" void *tscc_clause_memmove(void *, const void *, size_t);
extern "C" void *tscc_clause_memset(void *, int, size_t);

namespace tscc::rt {
namespace {

const LibcSymbol *findLibc(std::string_view Name) {
  static const LibcSymbol Table[] = {
      {"memcpy", reinterpret_cast<uint64_t>(&tscc_clause_memcpy)},
      {"memset", reinterpret_cast<uint64_t>(&tscc_clause_memset)},
      {"memmove", reinterpret_cast<uint64_t>(&tscc_clause_memmove)},
  };
  for (const LibcSymbol &S : Table)
    if (Name == S.Name)
      return &S;
  return nullptr;
}

uint64_t alignTo(uint64_t V, uint64_t A) { return (V + A - 1) & ~(A - 1); }

std::string hex(uint64_t V) {
  char Buf[32];
  snprintf(Buf, sizeof(Buf), "0x%llx", static_cast<unsigned long long>(V));
  return Buf;
}

const char *relocName(uint32_t Type) {
  switch (Type) {
  case R_X86_64_64:
    return "R_X86_64_64";
  case R_X86_64_PC32:
    return "R_X86_64_PC32";
  case R_X86_64_PLT32:
    return "R_X86_64_PLT32";
  case R_X86_64_32:
    return "R_X86_64_32";
  case R_X86_64_32S:
    return "R_X86_64_32S";
  case R_X86_64_GOTPCREL:
    return "R_X86_64_GOTPCREL";
  case R_X86_64_GOTPCRELX:
    return "R_X86_64_GOTPCRELX";
  case R_X86_64_REX_GOTPCRELX:
    return "R_X86_64_REX_GOTPCRELX";
  case R_X86_64_PC64:
    return "R_X86_64_PC64";
  default:
    return nullptr;
  }
}

bool isGotReloc(uint32_t Type) {
  return Type == R_X86_64_GOTPCREL || Type == R_X86_64_GOTPCRELX ||
         Type == R_X86_64_REX_GOTPCRELX;
}

} // namespace

/// Builds a LoadedImage in steps: parse, lay out, map, relocate, protect.
class ImageBuilder {
public:
  ImageBuilder(std::span<const uint8_t> Bytes, std::string &Error)
      : Bytes(Bytes), Error(Error) {}

  std::unique_ptr<LoadedImage> build();
  /// The bytes to map, laid out but not relocated (for sizing a mapping in
  /// another process).
  bool size(uint64_t &Out);
  /// Relocates into a buffer for execution at Base in another process.
  bool buildFor(uint64_t Base, const SymbolResolver &Resolve,
                RelocatedImage &Out);

private:
  bool fail(std::string Msg) {
    Error = std::move(Msg);
    return false;
  }
  bool parse() { return Obj.parse(Bytes, Error); }
  bool layout();
  bool map();
  bool mapInto(std::vector<uint8_t> &Buffer, uint64_t Base);
  void copySections();
  bool relocate();
  bool relocateSection(const Elf64_Shdr &RelSec);
  bool applyOne(const Elf64_Rela &R, uint32_t Target);
  /// The bytes a symbol may lead a relocation to: its whole section, its
  /// stub, or its GOT slot, as [Start, Start + Size].
  struct Region {
    uint64_t Start, Size;
  };
  bool symbolValue(uint32_t SymIdx, uint64_t &Value, bool &Undefined,
                   std::string &Name, std::optional<Region> &Reg);
  uint64_t gotSlot(uint32_t SymIdx, uint64_t Value);
  bool protect();
  void recordFunctions();
  bool checkTarget(const Elf64_Rela &R, uint32_t Type, uint32_t Target,
                   uint64_t S, std::optional<Region> Reg,
                   const std::string &Name);
  std::string_view sectionName(const Elf64_Shdr &S) const {
    return Obj.sectionName(S);
  }

  std::span<const uint8_t> Bytes;
  std::string &Error;
  RelocatableElf<Elf64X86> Obj;
  const std::vector<Elf64_Shdr> &Shdrs = Obj.Shdrs;
  const std::vector<Elf64_Sym> &Syms = Obj.Syms;

  // Layout: [exec sections][stubs] | [read-only][GOT] | [writable].
  std::vector<uint64_t> Offset; // per section; ~0 if not mapped
  uint64_t ExecEnd = 0, RoStart = 0, RoEnd = 0, RwStart = 0, Total = 0;
  uint64_t StubBase = 0, GotBase = 0;
  std::vector<std::string> Undefs;       // libc names, each with one stub
  std::map<uint32_t, uint64_t> GotIndex; // symbol index -> slot
  std::vector<uint32_t> GotSyms;

  /// Where the image's bytes are being written, and the address they will
  /// run at: the same mapping when loading locally, a buffer and another
  /// process's address otherwise.
  uint8_t *Buf = nullptr;
  uint64_t LoadAddr = 0;
  /// Resolves undefined symbols for an image that runs elsewhere.
  const SymbolResolver *Resolve = nullptr;
  std::unique_ptr<LoadedImage> Image;

  std::optional<uint64_t> externalAddress(const std::string &Name) const {
    if (Resolve)
      return (*Resolve)(Name);
    if (const LibcSymbol *L = findLibc(Name))
      return L->Address;
    return std::nullopt;
  }
};

bool ImageBuilder::layout() {
  const uint64_t Page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  Offset.assign(Shdrs.size(), ~0ull);
  uint64_t Cur = 0;
  auto Place = [&](auto Pred) {
    for (size_t I = 0; I < Shdrs.size(); ++I) {
      const Elf64_Shdr &S = Shdrs[I];
      // SHT_NULL has no bytes (parseSections did not check its offset).
      if (!(S.sh_flags & SHF_ALLOC) || S.sh_type == SHT_NULL || !Pred(S))
        continue;
      uint64_t Align = S.sh_addralign ? S.sh_addralign : 1;
      if (Align > Page || S.sh_size > MaxImageSize)
        return false;
      Cur = alignTo(Cur, Align);
      Offset[I] = Cur;
      Cur += S.sh_size;
      if (Cur > MaxImageSize)
        return false;
    }
    return true;
  };
  bool Ok =
      Place([](const Elf64_Shdr &S) { return S.sh_flags & SHF_EXECINSTR; });
  // Stubs and GOT slots are needed for every libc name and GOT reference;
  // count them before the sizes are final.
  for (const Elf64_Shdr &S : Shdrs) {
    if (S.sh_type != SHT_RELA || S.sh_entsize != sizeof(Elf64_Rela) ||
        S.sh_offset % alignof(Elf64_Rela))
      continue;
    const auto *Rel =
        reinterpret_cast<const Elf64_Rela *>(Bytes.data() + S.sh_offset);
    for (size_t I = 0, N = S.sh_size / sizeof(Elf64_Rela); I < N; ++I) {
      uint32_t Sym = ELF64_R_SYM(Rel[I].r_info);
      if (Sym >= Syms.size())
        continue; // reported by relocate()
      const Elf64_Sym &E = Syms[Sym];
      if (isGotReloc(ELF64_R_TYPE(Rel[I].r_info)) && !GotIndex.count(Sym)) {
        GotIndex[Sym] = GotSyms.size();
        GotSyms.push_back(Sym);
      }
      if (E.st_shndx == SHN_UNDEF && !Obj.symbolName(E).empty()) {
        std::string Name(Obj.symbolName(E));
        if (externalAddress(Name) &&
            std::find(Undefs.begin(), Undefs.end(), Name) == Undefs.end())
          Undefs.push_back(Name);
      }
    }
  }
  Cur = alignTo(Cur, 16);
  StubBase = Cur;
  Cur += Undefs.size() * StubSize;
  ExecEnd = Cur;
  RoStart = Cur = alignTo(Cur, Page);
  Ok = Ok && Place([](const Elf64_Shdr &S) {
         return !(S.sh_flags & (SHF_EXECINSTR | SHF_WRITE));
       });
  Cur = alignTo(Cur, 8);
  GotBase = Cur;
  // One slot per GOT symbol, then one per stub.
  Cur += (GotSyms.size() + Undefs.size()) * 8;
  RoEnd = Cur;
  RwStart = Cur = alignTo(Cur, Page);
  Ok = Ok && Place([](const Elf64_Shdr &S) {
         return (S.sh_flags & SHF_WRITE) && !(S.sh_flags & SHF_EXECINSTR);
       });
  Total = alignTo(std::max<uint64_t>(Cur, 1), Page);
  if (!Ok || Total > MaxImageSize)
    return fail("allocated sections are too large or too strictly aligned");
  return true;
}

bool ImageBuilder::map() {
  void *P = mmap(nullptr, Total, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (P == MAP_FAILED)
    return fail(std::string("cannot map the image: ") + strerror(errno));
  Image->Base = static_cast<uint8_t *>(P);
  Image->Size = Total;
  Buf = Image->Base;
  LoadAddr = reinterpret_cast<uint64_t>(P);
  copySections();
  return true;
}

bool ImageBuilder::mapInto(std::vector<uint8_t> &Buffer, uint64_t Base) {
  Buffer.assign(Total, 0);
  Buf = Buffer.data();
  LoadAddr = Base;
  copySections();
  for (size_t I = 0; I < Undefs.size(); ++I)
    if (!externalAddress(Undefs[I]))
      return fail("undefined symbol '" + Undefs[I] + "'");
  return true;
}

void ImageBuilder::copySections() {
  for (size_t I = 0; I < Shdrs.size(); ++I) {
    const Elf64_Shdr &S = Shdrs[I];
    if (Offset[I] == ~0ull || S.sh_type == SHT_NOBITS)
      continue;
    memcpy(Buf + Offset[I], Bytes.data() + S.sh_offset, S.sh_size);
  }
  // Stubs: jmp *slot(%rip), padded with int3.
  for (size_t I = 0; I < Undefs.size(); ++I) {
    uint8_t *Stub = Buf + StubBase + I * StubSize;
    uint64_t Slot = GotBase + (GotSyms.size() + I) * 8;
    int32_t Disp = static_cast<int32_t>(Slot - (StubBase + I * StubSize + 6));
    Stub[0] = 0xff;
    Stub[1] = 0x25;
    memcpy(Stub + 2, &Disp, 4);
    Stub[6] = Stub[7] = 0xcc;
    uint64_t Addr = externalAddress(Undefs[I]).value_or(0);
    memcpy(Buf + Slot, &Addr, 8);
  }
}

bool ImageBuilder::symbolValue(uint32_t SymIdx, uint64_t &Value,
                               bool &Undefined, std::string &Name,
                               std::optional<Region> &Reg) {
  Reg.reset();
  if (SymIdx >= Syms.size())
    return fail("relocation refers to a bad symbol index " +
                std::to_string(SymIdx));
  const Elf64_Sym &S = Syms[SymIdx];
  Name = std::string(Obj.symbolName(S));
  if (Name.empty() && S.st_shndx < Shdrs.size() &&
      ELF64_ST_TYPE(S.st_info) == STT_SECTION)
    Name = std::string(sectionName(Shdrs[S.st_shndx]));
  Undefined = false;
  if (S.st_shndx == SHN_UNDEF) {
    Undefined = true;
    auto It = std::find(Undefs.begin(), Undefs.end(), Name);
    if (It != Undefs.end()) {
      Value = LoadAddr + StubBase + (It - Undefs.begin()) * StubSize;
      Reg = Region{Value, StubSize};
      return true;
    }
    if (ELF64_ST_BIND(S.st_info) == STB_WEAK) {
      Value = 0;
      return true;
    }
    return fail("undefined symbol '" + Name + "'" +
                (Resolve
                     ? std::string()
                     : " (only memcpy, memset and memmove can be resolved)"));
  }
  if (S.st_shndx == SHN_ABS) {
    Value = S.st_value;
    return true;
  }
  if (S.st_shndx == SHN_COMMON)
    return fail("common symbol '" + Name + "' is not supported");
  if (S.st_shndx >= Shdrs.size() || Offset[S.st_shndx] == ~0ull)
    return fail("symbol '" + Name + "' is in a section that is not loaded");
  if (S.st_value > Shdrs[S.st_shndx].sh_size)
    return fail("symbol '" + Name + "' lies outside its section");
  Value = LoadAddr + Offset[S.st_shndx] + S.st_value;
  Reg = Region{LoadAddr + Offset[S.st_shndx], Shdrs[S.st_shndx].sh_size};
  return true;
}

/// A relocation may only lead into what its symbol names: a symbol plus an
/// addend that points elsewhere (a call sent 4 MiB away, say) would run or
/// read arbitrary memory. What "leads to" means depends on the kind:
///  - absolute (64, 32, 32S): S + A is the address itself;
///  - PC-relative in code: the CPU adds the displacement to the end of the
///    instruction, which is 4 to 8 bytes past the field (an imm32 or smaller
///    may follow it), so the address is S + A + 4 .. S + A + 8;
///  - PC-relative in data (jump tables: `.long .LBB - .LJTI`): the assembler
///    folds the distance from the table start into A, so S + A may exceed
///    the address by at most the size of the section holding the field.
/// The end of a region is allowed (one-past-the-end pointers are legal).
bool ImageBuilder::checkTarget(const Elf64_Rela &R, uint32_t Type,
                               uint32_t Target, uint64_t S,
                               std::optional<Region> Reg,
                               const std::string &Name) {
  bool PcRel =
      Type != R_X86_64_64 && Type != R_X86_64_32 && Type != R_X86_64_32S;
  if (!Reg) {
    if (!PcRel)
      return true; // absolute or weak-undefined values are plain data
    return fail(std::string(relocName(Type)) + " at offset " + hex(R.r_offset) +
                " refers to '" + Name + "', which has no address in the image");
  }
  // Work in signed offsets from the region start: all quantities are far
  // below 2^62 here (images are at most 1 GiB), except A, which is clamped.
  constexpr int64_t Far = int64_t(1) << 40;
  int64_t A = std::clamp<int64_t>(R.r_addend, -Far, Far);
  int64_t From = static_cast<int64_t>(S - Reg->Start) + A;
  int64_t Lo = From, Hi = From;
  if (PcRel && (Shdrs[Target].sh_flags & SHF_EXECINSTR)) {
    Lo = From + 4;
    Hi = From + 8;
  } else if (PcRel) {
    Lo = From - static_cast<int64_t>(Shdrs[Target].sh_size);
  }
  if (Hi >= 0 && Lo <= static_cast<int64_t>(Reg->Size))
    return true;
  return fail(
      std::string(relocName(Type)) + " at offset " + hex(R.r_offset) +
      " against '" + Name + "' with addend " + std::to_string(R.r_addend) +
      " leads " +
      (From < 0 ? std::to_string(-From) + " bytes before"
                : std::to_string(From - int64_t(Reg->Size)) + " bytes past") +
      " what that symbol refers to (" + std::to_string(Reg->Size) + " bytes)");
}

bool ImageBuilder::applyOne(const Elf64_Rela &R, uint32_t Target) {
  const Elf64_Shdr &T = Shdrs[Target];
  uint32_t Type = ELF64_R_TYPE(R.r_info);
  const char *TypeName = relocName(Type);
  if (!TypeName)
    return fail("unsupported relocation type " + std::to_string(Type));
  unsigned Width = (Type == R_X86_64_64 || Type == R_X86_64_PC64) ? 8 : 4;
  if (R.r_offset > T.sh_size || T.sh_size - R.r_offset < Width)
    return fail(std::string(TypeName) + " at offset " + hex(R.r_offset) +
                " is outside its section");
  uint64_t S;
  bool Undef;
  std::string Name;
  std::optional<Region> Reg;
  if (!symbolValue(ELF64_R_SYM(R.r_info), S, Undef, Name, Reg))
    return false;
  uint8_t *Where = Buf + Offset[Target] + R.r_offset;
  uint64_t P = LoadAddr + Offset[Target] + R.r_offset;
  int64_t A = R.r_addend;
  uint64_t V;
  if (isGotReloc(Type)) {
    uint64_t Slot = GotBase + GotIndex.at(ELF64_R_SYM(R.r_info)) * 8;
    // GOT slots hold the symbol's address; libc names get the real function.
    uint64_t Resolved = S;
    if (Undef)
      if (std::optional<uint64_t> Ext = externalAddress(Name))
        Resolved = *Ext;
    memcpy(Buf + Slot, &Resolved, 8);
    // The field leads to the GOT slot, not to the symbol.
    if (!checkTarget(R, Type, Target, LoadAddr + Slot,
                     Region{LoadAddr + Slot, 8}, Name))
      return false;
    V = LoadAddr + Slot + A - P;
  } else if (!checkTarget(R, Type, Target, S, Reg, Name)) {
    return false;
  } else if (Type == R_X86_64_64) {
    V = S + A;
  } else if (Type == R_X86_64_32 || Type == R_X86_64_32S) {
    V = S + A;
  } else {
    V = S + A - P;
  }
  if (Width == 8) {
    memcpy(Where, &V, 8);
    return true;
  }
  bool Fits = Type == R_X86_64_32
                  ? V <= UINT32_MAX
                  : static_cast<int64_t>(V) == static_cast<int32_t>(V);
  if (!Fits)
    return fail(std::string(TypeName) + " against '" + Name +
                "' does not fit in 32 bits (the object must be built PIC "
                "with the small code model)");
  uint32_t V32 = static_cast<uint32_t>(V);
  memcpy(Where, &V32, 4);
  return true;
}

bool ImageBuilder::relocateSection(const Elf64_Shdr &RelSec) {
  if (RelSec.sh_entsize != sizeof(Elf64_Rela) ||
      RelSec.sh_offset % alignof(Elf64_Rela))
    return fail("malformed relocation section");
  if (RelSec.sh_info >= Shdrs.size())
    return fail("relocation section targets a bad section index");
  if (Offset[RelSec.sh_info] == ~0ull)
    return true; // relocations for debug info and other unloaded sections
  const auto *Rel =
      reinterpret_cast<const Elf64_Rela *>(Bytes.data() + RelSec.sh_offset);
  for (size_t I = 0, N = RelSec.sh_size / sizeof(Elf64_Rela); I < N; ++I)
    if (!applyOne(Rel[I], RelSec.sh_info))
      return fail("in section '" +
                  std::string(sectionName(Shdrs[RelSec.sh_info])) +
                  "': " + Error);
  return true;
}

bool ImageBuilder::relocate() {
  for (const Elf64_Shdr &S : Shdrs) {
    if (S.sh_type == SHT_REL && S.sh_info < Shdrs.size() &&
        Offset[S.sh_info] != ~0ull)
      return fail("SHT_REL relocations are not used on x86-64");
    if (S.sh_type == SHT_RELA && !relocateSection(S))
      return false;
  }
  return true;
}

bool ImageBuilder::protect() {
  uint8_t *B = Image->Base;
  if (ExecEnd && mprotect(B, RoStart, PROT_READ | PROT_EXEC) != 0)
    return fail(std::string("mprotect: ") + strerror(errno));
  if (RwStart > RoStart &&
      mprotect(B + RoStart, RwStart - RoStart, PROT_READ) != 0)
    return fail(std::string("mprotect: ") + strerror(errno));
  return true;
}

void ImageBuilder::recordFunctions() {
  for (size_t I = 1; I < Syms.size(); ++I) {
    const Elf64_Sym &S = Syms[I];
    if (ELF64_ST_TYPE(S.st_info) != STT_FUNC || S.st_shndx >= Shdrs.size() ||
        Offset[S.st_shndx] == ~0ull || S.st_value > Shdrs[S.st_shndx].sh_size ||
        S.st_size > Shdrs[S.st_shndx].sh_size - S.st_value)
      continue;
    Image->Functions[std::string(sectionName(Shdrs[S.st_shndx]))][S.st_value] =
        S.st_size;
  }
}

std::unique_ptr<LoadedImage> ImageBuilder::build() {
  Image.reset(new LoadedImage());
  if (!parse() || !layout() || !map() || !relocate() || !protect())
    return nullptr;
  for (size_t I = 0; I < Shdrs.size(); ++I) {
    std::string Name(sectionName(Shdrs[I]));
    if (Name.empty() || Name.rfind("tscc_", 0) != 0)
      continue;
    if (Image->Sections.count(Name)) {
      Error = "duplicate section '" + Name + "'";
      return nullptr;
    }
    LoadedImage::Section Sec;
    Sec.Size = Shdrs[I].sh_size;
    if (Offset[I] != ~0ull) {
      Sec.Alloc = true;
      Sec.Data = Image->Base + Offset[I];
    } else if (Shdrs[I].sh_type != SHT_NOBITS && Shdrs[I].sh_type != SHT_NULL) {
      auto Copy = std::make_unique<uint8_t[]>(Sec.Size ? Sec.Size : 1);
      memcpy(Copy.get(), Bytes.data() + Shdrs[I].sh_offset, Sec.Size);
      Sec.Data = Copy.get();
      Image->Copies[Name] = std::move(Copy);
    } else {
      Sec.Size = 0;
    }
    Image->Sections[Name] = Sec;
  }
  recordFunctions();
  return std::move(Image);
}

bool ImageBuilder::size(uint64_t &Out) {
  if (!parse() || !layout())
    return false;
  Out = Total;
  return true;
}

bool ImageBuilder::buildFor(uint64_t Base, const SymbolResolver &R,
                            RelocatedImage &Out) {
  Resolve = &R;
  Image.reset(new LoadedImage()); // unused in this mode, but never null
  if (!parse() || !layout() || !mapInto(Out.Bytes, Base) || !relocate())
    return false;
  Out.Base = Base;
  Out.ExecEnd = RoStart;
  Out.RwStart = RwStart;
  size_t End = Out.Bytes.size();
  while (End > 0 && Out.Bytes[End - 1] == 0)
    --End;
  Out.ContentEnd = End;
  for (size_t I = 0; I < Shdrs.size(); ++I)
    if (Offset[I] != ~0ull)
      Out.Sections[std::string(sectionName(Shdrs[I]))] = {Base + Offset[I],
                                                          Shdrs[I].sh_size};
  for (size_t I = 1; I < Syms.size(); ++I) {
    const Elf64_Sym &S = Syms[I];
    unsigned Bind = ELF64_ST_BIND(S.st_info);
    if ((Bind != STB_GLOBAL && Bind != STB_WEAK) || S.st_shndx == SHN_UNDEF ||
        S.st_shndx >= Shdrs.size() || Offset[S.st_shndx] == ~0ull ||
        S.st_name >= Obj.SymStrtab.size())
      continue;
    Out.Symbols[std::string(Obj.symbolName(S))] =
        Base + Offset[S.st_shndx] + S.st_value;
  }
  return true;
}

std::unique_ptr<LoadedImage> LoadedImage::create(std::span<const uint8_t> Bytes,
                                                 std::string &Error) {
  return ImageBuilder(Bytes, Error).build();
}

// Code for 32-bit targets (the i386 agent, i386 streams) is ELF32 i386:
// Image32.cpp relocates it.
bool relocatedImageSize(std::span<const uint8_t> Bytes, uint64_t &Size,
                        std::string &Error) {
  if (isElf32(Bytes))
    return relocatedImageSize32(Bytes, Size, Error);
  return ImageBuilder(Bytes, Error).size(Size);
}

bool relocateImage(std::span<const uint8_t> Bytes, uint64_t Base,
                   const SymbolResolver &Resolve, RelocatedImage &Out,
                   std::string &Error) {
  Out = RelocatedImage();
  if (isElf32(Bytes))
    return relocateImage32(Bytes, Base, Resolve, Out, Error);
  return ImageBuilder(Bytes, Error).buildFor(Base, Resolve, Out);
}

LoadedImage::~LoadedImage() {
  if (Base)
    munmap(Base, Size);
}

std::optional<uint64_t> LoadedImage::functionAt(std::string_view Section,
                                                uint64_t Offset) const {
  auto Sec = Functions.find(Section);
  if (Sec == Functions.end())
    return std::nullopt;
  auto It = Sec->second.find(Offset);
  if (It == Sec->second.end())
    return std::nullopt;
  return It->second;
}

const LoadedImage::Section *LoadedImage::section(std::string_view Name) const {
  auto It = Sections.find(Name);
  return It == Sections.end() ? nullptr : &It->second;
}

} // namespace tscc::rt
