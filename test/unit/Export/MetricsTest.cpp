//===- MetricsTest.cpp - Aggregations as Prometheus text ------------------===//

#include "tscc/Runtime/Metrics.h"

#include "tscc/Runtime/ProbeProgram.h"

#include <gtest/gtest.h>

using namespace tscc::rt;

namespace {

class Metrics : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Err;
    P = ProbeProgram::load(std::string(TSCC_FIXTURE_DIR) + "/basic.o", Err);
    ASSERT_TRUE(P) << Err;
  }
  /// D's families, without the (empty) clause counter families after them.
  std::string render(const AggDump &D) {
    std::string M = renderMetrics(*P, std::span<const AggDump>(&D, 1), {});
    return M.substr(0, M.find("# HELP tscc_clause_fired_total"));
  }
  std::unique_ptr<ProbeProgram> P;
};

AggEntry entry(std::vector<std::string> Keys, int64_t Count, int64_t Sum,
               std::vector<uint64_t> Buckets = {}) {
  AggEntry E;
  E.Keys = std::move(Keys);
  E.Count = Count;
  E.Sum = Sum;
  E.Min = E.Max = Sum;
  E.Buckets = std::move(Buckets);
  return E;
}

TEST_F(Metrics, CountIsACounterWithEscapedLabels) {
  AggDump D;
  D.Name = "calls";
  D.Kind = TSCC_AGG_COUNT;
  D.Entries.push_back(entry({"a\\b\"c\nd", "x"}, 3, 0));
  EXPECT_EQ(render(D), "# HELP tscc_calls_total @calls: count()\n"
                       "# TYPE tscc_calls_total counter\n"
                       "tscc_calls_total{key1=\"a\\\\b\\\"c\\nd\",key2=\"x\"} "
                       "3\n");
}

TEST_F(Metrics, StackKeysAreFoldedAndAnonymousHasAName) {
  AggDump D; // @[__pname, stktrace()] = count();
  D.Kind = TSCC_AGG_COUNT;
  AggEntry E = entry(
      {"app", "\n        leaf+0x0 (app)\n        main+0x4d (app)\n"}, 5, 0);
  E.KeyFrames = {{}, {"leaf+0x0 (app)", "main+0x4d (app)"}};
  D.Entries.push_back(E);
  EXPECT_EQ(render(D), "# HELP tscc_anonymous_total @: count()\n"
                       "# TYPE tscc_anonymous_total counter\n"
                       "tscc_anonymous_total{key1=\"app\",key2=\"main+0x4d "
                       "(app);leaf+0x0 (app)\"} 5\n");
}

TEST_F(Metrics, GaugesNeverLookLikeCountersOrHistograms) {
  for (const char *Name : {"total", "n_count", "x_sum", "y_bucket"}) {
    AggDump D;
    D.Name = Name;
    D.Kind = TSCC_AGG_SUM;
    D.Entries.push_back(entry({}, 1, -7));
    std::string M = "tscc_" + std::string(Name) + "_value";
    EXPECT_EQ(render(D), "# HELP " + M + " @" + Name + ": sum()\n# TYPE " + M +
                             " gauge\n" + M + " -7\n");
  }
  AggDump D;
  D.Name = "plain";
  D.Kind = TSCC_AGG_AVG;
  D.Entries.push_back(entry({"k"}, 4, 10));
  EXPECT_NE(render(D).find("tscc_plain{key=\"k\"} 2\n"), std::string::npos);
}

TEST_F(Metrics, HistBoundsAreIntegers) {
  AggDump D;
  D.Name = "h";
  D.Kind = TSCC_AGG_HIST;
  std::vector<uint64_t> B(65, 0);
  B[0] = 1;  // negative
  B[2] = 2;  // [1, 2)
  B[64] = 1; // [2^62, 2^63)
  D.Entries.push_back(entry({}, 4, 99, B));
  std::string M = render(D);
  EXPECT_NE(M.find("tscc_h_bucket{le=\"-1\"} 1\n"
                   "tscc_h_bucket{le=\"0\"} 1\n"
                   "tscc_h_bucket{le=\"1\"} 3\n"
                   "tscc_h_bucket{le=\"3\"} 3\n"),
            std::string::npos)
      << M;
  EXPECT_NE(M.find("tscc_h_bucket{le=\"9223372036854775807\"} 4\n"
                   "tscc_h_bucket{le=\"+Inf\"} 4\n"
                   "tscc_h_sum 99\n"
                   "tscc_h_count 4\n"),
            std::string::npos)
      << M;
}

TEST_F(Metrics, LhistUnderflowOverflowAndExtremeBounds) {
  AggDump D;
  D.Name = "l";
  D.Kind = TSCC_AGG_LHIST;
  D.LhistLo = -10;
  D.LhistHi = 10;
  D.LhistStep = 10;
  // [underflow, [-10, 0), [0, 10), overflow]
  D.Entries.push_back(entry({"k"}, 4, 0, {1, 0, 1, 2}));
  EXPECT_EQ(render(D), "# HELP tscc_l @l: lhist()\n"
                       "# TYPE tscc_l histogram\n"
                       "tscc_l_bucket{key=\"k\",le=\"-11\"} 1\n"
                       "tscc_l_bucket{key=\"k\",le=\"-1\"} 1\n"
                       "tscc_l_bucket{key=\"k\",le=\"9\"} 2\n"
                       "tscc_l_bucket{key=\"k\",le=\"+Inf\"} 4\n"
                       "tscc_l_sum{key=\"k\"} 0\n"
                       "tscc_l_count{key=\"k\"} 4\n");
  // A bound beyond int64 is left to +Inf rather than wrapped.
  D.LhistLo = INT64_MAX - 5;
  D.LhistStep = INT64_MAX;
  D.Entries[0].Buckets = {0, 1, 1, 0};
  std::string M = render(D);
  EXPECT_NE(M.find("le=\"9223372036854775801\"} 0\n"), std::string::npos) << M;
  EXPECT_EQ(M.find("le=\"-"), std::string::npos) << M;
}

TEST_F(Metrics, EmptyAggregationAndClauseCounters) {
  AggDump D;
  D.Name = "none";
  D.Kind = TSCC_AGG_HIST;
  ClauseCounters C;
  C.Clause = 1;
  C.Line = 7;
  C.Fired = 5;
  C.Drops = 2;
  std::string M = renderMetrics(*P, std::span<const AggDump>(&D, 1),
                                std::span<const ClauseCounters>(&C, 1));
  EXPECT_NE(M.find("# TYPE tscc_none histogram\n# HELP tscc_clause_fired"),
            std::string::npos)
      << M;
  EXPECT_NE(M.find("tscc_clause_fired_total{clause=\"1\",line=\"7\",probe=\""),
            std::string::npos)
      << M;
  EXPECT_NE(M.find("} 5\n"), std::string::npos);
  EXPECT_NE(M.find("tscc_clause_drops_total{clause=\"1\""), std::string::npos);
}

} // namespace
