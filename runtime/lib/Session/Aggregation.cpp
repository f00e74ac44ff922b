//===- Aggregation.cpp - Snapshots and labels of aggregations -------------===//

#include "tscc/Runtime/Aggregation.h"
#include "tscc/Runtime/StackTable.h"

#include <algorithm>
#include <atomic>
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

void addItem(AggItem &Item, const AggItem &From);

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

uint64_t tscc::rt::mergeAggEntries(const tscc_table_layout &T,
                                   const uint8_t *Entries, uint32_t Count,
                                   AggItems &Items) {
  uint64_t Implausible = 0;
  for (uint32_t I = 0; I < Count; ++I) {
    const uint8_t *E = Entries + uint64_t(I) * T.entry_size;
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
    AggItem &Item = It->second;
    if (New) {
      Item.Value = V;
      Item.Buckets.assign(T.buckets, 0);
    } else {
      Item.Value.count =
          static_cast<int64_t>(uint64_t(Item.Value.count) + uint64_t(V.count));
      Item.Value.sum =
          static_cast<int64_t>(uint64_t(Item.Value.sum) + uint64_t(V.sum));
      Item.Value.min = std::min(Item.Value.min, V.min);
      Item.Value.max = std::max(Item.Value.max, V.max);
    }
    for (uint32_t B = 0; B < T.buckets; ++B) {
      uint64_t N;
      memcpy(&N, E + T.value_off + sizeof(tscc_agg_value) + 8 * uint64_t(B), 8);
      Item.Buckets[B] += N;
    }
  }
  return Implausible;
}

namespace {

/// Adds what one store's table holds for this aggregation to Items.
/// Everything is copied out of the store before it is used: a target may
/// write it meanwhile.
uint64_t collectTable(tscc_store *S, const tscc_table_layout &T,
                      AggItems &Items) {
  const auto *St =
      reinterpret_cast<const tscc_table_state *>(S->base + T.state_off);
  uint32_t Used =
      std::min(__atomic_load_n(&St->used, __ATOMIC_RELAXED), T.capacity);
  return mergeAggEntries(T, S->base + T.entries_off, Used, Items);
}

uint32_t tableGen(tscc_store *S, const tscc_table_layout &T) {
  const auto *St =
      reinterpret_cast<const tscc_table_state *>(S->base + T.state_off);
  return __atomic_load_n(&St->gen, __ATOMIC_ACQUIRE);
}

} // namespace

uint64_t tscc::rt::mergeThreadParts(tscc_store *V, uint32_t Agg,
                                    AggItems &Items) {
  const tscc_table_layout *T = tscc_agg_table(V, Agg);
  if (!T || !T->shard_slots)
    return 0;
  uint32_t Gen = tableGen(V, *T);
  uint32_t High = std::min(
      __atomic_load_n(&tscc_shard_hdr(V)->threads_high, __ATOMIC_ACQUIRE),
      V->layout.thread_capacity);
  std::vector<uint8_t> Copy(uint64_t(T->shard_slots) * T->entry_size);
  uint64_t Implausible = 0;
  for (uint32_t Slot = 0; Slot < High; ++Slot) {
    const tscc_agg_shard *Sh =
        tscc_agg_thread_shard(V, Agg, static_cast<int32_t>(Slot));
    // Checked before and after the copy: a part that was started afresh
    // meanwhile (its thread saw a clear) is of a generation gone by.
    uint32_t Before = __atomic_load_n(&Sh->gen, __ATOMIC_ACQUIRE);
    uint32_t Used =
        std::min(__atomic_load_n(&Sh->used, __ATOMIC_ACQUIRE), T->shard_slots);
    if (Before != Gen || !Used)
      continue;
    memcpy(Copy.data(), Sh + 1, uint64_t(Used) * T->entry_size);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (__atomic_load_n(&Sh->gen, __ATOMIC_RELAXED) != Before)
      continue;
    Implausible += mergeAggEntries(*T, Copy.data(), Used, Items);
  }
  return Implausible;
}

void RetiredAggParts::take(tscc_store *V) {
  Parts.resize(V->layout.agg_count);
  for (uint32_t Agg = 0; Agg < V->layout.agg_count; ++Agg) {
    const tscc_table_layout *T = tscc_agg_table(V, Agg);
    uint32_t Gen = tableGen(V, *T);
    Part &P = Parts[Agg];
    if (P.Gen != Gen) { // cleared since it was last added to
      P.Items.clear();
      P.Gen = Gen;
    }
    mergeThreadParts(V, Agg, P.Items);
  }
}

void RetiredAggParts::mergeInto(tscc_store *Store, uint32_t Agg,
                                AggItems &Items) const {
  const tscc_table_layout *T = tscc_agg_table(Store, Agg);
  if (!T || Agg >= Parts.size() || Parts[Agg].Gen != tableGen(Store, *T))
    return;
  for (const auto &[Key, From] : Parts[Agg].Items) {
    auto [It, New] = Items.try_emplace(Key, From);
    if (!New)
      addItem(It->second, From);
  }
}

namespace {

void addItem(AggItem &Item, const AggItem &From) {
  Item.Value.count = static_cast<int64_t>(uint64_t(Item.Value.count) +
                                          uint64_t(From.Value.count));
  Item.Value.sum =
      static_cast<int64_t>(uint64_t(Item.Value.sum) + uint64_t(From.Value.sum));
  Item.Value.min = std::min(Item.Value.min, From.Value.min);
  Item.Value.max = std::max(Item.Value.max, From.Value.max);
  for (size_t B = 0; B < Item.Buckets.size() && B < From.Buckets.size(); ++B)
    Item.Buckets[B] += From.Buckets[B];
}

/// Keys whose stacks agents in processes numbered (TSCC_STACK_ID_AGENT),
/// rewritten with the ids of Stacks they stand for, and merged: one
/// symbolised stack is one entry, whoever unwound it. Entries whose stack
/// had no room in Stacks are left out (their updates were counted as
/// drops when the agent's id was found to stand for nothing).
void canonicalStackKeys(AggItems &ByKey, const AggregationDesc &Desc,
                        const StackTable &Stacks) {
  std::vector<size_t> At;
  size_t Off = 0;
  for (const tscc_field &F : Desc.KeyFields) {
    if (F.kind == TSCC_FIELD_STACK_ID && F.size == 8)
      At.push_back(Off);
    Off += F.size;
  }
  if (At.empty())
    return;
  AggItems Out;
  for (auto &[Key, Item] : ByKey) {
    std::string K = Key;
    bool Keep = true;
    for (size_t O : At) {
      uint64_t Id;
      if (O + 8 > K.size())
        continue;
      memcpy(&Id, K.data() + O, 8);
      Id = Stacks.canonical(Id);
      Keep = Keep && Id != 0;
      memcpy(K.data() + O, &Id, 8);
    }
    if (!Keep)
      continue;
    auto [It, New] = Out.try_emplace(std::move(K), Item);
    if (!New)
      addItem(It->second, Item);
  }
  ByKey = std::move(Out);
}

AggDump dumpItems(AggItems &ByKey, const AggregationDesc &Desc, int64_t Top,
                  const StackTable *Stacks, AggDump D) {
  if (Stacks)
    canonicalStackKeys(ByKey, Desc, *Stacks);
  std::vector<std::pair<std::string, AggItem>> Items(
      std::make_move_iterator(ByKey.begin()),
      std::make_move_iterator(ByKey.end()));
  // Deterministic: by value, then by key bytes.
  std::stable_sort(Items.begin(), Items.end(),
                   [&](const auto &A, const auto &B) {
                     return sortValue(D.Kind, A.second.Value) <
                            sortValue(D.Kind, B.second.Value);
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

AggDump emptyDump(const AggregationDesc &Desc) {
  AggDump D;
  D.Name = Desc.Name;
  D.Kind = Desc.Desc.kind;
  D.LhistLo = Desc.Desc.lhist_lo;
  D.LhistHi = Desc.Desc.lhist_hi;
  D.LhistStep = Desc.Desc.lhist_step;
  return D;
}

} // namespace

AggDump tscc::rt::snapshotAggregation(std::span<const AggSource> Sources,
                                      uint32_t Agg, const AggregationDesc &Desc,
                                      int64_t Top, const StackTable *Stacks) {
  AggDump D = emptyDump(Desc);
  AggItems ByKey;
  for (const AggSource &Src : Sources) {
    const tscc_table_layout *T = tscc_agg_table(Src.Store, Agg);
    if (!T)
      continue;
    D.Implausible += collectTable(Src.Store, *T, ByKey);
    for (tscc_store *V : Src.Shards)
      D.Implausible += mergeThreadParts(V, Agg, ByKey);
    if (Src.Retired)
      Src.Retired->mergeInto(Src.Store, Agg, ByKey);
  }
  return dumpItems(ByKey, Desc, Top, Stacks, std::move(D));
}

AggDump tscc::rt::snapshotAggregation(std::span<tscc_store *const> Stores,
                                      uint32_t Agg, const AggregationDesc &Desc,
                                      int64_t Top, const StackTable *Stacks) {
  std::vector<AggSource> Sources;
  for (tscc_store *S : Stores)
    Sources.push_back({S, {}, nullptr});
  return snapshotAggregation(Sources, Agg, Desc, Top, Stacks);
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
