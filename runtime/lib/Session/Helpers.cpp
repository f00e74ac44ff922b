//===- Helpers.cpp - The helper table clause code calls -------------------===//
//
// The helpers are the only door from compiled clause code into the runtime.
// They run with the store lock held (runClause takes it) and must treat
// every argument as untrusted: a context that is not the clause's own, an
// id out of range, a key size that is not the table's, a buffer outside
// the clause's stack, store or image -- each is counted as a fault of the
// clause and ignored, never a crash. The agent has its own table
// (runtime/lib/InProcess/Agent/helpers.c) over the same store.
//
//===----------------------------------------------------------------------===//

#include "ClauseGuard.h"
#include "SessionState.h"

#include <pthread.h>

#include <cstdio>
#include <cstring>
#include <ctime>

using namespace tscc::rt;

namespace {

// Clause code reads target memory in small pieces; anything beyond this is
// a bug in the caller, not a read we should attempt.
constexpr uint64_t MaxRead = 1u << 20;
constexpr uint64_t PageSize = 4096;

FireScope &scope(const tscc_ctx *Ctx) {
  return *static_cast<FireScope *>(Ctx->runtime);
}

void countFault(const tscc_ctx *Ctx) {
  scope(Ctx).State->countFault(Ctx->clause);
}

void countDrop(const tscc_ctx *Ctx) {
  scope(Ctx).State->countDrop(Ctx->clause);
}

/// The store, and the firing process's shard.
tscc_store *store(const tscc_ctx *Ctx) { return scope(Ctx).View; }

/// Ctx if it is the context the running clause was given, else null (and
/// the running clause, if any, gets a fault). Clause code hands its context
/// back to every helper; a flipped register or a stale pointer must not be
/// dereferenced.
const tscc_ctx *checked(tscc_ctx *Ctx) {
  const tscc_ctx *Real = guardedContext();
  if (Real && Ctx == Real)
    return Ctx;
  if (Real)
    countFault(Real);
  return nullptr;
}

/// The calling thread's stack, found once per thread.
std::pair<uintptr_t, uintptr_t> threadStack() {
  thread_local std::pair<uintptr_t, uintptr_t> Range{0, 0};
  if (Range.second)
    return Range;
  pthread_attr_t A;
  void *Addr = nullptr;
  size_t Size = 0;
  if (pthread_getattr_np(pthread_self(), &A) == 0) {
    pthread_attr_getstack(&A, &Addr, &Size);
    pthread_attr_destroy(&A);
  }
  Range = {reinterpret_cast<uintptr_t>(Addr),
           reinterpret_cast<uintptr_t>(Addr) + Size};
  return Range;
}

bool within(uintptr_t Lo, uintptr_t Hi, uintptr_t P, uint64_t Len) {
  return P >= Lo && P <= Hi && Len <= Hi - P;
}

/// Whether [P, P + Len) is memory clause code may hand a helper: its own
/// stack frame, the session's store (variables, maps) or its image. Any
/// other pointer would make the helper, not the clause, fault (in tsrun,
/// outside the clause guard: a crash).
bool clauseMemory(const tscc_ctx *Ctx, const void *P, uint64_t Len) {
  if (!P)
    return false;
  uintptr_t A = reinterpret_cast<uintptr_t>(P);
  auto [StackLo, StackHi] = threadStack();
  if (StackHi && within(StackLo, StackHi, A, Len))
    return true;
  SessionState &S = *scope(Ctx).State;
  uintptr_t StoreLo = reinterpret_cast<uintptr_t>(scope(Ctx).View->base);
  if (within(StoreLo, StoreLo + S.Store->size(), A, Len))
    return true;
  uintptr_t ShardLo = reinterpret_cast<uintptr_t>(scope(Ctx).View->shard);
  if (within(ShardLo, ShardLo + S.Store->layout().shard_size, A, Len))
    return true;
  // A linked-in program's memory is the executable's: not checkable here.
  return S.P.containsMemory(A, Len).value_or(true);
}

/// The table of map Map (or of aggregation Map - map_count) if it exists and
/// its key is KeySize bytes at a readable Key; otherwise a fault.
const tscc_table_layout *checkedTable(const tscc_ctx *Ctx, uint32_t Table,
                                      const void *Key, uint32_t KeySize) {
  tscc_store *V = store(Ctx);
  if (Table >= V->layout.map_count + V->layout.agg_count ||
      V->tables[Table].key_size != KeySize ||
      (KeySize && !clauseMemory(Ctx, Key, KeySize))) {
    countFault(Ctx);
    return nullptr;
  }
  return &V->tables[Table];
}

int32_t hReadMem(tscc_ctx *C, uint64_t Addr, void *Dst, uint64_t Len) {
  HelperScope InHelper;
  const tscc_ctx *Ctx = checked(C);
  if (!Ctx)
    return -1;
  if (Len == 0)
    return 0;
  if (Len > MaxRead || !clauseMemory(Ctx, Dst, Len)) {
    countFault(Ctx);
    return -1;
  }
  FireScope &F = scope(Ctx);
  if (!F.Tgt || !F.Tgt->readMemory(Addr, Dst, Len)) {
    memset(Dst, 0, Len);
    countFault(Ctx);
    return -1;
  }
  return 0;
}

int64_t hReadStr(tscc_ctx *C, uint64_t Addr, char *Dst, uint64_t Max) {
  HelperScope InHelper;
  const tscc_ctx *Ctx = checked(C);
  if (!Ctx)
    return -1;
  if (Max == 0)
    return 0;
  if (Max > MaxRead || !clauseMemory(Ctx, Dst, Max)) {
    countFault(Ctx);
    return -1;
  }
  FireScope &F = scope(Ctx);
  Dst[0] = '\0';
  if (!F.Tgt) {
    memset(Dst, 0, Max);
    countFault(Ctx);
    return -1;
  }
  // Read page by page: the bytes after the NUL may be unmapped, so never ask
  // for more than the rest of the current page.
  uint64_t Pos = 0;
  while (Pos + 1 < Max) {
    uint64_t Here = Addr + Pos;
    uint64_t Chunk = std::min(Max - 1 - Pos, PageSize - (Here % PageSize));
    if (!F.Tgt->readMemory(Here, Dst + Pos, Chunk)) {
      memset(Dst, 0, Max);
      countFault(Ctx);
      return -1;
    }
    if (void *Nul = memchr(Dst + Pos, '\0', Chunk)) {
      int64_t Len = static_cast<char *>(Nul) - Dst;
      // The chunk read may run past the NUL into unrelated target bytes;
      // clear them so equal strings are equal byte for byte (map keys).
      memset(Dst + Len, 0, Max - Len);
      return Len;
    }
    Pos += Chunk;
  }
  Dst[Pos] = '\0';
  return static_cast<int64_t>(Pos);
}

void hEmit(tscc_ctx *C, const void *Record, uint32_t Size) {
  HelperScope InHelper;
  const tscc_ctx *Ctx = checked(C);
  if (!Ctx)
    return;
  if (Size >= sizeof(tscc_record) && !clauseMemory(Ctx, Record, Size)) {
    countFault(Ctx);
    return;
  }
  scope(Ctx).State->emit(scope(Ctx), *C, Record, Size);
}

uint64_t hClockNs(tscc_ctx *) {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return static_cast<uint64_t>(T.tv_sec) * 1000000000ull + T.tv_nsec;
}

// Full tables are not warned about here: that writes to stderr, and a
// helper runs with the store lock held. The table remembers it was found
// full; the reader warns when it next delivers records.
void *hMapLookup(tscc_ctx *C, uint32_t Map, const void *Key, uint32_t KeySize,
                 int32_t Create) {
  HelperScope InHelper;
  const tscc_ctx *Ctx = checked(C);
  if (!Ctx)
    return nullptr;
  if (Map >= store(Ctx)->layout.map_count) {
    countFault(Ctx);
    return nullptr;
  }
  if (!checkedTable(Ctx, Map, Key, KeySize))
    return nullptr;
  int Full = 0;
  void *V = tscc_map_lookup(store(Ctx), Map, scope(Ctx).Slot, Key, KeySize,
                            Create, &Full);
  if (Full)
    countDrop(Ctx);
  return V;
}

void hMapDelete(tscc_ctx *C, uint32_t Map, const void *Key, uint32_t KeySize) {
  HelperScope InHelper;
  const tscc_ctx *Ctx = checked(C);
  if (!Ctx)
    return;
  if (Map >= store(Ctx)->layout.map_count) {
    countFault(Ctx);
    return;
  }
  if (checkedTable(Ctx, Map, Key, KeySize))
    tscc_map_delete(store(Ctx), Map, scope(Ctx).Slot, Key, KeySize);
}

/// False when a stack field of the key is 0: stack_id() found no room.
bool stackKeysKnown(const AggregationDesc &D, const void *Key,
                    uint32_t KeySize) {
  uint64_t Off = 0;
  for (const tscc_field &F : D.KeyFields) {
    if (F.kind == TSCC_FIELD_STACK_ID && Off + 8 <= KeySize) {
      uint64_t Id;
      memcpy(&Id, static_cast<const uint8_t *>(Key) + Off, 8);
      if (Id == 0)
        return false;
    }
    Off += F.size;
  }
  return true;
}

void hAggUpdate(tscc_ctx *C, uint32_t Agg, const void *Key, uint32_t KeySize,
                int64_t Value) {
  HelperScope InHelper;
  const tscc_ctx *Ctx = checked(C);
  if (!Ctx)
    return;
  tscc_store *V = store(Ctx);
  if (Agg >= V->layout.agg_count) {
    countFault(Ctx);
    return;
  }
  if (!checkedTable(Ctx, V->layout.map_count + Agg, Key, KeySize))
    return;
  if (!stackKeysKnown(scope(Ctx).State->Aggs[Agg], Key, KeySize)) {
    countDrop(Ctx); // stack_id() had no room, and said so
    return;
  }
  if (tscc_agg_update(V, Agg, Key, KeySize, Value) != 0)
    countDrop(Ctx); // full: see hMapLookup
}

void hAggPrint(tscc_ctx *C, uint32_t Agg, int64_t Top) {
  HelperScope InHelper;
  const tscc_ctx *Ctx = checked(C);
  if (!Ctx)
    return;
  SessionState &S = *scope(Ctx).State;
  if (Agg >= S.Aggs.size()) {
    countFault(Ctx);
    return;
  }
  S.dumpAgg(Agg, Top);
}

void hAggClear(tscc_ctx *C, uint32_t Agg) {
  HelperScope InHelper;
  const tscc_ctx *Ctx = checked(C);
  if (!Ctx)
    return;
  if (Agg >= store(Ctx)->layout.agg_count) {
    countFault(Ctx);
    return;
  }
  tscc_agg_clear(store(Ctx), Agg);
}

void hRequestExit(tscc_ctx *C) {
  HelperScope InHelper;
  const tscc_ctx *Ctx = checked(C);
  if (!Ctx)
    return;
  SessionState &S = *scope(Ctx).State;
  S.S.requestStop();
  if (S.S.options().OnStop)
    S.S.options().OnStop();
}

int32_t hWithin(tscc_ctx *C, uint32_t Index) {
  HelperScope InHelper;
  const tscc_ctx *Ctx = checked(C);
  if (!Ctx)
    return 0;
  if (Index >= scope(Ctx).State->P.withinTable().size()) {
    countFault(Ctx);
    return 0;
  }
  uint32_t *W = tscc_thread_within(store(Ctx), scope(Ctx).Slot);
  return W && W[Index] > 0;
}

void hStackTrace(tscc_ctx *C, uint32_t Depth) {
  HelperScope InHelper;
  if (!checked(C))
    return;
  scope(C).State->stackTrace(scope(C), *C, Depth);
}

uint64_t hStackId(tscc_ctx *C, uint32_t Depth) {
  HelperScope InHelper;
  if (!checked(C))
    return 0;
  return scope(C).State->stackId(scope(C), *C, Depth);
}

int64_t hComm(tscc_ctx *C, char *Dst, uint64_t Max) {
  HelperScope InHelper;
  const tscc_ctx *Ctx = checked(C);
  if (!Ctx || !Max)
    return 0;
  if (Max > MaxRead || !clauseMemory(Ctx, Dst, Max)) {
    countFault(Ctx);
    return 0;
  }
  Target *T = scope(Ctx).Tgt;
  std::string Name = T ? T->threadComm(Ctx->tid) : std::string();
  size_t N = std::min<size_t>(Name.size(), Max - 1);
  memcpy(Dst, Name.data(), N);
  Dst[N] = 0;
  return static_cast<int64_t>(N);
}

void hFault(tscc_ctx *Ctx, uint32_t Kind) {
  SessionState &S = *scope(Ctx).State;
  S.countFault(Ctx->clause);
  if (tscc_clause_counters *K =
          tscc_store_counters(S.Store->view(), Ctx->clause);
      K && Kind < 64)
    __atomic_fetch_or(&K->fault_kinds, uint64_t{1} << Kind, __ATOMIC_RELAXED);
}

} // namespace

// What the loader resolves memcpy, memset and memmove to in clause code run
// by tsrun (LoadedImage.cpp): libc's, once the destination is known to be
// memory the clause may write. A corrupted length or pointer would
// otherwise let libc overwrite tsrun's heap or stacks before (or instead
// of) faulting. The source may be any of tsrun's memory (the context's
// strings are on its heap); a fault reading it is the clause's.
namespace {
void checkDestination(void *Dst, size_t Len) {
  if (Len == 0)
    return;
  const tscc_ctx *Ctx = guardedContext();
  if (Ctx && !clauseMemory(Ctx, Dst, Len))
    abandonClause(reinterpret_cast<uint64_t>(__builtin_return_address(0)));
}
} // namespace

extern "C" void *tscc_clause_memcpy(void *Dst, const void *Src, size_t Len) {
  checkDestination(Dst, Len);
  return memcpy(Dst, Src, Len);
}

extern "C" void *tscc_clause_memmove(void *Dst, const void *Src, size_t Len) {
  checkDestination(Dst, Len);
  return memmove(Dst, Src, Len);
}

extern "C" void *tscc_clause_memset(void *Dst, int C, size_t Len) {
  checkDestination(Dst, Len);
  return memset(Dst, C, Len);
}

const tscc_helpers SessionState::Helpers = {
    TSCC_ABI_MAJOR,
    TSCC_ABI_MINOR,
    sizeof(tscc_helpers),
    0,
    hReadMem,
    hReadStr,
    hEmit,
    hClockNs,
    hMapLookup,
    hMapDelete,
    hAggUpdate,
    hAggPrint,
    hAggClear,
    hRequestExit,
    hWithin,
    hStackTrace,
    hFault,
    hStackId,
    hComm,
};

void SessionState::emit(FireScope &F, tscc_ctx &Ctx, const void *Rec,
                        uint32_t Size) {
  // The record is checked when it is read back (records from targets are
  // untrusted); here only what the ring needs.
  if (!Rec || Size < sizeof(tscc_record) || Size % 8) {
    countFault(Ctx.clause);
    warnOnce("bad-record-" + std::to_string(Ctx.clause),
             "clause " + std::to_string(Ctx.clause) +
                 " emitted a malformed record; dropped and counted as a "
                 "fault");
    return;
  }
  Domain::OwnRecord D;
  D.Target = F.TargetId; // tsrun ran the clause: it knows for whom
  D.Hdr.type = TSCC_RING_RECORD;
  D.Hdr.size = static_cast<uint32_t>(sizeof(tscc_ring_record) + Size);
  D.Hdr.data_model = static_cast<uint16_t>(Ctx.data_model);
  D.Hdr.target = F.TargetId;
  D.Hdr.tid = static_cast<int32_t>(Ctx.tid);
  D.Hdr.clause = Ctx.clause;
  D.Hdr.probe = Ctx.probe;
  D.Hdr.time_ns = F.TimeNs;
  D.Bytes.assign(static_cast<const uint8_t *>(Rec),
                 static_cast<const uint8_t *>(Rec) + Size);
  // In tsrun's own memory, never in a ring a target could write; as much
  // room as a thread's ring has.
  std::lock_guard<std::mutex> G(ExitMutex);
  Domain &Dom = *F.Dom;
  auto LostKey = std::make_pair(F.TargetId, D.Hdr.tid);
  auto Lost = Dom.OwnLost.find(LostKey);
  uint64_t Marker =
      Lost == Dom.OwnLost.end() ? 0 : sizeof(tscc_ring_record) + 8;
  // --on-full=block: the clause's records are delivered before its target
  // runs on (fire() delivers after each clause), so it waits for them.
  if (Dom.OwnBytes + Marker + D.Hdr.size > Store->layout().ring_size &&
      !S.options().BlockWhenFull) {
    countLost(Ctx.clause);
    ++Dom.OwnLost[LostKey];
    ++Dom.OwnRecordsLost;
    return;
  }
  // The domain's store lock is held: this is the record's place in the
  // domain's order, after the marker of records of its thread dropped
  // before it.
  if (Marker) {
    tscc_thread T{TSCC_THREAD_LIVE, F.TargetId, D.Hdr.tid, 0};
    LostMark L = lostMarker(&T, Lost->second, Dom.OwnPushed);
    Domain::OwnRecord M;
    M.Hdr = L.Hdr;
    M.Target = F.TargetId;
    M.Hdr.time_ns = F.TimeNs;
    M.Bytes.assign(reinterpret_cast<const uint8_t *>(&L.Count),
                   reinterpret_cast<const uint8_t *>(&L.Count) + 8);
    Dom.OwnLost.erase(Lost);
    Dom.OwnBytes += M.Hdr.size;
    Dom.OwnRecords.push_back(std::move(M));
    ++Dom.OwnPushed;
  }
  D.Hdr.seq = Dom.OwnPushed;
  Dom.OwnBytes += D.Hdr.size;
  Dom.OwnRecords.push_back(std::move(D));
  ++Dom.OwnPushed;
}

unsigned SessionState::stackDepthLimit(uint32_t Requested) const {
  unsigned Max = S.options().MaxStackDepth;
  return Requested == 0 || Requested > Max ? Max : Requested;
}

UnwoundStack SessionState::asRequested(UnwoundStack S,
                                       uint32_t Requested) const {
  unsigned Depth = stackDepthLimit(Requested);
  if (S.PCs.size() > Depth) {
    S.PCs.resize(Depth);
    S.End = StackEnd::DepthLimit;
  }
  if (S.End == StackEnd::DepthLimit && Depth == Requested)
    S.End = StackEnd::Complete;
  return S;
}

std::vector<uint64_t> SessionState::stackRecord(UnwoundStack S,
                                                unsigned Depth) {
  std::vector<uint64_t> &PCs = S.PCs;
  if (PCs.size() > Depth)
    PCs.resize(Depth);
  std::vector<uint64_t> Buf(2 + 1 + PCs.size());
  tscc_record H{};
  H.kind = TSCC_REC_STACK;
  H.size = static_cast<uint32_t>(Buf.size() * 8);
  H.id = Depth;
  H.format = UINT32_MAX;
  memcpy(Buf.data(), &H, sizeof(H));
  uint32_t Count = static_cast<uint32_t>(PCs.size());
  uint32_t End = static_cast<uint32_t>(S.End);
  memcpy(&Buf[2], &Count, 4);
  memcpy(reinterpret_cast<char *>(&Buf[2]) + 4, &End, 4);
  if (!PCs.empty())
    memcpy(&Buf[3], PCs.data(), PCs.size() * 8);
  return Buf;
}

uint64_t SessionState::stackId(FireScope &F, tscc_ctx &Ctx, uint32_t Depth) {
  if (!F.Tgt) // BEGIN/END/interval: sema does not let them get here
    return 0;
  UnwoundStack S = asRequested(
      F.Tgt->unwindStack(Ctx.tid, Ctx.regs, stackDepthLimit(Depth)), Depth);
  uint64_t Id = Stacks.intern(
      F.TargetId, S.PCs, [&F](uint64_t PC) { return F.Tgt->symbolize(PC); },
      S.End);
  if (Id == 0) {
    warnOnce("stack-table-full",
             "more than " + std::to_string(StackTable::DefaultMaxStacks) +
                 " distinct stacks used as keys; the updates of further "
                 "ones are dropped (counted as drops)");
  }
  return Id;
}

void SessionState::stackTrace(FireScope &F, tscc_ctx &Ctx, uint32_t Depth) {
  unsigned Limit = stackDepthLimit(Depth);
  UnwoundStack S;
  if (F.Tgt)
    S = asRequested(F.Tgt->unwindStack(Ctx.tid, Ctx.regs, Limit), Depth);
  std::vector<uint64_t> Rec = stackRecord(std::move(S), Limit);
  emit(F, Ctx, Rec.data(), static_cast<uint32_t>(Rec.size() * 8));
}

std::string Target::threadComm(int64_t Tid) const {
  // TASK_COMM_LEN is 16: 15 bytes and the NUL.
  std::string Comm = name().substr(0, 15);
  if (pid() <= 0 || Tid <= 0)
    return Comm;
  std::string Path = "/proc/" + std::to_string(pid()) + "/task/" +
                     std::to_string(Tid) + "/comm";
  if (FILE *F = fopen(Path.c_str(), "re")) {
    char Buf[32];
    if (fgets(Buf, sizeof(Buf), F)) {
      Comm = Buf;
      if (!Comm.empty() && Comm.back() == '\n')
        Comm.pop_back();
    }
    fclose(F);
  }
  return Comm;
}
