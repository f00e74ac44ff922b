//===- AggregationTest.cpp - Folding, sorting and drawing aggregations ----===//

#include "tscc/Runtime/Aggregation.h"
#include "tscc/Runtime/SharedStore.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace tscc::rt;

namespace {

tscc_agg desc(uint32_t Kind, uint32_t KeySize = 0) {
  tscc_agg A{};
  A.kind = Kind;
  A.key_size = KeySize;
  return A;
}

std::string key8(int64_t V) {
  return std::string(reinterpret_cast<const char *>(&V), 8);
}

const tscc_field S64Key[] = {{TSCC_FIELD_S64, 8}};

/// One aggregation in a store of its own.
class Aggregation {
public:
  Aggregation(const tscc_agg &Desc, std::string Name,
              std::span<const tscc_field> KeyFields, size_t Capacity) {
    StoreShape Shape;
    Shape.Aggs.push_back(Desc);
    Shape.MapCapacity = Capacity;
    Shape.ThreadCapacity = 4;
    Shape.RingSize = 4096;
    std::string Error;
    Store = SharedStore::create(Shape, Error);
    EXPECT_TRUE(Store) << Error;
    D = {Desc, std::move(Name), KeyFields};
  }
  bool update(std::string_view Key, int64_t V) {
    return tscc_agg_update(Store->view(), 0, Key.data(),
                           static_cast<uint32_t>(Key.size()), V) == 0;
  }
  AggDump snapshot(int64_t Top = 0) {
    return snapshotAggregation(Store->view(), 0, D, Top);
  }
  tscc_table_state &state() {
    return *reinterpret_cast<tscc_table_state *>(Store->view()->base +
                                                 Store->tables()[0].state_off);
  }
  bool dirty() { return state().dirty; }
  void clear() { tscc_agg_clear(Store->view(), 0); }
  bool empty() { return snapshot().Entries.empty(); }

private:
  std::unique_ptr<SharedStore> Store;
  AggregationDesc D;
};

unsigned histBucket(int64_t V) { return tscc_hist_bucket(V); }
uint64_t lhistBucketCount(const tscc_agg &A) {
  return tscc_lhist_bucket_count(A.lhist_lo, A.lhist_hi, A.lhist_step);
}
uint64_t lhistBucket(const tscc_agg &A, int64_t V) {
  return tscc_lhist_bucket(A.lhist_lo, A.lhist_hi, A.lhist_step, V);
}

TEST(AggregationTest, HistBuckets) {
  EXPECT_EQ(histBucket(-5), 0u);
  EXPECT_EQ(histBucket(0), 1u);
  EXPECT_EQ(histBucket(1), 2u);
  EXPECT_EQ(histBucket(2), 3u);
  EXPECT_EQ(histBucket(3), 3u);
  EXPECT_EQ(histBucket(4), 4u);
  EXPECT_EQ(histBucket(INT64_MAX), 64u);
  EXPECT_EQ(histBucketLabel(0), "(..., 0)");
  EXPECT_EQ(histBucketLabel(1), "[0]");
  EXPECT_EQ(histBucketLabel(2), "[1]");
  EXPECT_EQ(histBucketLabel(3), "[2, 4)");
  EXPECT_EQ(histBucketLabel(11), "[512, 1K)");
  EXPECT_EQ(histBucketLabel(12), "[1K, 2K)");
  EXPECT_EQ(histBucketLabel(22), "[1M, 2M)");
  EXPECT_EQ(histBucketLabel(64), "[4E, 8E)");
}

TEST(AggregationTest, LhistBuckets) {
  tscc_agg A = desc(TSCC_AGG_LHIST);
  A.lhist_lo = 0;
  A.lhist_hi = 100;
  A.lhist_step = 10;
  EXPECT_EQ(lhistBucketCount(A), 12u);
  EXPECT_EQ(lhistBucket(A, -1), 0u);
  EXPECT_EQ(lhistBucket(A, 0), 1u);
  EXPECT_EQ(lhistBucket(A, 9), 1u);
  EXPECT_EQ(lhistBucket(A, 10), 2u);
  EXPECT_EQ(lhistBucket(A, 99), 10u);
  EXPECT_EQ(lhistBucket(A, 100), 11u);
  EXPECT_EQ(lhistBucket(A, INT64_MAX), 11u);
  A.lhist_lo = INT64_MIN + 1;
  A.lhist_hi = INT64_MAX;
  A.lhist_step = INT64_MAX;
  // Bucket 1 is [lo, lo + step) = [INT64_MIN + 1, 0); no overflow in V - lo.
  EXPECT_EQ(lhistBucket(A, -1), 1u);
  EXPECT_EQ(lhistBucket(A, 0), 2u);
  AggDump D;
  D.LhistLo = 0;
  D.LhistHi = 100;
  D.LhistStep = 10;
  EXPECT_EQ(lhistBucketLabel(D, 0), "(..., 0)");
  EXPECT_EQ(lhistBucketLabel(D, 1), "[0, 10)");
  EXPECT_EQ(lhistBucketLabel(D, 11), "[100, ...)");
}

TEST(AggregationTest, SortsByValueAscendingLikeBpftrace) {
  Aggregation A(desc(TSCC_AGG_SUM, 8), "bytes", S64Key, 100);
  A.update(key8(1), 300);
  A.update(key8(2), 100);
  A.update(key8(3), 200);
  A.update(key8(2), 5);
  AggDump D = A.snapshot();
  ASSERT_EQ(D.Entries.size(), 3u);
  EXPECT_EQ(renderAggregation(D), "@bytes[2]: 105\n"
                                  "@bytes[3]: 200\n"
                                  "@bytes[1]: 300\n");
  // print(@bytes, 2): the two largest, still ascending.
  EXPECT_EQ(renderAggregation(A.snapshot(2)), "@bytes[3]: 200\n"
                                              "@bytes[1]: 300\n");
}

TEST(AggregationTest, KindsFoldAndPrint) {
  struct Case {
    uint32_t Kind;
    const char *Expected;
  } Cases[] = {
      {TSCC_AGG_COUNT, "@a: 4\n"},
      {TSCC_AGG_SUM, "@a: 10\n"},
      {TSCC_AGG_MIN, "@a: -3\n"},
      {TSCC_AGG_MAX, "@a: 8\n"},
      {TSCC_AGG_AVG, "@a: 2\n"},
      {TSCC_AGG_STATS, "@a: count 4, average 2, total 10, min -3, max 8\n"},
  };
  for (const Case &C : Cases) {
    Aggregation A(desc(C.Kind), "a", {}, 10);
    for (int64_t V : {3, -3, 8, 2})
      EXPECT_TRUE(A.update("", V));
    EXPECT_EQ(renderAggregation(A.snapshot()), C.Expected)
        << aggKindName(C.Kind);
  }
}

TEST(AggregationTest, HistogramIsDrawnWithBars) {
  Aggregation A(desc(TSCC_AGG_HIST), "lat", {}, 10);
  for (int64_t V : {0, 1, 2, 3, 5, 6, 7, 7})
    A.update("", V);
  EXPECT_EQ(renderAggregation(A.snapshot()),
            "@lat:\n"
            "[0]                     1 |@@@@@@@@@@@@@                          "
            "             |\n"
            "[1]                     1 |@@@@@@@@@@@@@                          "
            "             |\n"
            "[2, 4)                  2 |@@@@@@@@@@@@@@@@@@@@@@@@@@             "
            "             |\n"
            "[4, 8)                  4 "
            "|@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n");
}

TEST(AggregationTest, FullTableDropsNewKeysOnly) {
  Aggregation A(desc(TSCC_AGG_COUNT, 8), "c", S64Key, 2);
  EXPECT_TRUE(A.update(key8(1), 0));
  EXPECT_TRUE(A.update(key8(2), 0));
  EXPECT_FALSE(A.update(key8(3), 0));
  EXPECT_TRUE(A.update(key8(1), 0));
  EXPECT_FALSE(A.update("short", 0)); // wrong key size
  EXPECT_EQ(A.snapshot().Entries.size(), 2u);
}

TEST(AggregationTest, ClearAndDirtyTracking) {
  Aggregation A(desc(TSCC_AGG_COUNT), "c", {}, 2);
  EXPECT_FALSE(A.dirty());
  A.update("", 1);
  EXPECT_TRUE(A.dirty());
  A.state().dirty = 0; // what printing does
  EXPECT_FALSE(A.dirty());
  A.update("", 1);
  A.clear();
  EXPECT_TRUE(A.empty());
  EXPECT_FALSE(A.dirty());
}

TEST(AggregationTest, StringAndMultiFieldKeys) {
  const tscc_field Keys[] = {{TSCC_FIELD_STRING, 8}, {TSCC_FIELD_S64, 8}};
  Aggregation A(desc(TSCC_AGG_COUNT, 16), "k", Keys, 10);
  std::string K(16, '\0');
  memcpy(&K[0], "bash", 4);
  int64_t N = -7;
  memcpy(&K[8], &N, 8);
  A.update(K, 0);
  EXPECT_EQ(renderAggregation(A.snapshot()), "@k[bash, -7]: 1\n");
}

} // namespace
