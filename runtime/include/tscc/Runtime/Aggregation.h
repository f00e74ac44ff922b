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
#include <map>
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

/// One entry of an aggregation as tsrun merges it: from a table, threads'
/// own parts (tscc_agg_shard), or several stores.
struct AggItem {
  tscc_agg_value Value{};
  std::vector<uint64_t> Buckets;
};
using AggItems = std::map<std::string, AggItem>; ///< by key bytes

/// Adds the entries of one table (or thread part) laid out as T, Count of
/// them at Entries, to Items. Counts, sums and buckets add up (wrapping,
/// as in the store), the least minimum and the greatest maximum win.
/// Returns how many had a negative count (written by a program).
uint64_t mergeAggEntries(const tscc_table_layout &T, const uint8_t *Entries,
                         uint32_t Count, AggItems &Items);
/// Adds the parts of aggregation Agg that the threads of shard view V keep
/// to themselves, those of the table's current generation only. Parts
/// that change while they are read (cleared) are left out.
uint64_t mergeThreadParts(tscc_store *V, uint32_t Agg, AggItems &Items);

/// What the threads of processes that have ended kept of one domain's
/// aggregations, kept by tsrun when their shards go (the threads tsrun
/// saw end were folded into the tables already, tscc_agg_fold_thread).
/// A clear() of an aggregation makes its part count for nothing.
class RetiredAggParts {
public:
  /// Takes the thread parts of every aggregation of shard view V.
  void take(tscc_store *V);
  /// Adds aggregation Agg's part to Items if it is of the table's
  /// current generation (Store: the domain's view).
  void mergeInto(tscc_store *Store, uint32_t Agg, AggItems &Items) const;

private:
  struct Part {
    uint32_t Gen = 0;
    AggItems Items;
  };
  std::vector<Part> Parts; ///< by aggregation
};

/// One trust domain's aggregations: the tables of its store, the threads'
/// parts in its processes' shards, and those of ended processes.
struct AggSource {
  tscc_store *Store = nullptr;
  std::vector<tscc_store *> Shards;
  const RetiredAggParts *Retired = nullptr;
};

/// The same as snapshotAggregation over the domains' stores, with every
/// thread's part merged in. The caller keeps the shards from going (and
/// from being folded) meanwhile.
AggDump snapshotAggregation(std::span<const AggSource> Sources, uint32_t Agg,
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
