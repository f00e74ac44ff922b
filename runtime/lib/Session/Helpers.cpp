//===- Helpers.cpp - The helper table clause code calls -------------------===//
//
// The helpers are the only door from compiled clause code into the runtime.
// They run with the session lock held (fire() takes it) and must treat every
// argument as untrusted: a bad index, size or record is counted and ignored,
// never a crash.
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

void countFault(tscc_ctx *Ctx) {
  FireScope &F = scope(Ctx);
  if (Ctx->clause < F.State->Counters.size())
    ++F.State->Counters[Ctx->clause].Faults;
}

void countDrop(tscc_ctx *Ctx) {
  FireScope &F = scope(Ctx);
  if (Ctx->clause < F.State->Counters.size())
    ++F.State->Counters[Ctx->clause].Drops;
}

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
  return scope(Ctx).State->mapLookup(scope(Ctx), Ctx->clause, Map, Key,
                                     KeySize, Create != 0);
}

void hMapDelete(tscc_ctx *Ctx, uint32_t Map, const void *Key,
               uint32_t KeySize) {
  scope(Ctx).State->mapDelete(scope(Ctx), Map, Key, KeySize);
}

void hAggUpdate(tscc_ctx *Ctx, uint32_t Agg, const void *Key, uint32_t KeySize,
               int64_t Value) {
  SessionState &S = *scope(Ctx).State;
  if (Agg >= S.Aggs.size() || (KeySize && !Key)) {
    countDrop(Ctx);
    return;
  }
  std::string_view K(static_cast<const char *>(Key), KeySize);
  if (!S.Aggs[Agg].update(K, Value))
    countDrop(Ctx);
}

void hAggPrint(tscc_ctx *Ctx, uint32_t Agg, int64_t Top) {
  SessionState &S = *scope(Ctx).State;
  if (Agg < S.Aggs.size())
    S.dumpAgg(Agg, Top);
}

void hAggClear(tscc_ctx *Ctx, uint32_t Agg) {
  SessionState &S = *scope(Ctx).State;
  if (Agg < S.Aggs.size())
    S.Aggs[Agg].clear();
}

void hRequestExit(tscc_ctx *Ctx) {
  SessionState &S = *scope(Ctx).State;
  S.S.requestStop();
  if (S.S.options().OnStop)
    S.S.options().OnStop();
}

int32_t hWithin(tscc_ctx *Ctx, uint32_t Index) {
  FireScope &F = scope(Ctx);
  if (!F.Thread || Index >= F.Thread->Within.size())
    return 0;
  return F.Thread->Within[Index] > 0;
}

void hStackTrace(tscc_ctx *Ctx, uint32_t Depth) {
  scope(Ctx).State->stackTrace(scope(Ctx), *Ctx, Depth);
}

} // namespace

const tscc_helpers SessionState::Helpers = {
    TSCC_ABI_MAJOR, TSCC_ABI_MINOR, sizeof(tscc_helpers), 0,
    hReadMem,       hReadStr,       hEmit,                hClockNs,
    hMapLookup,     hMapDelete,     hAggUpdate,           hAggPrint,
    hAggClear,      hRequestExit,   hWithin,              hStackTrace,
};

void *SessionState::mapLookup(FireScope &F, uint32_t Clause, uint32_t Map,
                              const void *Key, uint32_t KeySize, bool Create) {
  if (Map >= P.maps().size() || !Key)
    return nullptr;
  const tscc_map &M = P.maps()[Map];
  if (KeySize != M.key_size)
    return nullptr;
  MapTable *Table = &GlobalMaps[Map];
  if (M.flags & TSCC_MAP_THREAD) {
    if (!F.Thread)
      return nullptr;
    Table = &F.Thread->Maps[Map];
  }
  std::string K(static_cast<const char *>(Key), KeySize);
  auto It = Table->Entries.find(K);
  if (It != Table->Entries.end())
    return It->second.data();
  if (!Create)
    return nullptr;
  if (Table->Entries.size() >= S.options().MapCapacity) {
    if (Clause < Counters.size())
      ++Counters[Clause].Drops;
    warnOnce("map-full-" + std::to_string(Map),
             "associative array '" + std::string(P.string(M.name)) +
                 "' is full (" + std::to_string(S.options().MapCapacity) +
                 " entries); further new keys are dropped");
    return nullptr;
  }
  return Table->Entries.emplace(std::move(K), Block(M.value_size, 16))
      .first->second.data();
}

void SessionState::mapDelete(FireScope &F, uint32_t Map, const void *Key,
                             uint32_t KeySize) {
  if (Map >= P.maps().size() || !Key || KeySize != P.maps()[Map].key_size)
    return;
  MapTable *Table = &GlobalMaps[Map];
  if (P.maps()[Map].flags & TSCC_MAP_THREAD) {
    if (!F.Thread)
      return;
    Table = &F.Thread->Maps[Map];
  }
  Table->Entries.erase(std::string(static_cast<const char *>(Key), KeySize));
}

void SessionState::emit(FireScope &F, tscc_ctx &Ctx, const void *Rec,
                        uint32_t Size) {
  tscc_record H;
  bool Ok = Rec && Size >= sizeof(H);
  if (Ok) {
    memcpy(&H, Rec, sizeof(H));
    Ok = H.size == Size && Size % 8 == 0;
    if (H.kind == TSCC_REC_PRINTF || H.kind == TSCC_REC_TRACE)
      Ok = Ok && H.format < P.formats().size();
    else if (H.kind != TSCC_REC_STACK)
      Ok = false;
  }
  if (!Ok) {
    if (Ctx.clause < Counters.size())
      ++Counters[Ctx.clause].Drops;
    warnOnce("bad-record-" + std::to_string(Ctx.clause),
             "clause " + std::to_string(Ctx.clause) +
                 " emitted a malformed record; dropped");
    return;
  }
  RecordOrigin O;
  O.Pid = Ctx.pid;
  O.Tid = Ctx.tid;
  O.DM = static_cast<DataModel>(Ctx.data_model);
  O.Clause = Ctx.clause;
  O.Probe = Ctx.probe;
  O.TimeNs = F.TimeNs;
  O.Tgt = F.Tgt;
  RecordView V;
  V.Header = H;
  V.Args = {static_cast<const uint8_t *>(Rec) + sizeof(H), Size - sizeof(H)};
  Sink->record(O, V);
  // Output that cannot be written (closed pipe, full disk) ends the session
  // like bpftrace does, instead of tracing into the void.
  if (!Sink->ok() && !OutputFailed) {
    OutputFailed = true;
    S.requestStop();
    if (S.options().OnStop)
      S.options().OnStop();
  }
}

void SessionState::stackTrace(FireScope &F, tscc_ctx &Ctx, uint32_t Depth) {
  unsigned Max = S.options().MaxStackDepth;
  if (Depth == 0 || Depth > Max)
    Depth = Max;
  std::vector<uint64_t> PCs;
  if (F.Tgt)
    PCs = F.Tgt->unwindStack(Ctx.tid, Ctx.regs, Depth);
  if (PCs.size() > Depth)
    PCs.resize(Depth);
  // tscc_record, then a TSCC_FIELD_STACK argument: count, pad, PCs.
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
  emit(F, Ctx, Buf.data(), H.size);
}
