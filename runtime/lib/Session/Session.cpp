//===- Session.cpp - Clause dispatch, the store's reader, lifecycle -------===//

#include "ClauseGuard.h"
#include "SessionState.h"

#include "tscc/Runtime/Format.h"
#include "tscc/agent.h"

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
  Shape = StoreShape::of(P, S.options().MapCapacity);
  Shape.RingSize = S.options().ThreadBuffer;
  Shape.ThreadCapacity = S.options().MaxThreads;
  Shape.ExtentCount = S.options().BurstBuffers;
  Shape.ExtentSize = S.options().BurstBuffer;
  StartNs = tscc_host_now_ns();
  Control = ControlPage::create(StoreError);
  if (Control) {
    // Before any target maps the page (it is read-only there).
    Control->words().block_when_full = S.options().BlockWhenFull;
    Store = SharedStore::create(Shape, StoreError, Control.get());
  }
  if (Store) {
    Domains.push_back(std::make_unique<Domain>());
    Domains[0]->Store = Store.get();
  }
  RetiredCounters.resize(P.clauses().size());
  for (const tscc_clause &C : P.clauses())
    if (C.flags & TSCC_CLAUSE_CALLS_AGG_PRINT)
      PrintsInProcesses = true;
  if (Store && Store->layout().thread_capacity < S.options().MaxThreads) {
    uint32_t B = S.options().ThreadBuffer;
    std::string Size = B % (1u << 20) ? std::to_string(B >> 10) + "K"
                                      : std::to_string(B >> 20) + "M";
    warnLocked("--max-threads " + std::to_string(S.options().MaxThreads) +
               ": only " + std::to_string(Store->layout().thread_capacity) +
               " thread buffers of " + Size +
               " fit in 256 GiB; a smaller --thread-buffer leaves room for "
               "more threads");
  }
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
  I.Path = T.pathName();
  I.Sandbox = T.sandbox();
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

void SessionState::forgetThread(Target &T, int64_t Tid) {
  // Only threads of this machine take the lock (remote targets' ids are
  // another machine's).
  if (!Store || T.backendName() != "ptrace")
    return;
  bool Held = false;
  for (Domain *D : domains())
    Held |= tscc_store_forget_thread(D->Store->view(),
                                     static_cast<int32_t>(Tid)) != 0;
  if (!Held)
    return;
  // A program can make threads die in clauses as often as it likes: said
  // for the first few, then counted (the total comes at the end).
  std::lock_guard<std::mutex> G(Lock);
  if (++LockDeaths <= MaxLockDeathNotes)
    Sink->note(
        "thread " + std::to_string(Tid) +
        " died in a clause; the lock it held was freed" +
        (LockDeaths == MaxLockDeathNotes ? " (further ones are counted)" : ""));
}

void SessionState::countDrop(uint32_t Clause) {
  if (tscc_clause_counters *K = tscc_store_counters(Store->view(), Clause))
    __atomic_add_fetch(&K->drops, 1, __ATOMIC_RELAXED);
}

void SessionState::countLost(uint32_t Clause) {
  countDrop(Clause);
  if (tscc_clause_counters *K = tscc_store_counters(Store->view(), Clause))
    __atomic_add_fetch(&K->lost, 1, __ATOMIC_RELAXED);
}

void SessionState::countFault(uint32_t Clause) {
  if (tscc_clause_counters *K = tscc_store_counters(Store->view(), Clause))
    __atomic_add_fetch(&K->faults, 1, __ATOMIC_RELAXED);
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

void SessionState::waitForWake() {
  // Woken when a ring fills past half, in any domain; otherwise every
  // 10 ms.
  std::vector<Domain *> Ds = domains();
  std::vector<futex_waitv> W;
  for (Domain *D : Ds) {
    if (W.size() == FUTEX_WAITV_MAX)
      break;
    uint32_t *Word = &D->Store->header().wake;
    W.push_back({__atomic_load_n(Word, __ATOMIC_ACQUIRE),
                 reinterpret_cast<uintptr_t>(Word), FUTEX_32, 0});
  }
  if (W.size() > 1) {
    timespec Deadline;
    clock_gettime(CLOCK_MONOTONIC, &Deadline);
    Deadline.tv_nsec += 10'000'000;
    if (Deadline.tv_nsec >= 1'000'000'000) {
      Deadline.tv_nsec -= 1'000'000'000;
      ++Deadline.tv_sec;
    }
    if (syscall(SYS_futex_waitv, W.data(), W.size(), 0, &Deadline,
                CLOCK_MONOTONIC) >= 0 ||
        errno != ENOSYS)
      return;
  }
  timespec Period{0, 10'000'000};
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(W[0].uaddr), FUTEX_WAIT,
          static_cast<uint32_t>(W[0].val), &Period, nullptr, 0);
}

void SessionState::readerLoop(std::latch &LifelineHeld) {
  holdLifeline(&Control->words().reader_alive);
  LifelineHeld.count_down();
  while (!ReaderStop.load()) {
    waitForWake();
    if (anyExitRequested())
      exitRequested();
    wakeForWindows();
    if (Ended)
      break;
    if (Begun)
      drain(ClauseLockTimeoutNs, /*EvenIfStuck=*/true);
  }
}

bool SessionState::anyExitRequested() {
  std::lock_guard<std::mutex> G(ExitMutex);
  if (ExitSeen) // in the shard of a process that is gone since
    return true;
  for (auto &[Id, E] : Shards)
    if (__atomic_load_n(&E.Mem->header().exit_requested, __ATOMIC_ACQUIRE))
      return true;
  return false;
}

void SessionState::exitRequested() {
  if (S.stopRequested())
    return;
  // exit() in a clause that ran inside a target -- or a program that
  // wrote the request itself. Only an object with a clause that calls
  // exit() can ask for it; otherwise it is not obeyed (nor repeated).
  if (!(P.header().flags & TSCC_HDR_USES_EXIT)) {
    if (!ForgedExitReported)
      warnOnce("forged-exit",
               "a traced program asked to end the session, but no clause "
               "calls exit(); ignored");
    ForgedExitReported = true;
    return;
  }
  S.requestStop();
  if (S.options().OnStop)
    S.options().OnStop();
}

//===----------------------------------------------------------------------===//
// Running clauses
//===----------------------------------------------------------------------===//

void SessionState::runClause(uint32_t Clause, uint32_t Probe, Target *T,
                             int64_t Tid, const FireEvent *E, Domain *D) {
  if (!Store)
    return;
  const tscc_clause &C = P.clauses()[Clause];
  DataModel DM = T ? T->dataModel() : DataModel::LP64;
  if (C.flags & TSCC_CLAUSE_NO_PROCESS)
    DM = DataModel::LP64;
  tscc_action_fn Action = P.action(Clause, DM);
  tscc_predicate_fn Pred = P.predicate(Clause, DM);
  // The counters of clauses tsrun runs are its own; the thread is the
  // process's, in its shard.
  tscc_clause_counters *K = tscc_store_counters(Store->view(), Clause);
  uint32_t Id = targetId(T);
  // A process's clause runs in its domain, with its shard; one without a
  // process in D, with tsrun's own thread state (BEGIN's __thread
  // variables are END's).
  if (!D)
    D = domainFor(T);
  tscc_store NoProcess{};
  tscc_store *V = nullptr;
  if (T) {
    V = view(*T, Id);
  } else if (D) {
    NoProcess = *D->Store->view();
    NoProcess.shard = Store->view()->shard;
    V = &NoProcess;
  }
  if (!D || !V || !lockStore(*D, ClauseLockTimeoutNs)) {
    __atomic_add_fetch(&K->fired, 1, __ATOMIC_RELAXED);
    countDrop(Clause);
    warnOnce("lock-timeout", lockTimeoutText());
    return;
  }
  // Before the clause: a new thread may reuse an exited thread's id.
  {
    std::lock_guard<std::mutex> G(ExitMutex);
    retireExitedLocked();
  }
  __atomic_add_fetch(&K->fired, 1, __ATOMIC_RELAXED);
  int32_t Slot = -1;
  if (Action || Pred)
    Slot = tscc_thread_add(V, Id, static_cast<int32_t>(Tid));
  if ((Action || Pred) && Slot < 0) {
    countDrop(Clause);
    warnOnce("threads-full", threadLimitText() +
                                 "; clauses of the others were counted as "
                                 "drops");
  }
  bool Crashed = false;
  ClauseCrash Crash;
  if (Slot >= 0) {
    // NUL-terminated copies: the event's views need not be.
    std::string Func(E ? E->Function : std::string_view());
    std::string Module(E ? E->Module : std::string_view());
    static const std::string NoName;
    FireScope F{this, T, Id, Slot, tscc_host_now_ns(), V, D};
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
  Cut After;
  After.Parts.push_back(settleLocked(*D));
  unlockStore(*D);
  deliverUpTo(After);
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

std::vector<Domain *> SessionState::noProcessDomains() {
  std::vector<Domain *> Ds = domains();
  // Every domain of traced processes has its own state to look at; tsrun's
  // own is BEGIN's, and END's and interval's while there is no other.
  if (Ds.size() > 1)
    Ds.erase(Ds.begin());
  return Ds;
}

void SessionState::runNoProcessClauses(uint32_t Kind) {
  if (!Store)
    return;
  std::vector<Domain *> Ds = noProcessDomains();
  if (Kind == TSCC_PROBE_BEGIN)
    Ds = {Domains[0].get()};
  for (Domain *D : Ds)
    for (uint32_t I = 0; I < P.probes().size(); ++I)
      if (P.probes()[I].kind == Kind)
        runClause(P.probes()[I].clause, I, nullptr, 0, nullptr, D);
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
      for (Domain *D : noProcessDomains())
        runClause(P.probes()[Next->Probe].clause, Next->Probe, nullptr, 0,
                  nullptr, D);
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
  // Every domain's copy, merged; the others' without their store locks,
  // which must not be waited for while the session mutex is held (what is
  // read is copied, then checked).
  AggDump Dump = snapshotAgg(Agg, Top);
  if (Dump.Implausible)
    warnOnceLocked("agg-implausible:" + Aggs[Agg].Name,
                   "aggregation '@" + Aggs[Agg].Name +
                       "' in shared memory was written by a traced program: " +
                       std::to_string(Dump.Implausible) +
                       " of its entries have a negative count");
  Sink->aggregation(std::move(Dump));
  for (tscc_store *V : storeViews()) {
    const tscc_table_layout *T = tscc_agg_table(V, Agg);
    __atomic_store_n(
        &reinterpret_cast<tscc_table_state *>(V->base + T->state_off)->dirty, 0,
        __ATOMIC_RELAXED);
  }
}

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

Session::Session(const ProbeProgram &Program, std::unique_ptr<OutputSink> Sink,
                 SessionOptions O)
    : Program(Program), Opts(std::move(O)) {
  State = std::make_unique<SessionState>(*this, std::move(Sink));
  if (State->Store) {
    StoreStopping = &State->Control->words().stopping;
    StoreCollectOff = &State->Control->words().collect_off;
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
Shard *Session::shard(Target &T) {
  if (!State->Store)
    return nullptr;
  uint32_t Id = State->targetId(&T);
  if (!State->domainFor(&T))
    return nullptr;
  std::lock_guard<std::mutex> G(State->ExitMutex);
  tscc_store *V = State->viewLocked(T, Id);
  if (!V)
    return nullptr;
  if (auto Sh = State->SharedShardOf.find(Id);
      Sh != State->SharedShardOf.end() &&
      State->Shards.at(Sh->second).Mem->view() == V)
    return State->Shards.at(Sh->second).Mem.get();
  return State->Shards.at(State->ShardOf.at(Id)).Mem.get();
}

void Session::setWindowWake(std::function<void()> Wake) {
  std::lock_guard<std::mutex> G(State->ExitMutex);
  State->WindowWake = std::move(Wake);
}

void SessionState::wakeForWindows() {
  std::lock_guard<std::mutex> G(ExitMutex);
  if (!WindowWake)
    return;
  for (auto &[Id, E] : Shards) {
    tscc_shard_header &H = E.Mem->header();
    if (__atomic_load_n(&H.window_tid, __ATOMIC_ACQUIRE) &&
        !__atomic_load_n(&H.window_grant, __ATOMIC_ACQUIRE)) {
      WindowWake();
      return;
    }
  }
}

void Session::shareShard(Target &Owner, Target &Sharer) {
  uint32_t O = State->targetId(&Owner), Id = State->targetId(&Sharer);
  std::lock_guard<std::mutex> G(State->ExitMutex);
  State->shareShardLocked(O, Id);
}

void Session::leaveShard(Target &Leaving) {
  uint32_t Id = State->targetId(&Leaving);
  std::lock_guard<std::mutex> G(State->ExitMutex);
  State->leaveShardLocked(Id);
}

SharedStore *Session::storeFor(Target &T) {
  if (!State->Store)
    return nullptr;
  Domain *D = State->domainFor(&T);
  return D ? D->Store : nullptr;
}

std::vector<SharedStore *> Session::stores() {
  std::vector<SharedStore *> Out;
  if (State->Store)
    for (Domain *D : State->domains())
      Out.push_back(D->Store);
  return Out;
}

ControlPage *Session::control() {
  return State->Store ? State->Control.get() : nullptr;
}
const StackTable &Session::stacks() const { return State->Stacks; }

AggDump Session::snapshotAggregation(uint32_t Agg, int64_t Top) {
  if (!State->Store || Agg >= State->Aggs.size())
    return {};
  return State->snapshotAgg(Agg, Top);
}

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
  if (State->Store)
    State->beginDone();
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
  // What targets wrote last comes before END's own output, and so do the
  // markers of what their threads dropped after their last record.
  State->drain(1'000'000'000);
  {
    std::lock_guard<std::mutex> G(State->Lock);
    State->markTrailingLossAllLocked();
  }
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
  // The backends are done: no process writes the stores any more.
  for (uint32_t I = 0; I < State->Aggs.size(); ++I)
    if (State->aggDirty(I))
      State->dumpAgg(I, 0);
  // A request to end that came too late for the reader (with the end of
  // its process, say) is still reported if it was not to be obeyed.
  if (!(Program.header().flags & TSCC_HDR_USES_EXIT) &&
      State->anyExitRequested())
    State->exitRequested();
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
  // What was said once during the run, with its total.
  if (State->CorruptReported > 1)
    State->warnLocked(std::to_string(State->CorruptReported) +
                      " stretches of record rings overwritten by traced "
                      "programs were discarded in all");
  if (State->LockDeaths > SessionState::MaxLockDeathNotes)
    State->Sink->note(std::to_string(State->LockDeaths) +
                      " threads died in clauses holding a lock, which was "
                      "freed each time");
  // Faults that are not bad reads say what they were, once per clause.
  for (const tscc_clause &C : Program.clauses())
    if (State->totalCounters(C.id).fault_kinds &
        (uint64_t{1} << TSCC_FAULT_DIV_ZERO))
      State->warnLocked("clause " + std::to_string(C.id) + " (line " +
                        std::to_string(C.source_line) +
                        ") divided by zero; the result was 0 each time "
                        "(counted as a fault)");
  // A reader that went away (`tsrun ... | head`) ends the session quietly.
  if (!(State->OutputFailed && State->Sink->writeError() == EPIPE)) {
    State->warnLossLocked(/*Final=*/true);
    State->Sink->counters(countersLocked());
  }
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
  Domain *D = State->Store ? State->domainFor(&T) : nullptr;
  tscc_store *V = D ? State->view(T, Id) : nullptr;
  if (WithinIndex >= Program.withinTable().size() || !V ||
      !State->lockStore(*D, ClauseLockTimeoutNs))
    return;
  int32_t Slot = tscc_thread_add(V, Id, static_cast<int32_t>(Tid));
  if (uint32_t *W = tscc_thread_within(V, Slot))
    ++W[WithinIndex];
  State->unlockStore(*D);
}

void Session::withinExit(Target &T, int64_t Tid, uint32_t WithinIndex) {
  uint32_t Id = State->targetId(&T);
  Domain *D = State->Store ? State->domainFor(&T) : nullptr;
  tscc_store *V = D ? State->view(T, Id) : nullptr;
  if (WithinIndex >= Program.withinTable().size() || !V ||
      !State->lockStore(*D, ClauseLockTimeoutNs))
    return;
  int32_t Slot = tscc_thread_lookup(V, Id, static_cast<int32_t>(Tid));
  // An exit without a seen entry (probe installed mid-call) must not wrap.
  if (uint32_t *W = tscc_thread_within(V, Slot); W && W[WithinIndex])
    --W[WithinIndex];
  State->unlockStore(*D);
}

void Session::threadExited(Target &T, int64_t Tid) {
  // Whatever of the store lock it held is free: a thread that died in a
  // clause (killed) must not leave everybody else waiting.
  State->forgetThread(T, Tid);
  uint32_t Id = State->targetId(&T);
  std::lock_guard<std::mutex> G(State->ExitMutex);
  State->ExitedThreads.push_back({Id, Tid});
}

void Session::threadEnding(Target &T, int64_t Tid) {
  State->forgetThread(T, Tid);
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
  State->forgetThread(T, T.pid());
  // The process is gone, so every cut taken from now on holds every record
  // it made.
  Domain *Dom = State->Store ? State->domainFor(&T) : nullptr;
  uint64_t ExitCut = Dom ? Dom->Cuts.load(std::memory_order_acquire) + 1 : 0;
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
    State->ExitedUndelivered.push_back({Id, Dom, ExitCut});
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

void Session::moduleSkipped(std::string_view ModuleName, const ModuleRef &M,
                            std::string_view Why) {
  State->Coverage.skipped(ModuleName, M, Why);
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
    // Each process's own, and tsrun's.
    tscc_clause_counters Sum = State->totalCounters(C.id);
    K.Fired = Sum.fired;
    K.Faults = Sum.faults;
    K.Drops = Sum.drops;
    K.Lost = Sum.lost;
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
