//===- StoreTest.cpp - The shared store: tables, threads, rings, lock -----===//

#include "tscc/Runtime/SharedStore.h"

#include "../../../runtime/lib/Store/RingReader.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

using namespace tscc::rt;

namespace {

int32_t gettid() { return static_cast<int32_t>(syscall(SYS_gettid)); }

class StoreTest : public ::testing::Test {
protected:
  std::unique_ptr<SharedStore> make(StoreShape Shape) {
    std::string Error;
    auto S = SharedStore::create(Shape, Error);
    EXPECT_TRUE(S) << Error;
    return S;
  }
  static tscc_map map(uint32_t Key, uint32_t Value, uint32_t Flags = 0) {
    tscc_map M{};
    M.key_size = Key;
    M.value_size = Value;
    M.flags = Flags;
    return M;
  }
  static StoreShape small() {
    StoreShape S;
    S.ClauseCount = 2;
    S.GlobalSize = 24;
    S.LocalsSize = 40;
    S.WithinCount = 2;
    S.MapCapacity = 8;
    S.ThreadCapacity = 4;
    S.RingSize = 4096;
    return S;
  }
};

TEST_F(StoreTest, LayoutIsAlignedAndInsideTheMapping) {
  StoreShape Shape = small();
  Shape.Maps = {map(8, 8), map(16, 24, TSCC_MAP_THREAD)};
  tscc_agg A{};
  A.kind = TSCC_AGG_HIST;
  A.key_size = 8;
  Shape.Aggs = {A};
  auto S = make(Shape);
  const tscc_store_layout &L = S->layout();
  EXPECT_EQ(L.globals_off % 64, 0u);
  EXPECT_EQ(L.rings_off % 4096, 0u);
  EXPECT_LE(L.rings_off + L.ring_stride * L.thread_capacity, L.shard_size);
  EXPECT_EQ(L.ring_size, 4096u);
  ASSERT_EQ(S->tables().size(), 3u);
  for (const tscc_table_layout &T : S->tables()) {
    EXPECT_EQ(T.entries_off % 16, 0u);
    EXPECT_EQ(T.value_off % 16, 0u);
    EXPECT_GE(T.index_slots, 2 * T.capacity);
    // __thread maps are in each process's shard, the rest in the store.
    EXPECT_LE(T.entries_off + uint64_t(T.capacity) * T.entry_size,
              (T.flags & TSCC_TABLE_THREAD) ? L.shard_size : L.size);
  }
  EXPECT_EQ(S->tables()[2].buckets, 65u);
  EXPECT_TRUE(S->tables()[1].flags & TSCC_TABLE_THREAD);
  EXPECT_EQ(S->header().magic, TSCC_STORE_MAGIC);
}

TEST_F(StoreTest, MapInsertLookupDeleteAndFull) {
  StoreShape Shape = small();
  Shape.Maps = {map(8, 8)};
  auto S = make(Shape);
  tscc_store *V = S->view();
  for (int64_t K = 0; K < 8; ++K) {
    auto *Val =
        static_cast<int64_t *>(tscc_map_lookup(V, 0, -1, &K, 8, 1, nullptr));
    ASSERT_TRUE(Val);
    EXPECT_EQ(*Val, 0);
    *Val = K * 10;
  }
  int Full = 0;
  int64_t Ninth = 8;
  EXPECT_FALSE(tscc_map_lookup(V, 0, -1, &Ninth, 8, 1, &Full));
  EXPECT_TRUE(Full);
  for (int64_t K = 0; K < 8; ++K)
    EXPECT_EQ(
        *static_cast<int64_t *>(tscc_map_lookup(V, 0, -1, &K, 8, 0, nullptr)),
        K * 10);
  // Deleting makes room, and entries and tombstones are reused: many
  // rounds of insert/delete never fill the table.
  for (int Round = 0; Round < 100; ++Round) {
    int64_t K = Round % 8;
    tscc_map_delete(V, 0, -1, &K, 8);
    EXPECT_FALSE(tscc_map_lookup(V, 0, -1, &K, 8, 0, nullptr));
    int64_t New = 1000 + Round;
    ASSERT_TRUE(tscc_map_lookup(V, 0, -1, &New, 8, 1, nullptr)) << Round;
    tscc_map_delete(V, 0, -1, &New, 8);
    ASSERT_TRUE(tscc_map_lookup(V, 0, -1, &K, 8, 1, nullptr));
  }
  int64_t Wrong = 0;
  EXPECT_FALSE(tscc_map_lookup(V, 0, -1, &Wrong, 4, 1, nullptr));
  EXPECT_FALSE(tscc_map_lookup(V, 1, -1, &Wrong, 8, 1, nullptr));
}

TEST_F(StoreTest, CorruptIndexIsNotFollowed) {
  StoreShape Shape = small();
  Shape.Maps = {map(8, 8)};
  auto S = make(Shape);
  tscc_store *V = S->view();
  const tscc_table_layout &T = S->tables()[0];
  auto *Index = reinterpret_cast<uint32_t *>(V->base + T.index_off);
  for (uint32_t I = 0; I < T.index_slots; ++I)
    Index[I] = 0x7fffffff; // entry indices far outside the table
  int64_t K = 5;
  EXPECT_FALSE(tscc_map_lookup(V, 0, -1, &K, 8, 0, nullptr));
  EXPECT_TRUE(tscc_map_lookup(V, 0, -1, &K, 8, 1, nullptr));
}

TEST_F(StoreTest, ThreadSlotsAndPerThreadMaps) {
  StoreShape Shape = small();
  Shape.Maps = {map(8, 8, TSCC_MAP_THREAD)};
  auto S = make(Shape);
  tscc_store *V = S->view();
  int32_t A = tscc_thread_add(V, 1, 100);
  int32_t B = tscc_thread_add(V, 1, 101);
  int32_t C = tscc_thread_add(V, 2, 100); // another process, same tid
  ASSERT_GE(A, 0);
  EXPECT_NE(A, B);
  EXPECT_NE(A, C);
  EXPECT_EQ(tscc_thread_add(V, 1, 100), A);
  EXPECT_EQ(tscc_thread_lookup(V, 2, 100), C);
  uint32_t GenA = tscc_thread_at(V, A)->gen;
  tscc_thread_locals(V, A)[0] = 0x5a;
  tscc_thread_within(V, A)[1] = 3;

  int64_t K = 7;
  *static_cast<int64_t *>(tscc_map_lookup(V, 0, A, &K, 8, 1, nullptr)) = 1;
  *static_cast<int64_t *>(tscc_map_lookup(V, 0, B, &K, 8, 1, nullptr)) = 2;
  EXPECT_EQ(
      *static_cast<int64_t *>(tscc_map_lookup(V, 0, A, &K, 8, 0, nullptr)), 1);
  EXPECT_EQ(
      *static_cast<int64_t *>(tscc_map_lookup(V, 0, B, &K, 8, 0, nullptr)), 2);

  tscc_thread_retire(V, A);
  EXPECT_EQ(tscc_thread_lookup(V, 1, 100), -1);
  EXPECT_EQ(tscc_thread_at(V, A)->state, uint32_t(TSCC_THREAD_DEAD));
  EXPECT_FALSE(tscc_map_lookup(V, 0, A, &K, 8, 0, nullptr));
  EXPECT_TRUE(tscc_map_lookup(V, 0, B, &K, 8, 0, nullptr));
  // A dead slot is not reused before it is freed; a new thread with the
  // same id gets a fresh slot with fresh state.
  int32_t A2 = tscc_thread_add(V, 1, 100);
  ASSERT_GE(A2, 0);
  EXPECT_NE(A2, A);
  EXPECT_EQ(tscc_thread_locals(V, A2)[0], 0);
  EXPECT_EQ(tscc_thread_within(V, A2)[1], 0u);
  tscc_thread_free(V, A);
  EXPECT_EQ(tscc_thread_at(V, A)->state, uint32_t(TSCC_THREAD_FREE));
  // Capacity 4: A2, B, C and one more.
  EXPECT_GE(tscc_thread_add(V, 3, 1), 0);
  EXPECT_EQ(tscc_thread_add(V, 3, 2), -1);
  EXPECT_NE(tscc_thread_at(V, A2)->gen, GenA);
}

TEST_F(StoreTest, FreedThreadSlotsAreReusedLowestFirst) {
  // Short-lived threads keep reusing the same few slots (and rings), so a
  // long session does not touch a new ring page for every thread that came
  // and went; slots used to be handed out round-robin over the capacity.
  auto S = make(small());
  tscc_store *V = S->view();
  int32_t A = tscc_thread_add(V, 1, 100);
  int32_t B = tscc_thread_add(V, 2, 200);
  EXPECT_EQ(A, 0);
  EXPECT_EQ(B, 1);
  for (int32_t Tid = 101; Tid < 110; ++Tid) {
    tscc_thread_retire(V, A);
    tscc_thread_free(V, A);
    A = tscc_thread_add(V, 1, Tid);
    EXPECT_EQ(A, 0) << Tid;
  }
  EXPECT_EQ(tscc_shard_hdr(V)->threads_high, 2u);
}

TEST_F(StoreTest, AggregationsFoldAndClear) {
  StoreShape Shape = small();
  tscc_agg L{};
  L.kind = TSCC_AGG_LHIST;
  L.lhist_lo = 0;
  L.lhist_hi = 100;
  L.lhist_step = 10;
  Shape.Aggs = {L};
  auto S = make(Shape);
  tscc_store *V = S->view();
  for (int64_t X : {-5, 0, 15, 15, 150})
    EXPECT_EQ(tscc_agg_update(V, 0, nullptr, 0, X), 0);
  const tscc_table_layout &T = S->tables()[0];
  EXPECT_EQ(T.buckets, 12u);
  uint8_t *E = V->base + T.entries_off;
  tscc_agg_value Val;
  memcpy(&Val, E + T.value_off, sizeof(Val));
  EXPECT_EQ(Val.count, 5);
  EXPECT_EQ(Val.sum, 175);
  EXPECT_EQ(Val.min, -5);
  EXPECT_EQ(Val.max, 150);
  const uint64_t *B = reinterpret_cast<const uint64_t *>(
      E + T.value_off + sizeof(tscc_agg_value));
  EXPECT_EQ(B[0], 1u);  // below 0
  EXPECT_EQ(B[1], 1u);  // [0, 10)
  EXPECT_EQ(B[2], 2u);  // [10, 20)
  EXPECT_EQ(B[11], 1u); // at or above 100
  tscc_agg_clear(V, 0);
  EXPECT_EQ(tscc_agg_update(V, 0, nullptr, 0, 1), 0);
  memcpy(&Val, E + T.value_off, sizeof(Val));
  EXPECT_EQ(Val.count, 1);
}

TEST_F(StoreTest, RingsKeepGlobalOrderAcrossWraps) {
  auto S = make(small());
  tscc_store *V = S->view();
  int32_t A = tscc_thread_add(V, 1, 10), B = tscc_thread_add(V, 1, 11),
          C = tscc_thread_add(V, 2, 10);
  RecordBatch Out;
  RingReader Reader;
  uint32_t Next = 0;
  // Records of 40 + 56 bytes: the 4 KiB rings wrap many times, and the
  // reader merges the three rings' records in the order they were written
  // (timed, as clauses time them, under the store lock).
  for (int Round = 0; Round < 200; ++Round) {
    for (int I = 0; I < 10; ++I) {
      int32_t Ring = (Next % 3 == 0) ? A : (Next % 3 == 1) ? B : C;
      tscc_ring_record H{};
      H.type = TSCC_RING_RECORD;
      H.clause = Next;
      H.time_ns = 1000 + Next;
      uint8_t Payload[52];
      memset(Payload, Next & 0xff, sizeof(Payload));
      ASSERT_EQ(tscc_ring_write(V, Ring, &H, Payload, sizeof(Payload)), 0);
      ++Next;
    }
    drainRings(V, Reader, Out);
  }
  ASSERT_EQ(Out.size(), Next);
  for (uint32_t I = 0; I < Next; ++I) {
    EXPECT_EQ(Out[I].Hdr.clause, I);
    EXPECT_EQ(Out[I].Hdr.size, 96u);
    EXPECT_EQ(Out[I].Payload.size(), 56u);
    EXPECT_EQ(Out[I].Payload[0], I & 0xff);
    EXPECT_EQ(Out[I].Payload[55], 0); // padding is zeroed
  }
  EXPECT_EQ(Reader.Stats.Corrupt, 0u);
}

TEST_F(StoreTest, FullRingDropsAndCounts) {
  auto S = make(small());
  tscc_store *V = S->view();
  int32_t A = tscc_thread_add(V, 1, 10);
  uint8_t Payload[400] = {};
  unsigned Written = 0;
  for (int I = 0; I < 20; ++I) {
    tscc_ring_record H{};
    H.type = TSCC_RING_RECORD;
    Written += tscc_ring_write(V, A, &H, Payload, sizeof(Payload)) == 0;
  }
  EXPECT_EQ(Written, 4096u / 440);
  EXPECT_EQ(tscc_ring_at(V, A)->dropped, 20u - Written);
  // Too large for any ring: never written, however empty.
  std::vector<uint8_t> Huge(4096);
  tscc_ring_record H{};
  EXPECT_EQ(tscc_ring_write(V, 0, &H, Huge.data(), 4096), -1);
  // There is no ring beyond the threads' (tsrun keeps its own records).
  EXPECT_EQ(tscc_ring_at(V, S->layout().thread_capacity), nullptr);
}

TEST_F(StoreTest, AFullRingGoesOnInABurstExtentInOrder) {
  StoreShape Shape = small();
  Shape.ExtentCount = 1;
  Shape.ExtentSize = 1u << 16;
  auto S = make(Shape);
  tscc_store *V = S->view();
  const tscc_store_layout &L = S->layout();
  ASSERT_EQ(L.extent_count, 1u);
  EXPECT_EQ(L.shard_size, L.extents_off + L.extent_stride);
  int32_t A = tscc_thread_add(V, 1, 10), B = tscc_thread_add(V, 1, 11);
  // 4 KiB of own ring, then 64 KiB of extent: 300 records of 48 bytes
  // fit only with the extent, all in order.
  for (uint64_t I = 0; I < 300; ++I) {
    tscc_ring_record H{};
    H.type = TSCC_RING_RECORD;
    H.time_ns = I;
    ASSERT_EQ(tscc_ring_write(V, A, &H, &I, 8), 0) << I;
  }
  uint32_t Extent = L.thread_capacity;
  EXPECT_EQ(tscc_ring_extent_of(V, A), int32_t(Extent));
  EXPECT_EQ(tscc_ring_at(V, Extent)->owner, uint32_t(A) + 1);
  // The other thread finds no extent free: its full ring drops.
  unsigned Written = 0;
  for (uint64_t I = 0; I < 100; ++I) {
    tscc_ring_record H{};
    H.type = TSCC_RING_RECORD;
    Written += tscc_ring_write(V, B, &H, &I, 8) == 0;
  }
  EXPECT_LT(Written, 100u);
  EXPECT_EQ(tscc_ring_at(V, B)->dropped, 100u - Written);
  RecordBatch Out;
  RingReader Reader;
  drainRings(V, Reader, Out);
  std::vector<uint64_t> Seen;
  for (const DrainedRecord &D : Out.Records)
    if (D.Ring == uint32_t(A) || D.Ring == Extent)
      Seen.push_back(*reinterpret_cast<const uint64_t *>(D.Payload.data()));
  ASSERT_EQ(Seen.size(), 300u);
  for (uint64_t I = 0; I < 300; ++I)
    EXPECT_EQ(Seen[I], I);
  EXPECT_EQ(Reader.Stats.Corrupt, 0u);
  EXPECT_EQ(Reader.Stats.SeqGaps, 0u);
  // Read all of it: the next record gives the extent back and goes into
  // the thread's own ring.
  tscc_ring_record H{};
  uint64_t Last = 300;
  ASSERT_EQ(tscc_ring_write(V, A, &H, &Last, 8), 0);
  EXPECT_EQ(tscc_ring_extent_of(V, A), -1);
  EXPECT_EQ(tscc_ring_at(V, Extent)->owner, 0u);
}

TEST_F(StoreTest, AFullExtentGoesOnInTheNextAndIsGivenBackOnceRead) {
  StoreShape Shape = small();
  Shape.ExtentCount = 2;
  Shape.ExtentSize = 1u << 16;
  auto S = make(Shape);
  tscc_store *V = S->view();
  int32_t A = tscc_thread_add(V, 1, 10);
  uint32_t First = S->layout().thread_capacity, Second = First + 1;
  // 4 KiB of own ring and two extents of 64 KiB: 2000 records of 48
  // bytes need both.
  for (uint64_t I = 0; I < 2000; ++I) {
    tscc_ring_record H{};
    H.type = TSCC_RING_RECORD;
    H.time_ns = I;
    ASSERT_EQ(tscc_ring_write(V, A, &H, &I, 8), 0) << I;
  }
  EXPECT_EQ(tscc_ring_extent_of(V, A), int32_t(Second));
  EXPECT_EQ(tscc_ring_at(V, First)->owner, uint32_t(A) + 1);
  RecordBatch Out;
  RingReader Reader;
  drainRings(V, Reader, Out);
  ASSERT_EQ(Out.size(), 2000u);
  for (uint64_t I = 0; I < 2000; ++I)
    EXPECT_EQ(
        *reinterpret_cast<const uint64_t *>(Out.Records[I].Payload.data()), I);
  // The full one, read, goes back at the next cut; the current one stays.
  DrainCut Cut;
  Reader.cut(V, Cut);
  EXPECT_EQ(tscc_ring_at(V, First)->owner, 0u);
  EXPECT_EQ(tscc_ring_at(V, Second)->owner, uint32_t(A) + 1);
}

TEST_F(StoreTest, AnExtentOfADeadThreadIsFreedOnlyOnceRead) {
  StoreShape Shape = small();
  Shape.ExtentCount = 1;
  Shape.ExtentSize = 1u << 16;
  auto S = make(Shape);
  tscc_store *V = S->view();
  int32_t A = tscc_thread_add(V, 1, 10);
  for (uint64_t I = 0; I < 200; ++I) {
    tscc_ring_record H{};
    H.type = TSCC_RING_RECORD;
    ASSERT_EQ(tscc_ring_write(V, A, &H, &I, 8), 0);
  }
  uint32_t Extent = S->layout().thread_capacity;
  ASSERT_EQ(tscc_ring_extent_of(V, A), int32_t(Extent));
  tscc_thread_retire(V, A);
  RingReader Reader;
  // A cut taken while the extent holds records keeps the slot (and the
  // extent) for them.
  RecordBatch Out;
  drainRings(V, Reader, Out);
  EXPECT_EQ(Out.size(), 200u);
  EXPECT_EQ(tscc_thread_at(V, A)->state, uint32_t(TSCC_THREAD_DEAD));
  EXPECT_EQ(tscc_ring_at(V, Extent)->owner, uint32_t(A) + 1);
  // A record left in the extent alone (the own ring read up to its head)
  // still keeps them.
  tscc_ring_at(V, Extent)->head += 8;
  DrainCut Early;
  Reader.cut(V, Early);
  EXPECT_EQ(tscc_thread_at(V, A)->state, uint32_t(TSCC_THREAD_DEAD));
  std::vector<size_t> Runs;
  Reader.collect(V, Early, Out, Runs);
  // Everything read: the next cut frees the slot and gives the extent
  // back.
  DrainCut Cut;
  Reader.cut(V, Cut);
  EXPECT_EQ(tscc_thread_at(V, A)->state, uint32_t(TSCC_THREAD_FREE));
  EXPECT_EQ(tscc_ring_at(V, Extent)->owner, 0u);
  // A word that names no extent, or one the thread does not own, is
  // ignored.
  int32_t C = tscc_thread_add(V, 1, 12);
  tscc_ring_at(V, C)->extent = 7;
  EXPECT_EQ(tscc_ring_extent_of(V, C), -1);
  tscc_ring_at(V, C)->extent = 1;
  EXPECT_EQ(tscc_ring_extent_of(V, C), -1);
  tscc_ring_record H{};
  uint64_t One = 1;
  EXPECT_EQ(tscc_ring_write(V, C, &H, &One, 8), 0);
}

TEST_F(StoreTest, GarbageInARingIsDiscarded) {
  auto S = make(small());
  tscc_store *V = S->view();
  int32_t A = tscc_thread_add(V, 1, 10);
  tscc_ring_record H{};
  H.type = TSCC_RING_RECORD;
  uint8_t Payload[8] = {};
  ASSERT_EQ(tscc_ring_write(V, A, &H, Payload, 8), 0);
  // A program scribbles over the ring: a size that runs past the head.
  reinterpret_cast<tscc_ring_record *>(tscc_ring_data(V, A))->size = 4000;
  RecordBatch Out;
  RingReader Reader;
  drainRings(V, Reader, Out);
  EXPECT_TRUE(Out.empty());
  EXPECT_EQ(Reader.Stats.Corrupt, 1u);
  tscc_ring *R = tscc_ring_at(V, A);
  EXPECT_EQ(R->head, R->tail);
  // And a head beyond anything sensible.
  R->head = R->tail + (1u << 20);
  drainRings(V, Reader, Out);
  EXPECT_EQ(Reader.Stats.Corrupt, 2u);
  // The ring goes on working after it.
  ASSERT_EQ(tscc_ring_write(V, A, &H, Payload, 8), 0);
  drainRings(V, Reader, Out);
  EXPECT_EQ(Out.size(), 1u);
  EXPECT_EQ(Reader.Stats.Corrupt, 2u);
}

TEST_F(StoreTest, TheSharedTailIsOnlyAHint) {
  // The reader's position is its own: a program that moves the tail in
  // the shared ring (back, to be read twice, or on, to be skipped) changes
  // nothing of what the reader delivers.
  auto S = make(small());
  tscc_store *V = S->view();
  int32_t A = tscc_thread_add(V, 1, 10);
  RingReader Reader;
  RecordBatch Out;
  tscc_ring_record H{};
  H.type = TSCC_RING_RECORD;
  uint8_t Payload[8] = {};
  ASSERT_EQ(tscc_ring_write(V, A, &H, Payload, 8), 0);
  drainRings(V, Reader, Out);
  ASSERT_EQ(Out.size(), 1u);
  tscc_ring_at(V, A)->tail = 0;
  drainRings(V, Reader, Out);
  EXPECT_EQ(Out.size(), 1u);
  ASSERT_EQ(tscc_ring_write(V, A, &H, Payload, 8), 0);
  tscc_ring_at(V, A)->tail = tscc_ring_at(V, A)->head;
  drainRings(V, Reader, Out);
  EXPECT_EQ(Out.size(), 2u);
  EXPECT_EQ(Reader.Stats.Corrupt, 0u);
}

TEST_F(StoreTest, ARecordIsReadOnceFromTheSharedMemory) {
  // A size that changes between two reads of the header used to make the
  // reader copy a payload of the second size (a heap overflow). Here a
  // thread keeps flipping the size of the first record while the reader
  // drains: whatever it sees, it never reads past what it copied.
  auto S = make(small());
  tscc_store *V = S->view();
  int32_t A = tscc_thread_add(V, 1, 10);
  tscc_ring_record H{};
  H.type = TSCC_RING_RECORD;
  uint8_t Payload[16] = {};
  std::atomic<bool> Stop{false};
  auto *First = reinterpret_cast<uint32_t *>(tscc_ring_data(V, A));
  std::thread Flipper([&] {
    for (uint32_t I = 0; !Stop; ++I)
      __atomic_store_n(First, I % 2 ? 56u : 4088u, __ATOMIC_RELAXED);
  });
  RecordBatch Out;
  for (int Round = 0; Round < 2000; ++Round) {
    tscc_ring_at(V, A)->head = tscc_ring_at(V, A)->tail = 0;
    ASSERT_EQ(tscc_ring_write(V, A, &H, Payload, sizeof(Payload)), 0);
    Out.clear();
    RingReader Reader; // reads from 0 again
    drainRings(V, Reader, Out);
    for (const DrainedRecord &D : Out)
      EXPECT_EQ(D.Payload.size() + sizeof(tscc_ring_record), D.Hdr.size);
  }
  Stop = true;
  Flipper.join();
}

TEST_F(StoreTest, ARingNumbersItsOwnEntriesAndForgedNumbersHoldNothingBack) {
  auto S = make(small());
  tscc_store *V = S->view();
  int32_t A = tscc_thread_add(V, 1, 10);
  int32_t B = tscc_thread_add(V, 1, 11);
  RingReader Reader;
  RecordBatch Out;
  tscc_ring_record H{};
  H.type = TSCC_RING_RECORD;
  uint8_t Payload[8] = {};
  for (int I = 0; I < 5; ++I) {
    ASSERT_EQ(tscc_ring_write(V, A, &H, Payload, 8), 0);
    ASSERT_EQ(tscc_ring_write(V, B, &H, Payload, 8), 0);
  }
  // Each thread's records are numbered 0, 1, 2... in its own ring: no
  // counter shared between threads.
  drainRings(V, Reader, Out);
  ASSERT_EQ(Out.size(), 10u);
  uint64_t Next[2] = {0, 0};
  for (const DrainedRecord &D : Out)
    EXPECT_EQ(D.Hdr.seq, Next[D.Ring == uint32_t(B)]++);
  EXPECT_EQ(Reader.Stats.SeqGaps, 0u);
  // A number a program forged is counted, and holds nothing back.
  ASSERT_EQ(tscc_ring_write(V, A, &H, Payload, 8), 0);
  reinterpret_cast<tscc_ring_record *>(tscc_ring_data(V, A) + 5 * 48)->seq =
      ~0ull;
  ASSERT_EQ(tscc_ring_write(V, A, &H, Payload, 8), 0);
  drainRings(V, Reader, Out);
  EXPECT_EQ(Out.size(), 12u);
  EXPECT_EQ(Reader.Stats.SeqGaps, 2u); // the forged one, and the next
}

TEST_F(StoreTest, DrainedRingsOfExitedThreadsAreFreed) {
  auto S = make(small());
  tscc_store *V = S->view();
  int32_t A = tscc_thread_add(V, 1, 10);
  RingReader Reader;
  RecordBatch Out;
  tscc_ring_record H{};
  H.type = TSCC_RING_RECORD;
  uint8_t Payload[8] = {};
  ASSERT_EQ(tscc_ring_write(V, A, &H, Payload, 8), 0);
  tscc_thread_retire(V, A);
  // Its last record is read first; the slot is freed at the next cut.
  DrainCut Old;
  Reader.cut(V, Old);
  EXPECT_EQ(tscc_thread_at(V, A)->state, uint32_t(TSCC_THREAD_DEAD));
  std::vector<size_t> Runs;
  Reader.collect(V, Old, Out, Runs);
  ASSERT_EQ(Out.size(), 1u);
  drainRings(V, Reader, Out);
  EXPECT_EQ(tscc_thread_at(V, A)->state, uint32_t(TSCC_THREAD_FREE));
  // A new thread in the slot: a cut from before the free reads nothing of
  // it, and the next one all of it.
  int32_t B = tscc_thread_add(V, 1, 11);
  ASSERT_EQ(B, A);
  ASSERT_EQ(tscc_ring_write(V, B, &H, Payload, 8), 0);
  Reader.collect(V, Old, Out, Runs);
  EXPECT_EQ(Out.size(), 1u);
  drainRings(V, Reader, Out);
  EXPECT_EQ(Out.size(), 2u);
}

TEST_F(StoreTest, TheControlPageCannotBeWrittenButByItsCreator) {
  // What a target can do with the control page's memfd, which it receives
  // to map: nothing that writes it, whatever the way. tsrun's own mapping
  // stays writable, and the others see what it writes.
  std::string Error;
  auto C = ControlPage::create(Error);
  ASSERT_TRUE(C) << Error;
  int Fd = C->fd();
  EXPECT_EQ(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, 0),
            MAP_FAILED);
  void *Ro = mmap(nullptr, 4096, PROT_READ, MAP_SHARED, Fd, 0);
  ASSERT_NE(Ro, MAP_FAILED);
  EXPECT_NE(mprotect(Ro, 4096, PROT_READ | PROT_WRITE), 0);
  uint32_t One = 1;
  EXPECT_NE(pwrite(Fd, &One, 4, 0), 4);
  EXPECT_NE(ftruncate(Fd, 0), 0);
  // Through /proc: the mapping (as a debugger would write it), and the
  // memfd opened again for writing.
  int Mem = open("/proc/self/mem", O_RDWR);
  ASSERT_GE(Mem, 0);
  EXPECT_NE(pwrite(Mem, &One, 4, reinterpret_cast<off_t>(Ro)), 4);
  close(Mem);
  int Again = open(("/proc/self/fd/" + std::to_string(Fd)).c_str(), O_RDWR);
  if (Again >= 0) {
    EXPECT_NE(write(Again, &One, 4), 4);
    EXPECT_EQ(mmap(nullptr, 4096, PROT_WRITE, MAP_SHARED, Again, 0),
              MAP_FAILED);
    close(Again);
  }
  C->words().collect_off = 1;
  EXPECT_EQ(static_cast<tscc_control *>(Ro)->collect_off, 1u);
  EXPECT_EQ(static_cast<tscc_control *>(Ro)->magic, TSCC_CONTROL_MAGIC);
  munmap(Ro, 4096);
}

TEST_F(StoreTest, TheStoreCannotBeTruncatedUnderTsrun) {
  // A target that truncated the memfd would make tsrun's reads of its own
  // mapping raise SIGBUS.
  auto S = make(small());
  EXPECT_NE(ftruncate(S->fd(), 0), 0);
  EXPECT_NE(ftruncate(S->fd(), S->size() + 4096), 0);
  EXPECT_NE(fallocate(S->fd(), 0, 0, S->size() * 2), 0);
}

TEST_F(StoreTest, LockIsReentrantAwareAndStealsFromTheDead) {
  auto S = make(small());
  tscc_store *V = S->view();
  int32_t Me = gettid();
  ASSERT_EQ(tscc_store_lock(V, Me, 1000000), TSCC_LOCK_OK);
  EXPECT_EQ(tscc_store_lock(V, Me, 1000000), TSCC_LOCK_REENTERED);
  tscc_store_unlock(V, Me);
  EXPECT_EQ(S->header().lock, 0u);

  // A thread that took the lock and died holding it.
  std::atomic<int32_t> Dead{0};
  std::thread([&] {
    int32_t T = gettid();
    ASSERT_EQ(tscc_store_lock(V, T, 1000000), TSCC_LOCK_OK);
    Dead = T;
  }).join();
  ASSERT_EQ(S->header().lock, uint32_t(Dead.load()));
  EXPECT_EQ(tscc_store_lock(V, Me, 2'000'000'000), TSCC_LOCK_OK);
  EXPECT_EQ(S->header().lock_steals, 1u);
  tscc_store_unlock(V, Me);
}

TEST_F(StoreTest, LiveOwnerThatHoldsOnTimesOutOnceThenFailsFast) {
  auto S = make(small());
  tscc_store *V = S->view();
  int32_t Me = gettid();
  // A live owner that does not let go (a stopped thread, in real life).
  std::atomic<bool> Release{false}, Held{false};
  std::thread Owner([&] {
    int32_t T = gettid();
    ASSERT_EQ(tscc_store_lock(V, T, 1000000), TSCC_LOCK_OK);
    Held = true;
    while (!Release)
      usleep(1000);
    tscc_store_unlock(V, T);
  });
  while (!Held)
    usleep(100);
  EXPECT_EQ(tscc_store_lock(V, Me, 20'000'000), TSCC_LOCK_TIMEOUT);
  EXPECT_EQ(S->header().lock_timeouts, 1u);
  // The owner is now known to be stuck: the next caller does not wait.
  EXPECT_EQ(tscc_store_lock(V, Me, 10'000'000'000), TSCC_LOCK_TIMEOUT);
  Release = true;
  Owner.join();
  EXPECT_EQ(S->header().stuck_owner, 0u);
  EXPECT_EQ(tscc_store_lock(V, Me, 1000000), TSCC_LOCK_OK);
  tscc_store_unlock(V, Me);
}

TEST_F(StoreTest, AnOwnerMarkedStuckThatDiesIsReplacedAllTheSame) {
  // Stopped (a waiter gave up on it), then killed: the first caller that
  // looks after the death takes the lock. It used to be given up on for
  // good, and every later hit of every process was dropped.
  auto S = make(small());
  tscc_store *V = S->view();
  int32_t Me = gettid();
  std::atomic<bool> Held{false}, Die{false};
  std::thread Owner([&] {
    ASSERT_EQ(tscc_store_lock(V, gettid(), 1000000), TSCC_LOCK_OK);
    Held = true;
    while (!Die)
      usleep(1000);
  });
  while (!Held)
    usleep(100);
  EXPECT_EQ(tscc_store_lock(V, Me, 20'000'000), TSCC_LOCK_TIMEOUT);
  EXPECT_NE(S->header().stuck_owner, 0u);
  Die = true;
  Owner.join(); // gone, still holding it
  int Rc = TSCC_LOCK_TIMEOUT;
  for (int Try = 0; Try < 1000 && Rc != TSCC_LOCK_OK; ++Try) {
    Rc = tscc_store_lock(V, Me, 20'000'000);
    usleep(100);
  }
  EXPECT_EQ(Rc, TSCC_LOCK_OK);
  EXPECT_EQ(S->header().stuck_owner, 0u);
  EXPECT_EQ(S->header().lock_steals, 1u);
  tscc_store_unlock(V, Me);
}

TEST_F(StoreTest, AThreadSeenToDieGivesUpWhatItHeld) {
  // tsrun frees the lock of a thread it saw exit at once, whatever the
  // thread's id is by then, and also its claim to be next and its mark.
  auto S = make(small());
  tscc_store *V = S->view();
  tscc_store_header &H = S->header();
  H.lock = 4242;
  H.starving = 4242;
  H.stuck_owner = 4242;
  EXPECT_EQ(tscc_store_forget_thread(V, 4241), 0);
  EXPECT_EQ(H.lock, 4242u);
  EXPECT_EQ(tscc_store_forget_thread(V, 4242), 1);
  EXPECT_EQ(H.lock, 0u);
  EXPECT_EQ(H.starving, 0u);
  EXPECT_EQ(H.stuck_owner, 0u);
  // Ids a program may have written: 0 and negative ones are no thread
  // (kill() would read them as process groups).
  EXPECT_FALSE(tscc_host_thread_alive(0));
  EXPECT_FALSE(tscc_host_thread_alive(-1));
  H.lock = static_cast<uint32_t>(-1);
  EXPECT_EQ(tscc_store_lock(V, gettid(), 50'000'000), TSCC_LOCK_OK);
}

} // namespace

namespace {

TEST_F(StoreTest, AWaiterIsNotStarvedByAThreadThatRelocksAtOnce) {
  auto S = make(small());
  tscc_store *V = S->view();
  std::atomic<bool> Stop{false}, Going{false};
  // A thread that holds the lock nearly all the time and takes it again
  // the moment it lets go, like a target thread whose clause is slow.
  std::thread Hog([&] {
    int32_t T = gettid();
    while (!Stop) {
      ASSERT_EQ(tscc_store_lock(V, T, 1'000'000'000), TSCC_LOCK_OK);
      Going = true;
      for (int I = 0; I < 20000; ++I)
        __asm__ volatile("");
      tscc_store_unlock(V, T);
    }
  });
  while (!Going)
    usleep(100);
  int32_t Me = gettid();
  for (int Round = 0; Round < 20; ++Round) {
    ASSERT_EQ(tscc_store_lock(V, Me, 100'000'000), TSCC_LOCK_OK) << Round;
    tscc_store_unlock(V, Me);
  }
  Stop = true;
  Hog.join();
  EXPECT_EQ(S->header().lock_timeouts, 0u);
  EXPECT_EQ(S->header().starving, 0u);
}

} // namespace
