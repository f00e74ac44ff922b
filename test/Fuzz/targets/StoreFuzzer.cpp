//===- StoreFuzzer.cpp - tsrun's readers over a store a target scribbled on ===//
//
// Every byte of the shared store can be written by a traced program, so all
// of it is hostile input to tsrun. The input drives a store of a fixed small
// shape (and a process's shard) through a sequence of steps: the
// operations an agent makes in a target (threads, records, map and
// aggregation updates), patches that overwrite any bytes of the mappings
// (the headers, the counters, the thread table and its index, the thread
// blocks, the rings, the tables), and what
// tsrun itself does with it (draining the rings, snapshots of every
// aggregation rendered as text and JSON, thread retirement, the
// lock with a short timeout). Nothing may crash, hang or grow.
//
//===----------------------------------------------------------------------===//

#include "tscc/Runtime/Aggregation.h"
#include "tscc/Runtime/Output.h"
#include "tscc/Runtime/SharedStore.h"

#include "JsonEvents.h"
#include "RingReader.h"

#include <cstring>
#include <sys/syscall.h>
#include <unistd.h>

using namespace tscc::rt;

namespace {

/// The store every input starts from, zeroed each time.
struct Fixture {
  std::unique_ptr<SharedStore> Store;
  std::vector<AggregationDesc> Aggs;
  std::vector<tscc_field> KeyField{{TSCC_FIELD_S64, 8}};

  Fixture() {
    StoreShape Shape;
    Shape.ClauseCount = 3;
    Shape.GlobalSize = 32;
    Shape.LocalsSize = 16;
    Shape.WithinCount = 2;
    Shape.MapCapacity = 8;
    Shape.ThreadCapacity = 4;
    Shape.RingSize = 4096;
    tscc_map Global{}, PerThread{};
    Global.key_size = PerThread.key_size = 8;
    Global.value_size = PerThread.value_size = 8;
    PerThread.flags = TSCC_MAP_THREAD;
    Shape.Maps = {Global, PerThread};
    for (uint32_t Kind : {TSCC_AGG_COUNT, TSCC_AGG_AVG, TSCC_AGG_STATS,
                          TSCC_AGG_HIST, TSCC_AGG_LHIST, TSCC_AGG_MIN}) {
      tscc_agg A{};
      A.kind = Kind;
      A.key_size = 8;
      if (Kind == TSCC_AGG_LHIST) {
        A.lhist_lo = -100;
        A.lhist_hi = 100;
        A.lhist_step = 10;
      }
      Shape.Aggs.push_back(A);
      Aggs.push_back({A, "a" + std::to_string(Kind), KeyField});
    }
    std::string Error;
    Store = SharedStore::create(Shape, Error);
    if (!Store)
      abort();
  }
};

/// Reads the input front to back; 0 once it is used up.
class Input {
public:
  Input(const uint8_t *Data, size_t Size) : Data(Data), Size(Size) {}
  bool empty() const { return Pos >= Size; }
  uint64_t take(unsigned Bytes) {
    uint64_t V = 0;
    for (unsigned I = 0; I < Bytes && Pos < Size; ++I)
      V |= uint64_t(Data[Pos++]) << (8 * I);
    return V;
  }
  std::span<const uint8_t> bytes(size_t N) {
    N = std::min(N, Size - Pos);
    std::span<const uint8_t> Out(Data + Pos, N);
    Pos += N;
    return Out;
  }

private:
  const uint8_t *Data;
  size_t Size, Pos = 0;
};

/// A patch target: a structure of the store or of the process's shard,
/// by number.
struct Region {
  uint8_t *Base; ///< the mapping it is in
  uint64_t Size;
  uint64_t Start;
};

Region region(SharedStore &S, unsigned Number) {
  const tscc_store_layout &L = S.layout();
  tscc_store *V = S.view();
  Region Store{V->base, L.size, 0}, Shard{V->shard, L.shard_size, 0};
  unsigned Ring = Number / 8 % L.thread_capacity;
  switch (Number % 8) {
  case 0:
    return Number / 8 % 2 ? Shard : Store; // the headers
  case 1:
    return {Shard.Base, Shard.Size, L.counters_off};
  case 2:
    return {Shard.Base, Shard.Size, L.threads_off};
  case 3:
    return {Shard.Base, Shard.Size, L.thread_index_off};
  case 4:
    return {Shard.Base, Shard.Size, L.blocks_off};
  case 5:
    return {Shard.Base, Shard.Size, L.rings_off + Ring * L.ring_stride};
  case 6:
    return {Shard.Base, Shard.Size,
            L.rings_off + Ring * L.ring_stride + sizeof(tscc_ring)};
  default: {
    const tscc_table_layout &T = S.tables()[Number / 8 % S.tables().size()];
    Region In = (T.flags & TSCC_TABLE_THREAD) ? Shard : Store;
    In.Start = Number / 64 % 3 == 0   ? T.state_off
               : Number / 64 % 3 == 1 ? T.index_off
                                      : T.entries_off;
    return In;
  }
  }
}

void patch(const Region &R, uint64_t Off, std::span<const uint8_t> Bytes) {
  Off = (R.Start + Off) % R.Size;
  size_t N = std::min<uint64_t>(Bytes.size(), R.Size - Off);
  memcpy(R.Base + Off, Bytes.data(), N);
}

void render(Fixture &F) {
  static FILE *Null = fopen("/dev/null", "w");
  for (uint32_t I = 0; I < F.Aggs.size(); ++I)
    for (int64_t Top : {0, 3}) {
      AggDump D = snapshotAggregation(F.Store->view(), I, F.Aggs[I], Top);
      std::string Text = renderAggregation(D) + aggJson(D).dump();
      fwrite(Text.data(), 1, Text.size(), Null);
    }
}

void step(Fixture &F, RingReader &Reader, Input &In) {
  tscc_store *V = F.Store->view();
  uint32_t Cap = V->layout.thread_capacity;
  int32_t Tid = static_cast<int32_t>(syscall(SYS_gettid));
  uint64_t Key = 0;
  switch (In.take(1) % 12) {
  case 0:
    tscc_thread_add(V, static_cast<uint32_t>(In.take(1) % 3),
                    static_cast<int32_t>(In.take(2)));
    return;
  case 1: {
    tscc_ring_record H{};
    H.type = TSCC_RING_RECORD;
    H.clause = static_cast<uint32_t>(In.take(1));
    uint32_t Ring = static_cast<uint32_t>(In.take(1) % Cap);
    std::span<const uint8_t> P = In.bytes(In.take(1) % 200);
    tscc_ring_write(V, Ring, &H, P.data(), static_cast<uint32_t>(P.size()));
    return;
  }
  case 2:
  case 3: {
    Key = In.take(1);
    int32_t Slot = static_cast<int32_t>(In.take(1) % Cap);
    uint32_t Map = static_cast<uint32_t>(In.take(1) % 2);
    if (auto *P = static_cast<int64_t *>(
            tscc_map_lookup(V, Map, Slot, &Key, 8, 1, nullptr)))
      ++*P;
    return;
  }
  case 4: {
    Key = In.take(1);
    uint32_t Agg = static_cast<uint32_t>(In.take(1) % F.Aggs.size());
    tscc_agg_update(V, Agg, &Key, 8, static_cast<int64_t>(In.take(8)));
    return;
  }
  case 5:
    Key = In.take(1);
    tscc_map_delete(V, static_cast<uint32_t>(In.take(1) % 2),
                    static_cast<int32_t>(In.take(1) % Cap), &Key, 8);
    return;
  case 6:
    tscc_thread_retire(V, static_cast<int32_t>(In.take(1) % Cap));
    return;
  case 7: {
    // Anywhere in the store or the shard.
    Region R = region(*F.Store, static_cast<unsigned>(In.take(1) % 2) * 8);
    uint64_t Off = In.take(4);
    patch(R, Off, In.bytes(In.take(1)));
    return;
  }
  case 8: {
    Region R = region(*F.Store, static_cast<unsigned>(In.take(2)));
    uint64_t Off = In.take(2);
    patch(R, Off, In.bytes(In.take(1)));
    return;
  }
  case 9: {
    RecordBatch Out;
    drainRings(V, Reader, Out);
    return;
  }
  case 10:
    tscc_agg_clear(V, static_cast<uint32_t>(In.take(1) % F.Aggs.size()));
    return;
  default:
    if (tscc_store_lock(V, Tid, 200'000) == TSCC_LOCK_OK)
      tscc_store_unlock(V, Tid);
    return;
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static Fixture F;
  memset(F.Store->view()->base, 0, F.Store->size());
  memset(F.Store->view()->shard, 0, F.Store->layout().shard_size);
  RingReader Reader;
  Input In(Data, Size);
  for (unsigned Steps = 0; !In.empty() && Steps < 256; ++Steps)
    step(F, Reader, In);
  RecordBatch Out;
  drainRings(F.Store->view(), Reader, Out);
  drainRings(F.Store->view(), Reader, Out);
  render(F);
  return 0;
}
