//===- Domains.cpp - Trust domains: who shares the script's state ---------===//
//
// Processes with the same credentials (real, effective and saved user and
// group ids) can already read and write each other's memory, so they may
// share the script's state: one store per such trust domain. Processes of
// different users never map the same memory, so none of them can read,
// forge or corrupt what another one contributes. The script sees one copy
// of each variable per domain (docs/runtime.md, "Security").
//
//===----------------------------------------------------------------------===//

#include "SessionState.h"

#include <cstring>
#include <fstream>

using namespace tscc::rt;

namespace {

/// The parts of a store that hold the script's state as BEGIN left it:
/// the global block and the associative arrays. Aggregations are left out:
/// every domain's are printed merged, BEGIN's included once.
std::vector<std::pair<uint64_t, uint64_t>> beginState(SharedStore &From) {
  const tscc_store_layout &L = From.layout();
  std::vector<std::pair<uint64_t, uint64_t>> Ranges;
  Ranges.push_back({L.globals_off, L.globals_size});
  for (uint32_t I = 0; I < L.map_count; ++I) {
    const tscc_table_layout &T = From.tables()[I];
    if (T.flags & TSCC_TABLE_THREAD)
      continue;
    const auto *St = reinterpret_cast<const tscc_table_state *>(
        From.view()->base + T.state_off);
    uint64_t Used = std::min(St->used, T.capacity);
    Ranges.push_back({T.state_off, sizeof(tscc_table_state)});
    Ranges.push_back({T.index_off, uint64_t(T.index_slots) * 4});
    Ranges.push_back({T.entries_off, Used * T.entry_size});
  }
  return Ranges;
}

} // namespace

std::string Target::trustKey() const {
  // As PtraceProcess reads it for a process: tsrun's own ids.
  static const std::string Mine = [] {
    std::ifstream Status("/proc/self/status");
    std::string Line, Uids, Gids;
    while (std::getline(Status, Line))
      if (Line.rfind("Uid:", 0) == 0)
        Uids = Line;
      else if (Line.rfind("Gid:", 0) == 0)
        Gids = Line;
    return Uids + " / " + Gids;
  }();
  return Mine;
}

void SessionState::copyBeginState(Domain &To) {
  // Domain 0 is tsrun's alone: no process maps it, so what is copied is
  // what BEGIN wrote, never what another domain's processes did.
  for (auto [Off, Size] : beginState(*Store))
    if (Size)
      memcpy(To.Store->view()->base + Off, Store->view()->base + Off, Size);
}

Domain *SessionState::domainForLocked(Target *T) {
  if (!T)
    return Domains[0].get();
  std::string Key = T->trustKey();
  for (size_t I = 1; I < Domains.size(); ++I)
    if (Domains[I]->Key == Key)
      return Domains[I].get();
  auto D = std::make_unique<Domain>();
  std::string Error;
  D->Owned = SharedStore::create(Shape, Error, Control.get());
  if (!D->Owned)
    return nullptr;
  D->Store = D->Owned.get();
  D->Index = static_cast<uint32_t>(Domains.size());
  D->Key = std::move(Key);
  if (BeginCopied)
    copyBeginState(*D);
  Domains.push_back(std::move(D));
  return Domains.back().get();
}

Domain *SessionState::domainFor(Target *T) {
  size_t Before;
  Domain *D;
  {
    std::lock_guard<std::mutex> G(ExitMutex);
    Before = Domains.size();
    D = domainForLocked(T);
    if (!D || Domains.size() == Before)
      return D;
  }
  // A new domain: said once with -v; and, once there are two of traced
  // processes, a warning if the script has state they no longer share.
  std::lock_guard<std::mutex> G(Lock);
  Sink->note("trust domain " + std::to_string(D->Index) + " (" +
             std::to_string(T->uid()) + "): pid " + std::to_string(T->pid()) +
             " and the processes with its credentials share the script's "
             "state among themselves, starting from what BEGIN left");
  bool Shared = P.header().global_size != 0;
  for (const tscc_map &M : P.maps())
    Shared |= !(M.flags & TSCC_MAP_THREAD);
  if (D->Index == 2 && Shared)
    warnOnceLocked("domains",
                   "processes of more than one user are traced: each user's "
                   "processes have their own copy of the script's global "
                   "variables and associative arrays, and END and interval "
                   "clauses run once for each (aggregations are merged)");
  return D;
}

std::vector<Domain *> SessionState::domains() {
  std::lock_guard<std::mutex> G(ExitMutex);
  std::vector<Domain *> Out;
  for (auto &D : Domains)
    Out.push_back(D.get());
  return Out;
}

std::vector<tscc_store *> SessionState::storeViews() {
  std::vector<tscc_store *> Out;
  for (Domain *D : domains())
    Out.push_back(D->Store->view());
  return Out;
}

std::vector<AggSource> SessionState::aggSourcesLocked() {
  std::vector<AggSource> Out;
  for (auto &D : Domains) {
    AggSource &Src = Out.emplace_back();
    Src.Store = D->Store->view();
    Src.Retired = &D->RetiredAggs;
    for (auto &[Key, E] : Shards)
      if (E.Dom == D.get())
        Src.Shards.push_back(E.Mem->view());
  }
  return Out;
}

AggDump SessionState::snapshotAgg(uint32_t Agg, int64_t Top) {
  // The shards read are kept (and their threads unfolded) by ExitMutex;
  // the store locks are not taken, which must not be waited for while the
  // session mutex is held: what is read is copied, then checked.
  std::lock_guard<std::mutex> G(ExitMutex);
  return snapshotAggregation(aggSourcesLocked(), Agg, Aggs[Agg], Top, &Stacks);
}

bool SessionState::aggDirty(uint32_t Agg) {
  for (tscc_store *V : storeViews()) {
    const tscc_table_layout *T = tscc_agg_table(V, Agg);
    if (T && __atomic_load_n(
                 &reinterpret_cast<tscc_table_state *>(V->base + T->state_off)
                      ->dirty,
                 __ATOMIC_RELAXED))
      return true;
  }
  return false;
}

void SessionState::beginDone() {
  std::lock_guard<std::mutex> G(ExitMutex);
  for (size_t I = 1; I < Domains.size(); ++I)
    copyBeginState(*Domains[I]);
  BeginCopied = true;
}
