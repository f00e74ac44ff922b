//===- RelocatableElf.h - Checked views of ELF32 and ELF64 ET_REL -*- C++ -*-===//
//
// Internal to the loader. Both of its images -- the x86-64 one that runs
// in tsrun or in a 64-bit process (LoadedImage.cpp), and the i386 one that
// runs in a 32-bit process (Image32.cpp) -- start from a relocatable ELF
// object that comes from a probe object, which is untrusted input. This is
// the one place that reads such an object's header, section table and
// symbol table, and checks every offset, size and index it reads before
// anything else looks at them; the two loaders differ only in how they
// lay out and relocate.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_LOADER_RELOCATABLEELF_H
#define TSCC_RUNTIME_LIB_LOADER_RELOCATABLEELF_H

#include <elf.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tscc::rt {

/// The ELF types and the machine of each kind of object the loader takes.
struct Elf64X86 {
  using Ehdr = Elf64_Ehdr;
  using Shdr = Elf64_Shdr;
  using Sym = Elf64_Sym;
  static constexpr unsigned char Class = ELFCLASS64;
  static constexpr uint16_t Machine = EM_X86_64;
  static constexpr const char *MachineName = "x86-64";
  static constexpr const char *WrongClass =
      "not a 64-bit ELF object (probe objects are ELF64 x86-64)";
};
struct Elf32I386 {
  using Ehdr = Elf32_Ehdr;
  using Shdr = Elf32_Shdr;
  using Sym = Elf32_Sym;
  static constexpr unsigned char Class = ELFCLASS32;
  static constexpr uint16_t Machine = EM_386;
  static constexpr const char *MachineName = "i386";
  static constexpr const char *WrongClass =
      "not a 32-bit ELF object (i386 streams are ELF32 i386)";
};

/// A relocatable object whose header, sections and symbols have been
/// checked: every section with bytes lies inside the file, alignments are
/// powers of two, and the name tables are string tables. The tables are
/// copies, so no field is read from a misaligned pointer into the file.
template <class ELFT> struct RelocatableElf {
  using Shdr = typename ELFT::Shdr;
  using Sym = typename ELFT::Sym;

  std::span<const uint8_t> Bytes;
  typename ELFT::Ehdr Ehdr{};
  std::vector<Shdr> Shdrs;
  std::vector<Sym> Syms; ///< empty: the object has no symbol table
  std::string_view ShStrtab, SymStrtab;

  /// Reads and checks Bytes; on failure says why in Error.
  bool parse(std::span<const uint8_t> Bytes, std::string &Error);

  /// The NUL-terminated name at Off of Table, or "" if Off is outside it.
  static std::string_view name(std::string_view Table, uint32_t Off) {
    if (Off >= Table.size())
      return {};
    std::string_view Rest = Table.substr(Off);
    return Rest.substr(0, Rest.find('\0'));
  }
  std::string_view sectionName(const Shdr &S) const {
    return name(ShStrtab, S.sh_name);
  }
  std::string_view symbolName(const Sym &S) const {
    return name(SymStrtab, S.st_name);
  }

private:
  bool header(std::string &Error);
  bool sections(std::string &Error);
  bool symbols(std::string &Error);
};

extern template struct RelocatableElf<Elf64X86>;
extern template struct RelocatableElf<Elf32I386>;

} // namespace tscc::rt

#endif
