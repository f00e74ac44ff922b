//===- tscc/Runtime/Aggregation.h - @aggregations --------------------------===//
//
// Storage and folding for count/sum/min/max/avg/stats/hist/lhist, and the
// snapshot (AggDump, Output.h) that sinks print. Entries are keyed by the
// serialised key bytes exactly as clause code produced them.
//
// Histogram buckets (hist): index 0 counts negative values, 1 counts zero,
// 2 + k counts [2^k, 2^(k+1)) for k = 0..62. lhist: index 0 counts values
// below lo, 1..N the buckets [lo + i*step, lo + (i+1)*step), N+1 values >= hi.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_AGGREGATION_H
#define TSCC_RUNTIME_AGGREGATION_H

#include "tscc/Runtime/Output.h"
#include "tscc/abi.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tscc::rt {

class ProbeProgram;

inline constexpr unsigned HistBuckets = 65;

/// The hist bucket of a value.
unsigned histBucket(int64_t V);
/// Number of lhist buckets including underflow and overflow.
uint64_t lhistBucketCount(const tscc_agg &A);
uint64_t lhistBucket(const tscc_agg &A, int64_t V);
/// "[4, 8)", "[1]", "[8K, 16K)", "(..., 0)" -- bpftrace's bucket labels.
std::string histBucketLabel(unsigned Index);
std::string lhistBucketLabel(const AggDump &D, uint64_t Index);

struct AggValue {
  int64_t Count = 0, Sum = 0, Min = 0, Max = 0;
  std::vector<uint64_t> Buckets;
};

class Aggregation {
public:
  Aggregation(const tscc_agg &Desc, std::string Name,
              std::span<const tscc_field> KeyFields, size_t Capacity)
      : Desc(Desc), Name(std::move(Name)), KeyFields(KeyFields),
        Capacity(Capacity) {}

  /// Folds V into the entry for Key. False when the table is full (the
  /// caller counts a drop) or the key has the wrong size.
  bool update(std::string_view Key, int64_t V);
  void clear() {
    Entries.clear();
    Dirty = false;
  }
  bool empty() const { return Entries.empty(); }
  /// Updated since the last print or clear.
  bool dirty() const { return Dirty; }
  void markPrinted() { Dirty = false; }

  /// The entries sorted like bpftrace (ascending by value, ties by key);
  /// Top > 0 keeps only the Top largest.
  AggDump snapshot(int64_t Top = 0) const;

  const tscc_agg &desc() const { return Desc; }

private:
  /// The value entries are sorted by.
  int64_t sortValue(const AggValue &V) const;

  tscc_agg Desc;
  std::string Name;
  std::span<const tscc_field> KeyFields;
  size_t Capacity;
  bool Dirty = false;
  std::unordered_map<std::string, AggValue> Entries;
};

/// Splits a serialised key into its fields and formats each one.
std::vector<std::string> formatKey(std::span<const tscc_field> Fields,
                                   std::string_view Key);

const char *aggKindName(uint32_t Kind);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_AGGREGATION_H
