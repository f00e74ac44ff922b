//===- RingReader.h - Draining the record rings in global order -*- C++ -*-===//
//
// Every record a clause emits in a target goes into that thread's ring of
// the shared store, numbered in the ring's own sequence, with the time the
// clause read under the store lock. The reader drains them in two steps:
//
//   cut()      under the store lock: notes where every ring's writer has
//              got to. Each entry before that point is complete, and was
//              written (and timed) before every entry after it, in any
//              ring.
//   collect()  without the lock: copies the entries of each ring up to its
//              cut out of the shared memory, checks them, and merges the
//              rings by time (a k-way merge of runs that are each in
//              order already: no sort).
//
// The rings live in memory a target can write, so every byte is hostile
// input: each entry's header is copied out once before anything in it is
// looked at (nothing is read twice from the shared memory), every size is
// checked against tsrun's own copy of the layout, and where the reader has
// got to (the tail) is tsrun's own: the tail in the shared ring is only the
// writer's hint. A time or a sequence number only orders the records of
// one cut among themselves; neither decides whether a record is delivered,
// so a forged one cannot hold a ring back.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_STORE_RINGREADER_H
#define TSCC_RUNTIME_LIB_STORE_RINGREADER_H

#include "tscc/store.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

namespace tscc::rt {

/// A record read from a ring: its header (tsrun's copy) and its payload,
/// in the RecordBatch it was read into (valid until that batch is
/// cleared).
struct DrainedRecord {
  tscc_ring_record Hdr{};
  std::span<const uint8_t> Payload;
  uint32_t Ring = 0; ///< the ring (thread slot) it was read from
  /// The process whose shard held it (tsrun's number; 0: tsrun's own
  /// records). Hdr.target is whatever the writer put there.
  uint32_t Target = 0;
  /// The trust domain it belongs to.
  uint32_t Domain = 0;
};

/// Records drained in one go. Their payloads are copied (once: the rings
/// are hostile memory) into blocks the batch owns and keeps from one drain
/// to the next, so that the live reader calls no malloc or free per
/// record, and a record never moves its bytes.
class RecordBatch {
public:
  /// Appends a record with a copy of Bytes[0..N) as its payload.
  DrainedRecord &add(const tscc_ring_record &Hdr, const uint8_t *Bytes,
                     size_t N);
  /// Forgets the records; keeps the room (up to a bound).
  void clear();

  std::vector<DrainedRecord> Records;
  size_t size() const { return Records.size(); }
  bool empty() const { return Records.empty(); }
  DrainedRecord &operator[](size_t I) { return Records[I]; }
  const DrainedRecord &operator[](size_t I) const { return Records[I]; }
  DrainedRecord &back() { return Records.back(); }
  auto begin() { return Records.begin(); }
  auto end() { return Records.end(); }
  auto begin() const { return Records.begin(); }
  auto end() const { return Records.end(); }

private:
  uint8_t *room(size_t N);
  struct Block {
    std::unique_ptr<uint8_t[]> Data;
    size_t Size = 0, Used = 0;
  };
  static constexpr size_t BlockBytes = 1u << 20;
  static constexpr size_t MaxKeptBlocks = 16;
  std::vector<Block> Blocks;
  size_t Current = 0;
};

struct DrainStats {
  uint64_t Corrupt = 0; ///< stretches of rings skipped because of garbage
  /// Entries whose ring sequence number was not the next one (a program
  /// wrote it: only ever a reason to warn).
  uint64_t SeqGaps = 0;
  /// Records dropped by full rings, as their counters said (a program can
  /// write those: only ever a reason to warn).
  uint64_t Lost = 0;
};

/// A loss marker the reader makes itself (a TSCC_RING_LOST entry that is in
/// no ring).
struct LostMark {
  tscc_ring_record Hdr{};
  uint64_t Count = 0;
  /// Appends it to Out as a record.
  DrainedRecord &addTo(RecordBatch &Out) const {
    return Out.add(Hdr, reinterpret_cast<const uint8_t *>(&Count), 8);
  }
};

/// A TSCC_RING_LOST entry for Lost records of thread T, numbered Seq in
/// its thread's sequence, timed now.
LostMark lostMarker(const tscc_thread *T, uint64_t Lost, uint64_t Seq);

/// Where the rings' writers had got to, taken under the store lock.
struct DrainCut {
  struct Ring {
    uint32_t Index;
    uint32_t Incarnation; ///< of tsrun's cursor: a freed ring is not read
    uint64_t Head;
  };
  std::vector<Ring> Rings;
  /// Loss markers of threads freed by this cut: records they dropped after
  /// the last one they wrote.
  std::vector<LostMark> Lost;
};

/// tsrun's side of the rings of one store: its own read positions.
class RingReader {
public:
  /// Under the store lock: frees the slots of exited threads whose rings
  /// are drained (tscc_thread_free), then notes every ring's head (in the
  /// view's shard).
  void cut(tscc_store *S, DrainCut &Cut);
  /// The same without the store lock: notes the heads, frees nothing.
  void heads(tscc_store *S, DrainCut &Cut);
  /// Whether every ring of the view's shard is read up to its head.
  bool drained(tscc_store *S);
  /// Without the lock: appends the complete entries of every ring up to
  /// Cut to Out, each ring's in its order, and notes where each ring's run
  /// starts in Runs (mergeRunsByTime puts them in order). A cut older than
  /// what was already collected adds nothing.
  ///
  /// Where only one ring of the cut has records to read (one thread
  /// writing, the case of the highest rates), at most MaxRecords of them
  /// are read: the rest stays for the next call with the same cut
  /// (pending() says), so that a large ring is delivered in batches that
  /// stay in the cache instead of one batch of its size.
  void collect(tscc_store *S, const DrainCut &Cut, RecordBatch &Out,
               std::vector<size_t> &Runs, size_t MaxRecords = SIZE_MAX);
  /// Whether a ring of Cut still has records up to its cut to read.
  bool pending(const DrainCut &Cut);

  DrainStats Stats;

private:
  struct Cursor {
    uint64_t Tail = 0;
    uint32_t Incarnation = 0;
    uint64_t Dropped = 0; ///< the ring's dropped counter when last seen
    uint64_t NextSeq = 0; ///< the sequence number the next entry should have
  };
  /// Adds what ring R dropped since it was last looked at to Stats.
  void countLost(tscc_ring *R, Cursor &K);
  Cursor &cursor(uint32_t Ring);
  /// Notes the head of every burst extent with records to read; Locked,
  /// gives back those read up to their head that their thread left full.
  void extents(tscc_store *S, DrainCut &Cut, bool Locked);
  /// Whether every burst extent Slot's thread claimed is read up to its
  /// head (its slot is freed only then).
  bool extentDrained(tscc_store *S, uint32_t Slot);
  void collectRing(tscc_store *S, const DrainCut::Ring &C, RecordBatch &Out,
                   size_t MaxRecords);
  std::vector<Cursor> Cursors;
};

/// Records[Starts[I]..Starts[I+1]) (the last run to the end) are runs,
/// each in its own order: merges them by time (a k-way merge), keeping
/// each run's order whatever its times say, ties to the earlier run.
/// Starts is ascending; runs may be empty.
void mergeRunsByTime(std::vector<DrainedRecord> &Records,
                     std::span<const size_t> Starts);

/// cut(), collect() and the merge at once, for callers that know nobody
/// writes.
void drainRings(tscc_store *S, RingReader &R, RecordBatch &Out);

} // namespace tscc::rt

#endif
