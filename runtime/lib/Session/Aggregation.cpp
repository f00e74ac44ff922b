//===- Aggregation.cpp - Folding and sorting aggregations -------------------===//

#include "tscc/Runtime/Aggregation.h"

#include <algorithm>
#include <cstring>

using namespace tscc::rt;

unsigned tscc::rt::histBucket(int64_t V) {
  if (V < 0)
    return 0;
  if (V == 0)
    return 1;
  return 2 + (63 - __builtin_clzll(static_cast<uint64_t>(V)));
}

uint64_t tscc::rt::lhistBucketCount(const tscc_agg &A) {
  uint64_t Span = static_cast<uint64_t>(A.lhist_hi) -
                  static_cast<uint64_t>(A.lhist_lo);
  uint64_t Step = static_cast<uint64_t>(A.lhist_step);
  return (Span + Step - 1) / Step + 2;
}

uint64_t tscc::rt::lhistBucket(const tscc_agg &A, int64_t V) {
  if (V < A.lhist_lo)
    return 0;
  if (V >= A.lhist_hi)
    return lhistBucketCount(A) - 1;
  // Unsigned: V - lo cannot overflow once V >= lo.
  return 1 + (static_cast<uint64_t>(V) - static_cast<uint64_t>(A.lhist_lo)) /
                 static_cast<uint64_t>(A.lhist_step);
}

namespace {
/// 1024-based suffixes as bpftrace prints bucket bounds: 1K, 16M, 2G...
std::string powerLabel(uint64_t V) {
  static const char *Suffix[] = {"", "K", "M", "G", "T", "P", "E"};
  unsigned I = 0;
  while (V >= 1024 && V % 1024 == 0 && I < 6) {
    V /= 1024;
    ++I;
  }
  return std::to_string(V) + Suffix[I];
}
} // namespace

std::string tscc::rt::histBucketLabel(unsigned Index) {
  if (Index == 0)
    return "(..., 0)";
  if (Index == 1)
    return "[0]";
  if (Index == 2)
    return "[1]";
  unsigned K = Index - 2;
  uint64_t Lo = 1ull << K;
  std::string Hi = K == 63 ? "..." : powerLabel(Lo << 1);
  return "[" + powerLabel(Lo) + ", " + Hi + ")";
}

std::string tscc::rt::lhistBucketLabel(const AggDump &D, uint64_t Index) {
  if (Index == 0)
    return "(..., " + std::to_string(D.LhistLo) + ")";
  int64_t Lo = D.LhistLo + static_cast<int64_t>(Index - 1) * D.LhistStep;
  if (Lo >= D.LhistHi)
    return "[" + std::to_string(D.LhistHi) + ", ...)";
  int64_t Hi = std::min(Lo + D.LhistStep, D.LhistHi);
  return "[" + std::to_string(Lo) + ", " + std::to_string(Hi) + ")";
}

const char *tscc::rt::aggKindName(uint32_t Kind) {
  switch (Kind) {
  case TSCC_AGG_COUNT: return "count";
  case TSCC_AGG_SUM: return "sum";
  case TSCC_AGG_MIN: return "min";
  case TSCC_AGG_MAX: return "max";
  case TSCC_AGG_AVG: return "avg";
  case TSCC_AGG_STATS: return "stats";
  case TSCC_AGG_HIST: return "hist";
  case TSCC_AGG_LHIST: return "lhist";
  default: return "unknown";
  }
}

bool Aggregation::update(std::string_view Key, int64_t V) {
  if (Key.size() != Desc.key_size)
    return false;
  auto It = Entries.find(std::string(Key));
  if (It == Entries.end()) {
    if (Entries.size() >= Capacity)
      return false;
    AggValue Init;
    Init.Min = Init.Max = V;
    if (Desc.kind == TSCC_AGG_HIST)
      Init.Buckets.assign(HistBuckets, 0);
    else if (Desc.kind == TSCC_AGG_LHIST)
      Init.Buckets.assign(lhistBucketCount(Desc), 0);
    It = Entries.emplace(std::string(Key), std::move(Init)).first;
  }
  AggValue &E = It->second;
  ++E.Count;
  // Wrapping add: a script summing garbage must not be undefined behaviour.
  E.Sum = static_cast<int64_t>(static_cast<uint64_t>(E.Sum) +
                               static_cast<uint64_t>(V));
  E.Min = std::min(E.Min, V);
  E.Max = std::max(E.Max, V);
  if (Desc.kind == TSCC_AGG_HIST)
    ++E.Buckets[histBucket(V)];
  else if (Desc.kind == TSCC_AGG_LHIST)
    ++E.Buckets[lhistBucket(Desc, V)];
  Dirty = true;
  return true;
}

int64_t Aggregation::sortValue(const AggValue &V) const {
  switch (Desc.kind) {
  case TSCC_AGG_SUM: return V.Sum;
  case TSCC_AGG_MIN: return V.Min;
  case TSCC_AGG_MAX: return V.Max;
  case TSCC_AGG_AVG: return V.Count ? V.Sum / V.Count : 0;
  default: return V.Count; // count, stats, hist, lhist: by number of values
  }
}

AggDump Aggregation::snapshot(int64_t Top) const {
  AggDump D;
  D.Name = Name;
  D.Kind = Desc.kind;
  D.LhistLo = Desc.lhist_lo;
  D.LhistHi = Desc.lhist_hi;
  D.LhistStep = Desc.lhist_step;
  struct Item {
    const std::string *Key;
    const AggValue *Value;
    int64_t Sort;
  };
  std::vector<Item> Items;
  Items.reserve(Entries.size());
  for (const auto &[K, V] : Entries)
    Items.push_back({&K, &V, sortValue(V)});
  // Deterministic: by value, then by key bytes.
  std::sort(Items.begin(), Items.end(), [](const Item &A, const Item &B) {
    if (A.Sort != B.Sort)
      return A.Sort < B.Sort;
    return *A.Key < *B.Key;
  });
  size_t First = 0;
  if (Top > 0 && static_cast<uint64_t>(Top) < Items.size())
    First = Items.size() - static_cast<size_t>(Top);
  for (size_t I = First; I < Items.size(); ++I) {
    AggEntry E;
    E.Keys = formatKey(KeyFields, *Items[I].Key);
    E.Count = Items[I].Value->Count;
    E.Sum = Items[I].Value->Sum;
    E.Min = Items[I].Value->Min;
    E.Max = Items[I].Value->Max;
    E.Buckets = Items[I].Value->Buckets;
    D.Entries.push_back(std::move(E));
  }
  return D;
}

std::vector<std::string> tscc::rt::formatKey(std::span<const tscc_field> Fields,
                                             std::string_view Key) {
  std::vector<std::string> Out;
  size_t Pos = 0;
  for (const tscc_field &F : Fields) {
    size_t Size = std::min<size_t>(F.size, Key.size() - Pos);
    Out.push_back(formatField(
        F,
        std::span<const uint8_t>(
            reinterpret_cast<const uint8_t *>(Key.data()) + Pos, Size),
        DataModel::LP64));
    Pos += Size;
  }
  return Out;
}
