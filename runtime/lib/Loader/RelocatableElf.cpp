//===- RelocatableElf.cpp - Checked views of ELF32 and ELF64 ET_REL -------===//
#include "RelocatableElf.h"

#include <cstring>

using namespace tscc::rt;

namespace {

bool fail(std::string &Error, std::string Msg) {
  Error = std::move(Msg);
  return false;
}

} // namespace

template <class ELFT>
bool RelocatableElf<ELFT>::parse(std::span<const uint8_t> In,
                                 std::string &Error) {
  Bytes = In;
  return header(Error) && sections(Error) && symbols(Error);
}

template <class ELFT> bool RelocatableElf<ELFT>::header(std::string &Error) {
  if (Bytes.size() < SELFMAG || memcmp(Bytes.data(), ELFMAG, SELFMAG) != 0)
    return fail(Error, "not an ELF file");
  if (Bytes.size() < EI_NIDENT)
    return fail(Error, "truncated ELF header");
  if (Bytes[EI_CLASS] != ELFT::Class)
    return fail(Error, ELFT::WrongClass);
  if (Bytes[EI_DATA] != ELFDATA2LSB)
    return fail(Error, "not a little-endian ELF object");
  if (Bytes.size() < sizeof(Ehdr))
    return fail(Error, "truncated ELF header");
  memcpy(&Ehdr, Bytes.data(), sizeof(Ehdr));
  if (Ehdr.e_machine != ELFT::Machine)
    return fail(Error, "wrong architecture (e_machine " +
                           std::to_string(Ehdr.e_machine) + "), expected " +
                           ELFT::MachineName);
  if (Ehdr.e_type != ET_REL)
    return fail(Error, "not a relocatable object (ET_REL); is this a probe "
                       "object produced by tscc?");
  if (Ehdr.e_shentsize != sizeof(Shdr))
    return fail(Error,
                "bad section header size " + std::to_string(Ehdr.e_shentsize));
  if (Ehdr.e_shnum == 0 || Ehdr.e_shnum >= SHN_LORESERVE)
    return fail(Error, "no usable section header table");
  if (Ehdr.e_shoff > Bytes.size() ||
      (Bytes.size() - Ehdr.e_shoff) / sizeof(Shdr) < Ehdr.e_shnum)
    return fail(Error,
                "truncated: section headers extend past the end of the file");
  if (Ehdr.e_shstrndx >= Ehdr.e_shnum)
    return fail(Error, "bad section name table index");
  return true;
}

template <class ELFT> bool RelocatableElf<ELFT>::sections(std::string &Error) {
  Shdrs.resize(Ehdr.e_shnum);
  memcpy(Shdrs.data(), Bytes.data() + Ehdr.e_shoff,
         Shdrs.size() * sizeof(Shdr));
  for (size_t I = 0; I < Shdrs.size(); ++I) {
    const Shdr &S = Shdrs[I];
    if (S.sh_type == SHT_NOBITS || S.sh_type == SHT_NULL)
      continue;
    if (S.sh_offset > Bytes.size() || S.sh_size > Bytes.size() - S.sh_offset)
      return fail(Error, "truncated: section " + std::to_string(I) +
                             " extends past the end of the file");
    if (S.sh_addralign > 1 && (S.sh_addralign & (S.sh_addralign - 1)))
      return fail(Error, "section " + std::to_string(I) +
                             " has a non-power-of-two alignment");
  }
  const Shdr &Str = Shdrs[Ehdr.e_shstrndx];
  if (Str.sh_type != SHT_STRTAB)
    return fail(Error, "section name table is not a string table");
  ShStrtab = {reinterpret_cast<const char *>(Bytes.data() + Str.sh_offset),
              Str.sh_size};
  return true;
}

template <class ELFT> bool RelocatableElf<ELFT>::symbols(std::string &Error) {
  bool Seen = false;
  for (const Shdr &S : Shdrs) {
    if (S.sh_type != SHT_SYMTAB)
      continue;
    if (Seen)
      return fail(Error, "more than one symbol table");
    Seen = true;
    if (S.sh_entsize != sizeof(Sym))
      return fail(Error, "bad symbol table entry size");
    if (S.sh_link >= Shdrs.size() || Shdrs[S.sh_link].sh_type != SHT_STRTAB)
      return fail(Error, "symbol table has no string table");
    Syms.resize(S.sh_size / sizeof(Sym));
    memcpy(Syms.data(), Bytes.data() + S.sh_offset, Syms.size() * sizeof(Sym));
    const Shdr &Str = Shdrs[S.sh_link];
    SymStrtab = {reinterpret_cast<const char *>(Bytes.data() + Str.sh_offset),
                 Str.sh_size};
  }
  return true;
}

template struct tscc::rt::RelocatableElf<Elf64X86>;
template struct tscc::rt::RelocatableElf<Elf32I386>;
