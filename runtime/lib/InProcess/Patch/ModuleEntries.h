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
#include <functional>
#include <span>
#include <utility>
#include <vector>

namespace tscc::rt {
class ElfFile;
}

namespace tscc::rt::ip {

using AddressRanges = std::vector<std::pair<uint64_t, uint64_t>>;

/// A place the code names that may be a relative jump table: the table's
/// address and what its offsets count from (its own address in x86-64
/// position-independent code, the GOT's in i386), link-time.
struct TableCandidate {
  uint64_t Addr = 0, Base = 0;
  auto operator<=>(const TableCandidate &) const = default;
};

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
/// Tables, if set, gets the places that may be relative jump tables
/// (relativeTableEntries()); Starts, if set, which bytes of Bytes start an
/// instruction the sweep decoded.
void sweepCode(std::span<const uint8_t> Bytes, uint64_t Addr, bool Absolute,
               const AddressRanges &Code, std::vector<KnownEntry> &Out,
               X86Mode Mode = X86Mode::Bits64, uint64_t Got = 0,
               std::vector<TableCandidate> *Tables = nullptr,
               std::vector<bool> *Starts = nullptr);

/// Whether the sweep decoded an instruction at a link-time address.
using IsInsnStart = std::function<bool(uint64_t Addr)>;

/// Appends the targets of every relative jump table among Tables, read
/// from Elf's file: 4-byte signed offsets from the candidate's base, for
/// as long as they make addresses of instructions (IsStart) inside Code,
/// at least MinRelativeTableEntries of them. A function's own tables are
/// read where the function is checked (IndirectJumps.h); these are the
/// tables of every function, so that a jump into another function's part
/// (gcc's `.cold` parts are entered from their function's switch tables)
/// is known wherever it lands. Most candidates are no table (the first
/// entry is no code address); one that only looks like a table costs sites
/// their jumps, never hides an entry.
void relativeTableEntries(const ElfFile &Elf,
                          std::vector<TableCandidate> Tables,
                          const AddressRanges &Code, const IsInsnStart &IsStart,
                          std::vector<KnownEntry> &Out);

/// The most entries read from one candidate of relativeTableEntries(), and
/// the fewest that make it a table (GCC and Clang make jump tables for
/// four cases or more; their tables then have at least that many entries).
constexpr size_t MaxRelativeTableEntries = 1 << 16;
constexpr size_t MinRelativeTableEntries = 3;

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
