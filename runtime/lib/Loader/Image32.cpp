//===- Image32.cpp - i386 relocatable objects, for 32-bit targets ---------===//
#include "Image32.h"
#include "RelocatableElf.h"

#include <elf.h>

#include <cstring>
#include <optional>
#include <vector>

using namespace tscc::rt;

namespace {

constexpr uint64_t Page = 4096;
constexpr uint64_t MaxImageSize = 64ull << 20;

uint64_t alignTo(uint64_t V, uint64_t A) { return (V + A - 1) & ~(A - 1); }

/// Parses, lays out and relocates one i386 ET_REL; each step checks what
/// it reads.
class Builder {
public:
  Builder(std::span<const uint8_t> Bytes, std::string &Error)
      : Bytes(Bytes), Error(Error) {}

  bool parse() { return Obj.parse(Bytes, Error) && layout() && relocations(); }
  uint64_t total() const { return Total; }
  void summarize(Image32Summary &Out) const;
  bool relocateFor(uint64_t Base, const SymbolResolver &Resolve,
                   RelocatedImage &Out);

private:
  bool fail(std::string Msg) {
    Error = std::move(Msg);
    return false;
  }
  bool layout();
  bool relocations();
  bool applyAll(RelocatedImage &Out, const SymbolResolver &Resolve);
  bool apply(const Elf32_Shdr &RelSec, uint32_t Target, RelocatedImage &Out,
             const SymbolResolver &Resolve);
  bool symbolAddress(uint32_t Index, uint64_t Base,
                     const SymbolResolver &Resolve, uint64_t &Addr);
  std::string_view sectionName(size_t I) const {
    return Obj.sectionName(Shdrs[I]);
  }
  bool mapped(size_t I) const {
    return I < Offset.size() && Offset[I] != ~0ull;
  }

  std::span<const uint8_t> Bytes;
  std::string &Error;
  RelocatableElf<Elf32I386> Obj;
  const std::vector<Elf32_Shdr> &Shdrs = Obj.Shdrs;
  const std::vector<Elf32_Sym> &Syms = Obj.Syms;
  std::vector<uint64_t> Offset; ///< per section in the mapping; ~0: none
  uint64_t ExecEnd = 0, RwStart = 0, ContentEnd = 0, Total = 0;
};

bool Builder::layout() {
  Offset.assign(Shdrs.size(), ~0ull);
  uint64_t Cur = 0;
  // [executable] | [read-only] | [writable, then .bss]: the same order and
  // protections as the ELF64 loader's images.
  auto Place = [&](auto Pred) {
    for (size_t I = 0; I < Shdrs.size(); ++I) {
      const Elf32_Shdr &S = Shdrs[I];
      if (!(S.sh_flags & SHF_ALLOC) || S.sh_type == SHT_NULL || !Pred(S))
        continue;
      if (S.sh_addralign > Page)
        return false;
      Cur = alignTo(Cur, S.sh_addralign ? S.sh_addralign : 1);
      Offset[I] = Cur;
      Cur += S.sh_size;
      if (Cur > MaxImageSize)
        return false;
    }
    return true;
  };
  bool Ok =
      Place([](const Elf32_Shdr &S) { return S.sh_flags & SHF_EXECINSTR; });
  ExecEnd = Cur;
  Cur = alignTo(Cur, Page);
  Ok = Ok && Place([](const Elf32_Shdr &S) {
         return !(S.sh_flags & (SHF_EXECINSTR | SHF_WRITE));
       });
  RwStart = Cur = alignTo(Cur, Page);
  Ok = Ok && Place([](const Elf32_Shdr &S) {
         return (S.sh_flags & SHF_WRITE) && !(S.sh_flags & SHF_EXECINSTR) &&
                S.sh_type != SHT_NOBITS;
       });
  ContentEnd = Cur;
  Ok = Ok && Place([](const Elf32_Shdr &S) {
         return (S.sh_flags & SHF_WRITE) && S.sh_type == SHT_NOBITS;
       });
  Total = alignTo(std::max<uint64_t>(Cur, 1), Page);
  if (!Ok || Total > MaxImageSize)
    return fail("allocated sections are too large or too strictly aligned");
  return true;
}

/// Every relocation is of a kind this loader applies, against a symbol
/// that exists, inside its section: checked before anything is relocated,
/// so that a damaged object is refused when it is loaded.
bool Builder::relocations() {
  for (const Elf32_Shdr &S : Shdrs) {
    if (S.sh_type == SHT_RELA)
      return fail("i386 objects use SHT_REL, not SHT_RELA");
    if (S.sh_type != SHT_REL || S.sh_info >= Shdrs.size() || !mapped(S.sh_info))
      continue;
    if (S.sh_entsize != sizeof(Elf32_Rel))
      return fail("bad relocation entry size");
    const Elf32_Shdr &T = Shdrs[S.sh_info];
    for (size_t I = 0, N = S.sh_size / sizeof(Elf32_Rel); I < N; ++I) {
      Elf32_Rel R;
      memcpy(&R, Bytes.data() + S.sh_offset + I * sizeof(R), sizeof(R));
      uint32_t Type = ELF32_R_TYPE(R.r_info);
      if (Type == R_386_NONE)
        continue;
      if (Type != R_386_32 && Type != R_386_PC32 && Type != R_386_PLT32)
        return fail("unsupported i386 relocation type " + std::to_string(Type) +
                    " (the code must be built with the static model)");
      if (ELF32_R_SYM(R.r_info) >= Syms.size() || T.sh_type == SHT_NOBITS ||
          R.r_offset > T.sh_size || T.sh_size - R.r_offset < 4)
        return fail("relocation outside its section or symbol table");
    }
  }
  return true;
}

void Builder::summarize(Image32Summary &Out) const {
  Out.MappingSize = Total;
  for (size_t I = 0; I < Shdrs.size(); ++I)
    if (mapped(I))
      Out.Sections[std::string(sectionName(I))] = {Offset[I], Shdrs[I].sh_size};
  for (const Elf32_Sym &Sym : Syms) {
    if (ELF32_ST_TYPE(Sym.st_info) != STT_FUNC || Sym.st_shndx == SHN_UNDEF ||
        Sym.st_shndx >= Shdrs.size() || !mapped(Sym.st_shndx))
      continue;
    Out.Functions[std::string(sectionName(Sym.st_shndx))][Sym.st_value] =
        Sym.st_size;
  }
}

bool Builder::symbolAddress(uint32_t Index, uint64_t Base,
                            const SymbolResolver &Resolve, uint64_t &Addr) {
  if (Index >= Syms.size())
    return fail("relocation against symbol " + std::to_string(Index) + " of " +
                std::to_string(Syms.size()));
  const Elf32_Sym &S = Syms[Index];
  if (S.st_shndx == SHN_UNDEF) {
    std::string Name(Obj.symbolName(S));
    std::optional<uint64_t> A = Resolve ? Resolve(Name) : std::nullopt;
    if (!A)
      return fail("undefined symbol '" + Name + "'");
    Addr = *A;
    return true;
  }
  if (S.st_shndx == SHN_ABS) {
    Addr = S.st_value;
    return true;
  }
  if (S.st_shndx >= Shdrs.size() || !mapped(S.st_shndx) ||
      S.st_value > Shdrs[S.st_shndx].sh_size)
    return fail("symbol " + std::to_string(Index) +
                " is not in an allocated section");
  Addr = Base + Offset[S.st_shndx] + S.st_value;
  return true;
}

bool Builder::apply(const Elf32_Shdr &RelSec, uint32_t Target,
                    RelocatedImage &Out, const SymbolResolver &Resolve) {
  if (RelSec.sh_entsize != sizeof(Elf32_Rel))
    return fail("bad relocation entry size");
  const Elf32_Shdr &T = Shdrs[Target];
  for (size_t I = 0, N = RelSec.sh_size / sizeof(Elf32_Rel); I < N; ++I) {
    Elf32_Rel R;
    memcpy(&R, Bytes.data() + RelSec.sh_offset + I * sizeof(R), sizeof(R));
    uint32_t Type = ELF32_R_TYPE(R.r_info);
    if (Type == R_386_NONE)
      continue;
    if (T.sh_type == SHT_NOBITS || R.r_offset > T.sh_size ||
        T.sh_size - R.r_offset < 4)
      return fail("relocation outside its section");
    uint64_t S = 0;
    if (!symbolAddress(ELF32_R_SYM(R.r_info), Out.Base, Resolve, S))
      return false;
    uint8_t *Where = Out.Bytes.data() + Offset[Target] + R.r_offset;
    uint32_t A;
    memcpy(&A, Where, 4); // REL: the addend is in place
    uint64_t P = Out.Base + Offset[Target] + R.r_offset;
    uint32_t V;
    if (Type == R_386_32)
      V = static_cast<uint32_t>(S + A);
    else if (Type == R_386_PC32 || Type == R_386_PLT32)
      V = static_cast<uint32_t>(S + A - P);
    else
      return fail("unsupported i386 relocation type " + std::to_string(Type) +
                  " (the code must be built with the static model)");
    memcpy(Where, &V, 4);
  }
  return true;
}

bool Builder::applyAll(RelocatedImage &Out, const SymbolResolver &Resolve) {
  for (const Elf32_Shdr &S : Shdrs) {
    if (S.sh_type == SHT_RELA)
      return fail("i386 objects use SHT_REL, not SHT_RELA");
    if (S.sh_type != SHT_REL || S.sh_info >= Shdrs.size() || !mapped(S.sh_info))
      continue;
    if (!apply(S, S.sh_info, Out, Resolve))
      return false;
  }
  return true;
}

bool Builder::relocateFor(uint64_t Base, const SymbolResolver &Resolve,
                          RelocatedImage &Out) {
  if (Base + Total > (1ull << 32))
    return fail("an i386 image must lie below 4 GiB");
  Out = RelocatedImage{};
  Out.Base = Base;
  Out.Bytes.assign(Total, 0);
  for (size_t I = 0; I < Shdrs.size(); ++I)
    if (mapped(I) && Shdrs[I].sh_type != SHT_NOBITS)
      memcpy(Out.Bytes.data() + Offset[I], Bytes.data() + Shdrs[I].sh_offset,
             Shdrs[I].sh_size);
  if (!applyAll(Out, Resolve))
    return false;
  Out.ExecEnd = alignTo(ExecEnd, Page);
  Out.RwStart = RwStart;
  Out.ContentEnd = ContentEnd;
  for (size_t I = 0; I < Shdrs.size(); ++I)
    if (mapped(I))
      Out.Sections[std::string(sectionName(I))] = {Base + Offset[I],
                                                   Shdrs[I].sh_size};
  for (const Elf32_Sym &Sym : Syms) {
    if (ELF32_ST_BIND(Sym.st_info) == STB_LOCAL || Sym.st_shndx == SHN_UNDEF ||
        Sym.st_shndx >= Shdrs.size() || !mapped(Sym.st_shndx))
      continue;
    Out.Symbols[std::string(Obj.symbolName(Sym))] =
        Base + Offset[Sym.st_shndx] + Sym.st_value;
  }
  return true;
}

} // namespace

bool tscc::rt::isElf32(std::span<const uint8_t> Bytes) {
  return Bytes.size() > EI_CLASS &&
         memcmp(Bytes.data(), ELFMAG, SELFMAG) == 0 &&
         Bytes[EI_CLASS] == ELFCLASS32;
}

bool tscc::rt::summarizeImage32(std::span<const uint8_t> Bytes,
                                Image32Summary &Out, std::string &Error) {
  Builder B(Bytes, Error);
  if (!B.parse())
    return false;
  B.summarize(Out);
  return true;
}

bool tscc::rt::relocatedImageSize32(std::span<const uint8_t> Bytes,
                                    uint64_t &Size, std::string &Error) {
  Builder B(Bytes, Error);
  if (!B.parse())
    return false;
  Size = B.total();
  return true;
}

bool tscc::rt::relocateImage32(std::span<const uint8_t> Bytes, uint64_t Base,
                               const SymbolResolver &Resolve,
                               RelocatedImage &Out, std::string &Error) {
  Builder B(Bytes, Error);
  return B.parse() && B.relocateFor(Base, Resolve, Out);
}
