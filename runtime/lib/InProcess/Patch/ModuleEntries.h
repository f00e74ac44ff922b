//===- ModuleEntries.h - Where a module's code may be entered -------------===//
//
// The addresses inside a module's code that execution may reach other than
// by falling through, that one function's bytes do not show: direct
// branches from other functions (gcc's `.cold` parts jump back into their
// function), address constants of the code (a computed goto's labels, `lea
// label(%rip)`; in a fixed-address executable also `mov $label`), code
// pointers in its data (that the loader relocates: R_X86_64_RELATIVE and
// RELR entries, computed-goto tables of position-independent code; in a
// fixed-address executable, every aligned word of its data that is a code
// address), exception landing pads, and where its function symbols start
// (one may start inside another: an alternate entry point).
//
// Found once per ELF file, from the file (the live code may hold
// breakpoints), in link-time addresses.
//
// What a function's own jump tables hold is read from the live process
// (IndirectJumps.h), where the tables are relocated.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_INPROCESS_MODULEENTRIES_H
#define TSCC_RUNTIME_INPROCESS_MODULEENTRIES_H

#include "JumpPatch.h"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace tscc::rt {
class ElfFile;
}

namespace tscc::rt::ip {

using AddressRanges = std::vector<std::pair<uint64_t, uint64_t>>;

/// Decodes Bytes (code at link-time address Addr) linearly, skipping a
/// byte where nothing decodes, and appends the addresses inside Code that
/// its direct branches reach (Branch) and that its RIP-relative operands
/// name (AddressTaken). With Absolute (a fixed-address executable), 32-bit
/// immediates and displacements that fall inside Code count as address
/// constants too. Mode: the code's instruction set. i386 code has no
/// RIP-relative operands: its position-independent address constants are
/// offsets from the GOT (`lea label@GOTOFF(%ebx),%eax`), which no sweep can
/// tell from other numbers; with Got (the GOT's link-time address, 0 for
/// none) every 32-bit displacement from a register that makes a code
/// address from Got counts (more entries than there are, never fewer).
void sweepCode(std::span<const uint8_t> Bytes, uint64_t Addr, bool Absolute,
               const AddressRanges &Code, std::vector<KnownEntry> &Out,
               X86Mode Mode = X86Mode::Bits64, uint64_t Got = 0);

/// Appends the addresses inside Code that the ELF64 RELA entries Bytes
/// relocate pointers to (R_X86_64_RELATIVE, R_X86_64_IRELATIVE addends).
void relaCodePointers(std::span<const uint8_t> Bytes, const AddressRanges &Code,
                      std::vector<KnownEntry> &Out);

/// The places (link-time addresses) the ELF32 REL entries Bytes relocate
/// as pointers into the module (R_386_RELATIVE, R_386_IRELATIVE): their
/// addends are in the places.
std::vector<uint64_t> relRelativePlaces32(std::span<const uint8_t> Bytes);

/// The places (link-time addresses) the RELR entries Bytes relocate, in a
/// module of WordSize-byte words.
std::vector<uint64_t> relrPlaces(std::span<const uint8_t> Bytes,
                                 unsigned WordSize = 8);

/// Appends the aligned WordSize-byte words of Bytes (data at link-time
/// address Addr) that are addresses inside Code: the code pointers of a
/// fixed-address executable's data, which no relocation lists.
void dataCodePointers(std::span<const uint8_t> Bytes, uint64_t Addr,
                      const AddressRanges &Code, std::vector<KnownEntry> &Out,
                      unsigned WordSize = 8);

class ModuleEntries {
public:
  explicit ModuleEntries(const ElfFile &Elf);

  /// The module's executable ranges, link-time, [start, end).
  const AddressRanges &code() const { return Code; }
  /// Appends the entries in [Lo, Hi) (link-time), moved by Bias.
  void within(uint64_t Lo, uint64_t Hi, uint64_t Bias,
              std::vector<KnownEntry> &Out) const;

private:
  void findCode(const ElfFile &Elf);
  void findRelocations(const ElfFile &Elf);
  void findDataPointers(const ElfFile &Elf);

  AddressRanges Code;
  std::vector<KnownEntry> Entries; ///< sorted by address
};

} // namespace tscc::rt::ip

#endif // TSCC_RUNTIME_INPROCESS_MODULEENTRIES_H
