//===- Session.cpp - Clause dispatch, the store's reader, lifecycle -------===//

#include "ClauseGuard.h"
#include "SessionState.h"

#include "tscc/Runtime/Format.h"

#include "../Output/JsonEvents.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <latch>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace tscc::rt;

SessionState::SessionState(Session &S, std::unique_ptr<OutputSink> Sink)
    : S(S), P(S.program()), Start(std::chrono::steady_clock::now()),
      Sink(std::move(Sink)), Matcher(P), Coverage(Matcher) {
  StoreShape Shape = StoreShape::of(P, S.options().MapCapacity);
  Shape.RingSize = S.options().ThreadBuffer;
  Store = SharedStore::create(Shape, StoreError);
  if (Store) // the session's time zero, for records written anywhere
    Store->header().session_start_ns = tscc_host_now_ns();
  for (uint32_t I = 0; I < P.aggs().size(); ++I)
    Aggs.push_back({P.aggs()[I], std::string(P.string(P.aggs()[I].name)),
                    P.aggKeyFields(I)});
  for (const std::string &Param : S.options().Params) {
    // $N is an integer when it reads as one (any C base), else 0; the text
    // is always available for string use.
    char *End = nullptr;
    errno = 0;
    long long V = strtoll(Param.c_str(), &End, 0);
    bool IsNumber = !Param.empty() && End && *End == '\0' && errno == 0;
    ParamValues.push_back(IsNumber ? V : 0);
    ParamStrings.push_back(Param.c_str());
  }
}

SessionState::~SessionState() {
  if (Timer.joinable()) {
    {
      std::lock_guard<std::mutex> G(Lock);
      TimerStop = true;
    }
    TimerCv.notify_all();
    Timer.join();
  }
  if (Reader.joinable()) {
    ReaderStop = true;
    tscc_host_wake(&Store->header().wake);
    Reader.join();
  }
}

uint64_t SessionState::nowNs() const {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now() - Start)
          .count());
}

uint32_t SessionState::targetId(Target *T) {
  if (!T)
    return 0;
  std::lock_guard<std::mutex> G(Lock);
  return targetIdLocked(T);
}

uint32_t SessionState::targetIdLocked(Target *T) {
  if (!T)
    return 0;
  auto [It, New] = TargetIds.emplace(T, NextTargetId);
  if (New)
    Targets[NextTargetId++] = {T, T->pid()};
  return It->second;
}

TargetInfo SessionState::info(Target &T) const {
  TargetInfo I;
  I.Pid = T.pid();
  I.DM = T.dataModel();
  I.Name = T.name();
  I.Backend = std::string(T.backendName());
  I.SessionStopping = S.stopRequested();
  return I;
}

void SessionState::warnLocked(std::string_view Message) {
  if (FILE *D = S.options().Diag) {
    fprintf(D, "tsrun: warning: %.*s\n", static_cast<int>(Message.size()),
            Message.data());
    fflush(D);
  }
  Sink->warning(Message);
}

void SessionState::warnOnceLocked(const std::string &Key,
                                  std::string_view Message) {
  if (WarnedOnce[Key]++ == 0)
    warnLocked(Message);
}

void SessionState::warnOnce(const std::string &Key, std::string_view Message) {
  std::lock_guard<std::mutex> G(Lock);
  warnOnceLocked(Key, Message);
}

void SessionState::countDrop(uint32_t Clause) {
  if (tscc_clause_counters *K = tscc_store_counters(Store->view(), Clause))
    __atomic_add_fetch(&K->drops, 1, __ATOMIC_RELAXED);
}

void SessionState::countFault(uint32_t Clause) {
  if (tscc_clause_counters *K = tscc_store_counters(Store->view(), Clause))
    __atomic_add_fetch(&K->faults, 1, __ATOMIC_RELAXED);
}

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

bool SessionState::lockStore(uint64_t TimeoutNs) {
  return Store &&
         tscc_store_lock(Store->view(), ownTid(), TimeoutNs) == TSCC_LOCK_OK;
}

void SessionState::unlockStore() { tscc_store_unlock(Store->view(), ownTid()); }

uint64_t SessionState::settleLocked() {
  tscc_store *V = Store->view();
  std::lock_guard<std::mutex> G(ExitMutex);
  for (int32_t Slot : EmptyDead)
    tscc_thread_free(V, Slot);
  EmptyDead.clear();
  for (auto [Id, Tid] : ExitedThreads) {
    int32_t Slot = tscc_thread_lookup(V, Id, static_cast<int32_t>(Tid));
    if (Slot >= 0)
      tscc_thread_retire(V, Slot);
  }
  ExitedThreads.clear();
  if (!ExitedTargets.empty()) {
    uint32_t High =
        std::min(Store->header().threads_high, Store->layout().thread_capacity);
    for (uint32_t Slot = 0; Slot < High; ++Slot) {
      tscc_thread *T = tscc_thread_at(V, static_cast<int32_t>(Slot));
      if (T->state == TSCC_THREAD_LIVE &&
          std::find(ExitedTargets.begin(), ExitedTargets.end(), T->target) !=
              ExitedTargets.end())
        tscc_thread_retire(V, static_cast<int32_t>(Slot));
    }
    ExitedTargets.clear();
  }
  return __atomic_load_n(&Store->header().seq, __ATOMIC_ACQUIRE);
}

void SessionState::collect(uint64_t Horizon, std::vector<DrainedRecord> &Out) {
  std::lock_guard<std::mutex> G(ExitMutex);
  drainRings(Store->view(), Horizon, Out, Drains, EmptyDead);
}

void SessionState::deliverUpTo(uint64_t Horizon) {
  std::lock_guard<std::mutex> G(Lock);
  // Collected under Lock too: two threads draining at once must not hand
  // over their records out of order, nor count a horizon as delivered
  // while the other still holds records below it.
  std::vector<DrainedRecord> Out;
  if (Store)
    collect(Horizon, Out);
  deliverLocked(Out);
  DeliveredSeq = std::max(DeliveredSeq, Horizon);
  releaseDeliveredLocked();
}

void SessionState::releaseDeliveredLocked() {
  bool Released = false;
  std::erase_if(ExitedUndelivered, [&](std::pair<uint32_t, uint64_t> E) {
    if (E.second > DeliveredSeq)
      return false;
    auto It = Targets.find(E.first);
    if (It != Targets.end()) {
      Target *T = It->second.Tgt;
      Targets.erase(It);
      TargetIds.erase(T);
      Launched.erase(T);
      // The last use: from here on its backend may destroy it.
      T->releaseBySession();
      Released = true;
    }
    return true;
  });
  if (Released)
    Releases.fetch_add(1, std::memory_order_release);
}

bool SessionState::validRecord(const tscc_ring_record &H,
                               const std::vector<uint8_t> &Payload) const {
  if (H.clause >= P.clauses().size() || H.probe >= P.probes().size() ||
      H.data_model >= TSCC_DM_COUNT || !Targets.count(H.target))
    return false;
  if (H.type == TSCC_RING_PRINT_AGG)
    return Payload.size() >= 16;
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
SessionState::unwindSnapshot(Target *T, const std::vector<uint8_t> &Payload) {
  tscc_stack_snapshot Snap;
  memcpy(&Snap, Payload.data(), sizeof(Snap));
  std::vector<uint64_t> Shadow(Snap.shadow_count);
  if (!Shadow.empty())
    memcpy(Shadow.data(), Payload.data() + sizeof(Snap), Shadow.size() * 8);
  std::span<const uint8_t> Stack(
      Payload.data() + sizeof(Snap) + Shadow.size() * 8, Snap.stack_size);
  unsigned Depth = stackDepthLimit(Snap.depth);
  UnwoundStack S =
      T ? T->unwindSnapshot(Snap.regs, Stack, Shadow, Snap.return_trampoline,
                            Depth)
        : UnwoundStack{{Snap.regs[TSCC_REG_RIP]}, StackEnd::Unreadable};
  return stackRecord(asRequested(std::move(S), Snap.depth), Depth);
}

void SessionState::deliverOne(const DrainedRecord &D) {
  const tscc_ring_record &H = D.Hdr;
  if (!validRecord(H, D.Payload)) {
    if (H.clause < P.clauses().size())
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
    // Only objects older than ABI 1.1 send these (their print() runs in
    // the target): the aggregation as it is now, without the store lock,
    // which must not be waited for while the session mutex is held.
    if (Agg < Aggs.size())
      dumpAggLocked(Agg, Top);
    return;
  }
  const TargetEntry &T = Targets.at(H.target); // validRecord() checked it
  std::vector<uint64_t> StackRecord;
  if (H.type == TSCC_RING_STACK_SNAPSHOT)
    StackRecord = unwindSnapshot(T.Tgt, D.Payload);
  const std::vector<uint8_t> *Payload = &D.Payload;
  std::vector<uint8_t> Unwound;
  if (!StackRecord.empty()) {
    Unwound.resize(StackRecord.size() * 8);
    memcpy(Unwound.data(), StackRecord.data(), Unwound.size());
    Payload = &Unwound;
  }
  RecordOrigin O;
  O.Pid = T.Pid;
  O.Tid = H.tid;
  O.DM = static_cast<DataModel>(H.data_model);
  O.Clause = H.clause;
  O.Probe = H.probe;
  uint64_t Zero = Store->header().session_start_ns;
  O.TimeNs = H.time_ns > Zero ? H.time_ns - Zero : 0;
  O.Tgt = T.Tgt;
  RecordView V;
  memcpy(&V.Header, Payload->data(), sizeof(V.Header));
  V.Args = {Payload->data() + sizeof(tscc_record),
            Payload->size() - sizeof(tscc_record)};
  Sink->record(O, V);
}

void SessionState::deliverLocked(std::vector<DrainedRecord> &Records) {
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
  warnFullTablesLocked();
  uint64_t Corrupt;
  {
    std::lock_guard<std::mutex> G(ExitMutex);
    Corrupt = Drains.Corrupt;
  }
  if (Corrupt > CorruptReported) {
    CorruptReported = Corrupt;
    warnLocked("a record ring in shared memory was overwritten by a traced "
               "program; its records were discarded");
  }
}

void SessionState::warnFullTablesLocked() {
  // Clauses that run in targets cannot warn; the table remembers that an
  // insertion found it full, and the warning comes from here.
  tscc_store *V = Store->view();
  for (uint32_t I = 0; I < Store->tables().size(); ++I) {
    const tscc_table_layout &T = Store->tables()[I];
    auto *St = reinterpret_cast<tscc_table_state *>(V->base + T.state_off);
    if (!__atomic_load_n(&St->full, __ATOMIC_RELAXED))
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

void SessionState::drain(uint64_t TimeoutNs) {
  if (!lockStore(TimeoutNs))
    return;
  uint64_t Horizon = settleLocked();
  unlockStore();
  deliverUpTo(Horizon);
}

namespace {

/// The kernel's robust futex list (set_robust_list(2)).
struct RobustList {
  RobustList *Next;
};
struct RobustListHead {
  RobustList List;
  long FutexOffset;
  RobustList *Pending;
};

/// Makes Word this thread's lifeline: it holds the thread's tid, and the
/// kernel marks it (TSCC_READER_GONE) when the thread dies for any reason,
/// a SIGKILL of tsrun included. Agents in targets watch it.
void holdLifeline(uint32_t *Word) {
  static thread_local RobustList Entry;
  static thread_local RobustListHead Head;
  Head.List.Next = &Entry;
  Entry.Next = &Head.List;
  Head.FutexOffset =
      reinterpret_cast<char *>(Word) - reinterpret_cast<char *>(&Entry);
  Head.Pending = nullptr;
  // This thread never locks a robust pthread mutex, the only other user of
  // the list glibc registered for it.
  syscall(SYS_set_robust_list, &Head, sizeof(Head));
  __atomic_store_n(Word, static_cast<uint32_t>(syscall(SYS_gettid)),
                   __ATOMIC_RELEASE);
}

} // namespace

void SessionState::readerLoop(std::latch &LifelineHeld) {
  tscc_store_header &H = Store->header();
  holdLifeline(&H.reader_alive);
  LifelineHeld.count_down();
  while (!ReaderStop.load()) {
    // Woken when a ring fills past half; otherwise every 10 ms.
    uint32_t Seen = __atomic_load_n(&H.wake, __ATOMIC_ACQUIRE);
    timespec Period{0, 10'000'000};
    syscall(SYS_futex, &H.wake, FUTEX_WAIT, Seen, &Period, nullptr, 0);
    __atomic_store_n(&H.heartbeat_ns, tscc_host_now_ns(), __ATOMIC_RELAXED);
    if (__atomic_load_n(&H.stop_requested, __ATOMIC_ACQUIRE) &&
        !S.stopRequested()) {
      // exit() in a clause that ran inside a target.
      S.requestStop();
      if (S.options().OnStop)
        S.options().OnStop();
    }
    if (Ended)
      break;
    if (Begun)
      drain(ClauseLockTimeoutNs);
  }
}

//===----------------------------------------------------------------------===//
// Running clauses
//===----------------------------------------------------------------------===//

void SessionState::runClause(uint32_t Clause, uint32_t Probe, Target *T,
                             int64_t Tid, const FireEvent *E) {
  if (!Store)
    return;
  const tscc_clause &C = P.clauses()[Clause];
  DataModel DM = T ? T->dataModel() : DataModel::LP64;
  if (C.flags & TSCC_CLAUSE_NO_PROCESS)
    DM = DataModel::LP64;
  tscc_action_fn Action = P.action(Clause, DM);
  tscc_predicate_fn Pred = P.predicate(Clause, DM);
  tscc_store *V = Store->view();
  tscc_clause_counters *K = tscc_store_counters(V, Clause);
  uint32_t Id = targetId(T);
  if (!lockStore(ClauseLockTimeoutNs)) {
    __atomic_add_fetch(&K->fired, 1, __ATOMIC_RELAXED);
    countDrop(Clause);
    warnOnce("lock-timeout",
             "a traced thread held the session's state for too long (it is "
             "stopped?); clauses that could not run were counted as drops");
    return;
  }
  // Before the clause: a new thread may reuse an exited thread's id.
  settleLocked();
  __atomic_add_fetch(&K->fired, 1, __ATOMIC_RELAXED);
  int32_t Slot = -1;
  if (Action || Pred)
    Slot = tscc_thread_add(V, Id, static_cast<int32_t>(Tid));
  if ((Action || Pred) && Slot < 0) {
    countDrop(Clause);
    warnOnce("threads-full",
             "more than " + std::to_string(Store->layout().thread_capacity) +
                 " traced threads at once; clauses of the others are "
                 "counted as drops");
  }
  bool Crashed = false;
  ClauseCrash Crash;
  if (Slot >= 0) {
    // NUL-terminated copies: the event's views need not be.
    std::string Func(E ? E->Function : std::string_view());
    std::string Module(E ? E->Module : std::string_view());
    static const std::string NoName;
    FireScope F{this, T, Id, Slot, tscc_host_now_ns()};
    tscc_ctx Ctx{};
    Ctx.helpers = &Helpers;
    Ctx.runtime = &F;
    Ctx.globals = tscc_store_globals(V);
    Ctx.thread = tscc_thread_locals(V, Slot);
    if (E)
      memcpy(Ctx.regs, E->Regs, sizeof(Ctx.regs));
    Ctx.pid = T ? T->pid() : 0;
    Ctx.tid = Tid;
    Ctx.ppid = T ? T->ppid() : 0;
    Ctx.uid = T ? T->uid() : static_cast<int64_t>(getuid());
    Ctx.data_model = modelIndex(DM);
    Ctx.clause = Clause;
    Ctx.probe = Probe;
    Ctx.err = E ? E->Errno : 0;
    Ctx.syscall_nr = E ? E->SyscallNr : 0;
    Ctx.pname = T ? T->name().c_str() : NoName.c_str();
    Ctx.func = Func.c_str();
    Ctx.module = Module.c_str();
    Ctx.probe_spec = P.string(P.probes()[Probe].spec).data();
    Ctx.params = ParamValues.data();
    Ctx.param_strings = ParamStrings.data();
    Ctx.param_count = static_cast<uint32_t>(ParamValues.size());
    if (E) {
      std::copy(std::begin(E->UsdtArgs), std::end(E->UsdtArgs),
                std::begin(Ctx.usdt_args));
      Ctx.usdt_arg_count = E->UsdtArgCount;
    }
    Crashed = !runGuarded(Pred, Action, &Ctx, Crash);
  }
  uint64_t Horizon = __atomic_load_n(&Store->header().seq, __ATOMIC_ACQUIRE);
  unlockStore();
  deliverUpTo(Horizon);
  if (!Crashed)
    return;
  countFault(Clause);
  char PC[24];
  snprintf(PC, sizeof(PC), "0x%llx", static_cast<unsigned long long>(Crash.PC));
  warnOnce("crash-" + std::to_string(Clause),
           "clause " + std::to_string(Clause) + " (line " +
               std::to_string(C.source_line) + ") crashed with " +
               signalName(Crash.Signal) + " at " + PC +
               " in its code; the firing was abandoned (counted as a fault)");
}

void SessionState::runNoProcessClauses(uint32_t Kind) {
  for (uint32_t I = 0; I < P.probes().size(); ++I)
    if (P.probes()[I].kind == Kind)
      runClause(P.probes()[I].clause, I, nullptr, 0, nullptr);
}

void SessionState::timerLoop() {
  using Clock = std::chrono::steady_clock;
  struct Tick {
    uint32_t Probe;
    std::chrono::milliseconds Period;
    Clock::time_point Next;
  };
  std::vector<Tick> Ticks;
  for (uint32_t I = 0; I < P.probes().size(); ++I)
    if (P.probes()[I].kind == TSCC_PROBE_INTERVAL) {
      auto Period = std::chrono::milliseconds(P.probes()[I].offset);
      Ticks.push_back({I, Period, Clock::now() + Period});
    }
  std::unique_lock<std::mutex> G(Lock);
  while (!TimerStop && !Ended) {
    auto Next = std::min_element(
        Ticks.begin(), Ticks.end(),
        [](const Tick &A, const Tick &B) { return A.Next < B.Next; });
    if (TimerCv.wait_until(G, Next->Next) != std::cv_status::timeout)
      continue; // stop requested or spurious wake-up: re-check
    if (TimerStop || Ended || S.stopRequested())
      break;
    if (S.collecting()) {
      G.unlock(); // the store lock is never waited for under the mutex
      runClause(P.probes()[Next->Probe].clause, Next->Probe, nullptr, 0,
                nullptr);
      G.lock();
    }
    // Fixed rate, but never a burst of catch-up runs after a stall.
    Next->Next += Next->Period;
    if (Next->Next < Clock::now())
      Next->Next = Clock::now() + Next->Period;
  }
}

void SessionState::dumpAgg(uint32_t Agg, int64_t Top) {
  std::lock_guard<std::mutex> G(Lock);
  dumpAggLocked(Agg, Top);
}

void SessionState::dumpAggLocked(uint32_t Agg, int64_t Top) {
  Sink->aggregation(
      snapshotAggregation(Store->view(), Agg, Aggs[Agg], Top, &Stacks));
  const tscc_table_layout *T = tscc_agg_table(Store->view(), Agg);
  reinterpret_cast<tscc_table_state *>(Store->view()->base + T->state_off)
      ->dirty = 0;
}

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

Session::Session(const ProbeProgram &Program, std::unique_ptr<OutputSink> Sink,
                 SessionOptions O)
    : Program(Program), Opts(std::move(O)) {
  State = std::make_unique<SessionState>(*this, std::move(Sink));
  if (State->Store) {
    StoreStopping = &State->Store->header().stopping;
    StoreCollectOff = &State->Store->header().collect_off;
    // From now on until the end: the rings' reader, and the lifeline of
    // targets that run clauses themselves. No target may be armed before
    // the lifeline is held: a tsrun killed in between would leave agents
    // that never learn it is gone, and never heal their sites.
    std::latch LifelineHeld(1);
    State->Reader =
        std::thread([this, &LifelineHeld] { State->readerLoop(LifelineHeld); });
    LifelineHeld.wait();
  }
  guardProgram(Program);
  // Before anything else: backends report attachments before BEGIN runs.
  State->Sink->start(Program);
}

Session::~Session() { unguardProgram(Program); }

const std::string &Session::initError() const { return State->StoreError; }

SharedStore *Session::store() { return State->Store.get(); }
const StackTable &Session::stacks() const { return State->Stacks; }

uint32_t Session::targetId(Target &T) { return State->targetId(&T); }

uint32_t Session::paramsUsed() const {
  uint32_t Need = Program.header().param_count;
  for (const tscc_probe &Pr : Program.probes())
    if (Pr.pid_kind == TSCC_PID_PARAM)
      Need = std::max<uint32_t>(Need, static_cast<uint32_t>(Pr.pid_value));
  return Need;
}

bool Session::checkParams(std::string &Error) const {
  uint32_t Need = paramsUsed();
  if (Opts.Params.size() < Need) {
    size_t Given = Opts.Params.size();
    std::string What = Given == 0 ? std::string("no parameters were")
                       : Given == 1
                           ? std::string("1 parameter was")
                           : std::to_string(Given) + " parameters were";
    Error = "the script uses $";
    Error += std::to_string(Need);
    Error += " but " + What + " given";
    return false;
  }
  // A $N used as a probe's PID must name a process.
  for (const tscc_probe &Pr : Program.probes()) {
    if (Pr.pid_kind != TSCC_PID_PARAM)
      continue;
    const std::string &V = Opts.Params[Pr.pid_value - 1];
    char *End = nullptr;
    long long Pid = strtoll(V.c_str(), &End, 10);
    if (V.empty() || *End || Pid <= 0) {
      Error = "$" + std::to_string(Pr.pid_value) + " is the PID of probe '" +
              std::string(Program.string(Pr.spec)) + "' but '" + V +
              "' is not a process id";
      return false;
    }
  }
  return true;
}

int64_t Session::probePid(uint32_t Probe) const {
  if (Probe >= Program.probes().size())
    return -1;
  const tscc_probe &Pr = Program.probes()[Probe];
  if (Pr.pid_kind == TSCC_PID_NUMBER)
    return static_cast<int64_t>(Pr.pid_value);
  if (Pr.pid_kind == TSCC_PID_PARAM && Pr.pid_value >= 1 &&
      Pr.pid_value <= State->ParamValues.size())
    return State->ParamValues[Pr.pid_value - 1];
  return -1;
}

const std::vector<int64_t> &Session::paramValues() const {
  return State->ParamValues;
}

void Session::begin() {
  if (State->Begun.exchange(true))
    return;
  State->runNoProcessClauses(TSCC_PROBE_BEGIN);
  bool HasInterval = false;
  for (const tscc_probe &Pr : Program.probes())
    HasInterval |= Pr.kind == TSCC_PROBE_INTERVAL;
  if (HasInterval)
    State->Timer = std::thread([this] { State->timerLoop(); });
}

void Session::end() {
  if (State->Timer.joinable()) {
    {
      std::lock_guard<std::mutex> G(State->Lock);
      State->TimerStop = true;
    }
    State->TimerCv.notify_all();
    State->Timer.join();
  }
  if (State->Reader.joinable()) {
    State->ReaderStop = true;
    tscc_host_wake(&State->Store->header().wake);
    State->Reader.join();
  }
  if (State->Ended.exchange(true))
    return;
  if (!State->Store) {
    std::lock_guard<std::mutex> G(State->Lock);
    State->Sink->finish();
    return;
  }
  // What targets wrote last comes before END's own output.
  State->drain(1'000'000'000);
  // Without any process, no module could load: nothing to say.
  bool HadTargets;
  {
    std::lock_guard<std::mutex> G(State->Lock);
    HadTargets = State->NextTargetId > 1;
  }
  if (HadTargets)
    for (const std::string &W : State->Coverage.unmatchedReport())
      State->warnOnce(W, W);
  State->runNoProcessClauses(TSCC_PROBE_END);
  bool Locked = State->lockStore(1'000'000'000);
  for (uint32_t I = 0; I < State->Aggs.size(); ++I) {
    const tscc_table_layout *T = tscc_agg_table(State->Store->view(), I);
    if (reinterpret_cast<tscc_table_state *>(State->Store->view()->base +
                                             T->state_off)
            ->dirty)
      State->dumpAgg(I, 0);
  }
  if (Locked)
    State->unlockStore();
  std::lock_guard<std::mutex> G(State->Lock);
  if (State->TargetsExited) {
    // A long session must not keep what it knew of every process that
    // came and went (docs/runtime.md, "Fates of traced processes").
    uint64_t Held = State->TargetsExited - State->TargetsFreed;
    std::string Message =
        std::to_string(State->TargetsExited) + " traced process" +
        (State->TargetsExited == 1 ? "" : "es") + " exited; bookkeeping " +
        "still held for " + std::to_string(Held) + " of them (at most " +
        std::to_string(State->MostHeld) + " at once)";
    State->Sink->note(Message);
  }
  // Faults that are not bad reads say what they were, once per clause.
  for (const tscc_clause &C : Program.clauses())
    if (tscc_clause_counters *K =
            tscc_store_counters(State->Store->view(), C.id);
        K && (__atomic_load_n(&K->fault_kinds, __ATOMIC_RELAXED) &
              (uint64_t{1} << TSCC_FAULT_DIV_ZERO)))
      State->warnLocked("clause " + std::to_string(C.id) + " (line " +
                        std::to_string(C.source_line) +
                        ") divided by zero; the result was 0 each time "
                        "(counted as a fault)");
  // A reader that went away (`tsrun ... | head`) ends the session quietly.
  if (!(State->OutputFailed && State->Sink->writeError() == EPIPE))
    State->Sink->counters(countersLocked());
  State->Sink->finish();
}

void Session::fire(FireEvent &E) {
  if (!E.Tgt || E.Probe >= Program.probes().size())
    return;
  // After exit(), Ctrl-C or END nothing fires: the session is ending.
  if (State->Ended || stopRequested() || !collecting())
    return;
  uint32_t Clause = Program.probes()[E.Probe].clause;
  State->runClause(Clause, E.Probe, E.Tgt, E.Tid, &E);
}

void Session::announceCollection(bool On, std::string_view Why) {
  // Records from before the switch come before the event.
  if (State->Store && State->Begun && !State->Ended)
    State->drain(ClauseLockTimeoutNs);
  std::lock_guard<std::mutex> G(State->Lock);
  if (FILE *D = Opts.Diag) {
    fprintf(D, "tsrun: collection %s (%.*s)\n", On ? "started" : "stopped",
            static_cast<int>(Why.size()), Why.data());
    fflush(D);
  }
  SessionSwitch E;
  E.Kind = On ? SessionSwitch::CollectionOn : SessionSwitch::CollectionOff;
  E.Why = Why;
  E.TimeNs = State->nowNs();
  State->Sink->sessionSwitch(E);
}

bool Session::snapshot(std::string &Error) {
  if (State->Store && State->Begun && !State->Ended)
    State->drain(ClauseLockTimeoutNs);
  std::lock_guard<std::mutex> G(State->Lock);
  SessionSwitch E;
  E.Kind = SessionSwitch::Snapshot;
  E.TimeNs = State->nowNs();
  if (!State->Sink->snapshot(E.File, E.Records, Error))
    return false;
  if (FILE *D = Opts.Diag) {
    fprintf(D, "tsrun: snapshot: %llu records written to %s\n",
            static_cast<unsigned long long>(E.Records), E.File.c_str());
    fflush(D);
  }
  State->Sink->sessionSwitch(E);
  return true;
}

void Session::withinEnter(Target &T, int64_t Tid, uint32_t WithinIndex) {
  uint32_t Id = State->targetId(&T);
  if (WithinIndex >= Program.withinTable().size() ||
      !State->lockStore(ClauseLockTimeoutNs))
    return;
  tscc_store *V = State->Store->view();
  int32_t Slot = tscc_thread_add(V, Id, static_cast<int32_t>(Tid));
  if (uint32_t *W = tscc_thread_within(V, Slot))
    ++W[WithinIndex];
  State->unlockStore();
}

void Session::withinExit(Target &T, int64_t Tid, uint32_t WithinIndex) {
  uint32_t Id = State->targetId(&T);
  if (WithinIndex >= Program.withinTable().size() ||
      !State->lockStore(ClauseLockTimeoutNs))
    return;
  tscc_store *V = State->Store->view();
  int32_t Slot = tscc_thread_lookup(V, Id, static_cast<int32_t>(Tid));
  // An exit without a seen entry (probe installed mid-call) must not wrap.
  if (uint32_t *W = tscc_thread_within(V, Slot); W && W[WithinIndex])
    --W[WithinIndex];
  State->unlockStore();
}

void Session::threadExited(Target &T, int64_t Tid) {
  uint32_t Id = State->targetId(&T);
  std::lock_guard<std::mutex> G(State->ExitMutex);
  State->ExitedThreads.push_back({Id, Tid});
}

void Session::targetAttached(Target &T, std::string_view How) {
  std::lock_guard<std::mutex> G(State->Lock);
  if (How == HowLaunched)
    State->Launched[&T] = true;
  State->targetIdLocked(&T);
  State->Sink->targetAttached(State->info(T), How);
}

void Session::probeAttached(Target &T, uint32_t Probe,
                            std::string_view Function, std::string_view Module,
                            uint64_t Address, std::string_view Mechanism) {
  std::lock_guard<std::mutex> G(State->Lock);
  State->Sink->probeAttached(State->info(T), Probe, Function, Module, Address,
                             Mechanism);
}

void Session::note(std::string_view Message) {
  std::lock_guard<std::mutex> G(State->Lock);
  State->Sink->note(Message);
}

void Session::targetExited(Target &T, int ExitCode, int Signal) {
  // The process is gone, so every record it made already has a sequence
  // number below this one.
  uint64_t ExitSeq = State->Store ? __atomic_load_n(&State->Store->header().seq,
                                                    __ATOMIC_ACQUIRE)
                                  : 0;
  // Its last records come before the news of its end. A backend thread
  // must not wait long for the store: the holder may be one of its own
  // stopped threads. (If it cannot be had now, the reader's next drain
  // delivers them, and releases the target then.)
  State->drain(5'000'000);
  uint32_t Id;
  {
    std::lock_guard<std::mutex> G(State->Lock);
    State->Sink->targetExited(State->info(T), ExitCode, Signal);
    auto L = State->Launched.find(&T);
    if (L != State->Launched.end()) {
      // Only a command that ended on its own speaks for tsrun's status;
      // one killed because the session stopped first does not.
      if (State->LaunchedStatus < 0 && !stopRequested())
        State->LaunchedStatus = Signal ? 128 + Signal : (ExitCode & 0xff);
      State->Launched.erase(L);
    }
    Id = State->targetIdLocked(&T);
    State->ExitedUndelivered.push_back({Id, ExitSeq});
    ++State->TargetsExited;
    State->MostHeld =
        std::max(State->MostHeld, State->TargetsExited - State->TargetsFreed);
    State->releaseDeliveredLocked();
  }
  std::lock_guard<std::mutex> G(State->ExitMutex);
  State->ExitedTargets.push_back(Id);
}

uint64_t Session::releaseCount() const {
  return State->Releases.load(std::memory_order_acquire);
}

void Session::targetFreed() {
  std::lock_guard<std::mutex> G(State->Lock);
  ++State->TargetsFreed;
}

void Session::deliverExited() {
  if (State->Ended)
    return;
  bool Pending;
  {
    std::lock_guard<std::mutex> G(State->Lock);
    Pending = !State->ExitedUndelivered.empty();
  }
  if (Pending)
    State->drain(ClauseLockTimeoutNs);
}

void Session::moduleSearched(std::string_view ModuleName, bool IsMain,
                             const ElfFile &File, std::span<const int> Found) {
  std::vector<std::string> Warnings =
      State->Coverage.searched(ModuleName, IsMain, File, Found);
  if (Warnings.empty())
    return;
  bool Other = false; // BEGIN, END and interval clauses always run
  for (const tscc_probe &Pr : Program.probes())
    Other |= Pr.kind == TSCC_PROBE_BEGIN || Pr.kind == TSCC_PROBE_END ||
             Pr.kind == TSCC_PROBE_INTERVAL;
  bool Fatal = !Other && !State->Coverage.someProbeMayFire();
  {
    std::lock_guard<std::mutex> G(State->Lock);
    for (const std::string &W : Warnings)
      State->warnOnceLocked(W, W);
    if (!Fatal || !State->FatalError.empty())
      return;
    // As bpftrace refuses a script none of whose probes attach: nothing
    // would ever be traced, so the program is not run for nothing.
    State->FatalError =
        "no probe of the script can ever fire: each names a loaded module "
        "that has no such function (see the warnings above)";
    Failed.store(true, std::memory_order_release);
  }
  requestStop();
  if (Opts.OnStop)
    Opts.OnStop();
}

std::string Session::fatalError() const {
  std::lock_guard<std::mutex> G(State->Lock);
  return State->FatalError;
}

void Session::warn(std::string_view Message) {
  std::lock_guard<std::mutex> G(State->Lock);
  State->warnLocked(Message);
}

std::vector<ClauseCounters> Session::countersLocked() const {
  std::vector<ClauseCounters> Out;
  for (const tscc_clause &C : Program.clauses()) {
    ClauseCounters K;
    K.Clause = C.id;
    K.Line = C.source_line;
    K.Column = C.source_column;
    if (State->Store)
      if (tscc_clause_counters *S =
              tscc_store_counters(State->Store->view(), C.id)) {
        K.Fired = __atomic_load_n(&S->fired, __ATOMIC_RELAXED);
        K.Faults = __atomic_load_n(&S->faults, __ATOMIC_RELAXED);
        K.Drops = __atomic_load_n(&S->drops, __ATOMIC_RELAXED);
      }
    Out.push_back(K);
  }
  return Out;
}

std::vector<ClauseCounters> Session::counters() const {
  return countersLocked(); // atomics in the store, and constant tables
}

bool Session::outputOk() const {
  std::lock_guard<std::mutex> G(State->Lock);
  return State->Sink->ok();
}

int Session::outputError() const {
  std::lock_guard<std::mutex> G(State->Lock);
  return State->Sink->writeError();
}

int Session::launchedExitStatus() const {
  std::lock_guard<std::mutex> G(State->Lock);
  return State->LaunchedStatus;
}
