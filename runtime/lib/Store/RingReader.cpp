//===- RingReader.cpp - Draining the record rings in global order ---------===//
#include "RingReader.h"

#include <algorithm>
#include <cstring>

using namespace tscc::rt;

LostMark tscc::rt::lostMarker(const tscc_thread *T, uint64_t Lost,
                              uint64_t Seq) {
  LostMark M;
  M.Hdr.type = TSCC_RING_LOST;
  M.Hdr.size = sizeof(M.Hdr) + 8;
  M.Hdr.target = T->target;
  M.Hdr.tid = T->tid;
  M.Hdr.seq = Seq;
  M.Hdr.time_ns = tscc_host_now_ns();
  M.Count = Lost;
  return M;
}

uint8_t *RecordBatch::room(size_t N) {
  while (Current < Blocks.size() &&
         Blocks[Current].Size - Blocks[Current].Used < N)
    ++Current;
  if (Current == Blocks.size()) {
    Block &B = Blocks.emplace_back();
    B.Size = std::max(N, BlockBytes);
    B.Data = std::make_unique_for_overwrite<uint8_t[]>(B.Size);
  }
  Block &B = Blocks[Current];
  uint8_t *At = B.Data.get() + B.Used;
  B.Used += N;
  return At;
}

DrainedRecord &RecordBatch::add(const tscc_ring_record &Hdr,
                                const uint8_t *Bytes, size_t N) {
  DrainedRecord &D = Records.emplace_back();
  D.Hdr = Hdr;
  if (N) {
    uint8_t *At = room(N);
    memcpy(At, Bytes, N);
    D.Payload = {At, N};
  }
  return D;
}

void RecordBatch::clear() {
  Records.clear();
  // A burst's worth of room is given back; a steady stream keeps its own.
  if (Blocks.size() > MaxKeptBlocks)
    Blocks.resize(MaxKeptBlocks);
  for (Block &B : Blocks)
    B.Used = 0;
  Current = 0;
  if (Records.capacity() > (size_t(1) << 18))
    std::vector<DrainedRecord>().swap(Records);
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
    if (State == TSCC_THREAD_DEAD && Head == K.Tail && extentDrained(S, Slot)) {
      // Records it dropped after the last one it wrote have no marker in
      // the ring: the reader makes it, after everything read so far.
      uint64_t Lost = R->dropped - R->marked;
      if (Lost)
        Cut.Lost.push_back(lostMarker(T, Lost, K.NextSeq));
      // Its thread is gone and everything it wrote was read: the slot
      // (and its ring) may serve a new thread. Anything a cut taken
      // before this one still holds for it is stale from now on.
      tscc_thread_free(S, static_cast<int32_t>(Slot));
      K.Tail = 0;
      K.Dropped = 0;
      K.NextSeq = 0;
      ++K.Incarnation;
      continue;
    }
    Cut.Rings.push_back({Slot, K.Incarnation, Head});
  }
  extents(S, Cut, /*Locked=*/true);
}

bool RingReader::extentDrained(tscc_store *S, uint32_t Slot) {
  for (uint32_t Ring = S->layout.thread_capacity;
       Ring < tscc_ring_count(&S->layout); ++Ring) {
    tscc_ring *R = tscc_ring_at(S, Ring);
    if (__atomic_load_n(&R->owner, __ATOMIC_ACQUIRE) == Slot + 1 &&
        __atomic_load_n(&R->head, __ATOMIC_ACQUIRE) != cursor(Ring).Tail)
      return false;
  }
  return true;
}

void RingReader::extents(tscc_store *S, DrainCut &Cut, bool Locked) {
  // Burst extents are read whoever claimed them: their records say whose
  // they are, and an extent is never reset, so its cursor goes on.
  for (uint32_t Ring = S->layout.thread_capacity;
       Ring < tscc_ring_count(&S->layout); ++Ring) {
    tscc_ring *R = tscc_ring_at(S, Ring);
    uint64_t Head = __atomic_load_n(&R->head, __ATOMIC_ACQUIRE);
    Cursor &K = cursor(Ring);
    if (Head != K.Tail) {
      Cut.Rings.push_back({Ring, K.Incarnation, Head});
      continue;
    }
    // Read all of it, and its thread went on in another one (it filled
    // this one): it goes back to the pool. Under the lock, which its
    // thread holds while it writes or claims.
    uint32_t Owner = __atomic_load_n(&R->owner, __ATOMIC_ACQUIRE);
    if (Locked && Owner && Owner <= S->layout.thread_capacity &&
        tscc_ring_extent_of(S, Owner - 1) != static_cast<int32_t>(Ring))
      __atomic_store_n(&R->owner, 0, __ATOMIC_RELEASE);
  }
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
  extents(S, Cut, /*Locked=*/false);
}

bool RingReader::drained(tscc_store *S) {
  uint32_t High = std::min(
      __atomic_load_n(&tscc_shard_hdr(S)->threads_high, __ATOMIC_ACQUIRE),
      S->layout.thread_capacity);
  for (uint32_t Slot = 0; Slot < High; ++Slot)
    if (__atomic_load_n(&tscc_ring_at(S, Slot)->head, __ATOMIC_ACQUIRE) !=
        cursor(Slot).Tail)
      return false;
  for (uint32_t Ring = S->layout.thread_capacity;
       Ring < tscc_ring_count(&S->layout); ++Ring)
    if (__atomic_load_n(&tscc_ring_at(S, Ring)->head, __ATOMIC_ACQUIRE) !=
        cursor(Ring).Tail)
      return false;
  return true;
}

void RingReader::collectRing(tscc_store *S, const DrainCut::Ring &C,
                             RecordBatch &Out, size_t MaxRecords) {
  Cursor &K = cursor(C.Index);
  if (K.Incarnation != C.Incarnation || C.Head <= K.Tail)
    return; // freed since the cut, or read up to there already
  tscc_ring *R = tscc_ring_at(S, C.Index);
  const uint8_t *Data = tscc_ring_data(S, C.Index);
  uint64_t Size = tscc_ring_bytes(&S->layout, C.Index);
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
    DrainedRecord &D =
        Out.add(Hdr, Data + Pos + sizeof(Hdr), Hdr.size - sizeof(Hdr));
    Stats.SeqGaps += Hdr.seq != K.NextSeq;
    K.NextSeq = Hdr.seq + 1;
    D.Ring = C.Index;
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

void RingReader::collect(tscc_store *S, const DrainCut &Cut, RecordBatch &Out,
                         std::vector<size_t> &Runs, size_t MaxRecords) {
  // Records of several rings are merged together: only one ring's are
  // read in part (its own are in order), or the order would be lost.
  size_t Busy = 0;
  for (const DrainCut::Ring &C : Cut.Rings) {
    const Cursor &K = cursor(C.Index);
    Busy += K.Incarnation == C.Incarnation && C.Head > K.Tail;
  }
  if (Busy > 1 || !Cut.Lost.empty())
    MaxRecords = SIZE_MAX;
  for (const DrainCut::Ring &C : Cut.Rings) {
    Runs.push_back(Out.size());
    collectRing(S, C, Out, MaxRecords);
  }
  // A freed thread's marker: a run of its own, timed after every record
  // of the cut.
  for (const LostMark &M : Cut.Lost) {
    Runs.push_back(Out.size());
    M.addTo(Out);
  }
}

void tscc::rt::mergeRunsByTime(std::vector<DrainedRecord> &Records,
                               std::span<const size_t> Starts) {
  struct Run {
    size_t Next, End;
  };
  // Kept from call to call (a batch's worth): no allocation, and no fresh
  // pages to fault in, per batch.
  thread_local std::vector<Run> Runs;
  thread_local std::vector<size_t> Heap;
  thread_local std::vector<DrainedRecord> Out;
  Runs.clear();
  for (size_t I = 0; I < Starts.size(); ++I) {
    size_t End = I + 1 < Starts.size() ? Starts[I + 1] : Records.size();
    if (Starts[I] < End)
      Runs.push_back({Starts[I], End});
  }
  if (Runs.size() < 2)
    return;                         // one run is in its order already
  size_t First = Runs.front().Next; // what comes before the runs stays
  // (time, run) of a run's next record, the heap's key: ties go to the
  // earlier run.
  auto Before = [&](uint64_t TA, size_t A, uint64_t TB, size_t B) {
    return TA != TB ? TA < TB : A < B;
  };
  auto Later = [&](size_t A, size_t B) {
    return Before(Records[Runs[B].Next].Hdr.time_ns, B,
                  Records[Runs[A].Next].Hdr.time_ns, A);
  };
  Heap.resize(Runs.size());
  for (size_t I = 0; I < Runs.size(); ++I)
    Heap[I] = I;
  std::make_heap(Heap.begin(), Heap.end(), Later);
  Out.clear();
  Out.reserve(Records.size());
  Out.insert(Out.end(), Records.begin(), Records.begin() + First);
  while (!Heap.empty()) {
    std::pop_heap(Heap.begin(), Heap.end(), Later);
    size_t R = Heap.back();
    Run &Cur = Runs[R];
    // Every record of this run that comes before the next of any other
    // run goes at once: what popping it again and again would give. Runs
    // that do not overlap in time (a ring and the burst buffer it went on
    // in) are copied whole.
    size_t Stop = Cur.Next + 1;
    if (Heap.size() == 1) {
      Stop = Cur.End;
    } else {
      size_t Top = Heap.front();
      uint64_t TopTime = Records[Runs[Top].Next].Hdr.time_ns;
      while (Stop < Cur.End &&
             Before(Records[Stop].Hdr.time_ns, R, TopTime, Top))
        ++Stop;
    }
    Out.insert(Out.end(), Records.begin() + Cur.Next, Records.begin() + Stop);
    Cur.Next = Stop;
    if (Cur.Next == Cur.End)
      Heap.pop_back();
    else
      std::push_heap(Heap.begin(), Heap.end(), Later);
  }
  Records.swap(Out);
}

void tscc::rt::drainRings(tscc_store *S, RingReader &R, RecordBatch &Out) {
  DrainCut Cut;
  R.cut(S, Cut);
  std::vector<size_t> Runs;
  R.collect(S, Cut, Out, Runs);
  mergeRunsByTime(Out.Records, Runs);
}
