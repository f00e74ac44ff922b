//===- AggregationShardsTest.cpp - Threads' own parts of aggregations -----===//
//
// Each thread updates its own part of an aggregation without the session
// lock (tscc_agg_update_thread); readers merge the parts with the table,
// a clear makes every part count for nothing, and a thread that ends
// keeps its contribution (folded into the table, or kept by tsrun).
//
//===----------------------------------------------------------------------===//

#include "tscc/Runtime/Aggregation.h"
#include "tscc/Runtime/SharedStore.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

using namespace tscc::rt;

namespace {

const tscc_field S64Key[] = {{TSCC_FIELD_S64, 8}};

/// One aggregation in a store of its own, with thread slots.
class Sharded {
public:
  explicit Sharded(uint32_t Kind, uint32_t KeySize = 0, size_t Capacity = 64) {
    tscc_agg Desc{};
    Desc.kind = Kind;
    Desc.key_size = KeySize;
    StoreShape Shape;
    Shape.Aggs.push_back(Desc);
    Shape.MapCapacity = Capacity;
    Shape.ThreadCapacity = 8;
    Shape.RingSize = 4096;
    std::string Error;
    Store = SharedStore::create(Shape, Error);
    EXPECT_TRUE(Store) << Error;
    D = {Desc, "a",
         KeySize ? std::span<const tscc_field>(S64Key)
                 : std::span<const tscc_field>()};
  }
  tscc_store *view() { return Store->view(); }
  int32_t thread(int32_t Tid) { return tscc_thread_add(view(), 1, Tid); }
  /// 0: in the thread's part; 1: no room there.
  int local(int32_t Slot, int64_t Key, int64_t V) {
    return tscc_agg_update_thread(view(), 0, Slot, &Key, D.Desc.key_size, V);
  }
  int local(int32_t Slot, int64_t V) {
    return tscc_agg_update_thread(view(), 0, Slot, nullptr, 0, V);
  }
  bool shared(int64_t Key, int64_t V) {
    return tscc_agg_update(view(), 0, &Key, D.Desc.key_size, V) == 0;
  }
  AggDump merged(const RetiredAggParts *Retired = nullptr) {
    AggSource Src{view(), {view()}, Retired};
    return snapshotAggregation(std::span<const AggSource>(&Src, 1), 0, D);
  }
  /// The table alone, as a reader that knew nothing of threads' parts.
  AggDump table() { return snapshotAggregation(view(), 0, D); }
  tscc_table_state &state() {
    return *reinterpret_cast<tscc_table_state *>(view()->base +
                                                 Store->tables()[0].state_off);
  }
  const tscc_table_layout &layout() { return Store->tables()[0]; }

private:
  std::unique_ptr<SharedStore> Store;
  AggregationDesc D;
};

int64_t count(const AggDump &D, size_t I = 0) {
  return I < D.Entries.size() ? D.Entries[I].Count : -1;
}

TEST(AggregationShardsTest, EveryAggregationHasThreadParts) {
  Sharded C(TSCC_AGG_COUNT), K(TSCC_AGG_COUNT, 8), H(TSCC_AGG_HIST, 8);
  EXPECT_EQ(C.layout().shard_slots, 1u);
  EXPECT_EQ(K.layout().shard_slots, 8u);
  EXPECT_GE(H.layout().shard_slots, 1u);
  EXPECT_EQ(C.layout().shard_off % 64, 0u);
}

TEST(AggregationShardsTest, PartsMergeWithTheTable) {
  Sharded A(TSCC_AGG_COUNT);
  int32_t T0 = A.thread(100), T1 = A.thread(101);
  for (int I = 0; I < 5; ++I)
    EXPECT_EQ(A.local(T0, 1), 0);
  for (int I = 0; I < 7; ++I)
    EXPECT_EQ(A.local(T1, 1), 0);
  EXPECT_TRUE(A.shared(0, 1));
  EXPECT_EQ(count(A.table()), 1);
  EXPECT_EQ(count(A.merged()), 13);
  EXPECT_TRUE(A.state().dirty);
}

TEST(AggregationShardsTest, StatsAndBucketsMergeAcrossThreads) {
  Sharded A(TSCC_AGG_HIST, 8);
  int32_t T0 = A.thread(100), T1 = A.thread(101);
  A.local(T0, 7, 1);
  A.local(T0, 7, 100);
  A.local(T1, 7, -5);
  A.shared(7, 1000);
  AggDump D = A.merged();
  ASSERT_EQ(D.Entries.size(), 1u);
  const AggEntry &E = D.Entries[0];
  EXPECT_EQ(E.Count, 4);
  EXPECT_EQ(E.Sum, 1096);
  EXPECT_EQ(E.Min, -5);
  EXPECT_EQ(E.Max, 1000);
  EXPECT_EQ(E.Buckets[tscc_hist_bucket(1)], 1u);
  EXPECT_EQ(E.Buckets[tscc_hist_bucket(100)], 1u);
  EXPECT_EQ(E.Buckets[tscc_hist_bucket(-5)], 1u);
  EXPECT_EQ(E.Buckets[tscc_hist_bucket(1000)], 1u);
}

TEST(AggregationShardsTest, AFullPartSendsNewKeysToTheTable) {
  Sharded A(TSCC_AGG_COUNT, 8);
  int32_t T = A.thread(100);
  uint32_t Slots = A.layout().shard_slots;
  for (uint32_t K = 0; K < Slots; ++K)
    EXPECT_EQ(A.local(T, K, 0), 0);
  EXPECT_EQ(A.local(T, 99, 0), 1); // the caller goes to the table
  EXPECT_TRUE(A.shared(99, 0));
  EXPECT_EQ(A.local(T, 0, 0), 0); // keys it has still go to its part
  AggDump D = A.merged();
  EXPECT_EQ(D.Entries.size(), Slots + 1);
  EXPECT_EQ(count(D, D.Entries.size() - 1), 2); // key 0, sorted last
}

TEST(AggregationShardsTest, ClearEmptiesEveryThreadsPart) {
  Sharded A(TSCC_AGG_COUNT, 8);
  int32_t T0 = A.thread(100), T1 = A.thread(101);
  A.local(T0, 1, 0);
  A.local(T1, 2, 0);
  A.shared(3, 0);
  tscc_agg_clear(A.view(), 0);
  EXPECT_TRUE(A.merged().Entries.empty());
  // The next update of a thread starts its part afresh.
  A.local(T0, 1, 0);
  AggDump D = A.merged();
  ASSERT_EQ(D.Entries.size(), 1u);
  EXPECT_EQ(D.Entries[0].Count, 1);
}

TEST(AggregationShardsTest, AnEndedThreadKeepsItsCount) {
  Sharded A(TSCC_AGG_COUNT, 8);
  int32_t T0 = A.thread(100), T1 = A.thread(101);
  A.local(T0, 1, 0);
  A.local(T0, 1, 0);
  A.local(T1, 1, 0);
  tscc_thread_retire(A.view(), T0); // under the lock, in tsrun
  EXPECT_EQ(count(A.table()), 2);   // folded into the table
  EXPECT_EQ(count(A.merged()), 3);  // and not counted twice
  tscc_thread_free(A.view(), T0);
  int32_t Again = A.thread(102); // its slot, reused, starts empty
  EXPECT_EQ(Again, T0);
  A.local(Again, 1, 0);
  EXPECT_EQ(count(A.merged()), 4);
}

TEST(AggregationShardsTest, AThreadRetiredAfterAClearAddsNothing) {
  Sharded A(TSCC_AGG_COUNT);
  int32_t T = A.thread(100);
  A.local(T, 0);
  tscc_agg_clear(A.view(), 0);
  tscc_thread_retire(A.view(), T);
  EXPECT_TRUE(A.merged().Entries.empty());
}

TEST(AggregationShardsTest, PartsOfEndedProcessesOutliveTheirShard) {
  Sharded A(TSCC_AGG_COUNT, 8);
  int32_t T = A.thread(100);
  A.local(T, 5, 0);
  A.local(T, 5, 0);
  RetiredAggParts Retired;
  Retired.take(A.view()); // the shard goes now
  AggSource Src{A.view(), {}, &Retired};
  AggregationDesc D{{}, "a", S64Key};
  D.Desc.kind = TSCC_AGG_COUNT;
  D.Desc.key_size = 8;
  AggDump Dump = snapshotAggregation(std::span<const AggSource>(&Src, 1), 0, D);
  EXPECT_EQ(count(Dump), 2);
  tscc_agg_clear(A.view(), 0); // a clear counts for them too
  Dump = snapshotAggregation(std::span<const AggSource>(&Src, 1), 0, D);
  EXPECT_TRUE(Dump.Entries.empty());
}

TEST(AggregationShardsTest, AHitWritesNoSharedLine) {
  Sharded A(TSCC_AGG_COUNT, 8);
  int32_t T = A.thread(100);
  A.local(T, 1, 0); // the first one marks the table dirty
  tscc_table_state Before = A.state();
  std::vector<uint8_t> Header(A.view()->base, A.view()->base + 4096);
  for (int I = 0; I < 1000; ++I)
    A.local(T, 1, 0);
  EXPECT_EQ(memcmp(&Before, &A.state(), sizeof(Before)), 0);
  EXPECT_EQ(memcmp(Header.data(), A.view()->base, Header.size()), 0);
}

/// Threads update their parts while a reader merges: every snapshot is at
/// most the final count, snapshots never go back, the final one is exact.
TEST(AggregationShardsTest, ReadersMergeWhileThreadsCount) {
  Sharded A(TSCC_AGG_COUNT, 8);
  constexpr int Threads = 4, PerThread = 200000;
  std::vector<int32_t> Slots;
  for (int I = 0; I < Threads; ++I)
    Slots.push_back(A.thread(100 + I));
  std::atomic<int> Done{0};
  std::vector<std::thread> Workers;
  for (int I = 0; I < Threads; ++I)
    Workers.emplace_back([&, I] {
      for (int N = 0; N < PerThread; ++N)
        A.local(Slots[I], int64_t(I), 1);
      ++Done;
    });
  int64_t Last = 0;
  while (Done.load() < Threads) {
    int64_t Sum = 0;
    for (const AggEntry &E : A.merged().Entries)
      Sum += E.Count;
    EXPECT_GE(Sum, Last);
    EXPECT_LE(Sum, int64_t(Threads) * PerThread);
    Last = Sum;
  }
  for (std::thread &W : Workers)
    W.join();
  AggDump D = A.merged();
  ASSERT_EQ(D.Entries.size(), size_t(Threads));
  for (const AggEntry &E : D.Entries)
    EXPECT_EQ(E.Count, PerThread);
}

} // namespace
