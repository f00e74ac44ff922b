//===- RingReader.h - Draining the record rings in global order -*- C++ -*-===//
//
// Every record a clause emits in a target goes into that thread's ring of
// the shared store, with a sequence number taken under the store lock.
// The reader drains them in two steps:
//
//   cut()      under the store lock: notes where every ring's writer has
//              got to. Each entry before that point is complete, and was
//              written before every entry after it, in any ring.
//   collect()  without the lock: copies the entries of each ring up to its
//              cut out of the shared memory, checks them, and sorts them by
//              sequence number.
//
// The rings live in memory a target can write, so every byte is hostile
// input: each entry's header is copied out once before anything in it is
// looked at (nothing is read twice from the shared memory), every size is
// checked
// against tsrun's own copy of the layout, and where the reader has got to
// (the tail) is tsrun's own: the tail in the shared ring is only the
// writer's hint. A sequence number only orders the records of one cut
// among themselves; it never decides whether a record is delivered, so a
// forged one cannot hold a ring back.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_STORE_RINGREADER_H
#define TSCC_RUNTIME_LIB_STORE_RINGREADER_H

#include "tscc/store.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace tscc::rt {

/// A record's payload: the bytes of a typical record (a printf of a few
/// arguments) are kept inline, so the live reader does not call malloc and
/// free for each of millions of records; a larger one (a stack snapshot)
/// goes to the heap.
class RecordBytes {
public:
  static constexpr size_t InlineBytes = 112;

  RecordBytes() = default;
  RecordBytes(const RecordBytes &O) { assign(O.begin(), O.end()); }
  RecordBytes(RecordBytes &&O) noexcept { *this = std::move(O); }
  RecordBytes &operator=(const RecordBytes &O) {
    if (this != &O)
      assign(O.begin(), O.end());
    return *this;
  }
  RecordBytes &operator=(RecordBytes &&O) noexcept {
    if (this == &O)
      return *this;
    Heap = std::move(O.Heap);
    Size = O.Size;
    if (!Heap && Size)
      memcpy(Inline, O.Inline, Size);
    O.Size = 0;
    return *this;
  }

  void assign(const uint8_t *First, const uint8_t *Last) {
    size_t N = static_cast<size_t>(Last - First);
    if (N > InlineBytes) {
      Heap = std::make_unique_for_overwrite<uint8_t[]>(N);
    } else {
      Heap.reset();
    }
    if (N)
      memcpy(data(), First, N);
    Size = N;
  }

  const uint8_t *data() const { return Heap ? Heap.get() : Inline; }
  uint8_t *data() { return Heap ? Heap.get() : Inline; }
  size_t size() const { return Size; }
  bool empty() const { return !Size; }
  const uint8_t *begin() const { return data(); }
  const uint8_t *end() const { return data() + Size; }
  uint8_t operator[](size_t I) const { return data()[I]; }

private:
  std::unique_ptr<uint8_t[]> Heap;
  size_t Size = 0;
  uint8_t Inline[InlineBytes];
};

struct DrainedRecord {
  tscc_ring_record Hdr{};
  RecordBytes Payload;
  uint32_t Ring = 0; ///< the ring (thread slot) it was read from
  /// The process whose shard held it (tsrun's number; 0: tsrun's own
  /// records). Hdr.target is whatever the writer put there.
  uint32_t Target = 0;
  /// The trust domain whose sequence number it has.
  uint32_t Domain = 0;
};

struct DrainStats {
  uint64_t Corrupt = 0;  ///< stretches of rings skipped because of garbage
  uint64_t SeqReset = 0; ///< times the store's sequence number went back
  /// Records dropped by full rings, as their counters said (a program can
  /// write those: only ever a reason to warn).
  uint64_t Lost = 0;
};

/// The store's sequence number as tsrun last saw it, under the store lock.
struct SeqGuard {
  uint64_t Last = 0;
  uint64_t Resets = 0;
  /// The number now. One that went back (a program wrote it) is put back
  /// where it was, and counted.
  uint64_t check(tscc_store *S);
  /// Records numbered below Seq were read from the rings: the number is
  /// past them.
  void passed(uint64_t Seq) { Last = std::max(Last, Seq); }
};

/// A TSCC_RING_LOST entry for Lost records of thread T, numbered Seq.
DrainedRecord lostMarker(const tscc_thread *T, uint64_t Lost, uint64_t Seq);

/// Where the rings' writers had got to, taken under the store lock.
struct DrainCut {
  struct Ring {
    uint32_t Index;
    uint32_t Incarnation; ///< of tsrun's cursor: a freed ring is not read
    uint64_t Head;
  };
  uint64_t Seq = 0; ///< the store's next sequence number then
  std::vector<Ring> Rings;
  /// Loss markers of threads freed by this cut: records they dropped after
  /// the last one they wrote.
  std::vector<DrainedRecord> Lost;
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
  /// Cut to Out, sorted by sequence number (ties: ring, then position).
  /// The usual case, records of one ring or of rings that did not
  /// interleave, costs no sort: only a check that they are in order.
  /// A cut older than what was already collected adds nothing.
  ///
  /// Where only one ring of the cut has records to read (one thread
  /// writing, the case of the highest rates), at most MaxRecords of them
  /// are read: the rest stays for the next call with the same cut
  /// (pending() says), so that a large ring is delivered in batches that
  /// stay in the cache instead of one batch of its size.
  void collect(tscc_store *S, const DrainCut &Cut,
               std::vector<DrainedRecord> &Out, size_t MaxRecords = SIZE_MAX);
  /// Whether a ring of Cut still has records up to its cut to read.
  bool pending(const DrainCut &Cut);

  DrainStats Stats;
  /// One past the highest sequence number of a record read from the rings
  /// (markers the reader makes itself take none).
  uint64_t SeqTaken = 0;

private:
  struct Cursor {
    uint64_t Tail = 0;
    uint32_t Incarnation = 0;
    uint64_t Dropped = 0; ///< the ring's dropped counter when last seen
  };
  /// Adds what ring R dropped since it was last looked at to Stats.
  void countLost(tscc_ring *R, Cursor &K);
  Cursor &cursor(uint32_t Ring);
  void collectRing(tscc_store *S, const DrainCut::Ring &C,
                   std::vector<DrainedRecord> &Out, size_t MaxRecords);
  std::vector<Cursor> Cursors;
};

/// Sorts Records[First..] by sequence number, keeping the order of equal
/// ones; records already in order (the usual case) are only checked.
void sortBySeq(std::vector<DrainedRecord> &Records, size_t First = 0);

/// cut() and collect() at once, for callers that know nobody writes.
void drainRings(tscc_store *S, RingReader &R, std::vector<DrainedRecord> &Out);

} // namespace tscc::rt

#endif
