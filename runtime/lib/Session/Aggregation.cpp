//===- Aggregation.cpp - Snapshots and labels of aggregations -------------===//

#include "tscc/Runtime/Aggregation.h"
#include "tscc/Runtime/StackTable.h"

#include <algorithm>
#include <cstring>

using namespace tscc::rt;

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

namespace {

/// The value entries are sorted by.
int64_t sortValue(uint32_t Kind, const tscc_agg_value &V) {
  switch (Kind) {
  case TSCC_AGG_SUM:
    return V.sum;
  case TSCC_AGG_MIN:
    return V.min;
  case TSCC_AGG_MAX:
    return V.max;
  case TSCC_AGG_AVG: {
    AggEntry E; // the same (total) division the outputs print
    E.Count = V.count;
    E.Sum = V.sum;
    return E.average();
  }
  default:
    return V.count; // count, stats, hist, lhist: by number of values
  }
}

} // namespace

AggDump tscc::rt::snapshotAggregation(tscc_store *S, uint32_t Agg,
                                      const AggregationDesc &Desc, int64_t Top,
                                      const StackTable *Stacks) {
  AggDump D;
  D.Name = Desc.Name;
  D.Kind = Desc.Desc.kind;
  D.LhistLo = Desc.Desc.lhist_lo;
  D.LhistHi = Desc.Desc.lhist_hi;
  D.LhistStep = Desc.Desc.lhist_step;
  const tscc_table_layout *T = tscc_agg_table(S, Agg);
  if (!T)
    return D;
  // Copy the live entries out first: the store may be written by a target
  // while we sort (when the caller could not get the lock at the end).
  struct Item {
    std::string Key;
    tscc_agg_value Value;
    std::vector<uint64_t> Buckets;
    int64_t Sort;
  };
  std::vector<Item> Items;
  const auto *St =
      reinterpret_cast<const tscc_table_state *>(S->base + T->state_off);
  uint32_t Used = std::min(St->used, T->capacity);
  for (uint32_t I = 0; I < Used; ++I) {
    const uint8_t *E = S->base + T->entries_off + uint64_t(I) * T->entry_size;
    tscc_entry H;
    memcpy(&H, E, sizeof(H));
    if (!H.live)
      continue;
    Item It;
    It.Key.assign(reinterpret_cast<const char *>(E + sizeof(tscc_entry)),
                  T->key_size);
    memcpy(&It.Value, E + T->value_off, sizeof(It.Value));
    It.Buckets.resize(T->buckets);
    if (T->buckets)
      memcpy(It.Buckets.data(), E + T->value_off + sizeof(tscc_agg_value),
             uint64_t(T->buckets) * 8);
    It.Sort = sortValue(D.Kind, It.Value);
    Items.push_back(std::move(It));
  }
  // Deterministic: by value, then by key bytes.
  std::sort(Items.begin(), Items.end(), [](const Item &A, const Item &B) {
    if (A.Sort != B.Sort)
      return A.Sort < B.Sort;
    return A.Key < B.Key;
  });
  size_t First = 0;
  if (Top > 0 && static_cast<uint64_t>(Top) < Items.size())
    First = Items.size() - static_cast<size_t>(Top);
  for (size_t I = First; I < Items.size(); ++I) {
    AggEntry E;
    E.Keys = formatKey(Desc.KeyFields, Items[I].Key, Stacks, &E.KeyFrames);
    E.Count = Items[I].Value.count;
    E.Sum = Items[I].Value.sum;
    E.Min = Items[I].Value.min;
    E.Max = Items[I].Value.max;
    E.Buckets = std::move(Items[I].Buckets);
    D.Entries.push_back(std::move(E));
  }
  return D;
}

std::vector<std::string>
tscc::rt::formatKey(std::span<const tscc_field> Fields, std::string_view Key,
                    const StackTable *Stacks,
                    std::vector<std::vector<std::string>> *StackFrames) {
  std::vector<std::string> Out;
  if (StackFrames)
    StackFrames->assign(Fields.size(), {});
  size_t Pos = 0;
  for (const tscc_field &F : Fields) {
    size_t Size = std::min<size_t>(F.size, Key.size() - Pos);
    if (F.kind == TSCC_FIELD_STACK_ID && Size == 8) {
      uint64_t Id;
      memcpy(&Id, Key.data() + Pos, 8);
      std::optional<std::vector<std::string>> Frames;
      if (Stacks)
        Frames = Stacks->frames(Id);
      if (!Frames)
        Frames = std::vector<std::string>{"[unknown stack " +
                                          std::to_string(Id) + "]"};
      Out.push_back(stackKeyText(*Frames));
      if (StackFrames)
        (*StackFrames)[Out.size() - 1] = std::move(*Frames);
      Pos += Size;
      continue;
    }
    Out.push_back(formatField(
        F,
        std::span<const uint8_t>(
            reinterpret_cast<const uint8_t *>(Key.data()) + Pos, Size),
        DataModel::LP64));
    Pos += Size;
  }
  return Out;
}
