//===- tscc/Runtime/Aggregation.h - @aggregations --------------------------===//
//
// Reading count/sum/min/max/avg/stats/hist/lhist out of the shared store
// (tscc/store.h folds the values) into the snapshot (AggDump, Output.h)
// that sinks print. Entries are keyed by the serialised key bytes exactly
// as clause code produced them.
//
// Histogram buckets (hist): index 0 counts negative values, 1 counts zero,
// 2 + k counts [2^k, 2^(k+1)) for k = 0..62. lhist: index 0 counts values
// below lo, 1..N the buckets [lo + i*step, lo + (i+1)*step), N+1 values >= hi.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_AGGREGATION_H
#define TSCC_RUNTIME_AGGREGATION_H

#include "tscc/AbiNames.h"
#include "tscc/Runtime/Output.h"
#include "tscc/abi.h"
#include "tscc/store.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tscc::rt {

class ProbeProgram;
class StackTable;

inline constexpr unsigned HistBuckets = 65;

/// The bucket functions are tscc_hist_bucket() and tscc_lhist_bucket() of
/// tscc/store.h, shared with the agent.
/// "[4, 8)", "[1]", "[8K, 16K)", "(..., 0)" -- bpftrace's bucket labels.
std::string histBucketLabel(unsigned Index);
std::string lhistBucketLabel(const AggDump &D, uint64_t Index);

struct AggregationDesc {
  tscc_agg Desc{};
  std::string Name; ///< without '@'
  std::span<const tscc_field> KeyFields;
};

/// The entries of aggregation Agg in the store, sorted like bpftrace
/// (ascending by value, ties by key bytes); Top > 0 keeps only the Top
/// largest. The caller holds the store lock (or knows nobody writes).
/// Stack keys print as the stacks Stacks holds for them.
AggDump snapshotAggregation(tscc_store *S, uint32_t Agg,
                            const AggregationDesc &D, int64_t Top = 0,
                            const StackTable *Stacks = nullptr);
/// The same over several stores (one per trust domain), their entries of
/// one key merged: counts, sums and buckets added, the least minimum, the
/// greatest maximum.
AggDump snapshotAggregation(std::span<tscc_store *const> Stores, uint32_t Agg,
                            const AggregationDesc &D, int64_t Top = 0,
                            const StackTable *Stacks = nullptr);

/// Splits a serialised key into its fields and formats each one; a stack
/// key (TSCC_FIELD_STACK_ID) as stackKeyText() of its frames, with the
/// frames themselves in StackFrames[I] when that is given.
std::vector<std::string>
formatKey(std::span<const tscc_field> Fields, std::string_view Key,
          const StackTable *Stacks = nullptr,
          std::vector<std::vector<std::string>> *StackFrames = nullptr);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_AGGREGATION_H
