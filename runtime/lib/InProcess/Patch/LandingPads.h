//===- LandingPads.h - Where exceptions re-enter functions ----------------===//
//
// The unwinder resumes a function that catches or cleans up at a landing
// pad: an address inside it that no branch names, given by the function's
// LSDA (its entry in .gcc_except_table, which its .eh_frame FDE points at).
// A jump written over a landing pad's first byte would be entered in its
// middle when an exception passes.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_INPROCESS_LANDINGPADS_H
#define TSCC_RUNTIME_INPROCESS_LANDINGPADS_H

#include <cstdint>
#include <span>
#include <vector>

namespace tscc::rt {
class ElfFile;
}

namespace tscc::rt::ip {

/// Appends to Out the landing pads of the LSDA whose bytes (up to the end
/// of its section or more) are Bytes, at link-time address Addr, for the
/// function that starts at FuncStart. False if the LSDA is malformed (what
/// was read before the error is kept). PtrSize: the module's pointers (8 in
/// x86-64, 4 in i386).
bool lsdaLandingPads(std::span<const uint8_t> Bytes, uint64_t Addr,
                     uint64_t FuncStart, std::vector<uint64_t> &Out,
                     unsigned PtrSize = 8);

/// Every landing pad of the module (link-time addresses, unsorted): the
/// LSDAs of all FDEs of its .eh_frame (ELF64 or ELF32). Malformed entries
/// are skipped.
std::vector<uint64_t> moduleLandingPads(const ElfFile &Elf);

} // namespace tscc::rt::ip

#endif // TSCC_RUNTIME_INPROCESS_LANDINGPADS_H
