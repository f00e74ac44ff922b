//===- RingReader.cpp - Draining the record rings in global order ---------===//
#include "RingReader.h"

#include <algorithm>
#include <cstring>

using namespace tscc::rt;

DrainedRecord tscc::rt::lostMarker(const tscc_thread *T, uint64_t Lost,
                                   uint64_t Seq) {
  DrainedRecord D;
  D.Hdr.type = TSCC_RING_LOST;
  D.Hdr.size = sizeof(D.Hdr) + 8;
  D.Hdr.target = T->target;
  D.Hdr.tid = T->tid;
  D.Hdr.seq = Seq;
  D.Hdr.time_ns = tscc_host_now_ns();
  D.Payload.assign(reinterpret_cast<const uint8_t *>(&Lost),
                   reinterpret_cast<const uint8_t *>(&Lost) + 8);
  return D;
}

void RingReader::countLost(tscc_ring *R, Cursor &K) {
  uint64_t Dropped = __atomic_load_n(&R->dropped, __ATOMIC_RELAXED);
  if (Dropped > K.Dropped)
    Stats.Lost += Dropped - K.Dropped;
  K.Dropped = Dropped;
}

RingReader::Cursor &RingReader::cursor(uint32_t Ring) {
  if (Ring >= Cursors.size())
    Cursors.resize(Ring + 1);
  return Cursors[Ring];
}

void RingReader::cut(tscc_store *S, DrainCut &Cut) {
  tscc_store_header *H = tscc_store_hdr(S);
  uint32_t High = std::min(
      __atomic_load_n(&tscc_shard_hdr(S)->threads_high, __ATOMIC_ACQUIRE),
      S->layout.thread_capacity);
  Cut.Rings.clear();
  Cut.Lost.clear();
  for (uint32_t Slot = 0; Slot < High; ++Slot) {
    tscc_thread *T = tscc_thread_at(S, static_cast<int32_t>(Slot));
    uint32_t State = __atomic_load_n(&T->state, __ATOMIC_ACQUIRE);
    if (State == TSCC_THREAD_FREE)
      continue;
    tscc_ring *R = tscc_ring_at(S, Slot);
    uint64_t Head = __atomic_load_n(&R->head, __ATOMIC_ACQUIRE);
    Cursor &K = cursor(Slot);
    countLost(R, K);
    if (State == TSCC_THREAD_DEAD && Head == K.Tail) {
      // Records it dropped after the last one it wrote have no marker in
      // the ring: the reader makes it, after everything read so far.
      uint64_t Lost = R->dropped - R->marked;
      if (Lost)
        Cut.Lost.push_back(lostMarker(T, Lost, H->seq));
      // Its thread is gone and everything it wrote was read: the slot
      // (and its ring) may serve a new thread. Anything a cut taken
      // before this one still holds for it is stale from now on.
      tscc_thread_free(S, static_cast<int32_t>(Slot));
      K.Tail = 0;
      K.Dropped = 0;
      ++K.Incarnation;
      continue;
    }
    Cut.Rings.push_back({Slot, K.Incarnation, Head});
  }
  Cut.Seq = __atomic_load_n(&H->seq, __ATOMIC_ACQUIRE);
}

uint64_t SeqGuard::check(tscc_store *S) {
  // The sequence number only ever grows, unless a program wrote it: then
  // it is put back where it was, so that records from now on sort after
  // the ones before (those written meanwhile are misordered, not lost).
  tscc_store_header *H = tscc_store_hdr(S);
  uint64_t Seq = __atomic_load_n(&H->seq, __ATOMIC_ACQUIRE);
  if (Seq < Last) {
    ++Resets;
    __atomic_store_n(&H->seq, Last, __ATOMIC_RELEASE);
    Seq = Last;
  }
  Last = Seq;
  return Seq;
}

void RingReader::heads(tscc_store *S, DrainCut &Cut) {
  uint32_t High = std::min(
      __atomic_load_n(&tscc_shard_hdr(S)->threads_high, __ATOMIC_ACQUIRE),
      S->layout.thread_capacity);
  Cut.Rings.clear();
  for (uint32_t Slot = 0; Slot < High; ++Slot) {
    tscc_thread *T = tscc_thread_at(S, static_cast<int32_t>(Slot));
    if (__atomic_load_n(&T->state, __ATOMIC_ACQUIRE) == TSCC_THREAD_FREE)
      continue;
    countLost(tscc_ring_at(S, Slot), cursor(Slot));
    Cut.Rings.push_back(
        {Slot, cursor(Slot).Incarnation,
         __atomic_load_n(&tscc_ring_at(S, Slot)->head, __ATOMIC_ACQUIRE)});
  }
  Cut.Seq = __atomic_load_n(&tscc_store_hdr(S)->seq, __ATOMIC_ACQUIRE);
}

bool RingReader::drained(tscc_store *S) {
  uint32_t High = std::min(
      __atomic_load_n(&tscc_shard_hdr(S)->threads_high, __ATOMIC_ACQUIRE),
      S->layout.thread_capacity);
  for (uint32_t Slot = 0; Slot < High; ++Slot)
    if (__atomic_load_n(&tscc_ring_at(S, Slot)->head, __ATOMIC_ACQUIRE) !=
        cursor(Slot).Tail)
      return false;
  return true;
}

void RingReader::collectRing(tscc_store *S, const DrainCut::Ring &C,
                             std::vector<DrainedRecord> &Out,
                             size_t MaxRecords) {
  Cursor &K = cursor(C.Index);
  if (K.Incarnation != C.Incarnation || C.Head <= K.Tail)
    return; // freed since the cut, or read up to there already
  tscc_ring *R = tscc_ring_at(S, C.Index);
  const uint8_t *Data = tscc_ring_data(S, C.Index);
  uint64_t Size = S->layout.ring_size;
  uint64_t Fill = C.Head - K.Tail;
  bool Ok = Fill <= Size;
  // Every entry lies in one piece (one that would wrap starts at the
  // beginning, after padding to the end), so it is read where it lies,
  // each byte once: its header into a copy that is all that is looked at
  // from then on, its payload straight into the record. Padding, which
  // may run over most of a large ring, is skipped without being read.
  uint64_t Off = 0;
  for (size_t Taken = 0; Ok && Off < Fill && Taken < MaxRecords; ++Taken) {
    uint64_t Pos = (K.Tail + Off) & (Size - 1);
    uint64_t Avail = std::min(Size - Pos, Fill - Off);
    Ok = Avail >= 8;
    if (!Ok)
      break;
    tscc_ring_record Hdr{};
    memcpy(&Hdr, Data + Pos, std::min<uint64_t>(Avail, sizeof(Hdr)));
    Ok = Hdr.size >= 8 && Hdr.size % 8 == 0 && Hdr.size <= Avail;
    if (Ok && Hdr.type == TSCC_RING_PAD) {
      Ok = Hdr.size == Size - Pos; // padding runs to the end of the data
      Off += Hdr.size;
      --Taken;
      continue;
    }
    Ok = Ok && Hdr.size >= sizeof(Hdr);
    if (!Ok)
      break;
    DrainedRecord &D = Out.emplace_back();
    D.Hdr = Hdr;
    if (Hdr.seq != UINT64_MAX)
      SeqTaken = std::max(SeqTaken, Hdr.seq + 1);
    D.Ring = C.Index;
    D.Payload.assign(Data + Pos + sizeof(Hdr), Data + Pos + Hdr.size);
    Off += Hdr.size;
  }
  if (!Ok)
    ++Stats.Corrupt; // the rest of this stretch is skipped
  K.Tail = Ok ? K.Tail + Off : C.Head;
  // Tells the writer the room is free again (its business only), and
  // wakes it if it waits for room (--on-full=block; see
  // tscc_host_ring_wait for the order of the two).
  __atomic_store_n(&R->tail, K.Tail, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&R->waiting, __ATOMIC_SEQ_CST) &&
      __atomic_exchange_n(&R->waiting, 0, __ATOMIC_ACQ_REL))
    tscc_host_wake(reinterpret_cast<uint32_t *>(&R->tail));
}

bool RingReader::pending(const DrainCut &Cut) {
  for (const DrainCut::Ring &C : Cut.Rings) {
    const Cursor &K = cursor(C.Index);
    if (K.Incarnation == C.Incarnation && C.Head > K.Tail)
      return true;
  }
  return false;
}

void RingReader::collect(tscc_store *S, const DrainCut &Cut,
                         std::vector<DrainedRecord> &Out, size_t MaxRecords) {
  size_t First = Out.size();
  // Records of several rings are sorted together: only one ring's are
  // read in part (its own are in order), or the order would be lost.
  size_t Busy = 0;
  for (const DrainCut::Ring &C : Cut.Rings) {
    const Cursor &K = cursor(C.Index);
    Busy += K.Incarnation == C.Incarnation && C.Head > K.Tail;
  }
  if (Busy > 1 || !Cut.Lost.empty())
    MaxRecords = SIZE_MAX;
  for (const DrainCut::Ring &C : Cut.Rings)
    collectRing(S, C, Out, MaxRecords);
  Out.insert(Out.end(), Cut.Lost.begin(), Cut.Lost.end());
  sortBySeq(Out, First);
}

void tscc::rt::sortBySeq(std::vector<DrainedRecord> &Records, size_t First) {
  auto BySeq = [](const DrainedRecord &A, const DrainedRecord &B) {
    return A.Hdr.seq < B.Hdr.seq;
  };
  // Each ring's records are in order already (one writer, numbers taken
  // under the store lock); one thread's records, the common case at high
  // rates, need nothing more.
  if (std::is_sorted(Records.begin() + First, Records.end(), BySeq))
    return;
  std::stable_sort(Records.begin() + First, Records.end(), BySeq);
}

void tscc::rt::drainRings(tscc_store *S, RingReader &R,
                          std::vector<DrainedRecord> &Out) {
  DrainCut Cut;
  R.cut(S, Cut);
  R.collect(S, Cut, Out);
}
