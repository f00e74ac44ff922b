//===- SharedStore.cpp - Layout, creation and host functions of the store --===//
#include "tscc/Runtime/SharedStore.h"

#include "tscc/Runtime/ProbeProgram.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <span>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace tscc::rt;

namespace {

// The store is sparse (a memfd touched page by page), so reserving is
// cheap; these bounds only keep a huge --map-capacity or lhist from asking
// for more address space than a process can give.
constexpr uint64_t MaxTableBytes = 4ull << 30;
constexpr uint64_t MaxStoreBytes = 512ull << 30;
/// All threads' rings together (4096 rings of the default 64 MiB); large
/// rings mean fewer threads with state at once (at least MinThreads). Only
/// tsrun maps a shard whole; an agent maps the part of a ring its thread
/// uses.
constexpr uint64_t MaxRingBytes = 256ull << 30;
constexpr uint32_t MinThreads = 16;
/// Burst extents of one process (--burst-buffers): each is looked at when
/// a thread's own ring is full.
constexpr uint32_t MaxExtents = 64;

uint64_t alignTo(uint64_t V, uint64_t A) { return (V + A - 1) & ~(A - 1); }

uint32_t pow2AtLeast(uint64_t V) {
  uint64_t P = 1;
  while (P < V)
    P <<= 1;
  return static_cast<uint32_t>(std::min<uint64_t>(P, 1u << 31));
}

uint32_t aggBuckets(const tscc_agg &A) {
  if (A.kind == TSCC_AGG_HIST)
    return 65;
  if (A.kind == TSCC_AGG_LHIST)
    return static_cast<uint32_t>(
        tscc_lhist_bucket_count(A.lhist_lo, A.lhist_hi, A.lhist_step));
  return 0;
}

/// Lays out one table at Cur. Capacity shrinks for entries so large that
/// the table would not fit its budget (wide lhist aggregations).
bool layoutTable(uint64_t &Cur, uint32_t KeySize, uint32_t ValueSize,
                 uint64_t Capacity, tscc_table_layout &T, std::string &Error) {
  T.value_off =
      static_cast<uint32_t>(alignTo(sizeof(tscc_entry) + KeySize, 16));
  T.value_size = ValueSize;
  T.entry_size = static_cast<uint32_t>(alignTo(T.value_off + ValueSize, 16));
  T.key_size = KeySize;
  Capacity = std::min<uint64_t>(Capacity, MaxTableBytes / T.entry_size);
  Capacity = std::min<uint64_t>(Capacity, (1u << 30) - 1);
  if (Capacity == 0) {
    Error = "an aggregation entry is too large for the shared store";
    return false;
  }
  T.capacity = static_cast<uint32_t>(Capacity);
  T.index_slots = pow2AtLeast(2 * Capacity);
  Cur = alignTo(Cur, 64);
  T.state_off = Cur;
  Cur += alignTo(sizeof(tscc_table_state), 64);
  T.index_off = Cur;
  Cur = alignTo(Cur + uint64_t(T.index_slots) * 4, 64);
  T.entries_off = Cur;
  Cur += uint64_t(T.capacity) * T.entry_size;
  return true;
}

uint64_t aggValueSize(const tscc_agg &A) {
  return sizeof(tscc_agg_value) + uint64_t(aggBuckets(A)) * 8;
}

uint64_t entrySize(uint64_t KeySize, uint64_t ValueSize) {
  return alignTo(alignTo(sizeof(tscc_entry) + KeySize, 16) + ValueSize, 16);
}

/// How many keys of one aggregation a thread keeps to itself
/// (tscc_agg_shard): all of an aggregation without a key, a few hot ones
/// of a keyed one (a thread that meets more updates the shared table under
/// the session lock), fewer for large entries, and none for entries so
/// large (wide lhist) that a part per thread would cost too much memory.
constexpr uint32_t ShardKeys = 8;
constexpr uint64_t ShardBytes = 4096;

uint32_t shardSlots(const tscc_agg &A) {
  uint64_t Entry = entrySize(A.key_size, aggValueSize(A));
  if (A.key_size == 0)
    return Entry <= 4 * ShardBytes ? 1 : 0;
  return static_cast<uint32_t>(
      std::min<uint64_t>(ShardKeys, ShardBytes / Entry));
}

} // namespace

StoreShape StoreShape::of(const ProbeProgram &P, uint64_t MapCapacity) {
  StoreShape S;
  const tscc_header &H = P.header();
  S.ClauseCount = static_cast<uint32_t>(P.clauses().size());
  S.FormatCount = static_cast<uint32_t>(P.formats().size());
  S.WithinCount = static_cast<uint32_t>(P.withinTable().size());
  S.GlobalSize = H.global_size;
  S.GlobalAlign = H.global_align ? H.global_align : 8;
  S.LocalsSize = std::max(H.thread_size[0], H.thread_size[1]);
  S.LocalsAlign = H.thread_align ? H.thread_align : 8;
  S.Maps.assign(P.maps().begin(), P.maps().end());
  S.Aggs.assign(P.aggs().begin(), P.aggs().end());
  S.MapCapacity = MapCapacity;
  return S;
}

namespace {

/// The tables of the maps and aggregations: __thread maps go into the
/// shard (at ShardCur), the others into the store (at StoreCur).
bool layoutTables(const StoreShape &Shape, uint64_t &StoreCur,
                  uint64_t &ShardCur, std::span<const uint32_t> ShardSlots,
                  std::span<const uint32_t> ShardOffs,
                  std::vector<tscc_table_layout> &Tables, std::string &Error) {
  for (const tscc_map &M : Shape.Maps) {
    tscc_table_layout T{};
    bool PerThread = M.flags & TSCC_MAP_THREAD;
    if (!layoutTable(PerThread ? ShardCur : StoreCur, M.key_size, M.value_size,
                     Shape.MapCapacity, T, Error))
      return false;
    if (PerThread)
      T.flags |= TSCC_TABLE_THREAD;
    Tables.push_back(T);
  }
  for (const tscc_agg &A : Shape.Aggs) {
    tscc_table_layout T{};
    uint32_t Buckets = aggBuckets(A);
    uint64_t ValueSize = sizeof(tscc_agg_value) + uint64_t(Buckets) * 8;
    if (ValueSize > (1u << 30)) {
      Error = "an aggregation has too many buckets for the shared store";
      return false;
    }
    if (!layoutTable(StoreCur, A.key_size, static_cast<uint32_t>(ValueSize),
                     Shape.MapCapacity, T, Error))
      return false;
    T.shard_slots = ShardSlots[Tables.size() - Shape.Maps.size()];
    T.shard_off = ShardOffs[Tables.size() - Shape.Maps.size()];
    T.flags = TSCC_TABLE_AGG;
    T.agg_kind = A.kind;
    T.buckets = Buckets;
    T.lhist_lo = A.lhist_lo;
    T.lhist_hi = A.lhist_hi;
    T.lhist_step = A.lhist_step;
    Tables.push_back(T);
  }
  return true;
}

/// A process's shard up to its tables: its header, its clause counters,
/// its threads, their index and blocks. ShardSlots/ShardOffs get each
/// aggregation's part of a thread block.
uint64_t layoutShard(const StoreShape &Shape, tscc_store_layout &L,
                     std::vector<uint32_t> &ShardSlots,
                     std::vector<uint32_t> &ShardOffs) {
  uint64_t Cur = alignTo(sizeof(tscc_shard_header), 64);
  L.counters_off = Cur;
  // A row per thread slot and the shared row; a slot's row starts on a
  // cache line of its own.
  uint64_t Row =
      alignTo(uint64_t(L.clause_count) * sizeof(tscc_clause_counters), 64);
  Cur += Row * (uint64_t(L.thread_capacity) + 1);
  Cur = alignTo(Cur, 64);
  L.threads_off = Cur;
  Cur += uint64_t(L.thread_capacity) * sizeof(tscc_thread);
  L.thread_index_slots = pow2AtLeast(2 * uint64_t(L.thread_capacity));
  Cur = alignTo(Cur, 64);
  L.thread_index_off = Cur;
  Cur += uint64_t(L.thread_index_slots) * 4;

  // A thread block: the __thread variables, the within() depths, the
  // heads of the thread's chains in per-thread maps, then its own part of
  // each aggregation, each on cache lines of its own.
  uint64_t BAlign = std::max<uint64_t>(Shape.LocalsAlign, 64);
  L.locals_size = Shape.LocalsSize;
  L.within_off = static_cast<uint32_t>(alignTo(Shape.LocalsSize, 16));
  L.map_heads_off = L.within_off + 4 * L.within_count;
  uint64_t Block = L.map_heads_off + 4 * uint64_t(L.map_count);
  for (const tscc_agg &A : Shape.Aggs) {
    uint32_t Slots = shardSlots(A);
    Block = alignTo(Block, 64);
    ShardSlots.push_back(Slots);
    ShardOffs.push_back(Slots ? static_cast<uint32_t>(Block) : 0);
    if (Slots)
      Block += sizeof(tscc_agg_shard) +
               Slots * entrySize(A.key_size, aggValueSize(A));
  }
  L.thread_block_size = static_cast<uint32_t>(alignTo(Block, BAlign));
  Cur = alignTo(Cur, BAlign);
  L.blocks_off = Cur;
  Cur += uint64_t(L.thread_block_size) * L.thread_capacity;

  L.shard_tables_off = alignTo(Cur, 4096);
  return L.shard_tables_off;
}

/// The rings, last in the shard and each a whole number of pages, so that
/// an agent can map each one by itself (store.h).
/// The burst extents follow them, as large rings of their own.
uint64_t layoutRings(uint64_t Cur, tscc_store_layout &L) {
  L.rings_off = alignTo(Cur, 4096);
  L.ring_stride = alignTo(sizeof(tscc_ring) + L.ring_size, 4096);
  L.extents_off = L.rings_off + L.ring_stride * uint64_t(L.thread_capacity);
  L.extent_stride =
      L.extent_count ? alignTo(sizeof(tscc_ring) + L.extent_size, 4096) : 0;
  return L.extents_off + L.extent_stride * uint64_t(L.extent_count);
}

} // namespace

bool tscc::rt::computeStoreLayout(const StoreShape &Shape, tscc_store_layout &L,
                                  std::vector<tscc_table_layout> &Tables,
                                  std::string &Error) {
  L = {};
  Tables.clear();
  L.magic = TSCC_STORE_MAGIC;
  L.clause_count = Shape.ClauseCount;
  L.map_count = static_cast<uint32_t>(Shape.Maps.size());
  L.agg_count = static_cast<uint32_t>(Shape.Aggs.size());
  L.within_count = Shape.WithinCount;
  L.format_count = Shape.FormatCount;
  L.ring_size = pow2AtLeast(std::max<uint32_t>(Shape.RingSize, 4096));
  L.thread_capacity = static_cast<uint32_t>(std::min<uint64_t>(
      std::max<uint32_t>(Shape.ThreadCapacity, 1),
      std::max<uint64_t>(MaxRingBytes / L.ring_size, MinThreads)));
  // Extents no larger than a thread's own ring would add nothing.
  if (Shape.ExtentCount && Shape.ExtentSize > L.ring_size) {
    L.extent_size = pow2AtLeast(Shape.ExtentSize);
    L.extent_count = std::min<uint32_t>(Shape.ExtentCount, MaxExtents);
  }

  // The store: what the processes share.
  uint64_t Cur = alignTo(sizeof(tscc_store_header), 64);
  uint64_t GAlign = std::max<uint64_t>(Shape.GlobalAlign, 64);
  Cur = alignTo(Cur, GAlign);
  L.globals_off = Cur;
  L.globals_size = Shape.GlobalSize;
  Cur += Shape.GlobalSize;
  L.tables_off = alignTo(Cur, 4096);
  Cur = L.tables_off;

  std::vector<uint32_t> ShardSlots, ShardOffs;
  uint64_t ShardCur = layoutShard(Shape, L, ShardSlots, ShardOffs);
  if (!layoutTables(Shape, Cur, ShardCur, ShardSlots, ShardOffs, Tables, Error))
    return false;
  ShardCur = layoutRings(ShardCur, L);
  L.size = alignTo(std::max<uint64_t>(Cur, 4096), 4096);
  L.shard_size = alignTo(std::max<uint64_t>(ShardCur, 4096), 4096);
  if (L.size > MaxStoreBytes || L.shard_size > MaxStoreBytes) {
    Error = "the script's variables need " +
            std::to_string(std::max(L.size, L.shard_size) >> 20) +
            " MiB of shared memory; lower --map-capacity or --thread-buffer";
    return false;
  }
  return true;
}

namespace {

/// A sealable memfd of Size bytes, mapped read-write here. -1 (with Error)
/// on failure.
int createMemfd(const char *Name, uint64_t Size, void *&Base,
                std::string &Error) {
  int Fd = static_cast<int>(
      syscall(SYS_memfd_create, Name, MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (Fd < 0) {
    Error = std::string("memfd_create: ") + strerror(errno);
    return -1;
  }
  if (ftruncate(Fd, static_cast<off_t>(Size)) != 0) {
    Error = std::string("sizing ") + Name + ": " + strerror(errno);
    close(Fd);
    return -1;
  }
  Base = mmap(nullptr, Size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE,
              Fd, 0);
  if (Base == MAP_FAILED) {
    Error = std::string("mapping ") + Name + ": " + strerror(errno);
    close(Fd);
    return -1;
  }
  return Fd;
}

/// Seals what no process may change about the memfd: its size, so that no
/// target can truncate it under tsrun's mapping (whose reads would then
/// raise SIGBUS in tsrun), and the seals themselves.
bool seal(int Fd, unsigned Extra, std::string &Error) {
  if (fcntl(Fd, F_ADD_SEALS,
            F_SEAL_SHRINK | F_SEAL_GROW | Extra | F_SEAL_SEAL) == 0)
    return true;
  Error = std::string("sealing shared memory: ") + strerror(errno);
  return false;
}

} // namespace

std::unique_ptr<ControlPage> ControlPage::create(std::string &Error) {
  std::unique_ptr<ControlPage> C(new ControlPage());
  void *Base = nullptr;
  C->Fd = createMemfd("tscc-control", C->size(), Base, Error);
  if (C->Fd < 0)
    return nullptr;
  C->Words = static_cast<tscc_control *>(Base);
  C->Words->magic = TSCC_CONTROL_MAGIC;
  C->Words->version = TSCC_STORE_VERSION;
  C->Words->size = sizeof(tscc_control);
  // From here on only this mapping can write: every other one, in tsrun or
  // in a target, is read-only and cannot be made writable.
  if (!seal(C->Fd, F_SEAL_FUTURE_WRITE, Error))
    return nullptr;
  return C;
}

ControlPage::~ControlPage() {
  if (Words)
    munmap(Words, size());
  if (Fd >= 0)
    close(Fd);
}

std::unique_ptr<SharedStore> SharedStore::create(const StoreShape &Shape,
                                                 std::string &Error,
                                                 ControlPage *Control) {
  std::unique_ptr<SharedStore> S(new SharedStore());
  if (!computeStoreLayout(Shape, S->Layout, S->Tables, Error))
    return nullptr;
  void *Base = nullptr;
  S->Fd = createMemfd("tscc-store", S->Layout.size, Base, Error);
  if (S->Fd < 0)
    return nullptr;
  S->View.base = static_cast<uint8_t *>(Base);
  S->View.layout = S->Layout;
  S->View.tables = S->Tables.data();
  S->View.control = Control ? &Control->words() : nullptr;
  if (!seal(S->Fd, 0, Error))
    return nullptr;
  tscc_store_header &H = S->header();
  H.magic = TSCC_STORE_MAGIC;
  H.version = TSCC_STORE_VERSION;
  H.header_size = sizeof(tscc_store_header);
  H.size = S->Layout.size;
  S->Own = Shard::create(*S, Error);
  if (!S->Own)
    return nullptr;
  S->View.shard = S->Own->view()->shard;
  return S;
}

SharedStore::~SharedStore() {
  Own.reset();
  if (View.base)
    munmap(View.base, Layout.size);
  if (Fd >= 0)
    close(Fd);
}

std::unique_ptr<Shard> Shard::create(SharedStore &Store, std::string &Error) {
  std::unique_ptr<Shard> S(new Shard());
  uint64_t Size = Store.layout().shard_size;
  void *Base = nullptr;
  S->Fd = createMemfd("tscc-shard", Size, Base, Error);
  if (S->Fd < 0)
    return nullptr;
  S->View = *Store.view();
  S->View.shard = static_cast<uint8_t *>(Base);
  if (!seal(S->Fd, 0, Error))
    return nullptr;
  tscc_shard_header &H = S->header();
  H.magic = TSCC_SHARD_MAGIC;
  H.version = TSCC_STORE_VERSION;
  H.header_size = sizeof(tscc_shard_header);
  H.size = Size;
  return S;
}

Shard::~Shard() {
  if (View.shard)
    munmap(View.shard, size());
  if (Fd >= 0)
    close(Fd);
}

std::vector<uint8_t> SharedStore::serializedLayout() const {
  std::vector<uint8_t> Out(sizeof(Layout) +
                           Tables.size() * sizeof(tscc_table_layout));
  memcpy(Out.data(), &Layout, sizeof(Layout));
  if (!Tables.empty())
    memcpy(Out.data() + sizeof(Layout), Tables.data(),
           Tables.size() * sizeof(tscc_table_layout));
  return Out;
}

//===----------------------------------------------------------------------===//
// What store.c needs from tsrun
//===----------------------------------------------------------------------===//

extern "C" uint64_t tscc_host_now_ns(void) {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return static_cast<uint64_t>(T.tv_sec) * 1000000000ull +
         static_cast<uint64_t>(T.tv_nsec);
}

namespace {
thread_local std::function<void()> *LockWaitHook = nullptr;
} // namespace

void SharedStore::setLockWaitHook(std::function<void()> *Hook) {
  LockWaitHook = Hook;
}

extern "C" void tscc_host_yield(void) {
  if (LockWaitHook)
    (*LockWaitHook)();
  sched_yield();
}

extern "C" int tscc_host_thread_alive(int32_t Tid) {
  // kill() would take 0 and negative numbers for process groups.
  return Tid > 0 && (kill(Tid, 0) == 0 || errno != ESRCH);
}

// tsrun never waits on a target's thread past its timeout (store.h).
extern "C" int tscc_host_owner_running(int32_t) { return 0; }

extern "C" void tscc_host_unlocked(int32_t) {}

extern "C" uint8_t *tscc_host_ring(tscc_store *S, uint32_t Ring, uint64_t) {
  return S->shard + tscc_ring_offset(&S->layout, Ring);
}

// tsrun's own records never go through a target's ring (store.h).
extern "C" int tscc_host_ring_wait(tscc_store *, uint32_t, uint64_t) {
  return 0;
}

extern "C" void tscc_host_wake(uint32_t *Futex) {
  syscall(SYS_futex, Futex, FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}
