//===- RingReader.h - Draining the record rings in global order -*- C++ -*-===//
//
// Every record a clause emits, in tsrun or in a target, goes into a ring of
// the shared store with a sequence number taken under the store lock. The
// reader copies out whatever the rings hold and sorts it by that number:
// the true order across threads and processes (seed 001's per-CPU buffers
// merged into one stream). Rings live in memory a target can write, so
// every entry is checked; a ring that holds garbage is emptied and counted.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_STORE_RINGREADER_H
#define TSCC_RUNTIME_LIB_STORE_RINGREADER_H

#include "tscc/store.h"

#include <cstdint>
#include <vector>

namespace tscc::rt {

struct DrainedRecord {
  tscc_ring_record Hdr{};
  std::vector<uint8_t> Payload;
};

struct DrainStats {
  uint64_t Corrupt = 0; ///< rings emptied because they held garbage
};

/// Moves every complete entry out of every ring in use, sorted by sequence
/// number, then frees the slots of exited threads whose rings are empty.
/// The caller holds the store lock.
void drainRings(tscc_store *S, std::vector<DrainedRecord> &Out,
                DrainStats &Stats);

} // namespace tscc::rt

#endif
