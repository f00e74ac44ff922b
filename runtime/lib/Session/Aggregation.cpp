//===- Aggregation.cpp - Snapshots and labels of aggregations -------------===//

#include "tscc/Runtime/Aggregation.h"
#include "tscc/Runtime/StackTable.h"

#include <algorithm>
#include <cstring>
#include <map>

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

namespace {

/// One entry as read from a store, or several stores' merged.
struct Item {
  tscc_agg_value Value{};
  std::vector<uint64_t> Buckets;
  int64_t Sort = 0;
};

/// Adds what one store holds for this aggregation to Items (by key
/// bytes). Everything is copied out of the store before it is used: a
/// target may write it meanwhile. Sums wrap, as they do in the store.
void collectEntries(tscc_store *S, const tscc_table_layout &T, uint32_t Kind,
                    std::map<std::string, Item> &Items, uint64_t &Implausible) {
  const auto *St =
      reinterpret_cast<const tscc_table_state *>(S->base + T.state_off);
  uint32_t Used =
      std::min(__atomic_load_n(&St->used, __ATOMIC_RELAXED), T.capacity);
  for (uint32_t I = 0; I < Used; ++I) {
    const uint8_t *E = S->base + T.entries_off + uint64_t(I) * T.entry_size;
    tscc_entry H;
    memcpy(&H, E, sizeof(H));
    if (!H.live)
      continue;
    std::string Key(reinterpret_cast<const char *>(E + sizeof(tscc_entry)),
                    T.key_size);
    tscc_agg_value V;
    memcpy(&V, E + T.value_off, sizeof(V));
    Implausible += V.count < 0;
    auto [It, New] = Items.try_emplace(std::move(Key));
    Item &It2 = It->second;
    if (New) {
      It2.Value = V;
      It2.Buckets.assign(T.buckets, 0);
    } else {
      It2.Value.count =
          static_cast<int64_t>(uint64_t(It2.Value.count) + uint64_t(V.count));
      It2.Value.sum =
          static_cast<int64_t>(uint64_t(It2.Value.sum) + uint64_t(V.sum));
      It2.Value.min = std::min(It2.Value.min, V.min);
      It2.Value.max = std::max(It2.Value.max, V.max);
    }
    for (uint32_t B = 0; B < T.buckets; ++B) {
      uint64_t N;
      memcpy(&N, E + T.value_off + sizeof(tscc_agg_value) + 8 * uint64_t(B), 8);
      It2.Buckets[B] += N;
    }
    It2.Sort = sortValue(Kind, It2.Value);
  }
}

} // namespace

AggDump tscc::rt::snapshotAggregation(std::span<tscc_store *const> Stores,
                                      uint32_t Agg, const AggregationDesc &Desc,
                                      int64_t Top, const StackTable *Stacks) {
  AggDump D;
  D.Name = Desc.Name;
  D.Kind = Desc.Desc.kind;
  D.LhistLo = Desc.Desc.lhist_lo;
  D.LhistHi = Desc.Desc.lhist_hi;
  D.LhistStep = Desc.Desc.lhist_step;
  std::map<std::string, Item> ByKey;
  for (tscc_store *S : Stores)
    if (const tscc_table_layout *T = tscc_agg_table(S, Agg))
      collectEntries(S, *T, D.Kind, ByKey, D.Implausible);
  std::vector<std::pair<std::string, Item>> Items(
      std::make_move_iterator(ByKey.begin()),
      std::make_move_iterator(ByKey.end()));
  // Deterministic: by value, then by key bytes.
  std::stable_sort(Items.begin(), Items.end(),
                   [](const auto &A, const auto &B) {
                     return A.second.Sort < B.second.Sort;
                   });
  size_t First = 0;
  if (Top > 0 && static_cast<uint64_t>(Top) < Items.size())
    First = Items.size() - static_cast<size_t>(Top);
  for (size_t I = First; I < Items.size(); ++I) {
    AggEntry E;
    E.Keys = formatKey(Desc.KeyFields, Items[I].first, Stacks, &E.KeyFrames);
    E.Count = Items[I].second.Value.count;
    E.Sum = Items[I].second.Value.sum;
    E.Min = Items[I].second.Value.min;
    E.Max = Items[I].second.Value.max;
    E.Buckets = std::move(Items[I].second.Buckets);
    D.Entries.push_back(std::move(E));
  }
  return D;
}

AggDump tscc::rt::snapshotAggregation(tscc_store *S, uint32_t Agg,
                                      const AggregationDesc &Desc, int64_t Top,
                                      const StackTable *Stacks) {
  tscc_store *One[] = {S};
  return snapshotAggregation(One, Agg, Desc, Top, Stacks);
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
