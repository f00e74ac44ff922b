//===- Session.cpp - Clause dispatch, variable storage, lifecycle ---------===//

#include "ClauseGuard.h"
#include "SessionState.h"

#include "tscc/Runtime/Format.h"

#include "../Output/JsonEvents.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace tscc::rt;

Block::Block(size_t Size, size_t Align) : Size(Size) {
  if (Align < 16)
    Align = 16;
  Storage = std::make_unique<uint8_t[]>(Size + Align);
  uintptr_t P = reinterpret_cast<uintptr_t>(Storage.get());
  Data = reinterpret_cast<uint8_t *>((P + Align - 1) & ~(uintptr_t(Align) - 1));
  memset(Data, 0, Size);
}

SessionState::SessionState(Session &S, std::unique_ptr<OutputSink> Sink)
    : S(S), P(S.program()), Sink(std::move(Sink)),
      Start(std::chrono::steady_clock::now()) {
  const tscc_header &H = P.header();
  Globals = Block(H.global_size, H.global_align ? H.global_align : 8);
  GlobalMaps.resize(P.maps().size());
  for (uint32_t I = 0; I < P.aggs().size(); ++I)
    Aggs.emplace_back(P.aggs()[I], std::string(P.string(P.aggs()[I].name)),
                      P.aggKeyFields(I), S.options().MapCapacity);
  for (const tscc_clause &C : P.clauses()) {
    ClauseCounters K;
    K.Clause = C.id;
    K.Line = C.source_line;
    K.Column = C.source_column;
    Counters.push_back(K);
  }
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
}

uint64_t SessionState::nowNs() const {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now() - Start)
          .count());
}

ThreadState &SessionState::thread(const Target *T, int64_t Tid) {
  ThreadState &TS = Threads[{T, Tid}];
  if (TS.Maps.empty() && !P.maps().empty())
    TS.Maps.resize(P.maps().size());
  if (TS.Within.size() != P.withinTable().size())
    TS.Within.resize(P.withinTable().size());
  return TS;
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

void SessionState::warnOnce(const std::string &Key, std::string_view Message) {
  if (WarnedOnce[Key]++ == 0)
    warnLocked(Message);
}

void SessionState::runClause(uint32_t Clause, uint32_t Probe, Target *T,
                             int64_t Tid, const FireEvent *E) {
  const tscc_clause &C = P.clauses()[Clause];
  DataModel DM = T ? T->dataModel() : DataModel::LP64;
  if (C.flags & TSCC_CLAUSE_NO_PROCESS)
    DM = DataModel::LP64;
  tscc_action_fn Action = P.action(Clause, DM);
  tscc_predicate_fn Pred = P.predicate(Clause, DM);
  ++Counters[Clause].Fired;
  if (!Action && !Pred)
    return;

  FireScope F;
  F.State = this;
  F.Tgt = T;
  F.TimeNs = nowNs();
  ThreadState &TS = thread(T, Tid);
  F.Thread = &TS;
  unsigned M = static_cast<unsigned>(DM);
  const tscc_header &H = P.header();
  // The block is sized for the first model that fired in the thread; a
  // thread never changes data model, but be safe if the sizes differ.
  if (!TS.HasLocals || TS.Locals.size() < H.thread_size[M]) {
    TS.Locals = Block(std::max(H.thread_size[0], H.thread_size[1]),
                      H.thread_align ? H.thread_align : 8);
    TS.HasLocals = true;
  }

  // NUL-terminated copies: the event's views need not be.
  std::string Func(E ? E->Function : std::string_view());
  std::string Module(E ? E->Module : std::string_view());
  static const std::string NoName;
  tscc_ctx Ctx{};
  Ctx.helpers = &Helpers;
  Ctx.runtime = &F;
  Ctx.globals = Globals.data();
  Ctx.thread = TS.Locals.data();
  if (E)
    memcpy(Ctx.regs, E->Regs, sizeof(Ctx.regs));
  Ctx.pid = T ? T->pid() : 0;
  Ctx.tid = Tid;
  Ctx.ppid = T ? T->ppid() : 0;
  Ctx.uid = T ? T->uid() : static_cast<int64_t>(getuid());
  Ctx.data_model = M;
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

  ClauseCrash Crash;
  if (runGuarded(Pred, Action, &Ctx, Crash))
    return;
  ++Counters[Clause].Faults;
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
    auto Next = std::min_element(Ticks.begin(), Ticks.end(),
                                 [](const Tick &A, const Tick &B) {
                                   return A.Next < B.Next;
                                 });
    if (TimerCv.wait_until(G, Next->Next) != std::cv_status::timeout)
      continue; // stop requested or spurious wake-up: re-check
    if (TimerStop || Ended || S.stopRequested())
      break;
    runClause(P.probes()[Next->Probe].clause, Next->Probe, nullptr, 0,
              nullptr);
    // Fixed rate, but never a burst of catch-up runs after a stall.
    Next->Next += Next->Period;
    if (Next->Next < Clock::now())
      Next->Next = Clock::now() + Next->Period;
  }
}

void SessionState::dumpAgg(uint32_t Agg, int64_t Top) {
  Sink->aggregation(Aggs[Agg].snapshot(Top));
  Aggs[Agg].markPrinted();
}

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

Session::Session(const ProbeProgram &Program, std::unique_ptr<OutputSink> Sink,
                 SessionOptions O)
    : Program(Program), Opts(std::move(O)) {
  State = std::make_unique<SessionState>(*this, std::move(Sink));
  guardProgram(Program);
  // Before anything else: backends report attachments before BEGIN runs.
  State->Sink->start(Program);
}

Session::~Session() { unguardProgram(Program); }

bool Session::checkParams(std::string &Error) const {
  uint32_t Need = Program.header().param_count;
  for (const tscc_probe &Pr : Program.probes())
    if (Pr.pid_kind == TSCC_PID_PARAM)
      Need = std::max<uint32_t>(Need, static_cast<uint32_t>(Pr.pid_value));
  if (Opts.Params.size() >= Need) {
    // A $N used as a probe's PID must name a process.
    for (const tscc_probe &Pr : Program.probes()) {
      if (Pr.pid_kind != TSCC_PID_PARAM)
        continue;
      const std::string &V = Opts.Params[Pr.pid_value - 1];
      char *End = nullptr;
      long long Pid = strtoll(V.c_str(), &End, 10);
      if (V.empty() || *End || Pid <= 0) {
        Error = "$" + std::to_string(Pr.pid_value) + " is the PID of probe '" +
                std::string(Program.string(Pr.spec)) +
                "' but '" + V + "' is not a process id";
        return false;
      }
    }
    return true;
  }
  Error = "the script uses $" + std::to_string(Need) + " but " +
          (Opts.Params.empty() ? std::string("no parameters were")
                               : std::to_string(Opts.Params.size()) +
                                     (Opts.Params.size() == 1
                                          ? " parameter was"
                                          : " parameters were")) +
          " given";
  return false;
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

void Session::begin() {
  {
    std::lock_guard<std::mutex> G(State->Lock);
    if (State->Begun)
      return;
    State->Begun = true;
    State->runNoProcessClauses(TSCC_PROBE_BEGIN);
  }
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
  std::lock_guard<std::mutex> G(State->Lock);
  if (State->Ended)
    return;
  State->Ended = true;
  State->runNoProcessClauses(TSCC_PROBE_END);
  for (uint32_t I = 0; I < State->Aggs.size(); ++I)
    if (State->Aggs[I].dirty())
      State->dumpAgg(I, 0);
  State->Sink->counters(State->Counters);
  State->Sink->finish();
}

void Session::fire(FireEvent &E) {
  if (!E.Tgt || E.Probe >= Program.probes().size())
    return;
  std::lock_guard<std::mutex> G(State->Lock);
  // After END nothing runs: its output would follow the final report.
  if (State->Ended)
    return;
  uint32_t Clause = Program.probes()[E.Probe].clause;
  State->runClause(Clause, E.Probe, E.Tgt, E.Tid, &E);
}

void Session::withinEnter(Target &T, int64_t Tid, uint32_t WithinIndex) {
  std::lock_guard<std::mutex> G(State->Lock);
  if (WithinIndex < Program.withinTable().size())
    ++State->thread(&T, Tid).Within[WithinIndex];
}

void Session::withinExit(Target &T, int64_t Tid, uint32_t WithinIndex) {
  std::lock_guard<std::mutex> G(State->Lock);
  if (WithinIndex >= Program.withinTable().size())
    return;
  uint32_t &Depth = State->thread(&T, Tid).Within[WithinIndex];
  // An exit without a seen entry (probe installed mid-call) must not wrap.
  if (Depth)
    --Depth;
}

void Session::threadExited(Target &T, int64_t Tid) {
  std::lock_guard<std::mutex> G(State->Lock);
  State->Threads.erase({&T, Tid});
}

void Session::targetAttached(Target &T, std::string_view How) {
  std::lock_guard<std::mutex> G(State->Lock);
  if (How == HowLaunched)
    State->Launched[&T] = true;
  State->Sink->targetAttached(State->info(T), How);
}

void Session::probeAttached(Target &T, uint32_t Probe,
                            std::string_view Function, std::string_view Module,
                            uint64_t Address) {
  std::lock_guard<std::mutex> G(State->Lock);
  State->Sink->probeAttached(State->info(T), Probe, Function, Module, Address);
}

void Session::targetExited(Target &T, int ExitCode, int Signal) {
  std::lock_guard<std::mutex> G(State->Lock);
  State->Sink->targetExited(State->info(T), ExitCode, Signal);
  auto L = State->Launched.find(&T);
  if (L != State->Launched.end()) {
    // Only a command that ended on its own speaks for tsrun's status; one
    // killed because the session stopped first does not.
    if (State->LaunchedStatus < 0 && !stopRequested())
      State->LaunchedStatus = Signal ? 128 + Signal : (ExitCode & 0xff);
    State->Launched.erase(L);
  }
  // Every thread of the target is gone with it.
  for (auto It = State->Threads.begin(); It != State->Threads.end();)
    It = It->first.first == &T ? State->Threads.erase(It) : std::next(It);
}

void Session::warn(std::string_view Message) {
  std::lock_guard<std::mutex> G(State->Lock);
  State->warnLocked(Message);
}

std::vector<ClauseCounters> Session::counters() const {
  std::lock_guard<std::mutex> G(State->Lock);
  return State->Counters;
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
