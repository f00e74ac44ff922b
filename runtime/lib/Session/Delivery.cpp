//===- Delivery.cpp - The store lock, shards, and records to the sink -----===//
//
// What tsrun does with the shared state between clauses: takes the store
// lock, retires what exited, notes where every ring stands (a cut),
// copies the records out of the shards and hands them to the sink in
// order, attributed to the process whose shard held them, and gives
// exited processes back to their backends once their records are out.
//
//===----------------------------------------------------------------------===//

#include "SessionState.h"

#include "tscc/Runtime/ModuleImage.h"
#include "tscc/agent.h"
#include "tscc/unwind_table.h"

#include <climits>
#include <cstring>
#include <sys/syscall.h>
#include <unistd.h>

using namespace tscc::rt;

//===----------------------------------------------------------------------===//
// The store lock, and records from the rings to the sink
//===----------------------------------------------------------------------===//

namespace {
thread_local int32_t OwnTid = 0;
int32_t ownTid() {
  if (!OwnTid)
    OwnTid = static_cast<int32_t>(syscall(SYS_gettid));
  return OwnTid;
}
} // namespace

bool SessionState::lockStore(Domain &D, uint64_t TimeoutNs) {
  return tscc_store_lock(D.Store->view(), ownTid(), TimeoutNs) == TSCC_LOCK_OK;
}

void SessionState::unlockStore(Domain &D) {
  tscc_store_unlock(D.Store->view(), ownTid());
}

namespace {

uint64_t saturatingAdd(uint64_t A, uint64_t B) {
  return A > UINT64_MAX - B ? UINT64_MAX : A + B;
}

/// Adds the counters at From (tsrun's own memory) to Sum.
void addCounters(tscc_clause_counters &Sum, const tscc_clause_counters &From) {
  Sum.fired = saturatingAdd(Sum.fired, From.fired);
  Sum.faults = saturatingAdd(Sum.faults, From.faults);
  Sum.drops = saturatingAdd(Sum.drops, From.drops);
  Sum.fault_kinds |= From.fault_kinds;
  Sum.lost = saturatingAdd(Sum.lost, From.lost);
}

} // namespace

tscc_clause_counters SessionState::totalCounters(uint32_t Clause) {
  tscc_clause_counters Sum{};
  if (!Store)
    return Sum;
  // Every shard's rows (one per thread slot, and the shared one).
  tscc_store_sum_counters(Store->view(), Clause, &Sum);
  std::lock_guard<std::mutex> G(ExitMutex);
  if (Clause < RetiredCounters.size())
    addCounters(Sum, RetiredCounters[Clause]);
  for (auto &[Key, E] : Shards)
    tscc_store_sum_counters(E.Mem->view(), Clause, &Sum);
  return Sum;
}

tscc_store *SessionState::viewLocked(Target &T, uint32_t Id) {
  Domain *D = domainForLocked(&T);
  if (!D)
    return nullptr;
  // A process that shares another's memory has its threads in that one's
  // shard, whichever side runs its clauses.
  if (auto Sh = SharedShardOf.find(Id); Sh != SharedShardOf.end()) {
    ShardEntry &E = Shards.at(Sh->second);
    if (E.Dom == D)
      return E.Mem->view();
  }
  if (auto Cur = ShardOf.find(Id); Cur != ShardOf.end()) {
    ShardEntry &E = Shards.at(Cur->second);
    if (E.Dom == D)
      return E.Mem->view();
    // Its process changed users (a set-id exec): what it contributes from
    // now on goes to its new domain, never to the old one; its old shard
    // goes once its rings are read.
    E.Moved = true;
  }
  std::string Error;
  std::unique_ptr<Shard> Mem = Shard::create(*D->Store, Error);
  if (!Mem)
    return nullptr;
  // A process that shared another's memory and is now in another domain
  // (a set-id exec) can no longer be named there.
  for (auto &[Key, Other] : Shards)
    if (Other.Dom != D)
      Other.Sharers.erase(Id);
  uint64_t Key = NextShard++;
  ShardEntry &E = Shards[Key];
  E.Target = Id;
  E.Dom = D;
  E.Mem = std::move(Mem);
  ShardOf[Id] = Key;
  return E.Mem->view();
}

tscc_store *SessionState::view(Target &T, uint32_t Id) {
  if (!domainFor(&T))
    return nullptr;
  std::lock_guard<std::mutex> G(ExitMutex);
  return viewLocked(T, Id);
}

void SessionState::retireExitedLocked() {
  for (auto [Id, Tid] : ExitedThreads) {
    auto Cur = SharedShardOf.find(Id);
    if (Cur == SharedShardOf.end() && (Cur = ShardOf.find(Id)) == ShardOf.end())
      continue;
    tscc_store *V = Shards.at(Cur->second).Mem->view();
    int32_t Slot = tscc_thread_lookup(V, Id, static_cast<int32_t>(Tid));
    if (Slot >= 0)
      tscc_thread_retire(V, Slot);
  }
  ExitedThreads.clear();
  // A process that is gone takes its shards with it once its records are
  // out (releaseDeliveredLocked); until then its rings are read as usual.
  ExitedTargets.clear();
}

SessionState::Cut::Part SessionState::settleLocked(Domain &D, bool Locked) {
  std::lock_guard<std::mutex> G(ExitMutex);
  Cut::Part C;
  C.Dom = &D;
  if (Locked)
    retireExitedLocked();
  std::vector<uint64_t> Gone;
  for (auto &[Key, E] : Shards) {
    if (E.Dom != &D)
      continue;
    // A shard left behind by a set-id exec goes once all of it is read.
    if (E.Moved && E.Reader.drained(E.Mem->view())) {
      Gone.push_back(Key);
      continue;
    }
    C.Rings.push_back({Key, DrainCut{}});
    // Without the lock, slots are not freed: their writers may be busy.
    if (Locked)
      E.Reader.cut(E.Mem->view(), C.Rings.back().second);
    else
      E.Reader.heads(E.Mem->view(), C.Rings.back().second);
  }
  for (uint64_t Key : Gone)
    releaseShardLocked(Key);
  C.OwnUpTo = D.OwnPushed;
  C.Number = D.Cuts.fetch_add(1, std::memory_order_acq_rel) + 1;
  return C;
}

bool SessionState::collectPart(const Cut::Part &P, RecordBatch &Mine,
                               std::vector<size_t> &Runs, size_t MaxRecords) {
  size_t First = Mine.size();
  // In batches only where tsrun's own records of the cut (a run of their
  // own) are out already.
  if (P.Dom->OwnTaken < P.OwnUpTo && !P.Dom->OwnRecords.empty())
    MaxRecords = SIZE_MAX;
  bool More = false;
  // Each process's records, from its own shard: that is who wrote them,
  // whatever they say (but for the processes that share its memory, and
  // so its shard, which tsrun knows of: a record may name one of them).
  for (const auto &[Key, Rings] : P.Rings) {
    auto It = Shards.find(Key);
    if (It == Shards.end())
      continue; // released since: everything of it was delivered
    size_t FromShard = Mine.size();
    It->second.Reader.collect(It->second.Mem->view(), Rings, Mine, Runs,
                              P.Rings.size() == 1 ? MaxRecords : SIZE_MAX);
    More = More || (P.Rings.size() == 1 && MaxRecords != SIZE_MAX &&
                    It->second.Reader.pending(Rings));
    // A shard nobody shares (the usual case) holds its owner's records
    // only: no look-up per record.
    if (It->second.Sharers.empty())
      for (size_t I = FromShard; I < Mine.size(); ++I)
        Mine[I].Target = It->second.Target;
    else
      for (size_t I = FromShard; I < Mine.size(); ++I)
        Mine[I].Target = recordOwnerLocked(It->second, Mine[I].Hdr);
  }
  // tsrun's own records of this cut: one run, in the order tsrun ran
  // their clauses.
  Domain &D = *P.Dom;
  Runs.push_back(Mine.size());
  while (D.OwnTaken < P.OwnUpTo && !D.OwnRecords.empty()) {
    const Domain::OwnRecord &R = D.OwnRecords.front();
    D.OwnBytes -= R.Hdr.size;
    Mine.add(R.Hdr, R.Bytes.data(), R.Bytes.size()).Target = R.Target;
    D.OwnRecords.pop_front();
    ++D.OwnTaken;
  }
  for (size_t I = First; I < Mine.size(); ++I)
    Mine[I].Domain = D.Index;
  return More;
}

bool SessionState::collect(const Cut &C, RecordBatch &Out, size_t MaxRecords) {
  std::lock_guard<std::mutex> G(ExitMutex);
  Out.clear();
  // Every ring of every domain (and tsrun's own records) is a run in its
  // own order; the runs are merged by the records' times, ties to the
  // earlier domain, shard and ring. One busy ring, the usual case at high
  // rates, is a single run: nothing to merge.
  Runs.clear();
  bool More = false;
  for (const Cut::Part &P : C.Parts)
    More = collectPart(P, Out, Runs,
                       C.Parts.size() == 1 ? MaxRecords : SIZE_MAX) ||
           More;
  mergeRunsByTime(Out.Records, Runs);
  return More;
}

DrainStats SessionState::drainStatsLocked() const {
  DrainStats D = RetiredStats;
  for (const auto &[Key, E] : Shards) {
    D.Corrupt += E.Reader.Stats.Corrupt;
    D.SeqGaps += E.Reader.Stats.SeqGaps;
    D.Lost += E.Reader.Stats.Lost;
  }
  for (const auto &Dom : Domains)
    D.Lost += Dom->OwnRecordsLost;
  return D;
}

void SessionState::deliverUpTo(const Cut &C) {
  std::lock_guard<std::mutex> G(Lock);
  // Collected under Lock too: two threads draining at once must not hand
  // over their records out of order, nor count a cut as delivered while
  // the other still holds records of it.
  // A cut of one busy ring goes out in batches (RingReader::collect).
  while (Store && collect(C, Batch, DeliveryBatch))
    deliverLocked(Batch);
  deliverLocked(Batch);
  Batch.clear();
  for (const Cut::Part &P : C.Parts)
    P.Dom->DeliveredCut = std::max(P.Dom->DeliveredCut, P.Number);
  releaseDeliveredLocked();
}

void SessionState::releaseShardLocked(uint64_t Key) {
  auto It = Shards.find(Key);
  if (It == Shards.end())
    return;
  // What the process counted stays counted, and what it asked for is
  // still heard; the rest goes.
  if (__atomic_load_n(&It->second.Mem->header().exit_requested,
                      __ATOMIC_ACQUIRE))
    ExitSeen = true;
  tscc_store *V = It->second.Mem->view();
  for (uint32_t C = 0; C < RetiredCounters.size(); ++C)
    tscc_store_sum_counters(V, C, &RetiredCounters[C]);
  if (It->second.Dom)
    It->second.Dom->RetiredAggs.take(V);
  RetiredStats.Corrupt += It->second.Reader.Stats.Corrupt;
  RetiredStats.SeqGaps += It->second.Reader.Stats.SeqGaps;
  RetiredStats.Lost += It->second.Reader.Stats.Lost;
  if (auto Cur = ShardOf.find(It->second.Target);
      Cur != ShardOf.end() && Cur->second == Key)
    ShardOf.erase(Cur);
  std::erase_if(SharedShardOf,
                [Key](const auto &E) { return E.second == Key; });
  Shards.erase(It);
}

bool SessionState::handShardOverLocked(uint64_t Key) {
  // Its owner is gone, but a process that shares its memory still writes
  // into it: the shard becomes that one's.
  for (auto &[Id, Cur] : SharedShardOf) {
    if (Cur != Key || ShardOf.count(Id))
      continue;
    ShardEntry &E = Shards.at(Key);
    if (auto Old = ShardOf.find(E.Target);
        Old != ShardOf.end() && Old->second == Key)
      ShardOf.erase(Old);
    E.Target = Id;
    E.Sharers.erase(Id);
    ShardOf[Id] = Key;
    SharedShardOf.erase(Id);
    return true;
  }
  return false;
}

void SessionState::leaveShardLocked(uint32_t Id) {
  // Its records still in the shard stay its own (it stays a sharer until
  // it is released); an agent of its own (after exec) gets a shard of its
  // own.
  SharedShardOf.erase(Id);
  auto Cur = ShardOf.find(Id);
  if (Cur == ShardOf.end())
    return;
  // The owner leaves a memory others still use: they keep the shard.
  uint64_t Key = Cur->second;
  if (handShardOverLocked(Key))
    Shards.at(Key).Sharers.insert(Id);
}

void SessionState::shareShardLocked(uint32_t Owner, uint32_t Sharer) {
  auto Cur = SharedShardOf.find(Owner);
  if (Cur == SharedShardOf.end() &&
      (Cur = ShardOf.find(Owner)) == ShardOf.end())
    return;
  uint64_t Key = Cur->second;
  Shards.at(Key).Sharers.insert(Sharer);
  SharedShardOf[Sharer] = Key;
}

void SessionState::markTrailingLossLocked(ShardEntry &E, int64_t Pid,
                                          uint64_t Drops) {
  // Every record of the process is out: what its threads dropped after
  // their last record that fitted is marked here, after them. A count a
  // program wrote cannot claim more than its clauses lost (Drops: the
  // clauses' `lost` counters added up).
  tscc_store *V = E.Mem->view();
  uint32_t High = std::min(
      __atomic_load_n(&tscc_shard_hdr(V)->threads_high, __ATOMIC_ACQUIRE),
      V->layout.thread_capacity);
  for (uint32_t Slot = 0; Slot < High; ++Slot) {
    tscc_ring *R = tscc_ring_at(V, Slot);
    uint64_t Lost = __atomic_load_n(&R->dropped, __ATOMIC_RELAXED) -
                    __atomic_load_n(&R->marked, __ATOMIC_RELAXED);
    // A count above the clauses' lost records (a program wrote it, or a count
    // wrapped) is bounded, not ignored: the marker still says where
    // records went missing.
    Lost = std::min(Lost, Drops);
    if (!Lost)
      continue;
    LostRecords L;
    L.Pid = Pid;
    L.Tid = tscc_thread_at(V, static_cast<int32_t>(Slot))->tid;
    L.Count = Lost;
    uint64_t Now = tscc_host_now_ns();
    L.TimeNs = Now > StartNs ? Now - StartNs : 0;
    Sink->lost(L);
  }
}

void SessionState::markTrailingLossAllLocked() {
  uint64_t Drops = 0; // totalCounters() takes ExitMutex
  for (const tscc_clause &C : P.clauses())
    Drops = saturatingAdd(Drops, totalCounters(C.id).lost);
  std::lock_guard<std::mutex> G(ExitMutex);
  for (auto &[Key, E] : Shards) {
    auto It = Targets.find(E.Target);
    markTrailingLossLocked(E, It != Targets.end() ? It->second.Pid : 0, Drops);
  }
}

void SessionState::releaseDeliveredLocked() {
  bool Released = false;
  std::erase_if(ExitedUndelivered, [&](const Undelivered &E) {
    // Not while a cut taken later is still to be delivered: it may hold
    // the loss marker of a thread whose slot it freed (RingReader::cut),
    // which only its shard can attribute.
    if (E.Dom &&
        (E.Cut > E.Dom->DeliveredCut ||
         E.Dom->Cuts.load(std::memory_order_acquire) > E.Dom->DeliveredCut))
      return false;
    auto It = Targets.find(E.Id);
    if (It != Targets.end()) {
      Target *T = It->second.Tgt;
      int64_t Pid = It->second.Pid;
      uint64_t Drops = 0; // totalCounters() takes ExitMutex
      for (const tscc_clause &C : P.clauses())
        Drops = saturatingAdd(Drops, totalCounters(C.id).lost);
      Targets.erase(It);
      TargetIds.erase(T);
      Launched.erase(T);
      {
        std::lock_guard<std::mutex> G(ExitMutex);
        std::vector<uint64_t> Keys;
        for (auto &[Key, S] : Shards) {
          S.Sharers.erase(E.Id);
          if (S.Target == E.Id && !handShardOverLocked(Key))
            Keys.push_back(Key);
        }
        SharedShardOf.erase(E.Id);
        for (uint64_t Key : Keys) {
          markTrailingLossLocked(Shards.at(Key), Pid, Drops);
          releaseShardLocked(Key);
        }
      }
      // The last use: from here on its backend may destroy it.
      T->releaseBySession();
      Released = true;
    }
    return true;
  });
  if (Released)
    Releases.fetch_add(1, std::memory_order_release);
}

bool SessionState::validRecord(const DrainedRecord &D,
                               const TargetEntry *T) const {
  const tscc_ring_record &H = D.Hdr;
  std::span<const uint8_t> Payload = D.Payload;
  if (H.clause >= P.clauses().size() || H.probe >= P.probes().size() ||
      H.data_model >= TSCC_DM_COUNT || !T)
    return false;
  if (H.type == TSCC_RING_PRINT_AGG)
    return Payload.size() >= 16;
  if (H.type == TSCC_RING_STACK_NEW) {
    uint64_t Id;
    uint32_t Count;
    if (Payload.size() < 16)
      return false;
    memcpy(&Id, Payload.data(), 8);
    memcpy(&Count, Payload.data() + 8, 4);
    return (Id & TSCC_STACK_ID_AGENT) &&
           Payload.size() == 16 + 8 * uint64_t(Count);
  }
  if (H.type == TSCC_RING_STACK_SNAPSHOT) {
    tscc_stack_snapshot Snap;
    if (Payload.size() < sizeof(Snap))
      return false;
    memcpy(&Snap, Payload.data(), sizeof(Snap));
    return Payload.size() ==
           sizeof(Snap) + 8 * uint64_t(Snap.shadow_count) + Snap.stack_size;
  }
  tscc_record R;
  if (H.type != TSCC_RING_RECORD || Payload.size() < sizeof(R))
    return false;
  memcpy(&R, Payload.data(), sizeof(R));
  if (R.size != Payload.size() || R.size % 8)
    return false;
  if (R.kind == TSCC_REC_PRINTF || R.kind == TSCC_REC_TRACE)
    return R.format < P.formats().size();
  return R.kind == TSCC_REC_STACK;
}

std::vector<uint64_t>
SessionState::unwindSnapshot(Target *T, std::span<const uint8_t> Payload,
                             uint32_t Probe) {
  tscc_stack_snapshot Snap;
  memcpy(&Snap, Payload.data(), sizeof(Snap));
  std::vector<uint64_t> Shadow(Snap.shadow_count);
  if (!Shadow.empty())
    memcpy(Shadow.data(), Payload.data() + sizeof(Snap), Shadow.size() * 8);
  // An exit clause runs while the frame it returns from is still on the
  // shadow stack (the agent pops it after the clauses), but its return
  // address is already the PC: its entry stands for no slot of the stack,
  // and taken for the next hijacked one it would shift every caller by a
  // frame (rec, rec, rec instead of rec, rec, main).
  if (Probe < P.probes().size() &&
      P.probes()[Probe].kind == TSCC_PROBE_UFT_EXIT && !Shadow.empty() &&
      Shadow.back() == Snap.regs[TSCC_REG_RIP])
    Shadow.pop_back();
  std::span<const uint8_t> Stack(Payload.data() + sizeof(Snap) +
                                     uint64_t(Snap.shadow_count) * 8,
                                 Snap.stack_size);
  unsigned Depth = stackDepthLimit(Snap.depth);
  UnwoundStack S =
      T ? T->unwindSnapshot(Snap.regs, Stack, Shadow, Snap.return_trampoline,
                            Depth)
        : UnwoundStack{{Snap.regs[TSCC_REG_RIP]}, StackEnd::Unreadable};
  return stackRecord(asRequested(std::move(S), Snap.depth), Depth);
}

void SessionState::deliverLost(const DrainedRecord &D) {
  uint64_t Count;
  auto T = Targets.find(D.Target);
  if (D.Payload.size() != 8 || T == Targets.end()) {
    warnOnceLocked("bad-record", "a traced program wrote a malformed "
                                 "record into shared memory; dropped");
    return;
  }
  memcpy(&Count, D.Payload.data(), 8);
  LostRecords L;
  L.Pid = T->second.Pid;
  L.Tid = D.Hdr.tid;
  L.Count = Count;
  L.TimeNs = D.Hdr.time_ns > StartNs ? D.Hdr.time_ns - StartNs : 0;
  Sink->lost(L);
}

void SessionState::deliverOne(const DrainedRecord &D) {
  const tscc_ring_record &H = D.Hdr;
  if (H.type == TSCC_RING_LOST)
    return deliverLost(D);
  // One look-up of the process per record.
  auto Found = Targets.find(D.Target);
  const TargetEntry *Owner = Found != Targets.end() ? &Found->second : nullptr;
  if (!validRecord(D, Owner)) {
    // Warned once per clause, and once for all records that do not even
    // name one: whatever a program writes, it cannot flood stderr.
    if (H.clause >= P.clauses().size()) {
      warnOnceLocked("bad-record", "a traced program wrote a malformed "
                                   "record into shared memory; dropped");
      return;
    }
    countDrop(H.clause);
    warnOnceLocked("bad-record-" + std::to_string(H.clause),
                   "clause " + std::to_string(H.clause) +
                       " emitted a malformed record; dropped");
    return;
  }
  if (H.type == TSCC_RING_PRINT_AGG) {
    uint32_t Agg;
    int64_t Top;
    memcpy(&Agg, D.Payload.data(), 4);
    memcpy(&Top, D.Payload.data() + 8, 8);
    // print(@) run in a process: the aggregation as it is now, without
    // the store lock, which must not be waited for while the session mutex
    // is held (the printing thread holds it, and waits for this).
    if (Agg < Aggs.size())
      dumpAggLocked(Agg, Top);
    ackPrintLocked(D);
    return;
  }
  // The process whose shard the record was in, whatever it says: its
  // stack is unwound against that process's memory, never another's.
  const TargetEntry &T = *Owner; // validRecord() checked it
  if (H.type == TSCC_RING_STACK_NEW)
    return deliverStackLocked(D, T);
  std::vector<uint64_t> StackRecord;
  if (H.type == TSCC_RING_STACK_SNAPSHOT)
    StackRecord = unwindSnapshot(T.Tgt, D.Payload, H.probe);
  std::span<const uint8_t> Payload(D.Payload.data(), D.Payload.size());
  if (!StackRecord.empty())
    Payload = {reinterpret_cast<const uint8_t *>(StackRecord.data()),
               StackRecord.size() * 8};
  RecordOrigin O;
  O.Pid = T.Pid;
  O.Tid = H.tid;
  O.DM = T.Tgt && D.Target ? T.Tgt->dataModel()
                           : static_cast<DataModel>(H.data_model);
  O.Clause = H.clause;
  O.Probe = H.probe;
  uint64_t Zero = StartNs;
  O.TimeNs = H.time_ns > Zero ? H.time_ns - Zero : 0;
  O.Tgt = T.Tgt;
  RecordView V;
  memcpy(&V.Header, Payload.data(), sizeof(V.Header));
  V.Args = Payload.subspan(sizeof(tscc_record));
  Sink->record(O, V);
}

void SessionState::deliverLocked(RecordBatch &Records) {
  for (const DrainedRecord &D : Records) {
    if (OutputFailed)
      break;
    deliverOne(D);
    // Output that cannot be written (closed pipe, full disk) ends the
    // session like bpftrace does, instead of tracing into the void.
    if (!Sink->ok() && !OutputFailed) {
      OutputFailed = true;
      S.requestStop();
      if (S.options().OnStop)
        S.options().OnStop();
    }
  }
  Records.clear();
  warnLossLocked(/*Final=*/false);
  warnFullTablesLocked();
  warnAgentNoticesLocked();
  reportCorruptLocked();
}

std::string SessionState::lossAdvice() const {
  uint32_t B = S.options().ThreadBuffer;
  std::string Size = B % (1u << 20) ? std::to_string(B >> 10) + "K"
                                    : std::to_string(B >> 20) + "M";
  return "a larger --thread-buffer (now " + Size +
         ") gives each thread more room, more --burst-buffers (now " +
         std::to_string(S.options().BurstBuffers) +
         ") more threads room for a burst";
}

void SessionState::warnLossLocked(bool Final) {
  // Output that failed (`tsrun ... | head`) ends the session quietly: the
  // records it could not write are no news (the end says so, if anything).
  if (!Final && OutputFailed)
    return;
  timespec Now;
  clock_gettime(CLOCK_MONOTONIC, &Now);
  uint64_t NowNs = uint64_t(Now.tv_sec) * 1'000'000'000 + Now.tv_nsec;
  if (!Final && NowNs - LostWarnedAtNs < 1'000'000'000)
    return;
  uint64_t Lost;
  {
    std::lock_guard<std::mutex> G(ExitMutex);
    Lost = drainStatsLocked().Lost;
  }
  // The clauses that lost records are named; their `lost` counters add up
  // to what the rings' counters say (the counters line at the end gives
  // each clause's share). Either count a program can write: the smaller
  // one is said.
  std::string Clauses;
  uint64_t ClausesLost = 0;
  for (const tscc_clause &C : P.clauses())
    if (uint64_t N = totalCounters(C.id).lost) {
      ClausesLost = saturatingAdd(ClausesLost, N);
      Clauses += std::string(Clauses.empty() ? "" : ", ") + "clause " +
                 std::to_string(C.id) + " (line " +
                 std::to_string(C.source_line) + ")";
    }
  Lost = std::min(Lost, ClausesLost);
  if (Final ? !Lost : Lost <= LostWarned)
    return;
  warnLocked(std::to_string(Lost) + (Lost == 1 ? " record" : " records") +
             (Final ? " lost in all" : " lost so far") +
             ": a thread's record buffer was full (the reader fell behind)" +
             (Clauses.empty() ? "" : "; dropping: " + Clauses) + "; " +
             lossAdvice());
  LostWarned = Lost;
  LostWarnedAtNs = NowNs;
}

const char *SessionState::lockTimeoutText() {
  return "a traced thread held the session's state for too long (it is "
         "stopped?); clauses that could not run were counted as drops";
}

std::string SessionState::threadLimitText() const {
  uint32_t Cap = Store->layout().thread_capacity;
  std::string Text = "more than " + std::to_string(Cap) +
                     " threads of one traced process had state at once";
  if (Cap < S.options().MaxThreads)
    Text += " (a smaller --thread-buffer leaves room for more)";
  else
    Text += " (--max-threads raises the limit)";
  return Text;
}

uint32_t SessionState::agentNoticesLocked() {
  // Every domain's store has its own word: agents write where they run.
  // A bit a program set itself costs nothing but a false warning.
  std::lock_guard<std::mutex> G(ExitMutex);
  uint32_t N = 0;
  for (auto &D : Domains)
    N |= __atomic_load_n(&tscc_store_hdr(D->Store->view())->agent_notices,
                         __ATOMIC_RELAXED);
  return N;
}

void SessionState::warnAgentNoticesLocked() {
  uint32_t N = agentNoticesLocked();
  if (N & TSCC_NOTICE_THREADS_FULL)
    warnOnceLocked("threads-full", threadLimitText() +
                                       "; clauses of the others were "
                                       "counted as drops");
  if (N & TSCC_NOTICE_TABLE_FULL)
    warnOnceLocked("agent-threads-full",
                   "the in-process agent of a traced process had no room "
                   "for a new thread; its clauses were counted as drops "
                   "(--max-threads raises the room)");
  if (N & TSCC_NOTICE_SHADOW_FULL)
    warnOnceLocked(
        "agent-shadow-full",
        "a traced process had more exit-probed calls in progress than the "
        "in-process agent's shadow stacks hold (about " +
            std::to_string(TSCC_AGENT_POOL_BYTES / sizeof(tscc_agent_chunk) *
                           TSCC_AGENT_CHUNK_FRAMES) +
            " per process); the exit probes and within() of the others "
            "were counted as drops (--ptrace has no such limit)");
  if (N & TSCC_NOTICE_LOCK_TIMEOUT)
    warnOnceLocked("lock-timeout", lockTimeoutText());
  if (N & TSCC_NOTICE_USDT_ARG)
    warnOnceLocked("agent-usdt-arg",
                   "an argument of a USDT probe could not be read in a traced "
                   "process (a memory operand at a bad address); it read as "
                   "0");
  if (N & TSCC_NOTICE_RING_MAP)
    warnOnceLocked("agent-ring-map",
                   "a traced process's in-process agent could not map a "
                   "thread's record buffer (the process is out of "
                   "address space); that thread's records were counted as "
                   "drops");
  if (N & TSCC_NOTICE_STACK_IDS)
    warnOnceLocked("agent-stack-ids",
                   "a traced process used more distinct stacks as keys than "
                   "its in-process table of stacks holds; the updates of "
                   "further ones were counted as drops");
  if (N & TSCC_NOTICE_NO_SHARER)
    warnOnceLocked("agent-no-sharer",
                   "a process sharing a traced process's memory was unknown "
                   "to its in-process agent; its clauses were counted as "
                   "drops");
  if (N & TSCC_NOTICE_UNFOLLOWED)
    warnOnceLocked("agent-unfollowed",
                   "a process forked by a detached process ran probed "
                   "functions untraced (its parent's agent may not put "
                   "sites back by itself, so it does not follow forks), "
                   "and those hits were not counted");
}

void SessionState::reportCorruptLocked() {
  DrainStats D;
  {
    std::lock_guard<std::mutex> G(ExitMutex);
    D = drainStatsLocked();
  }
  // Once each: a program that keeps scribbling must not flood stderr. The
  // totals come with the counters at the end (Session::end).
  if (D.Corrupt && !CorruptReported)
    warnLocked("a record ring in shared memory was overwritten by a traced "
               "program; what it held there was discarded (said once; the "
               "total comes at the end)");
  CorruptReported = D.Corrupt;
}

bool SessionState::tableFullLocked(uint32_t Table) {
  const tscc_table_layout &T = Store->tables()[Table];
  auto Full = [&](uint8_t *Base) {
    auto *St = reinterpret_cast<tscc_table_state *>(Base + T.state_off);
    return __atomic_load_n(&St->full, __ATOMIC_RELAXED) != 0;
  };
  std::lock_guard<std::mutex> G(ExitMutex);
  if (!(T.flags & TSCC_TABLE_THREAD)) {
    // Every domain has its copy.
    for (auto &D : Domains)
      if (Full(D->Store->view()->base))
        return true;
    return false;
  }
  // A __thread map has a table in every process's shard.
  if (Full(Store->view()->shard))
    return true;
  for (auto &[Key, E] : Shards)
    if (Full(E.Mem->view()->shard))
      return true;
  return false;
}

void SessionState::warnFullTablesLocked() {
  // Clauses that run in targets cannot warn; the table remembers that an
  // insertion found it full, and the warning comes from here.
  tscc_store *V = Store->view();
  for (uint32_t I = 0; I < Store->tables().size(); ++I) {
    const tscc_table_layout &T = Store->tables()[I];
    if (!tableFullLocked(I))
      continue;
    bool IsMap = I < V->layout.map_count;
    std::string Name =
        IsMap ? "associative array '" +
                    std::string(P.string(P.maps()[I].name)) + "'"
              : "aggregation '@" + Aggs[I - V->layout.map_count].Name + "'";
    warnOnceLocked((IsMap ? "map-full-" : "agg-full-") +
                       std::to_string(IsMap ? I : I - V->layout.map_count),
                   Name + " is full (" + std::to_string(T.capacity) +
                       " entries); further new keys are dropped");
  }
}

void SessionState::deliverStackLocked(const DrainedRecord &D,
                                      const TargetEntry &T) {
  uint64_t Id;
  uint32_t Count, End;
  memcpy(&Id, D.Payload.data(), 8);
  memcpy(&Count, D.Payload.data() + 8, 4);
  memcpy(&End, D.Payload.data() + 12, 4);
  std::vector<uint64_t> PCs(Count);
  if (Count)
    memcpy(PCs.data(), D.Payload.data() + 16, 8 * uint64_t(Count));
  // Symbolised now, while the process is there (its records are out
  // before it is released); a stack of a program's forging says nothing
  // but its own frames.
  Target *Tgt = T.Tgt;
  uint64_t Mine = Stacks.intern(
      D.Target, PCs,
      [Tgt](uint64_t PC) {
        return Tgt ? Tgt->symbolize(PC) : symbolizeAddress(nullptr, PC);
      },
      End <= TSCC_STACK_END_CORRUPT ? static_cast<StackEnd>(End)
                                    : StackEnd::Corrupt);
  if (!Mine)
    warnOnceLocked("stack-table-full",
                   "more than " + std::to_string(StackTable::DefaultMaxStacks) +
                       " distinct stacks used as keys; the updates of "
                       "further ones are dropped (counted as drops)");
  Stacks.alias(Id, Mine);
}

void SessionState::ackPrintLocked(const DrainedRecord &D) {
  uint32_t N, Slot;
  if (D.Payload.size() < 24)
    return; // an agent that does not wait
  memcpy(&N, D.Payload.data() + 4, 4);
  memcpy(&Slot, D.Payload.data() + 16, 4);
  std::lock_guard<std::mutex> G(ExitMutex);
  auto Cur = SharedShardOf.find(D.Target);
  if (Cur == SharedShardOf.end() &&
      (Cur = ShardOf.find(D.Target)) == ShardOf.end())
    return;
  tscc_store *V = Shards.at(Cur->second).Mem->view();
  if (!N || Slot >= V->layout.thread_capacity)
    return;
  // The number is the program's to write: a wrong one wakes its own
  // thread too early or too late, nothing else.
  tscc_ring *R = tscc_ring_at(V, Slot);
  __atomic_store_n(&R->print_done, N, __ATOMIC_RELEASE);
  tscc_host_wake(&R->print_done);
}

bool SessionState::writerWaiting(Domain &D) {
  // Writers wait for room (--on-full=block) or for a print (print.c).
  if (!S.options().BlockWhenFull && !PrintsInProcesses)
    return false;
  std::lock_guard<std::mutex> G(ExitMutex);
  for (auto &[Key, E] : Shards) {
    if (E.Dom != &D)
      continue;
    tscc_store *V = E.Mem->view();
    uint32_t High = std::min(
        __atomic_load_n(&tscc_shard_hdr(V)->threads_high, __ATOMIC_ACQUIRE),
        V->layout.thread_capacity);
    for (uint32_t Ring = 0; Ring < tscc_ring_count(&V->layout); ++Ring)
      if (Ring < High || Ring >= V->layout.thread_capacity)
        if (__atomic_load_n(&tscc_ring_at(V, Ring)->waiting, __ATOMIC_ACQUIRE))
          return true;
  }
  return false;
}

void SessionState::drain(uint64_t TimeoutNs, bool EvenIfStuck) {
  if (!Store)
    return;
  Cut C;
  for (Domain *D : domains()) {
    // A writer that waits for room (--on-full=block) in a clause that
    // holds the store lock would wait for a reader that waits for the
    // lock: its rings are read without the lock at once instead.
    bool Waiting = writerWaiting(*D);
    bool Locked = lockStore(*D, Waiting ? 1'000'000 : TimeoutNs);
    if (EvenIfStuck && Locked)
      D->FailedDrains = 0;
    if (!Locked && !Waiting && (!EvenIfStuck || ++D->FailedDrains < 3))
      continue; // next time
    // A domain whose lock is held for good (a program that keeps it) still
    // has its records read, as far as its rings' heads say, after the
    // reader failed to get it three times running: no domain can hold
    // its records back for long.
    C.Parts.push_back(settleLocked(*D, Locked));
    if (Locked)
      unlockStore(*D);
  }
  deliverUpTo(C);
}
