//===- RingReader.cpp - Draining the record rings in global order ---------===//
#include "RingReader.h"

#include <algorithm>
#include <cstring>

using namespace tscc::rt;

namespace {

/// Copies ring R's complete entries into Out. False when the ring held
/// something that is not a well-formed entry (the ring is then emptied).
bool drainOne(tscc_store *S, uint32_t Ring, uint64_t Horizon,
              std::vector<DrainedRecord> &Out) {
  tscc_ring *R = tscc_ring_at(S, Ring);
  const uint8_t *Data = tscc_ring_data(S, Ring);
  uint64_t Size = S->layout.ring_size;
  uint64_t Head = __atomic_load_n(&R->head, __ATOMIC_ACQUIRE);
  uint64_t Tail = R->tail;
  if (Head == Tail)
    return true;
  bool Ok = Head - Tail <= Size;
  while (Ok && Tail < Head) {
    uint64_t Pos = Tail & (Size - 1);
    uint64_t Contig = Size - Pos;
    tscc_ring_record Hdr;
    memcpy(&Hdr, Data + Pos, sizeof(Hdr) <= Contig ? sizeof(Hdr) : 8);
    if (Hdr.size < 8 || Hdr.size % 8 || Hdr.size > Contig ||
        Hdr.size > Head - Tail) {
      Ok = false;
      break;
    }
    if (Hdr.type == TSCC_RING_PAD) {
      if (Hdr.size != Contig) {
        Ok = false;
        break;
      }
      Tail += Hdr.size;
      continue;
    }
    if (Hdr.size < sizeof(Hdr) || sizeof(Hdr) > Contig) {
      Ok = false;
      break;
    }
    memcpy(&Hdr, Data + Pos, sizeof(Hdr));
    if (Hdr.seq >= Horizon)
      break; // written after the horizon: the next drain's
    DrainedRecord D;
    D.Hdr = Hdr;
    D.Payload.assign(Data + Pos + sizeof(Hdr), Data + Pos + Hdr.size);
    Out.push_back(std::move(D));
    Tail += Hdr.size;
  }
  __atomic_store_n(&R->tail, Ok ? Tail : Head, __ATOMIC_RELEASE);
  return Ok;
}

} // namespace

void tscc::rt::drainRings(tscc_store *S, uint64_t Horizon,
                          std::vector<DrainedRecord> &Out, DrainStats &Stats,
                          std::vector<int32_t> &EmptyDead) {
  size_t First = Out.size();
  tscc_store_header *H = tscc_store_hdr(S);
  uint32_t High = std::min(__atomic_load_n(&H->threads_high, __ATOMIC_ACQUIRE),
                           S->layout.thread_capacity);
  for (uint32_t Slot = 0; Slot < High; ++Slot) {
    tscc_thread *T = tscc_thread_at(S, static_cast<int32_t>(Slot));
    uint32_t State = __atomic_load_n(&T->state, __ATOMIC_ACQUIRE);
    if (State == TSCC_THREAD_FREE)
      continue;
    if (!drainOne(S, Slot, Horizon, Out))
      ++Stats.Corrupt;
    tscc_ring *R = tscc_ring_at(S, Slot);
    if (State == TSCC_THREAD_DEAD &&
        __atomic_load_n(&R->head, __ATOMIC_ACQUIRE) == R->tail)
      EmptyDead.push_back(static_cast<int32_t>(Slot));
  }
  if (!drainOne(S, S->layout.thread_capacity, Horizon, Out))
    ++Stats.Corrupt;
  std::stable_sort(Out.begin() + First, Out.end(),
                   [](const DrainedRecord &A, const DrainedRecord &B) {
                     return A.Hdr.seq < B.Hdr.seq;
                   });
}
