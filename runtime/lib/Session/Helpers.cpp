//===- Helpers.cpp - The helper table clause code calls -------------------===//
//
// The helpers are the only door from compiled clause code into the runtime.
// They run with the session lock and the store lock held (runClause takes
// both) and must treat every argument as untrusted: a bad index, size or
// record is counted and ignored, never a crash. The agent has its own table
// (runtime/agent/helpers.c) over the same store.
//
//===----------------------------------------------------------------------===//

#include "SessionState.h"

#include <cstring>
#include <ctime>

using namespace tscc::rt;

namespace {

// Clause code reads target memory in small pieces; anything beyond this is
// a bug in the caller, not a read we should attempt.
constexpr uint64_t MaxRead = 1u << 20;
constexpr uint64_t PageSize = 4096;

FireScope &scope(tscc_ctx *Ctx) { return *static_cast<FireScope *>(Ctx->runtime); }

void countFault(tscc_ctx *Ctx) { scope(Ctx).State->countFault(Ctx->clause); }

void countDrop(tscc_ctx *Ctx) { scope(Ctx).State->countDrop(Ctx->clause); }

tscc_store *store(tscc_ctx *Ctx) { return scope(Ctx).State->Store->view(); }

int32_t hReadMem(tscc_ctx *Ctx, uint64_t Addr, void *Dst, uint64_t Len) {
  if (!Dst || Len == 0)
    return 0;
  FireScope &F = scope(Ctx);
  if (!F.Tgt || Len > MaxRead || !F.Tgt->readMemory(Addr, Dst, Len)) {
    if (Len <= MaxRead)
      memset(Dst, 0, Len);
    countFault(Ctx);
    return -1;
  }
  return 0;
}

int64_t hReadStr(tscc_ctx *Ctx, uint64_t Addr, char *Dst, uint64_t Max) {
  if (!Dst || Max == 0)
    return 0;
  FireScope &F = scope(Ctx);
  Max = std::min(Max, MaxRead);
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

void hEmit(tscc_ctx *Ctx, const void *Record, uint32_t Size) {
  scope(Ctx).State->emit(scope(Ctx), *Ctx, Record, Size);
}

uint64_t hClockNs(tscc_ctx *) {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return static_cast<uint64_t>(T.tv_sec) * 1000000000ull + T.tv_nsec;
}

void *hMapLookup(tscc_ctx *Ctx, uint32_t Map, const void *Key, uint32_t KeySize,
                int32_t Create) {
  int Full = 0;
  void *V = tscc_map_lookup(store(Ctx), Map, scope(Ctx).Slot, Key, KeySize,
                            Create, &Full);
  if (!Full)
    return V;
  countDrop(Ctx);
  std::lock_guard<std::mutex> G(scope(Ctx).State->Lock);
  scope(Ctx).State->warnFullTablesLocked();
  return nullptr;
}

void hMapDelete(tscc_ctx *Ctx, uint32_t Map, const void *Key,
               uint32_t KeySize) {
  tscc_map_delete(store(Ctx), Map, scope(Ctx).Slot, Key, KeySize);
}

void hAggUpdate(tscc_ctx *Ctx, uint32_t Agg, const void *Key, uint32_t KeySize,
               int64_t Value) {
  if (tscc_agg_update(store(Ctx), Agg, Key, KeySize, Value) == 0)
    return;
  countDrop(Ctx);
  std::lock_guard<std::mutex> G(scope(Ctx).State->Lock);
  scope(Ctx).State->warnFullTablesLocked();
}

void hAggPrint(tscc_ctx *Ctx, uint32_t Agg, int64_t Top) {
  SessionState &S = *scope(Ctx).State;
  if (Agg < S.Aggs.size())
    S.dumpAgg(Agg, Top);
}

void hAggClear(tscc_ctx *Ctx, uint32_t Agg) {
  tscc_agg_clear(store(Ctx), Agg);
}

void hRequestExit(tscc_ctx *Ctx) {
  SessionState &S = *scope(Ctx).State;
  S.S.requestStop();
  if (S.S.options().OnStop)
    S.S.options().OnStop();
}

int32_t hWithin(tscc_ctx *Ctx, uint32_t Index) {
  uint32_t *W = tscc_thread_within(store(Ctx), scope(Ctx).Slot);
  if (!W || Index >= scope(Ctx).State->P.withinTable().size())
    return 0;
  return W[Index] > 0;
}

void hStackTrace(tscc_ctx *Ctx, uint32_t Depth) {
  scope(Ctx).State->stackTrace(scope(Ctx), *Ctx, Depth);
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

const tscc_helpers SessionState::Helpers = {
    TSCC_ABI_MAJOR, TSCC_ABI_MINOR, sizeof(tscc_helpers), 0,
    hReadMem,       hReadStr,       hEmit,                hClockNs,
    hMapLookup,     hMapDelete,     hAggUpdate,           hAggPrint,
    hAggClear,      hRequestExit,   hWithin,              hStackTrace,
    hFault,
};

void SessionState::emit(FireScope &F, tscc_ctx &Ctx, const void *Rec,
                        uint32_t Size) {
  // The record is checked when it is read back (records from targets are
  // untrusted); here only what the ring needs.
  if (!Rec || Size < sizeof(tscc_record) || Size % 8) {
    countDrop(Ctx.clause);
    warnOnce("bad-record-" + std::to_string(Ctx.clause),
             "clause " + std::to_string(Ctx.clause) +
                 " emitted a malformed record; dropped");
    return;
  }
  tscc_ring_record H{};
  H.type = TSCC_RING_RECORD;
  H.data_model = static_cast<uint16_t>(Ctx.data_model);
  H.target = F.TargetId;
  H.tid = static_cast<int32_t>(Ctx.tid);
  H.clause = Ctx.clause;
  H.probe = Ctx.probe;
  H.time_ns = F.TimeNs;
  if (tscc_ring_write(Store->view(), Store->ownRing(), &H, Rec, Size) != 0)
    countDrop(Ctx.clause);
}

unsigned SessionState::stackDepthLimit(uint32_t Requested) const {
  unsigned Max = S.options().MaxStackDepth;
  return Requested == 0 || Requested > Max ? Max : Requested;
}

std::vector<uint64_t> SessionState::stackRecord(std::vector<uint64_t> PCs,
                                                unsigned Depth) {
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
  memcpy(&Buf[2], &Count, 4);
  if (!PCs.empty())
    memcpy(&Buf[3], PCs.data(), PCs.size() * 8);
  return Buf;
}

void SessionState::stackTrace(FireScope &F, tscc_ctx &Ctx, uint32_t Depth) {
  Depth = stackDepthLimit(Depth);
  std::vector<uint64_t> PCs;
  if (F.Tgt)
    PCs = F.Tgt->unwindStack(Ctx.tid, Ctx.regs, Depth);
  std::vector<uint64_t> Rec = stackRecord(std::move(PCs), Depth);
  emit(F, Ctx, Rec.data(), static_cast<uint32_t>(Rec.size() * 8));
}
