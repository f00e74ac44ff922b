//===- MergeRunsTest.cpp - The reader's k-way merge of ring runs ----------===//
//
// mergeRunsByTime() takes a whole stretch of a run at once where no other
// run has a record before it; the result must be what merging one record
// at a time gives (checked against that, written here the plain way, on
// many random inputs: overlapping and disjoint runs, ties, runs whose own
// times go backwards, empty runs and records before the first run).
//
//===----------------------------------------------------------------------===//

#include "../../../runtime/lib/Store/RingReader.h"

#include <gtest/gtest.h>

#include <random>

using namespace tscc::rt;

namespace {

/// One record at a time: the smallest (time of the next record, run)
/// first, each run's order kept.
std::vector<uint64_t> referenceMerge(const std::vector<DrainedRecord> &Records,
                                     const std::vector<size_t> &Starts) {
  std::vector<std::pair<size_t, size_t>> Runs;
  for (size_t I = 0; I < Starts.size(); ++I)
    Runs.push_back(
        {Starts[I], I + 1 < Starts.size() ? Starts[I + 1] : Records.size()});
  std::vector<uint64_t> Out;
  for (size_t I = 0; I < (Starts.empty() ? Records.size() : Starts[0]); ++I)
    Out.push_back(Records[I].Hdr.seq);
  for (;;) {
    size_t Best = SIZE_MAX;
    for (size_t R = 0; R < Runs.size(); ++R) {
      if (Runs[R].first == Runs[R].second)
        continue;
      if (Best == SIZE_MAX || Records[Runs[R].first].Hdr.time_ns <
                                  Records[Runs[Best].first].Hdr.time_ns)
        Best = R;
    }
    if (Best == SIZE_MAX)
      return Out;
    Out.push_back(Records[Runs[Best].first++].Hdr.seq);
  }
}

DrainedRecord record(uint64_t Time, uint64_t Id) {
  DrainedRecord D;
  D.Hdr.time_ns = Time;
  D.Hdr.seq = Id; // the record's identity, for the comparison
  return D;
}

TEST(MergeRunsTest, MatchesOneRecordAtATimeOnRandomRuns) {
  std::mt19937_64 Rng(21);
  for (int Round = 0; Round < 3000; ++Round) {
    std::vector<DrainedRecord> Records;
    std::vector<size_t> Starts;
    size_t Before = Rng() % 3; // records before the first run stay first
    for (size_t I = 0; I < Before; ++I)
      Records.push_back(record(Rng() % 50, Records.size()));
    size_t RunCount = 1 + Rng() % 6;
    // Small time ranges give ties; a base per run gives disjoint runs.
    uint64_t Spread = 1 + Rng() % 40;
    bool Disjoint = Rng() % 3 == 0;
    for (size_t R = 0; R < RunCount; ++R) {
      Starts.push_back(Records.size());
      size_t N = Rng() % 12;
      uint64_t T = Disjoint ? R * 1000 : Rng() % Spread;
      for (size_t I = 0; I < N; ++I) {
        // Mostly ascending; now and then a time that goes back (a
        // program wrote it): the run's order must still be kept.
        if (Rng() % 8 == 0)
          T = T > 5 ? T - Rng() % 5 : T;
        else
          T += Rng() % 4;
        Records.push_back(record(T, Records.size()));
      }
    }
    std::vector<uint64_t> Expected = referenceMerge(Records, Starts);
    mergeRunsByTime(Records, Starts);
    std::vector<uint64_t> Got;
    for (const DrainedRecord &D : Records)
      Got.push_back(D.Hdr.seq);
    ASSERT_EQ(Got, Expected) << "round " << Round;
  }
}

TEST(MergeRunsTest, DisjointRunsAreConcatenatedInTimeOrder) {
  std::vector<DrainedRecord> Records;
  for (uint64_t T : {500, 600, 700, 100, 200, 300, 800, 900})
    Records.push_back(record(T, T));
  std::vector<size_t> Starts = {0, 3, 6};
  mergeRunsByTime(Records, Starts);
  std::vector<uint64_t> Got;
  for (const DrainedRecord &D : Records)
    Got.push_back(D.Hdr.time_ns);
  EXPECT_EQ(Got,
            (std::vector<uint64_t>{100, 200, 300, 500, 600, 700, 800, 900}));
}

TEST(MergeRunsTest, TiesGoToTheEarlierRun) {
  std::vector<DrainedRecord> Records = {record(5, 0), record(5, 1),
                                        record(5, 2), record(5, 3)};
  std::vector<size_t> Starts = {0, 1, 2, 3};
  std::reverse(Records.begin(), Records.end()); // ids 3 2 1 0 in runs 0..3
  mergeRunsByTime(Records, Starts);
  std::vector<uint64_t> Got;
  for (const DrainedRecord &D : Records)
    Got.push_back(D.Hdr.seq);
  EXPECT_EQ(Got, (std::vector<uint64_t>{3, 2, 1, 0}));
}

} // namespace
