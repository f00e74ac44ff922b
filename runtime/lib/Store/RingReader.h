//===- RingReader.h - Draining the record rings in global order -*- C++ -*-===//
//
// Every record a clause emits, in tsrun or in a target, goes into a ring of
// the shared store with a sequence number taken under the store lock. The
// reader copies out what the rings hold below a horizon and sorts it by
// that number: the true order across threads and processes (seed 001's
// per-CPU buffers merged into one stream). It holds the lock only to read
// the horizon, so targets never wait for a drain. Rings live in memory a target
// can write, so every entry is checked; a ring that holds garbage is emptied
// and counted.
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

/// Moves every entry with a sequence number below Horizon out of every
/// ring in use, sorted by sequence number. Horizon is the store's next
/// sequence number read under the store lock: every entry below it was
/// complete when the lock was released, so the rings are read without the
/// lock (each has one writer, and the reader publishes its tail). Slots of
/// exited threads whose rings are now empty are added to EmptyDead, to be
/// freed (tscc_thread_free) the next time the lock is held.
void drainRings(tscc_store *S, uint64_t Horizon,
                std::vector<DrainedRecord> &Out, DrainStats &Stats,
                std::vector<int32_t> &EmptyDead);

} // namespace tscc::rt

#endif
