//===- SessionState.h - The session's storage and dispatch ------*- C++ -*-===//
//
// Internal to libtsrt. Variables, maps, aggregations, counters and record
// rings live in the shared store (tscc/store.h), which the targets' agents
// update too; what is here is tsrun's own bookkeeping around it.
//
// Locks, and their order:
//   1. the store lock (tscc_store_lock): serialises every clause, in tsrun
//      and in targets. A target thread that holds it may be sitting in a
//      ptrace stop that only the ptrace backend's thread can end, so no
//      tsrun thread may wait for it while holding anything that thread
//      could need: it is always taken first, with nothing else held.
//   2. Lock (the session mutex): the output sink, warnings, the targets'
//      ids, the session's flags. Held briefly, never while waiting for 1.
//   3. ExitMutex: threads and processes that are gone, to retire from the
//      store, and slots to free.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_SESSION_SESSIONSTATE_H
#define TSCC_RUNTIME_LIB_SESSION_SESSIONSTATE_H

#include "tscc/Runtime/Aggregation.h"
#include "tscc/Runtime/ProbeCoverage.h"
#include "tscc/Runtime/ProbeMatcher.h"
#include "tscc/Runtime/Session.h"
#include "tscc/Runtime/SharedStore.h"
#include "tscc/Runtime/StackTable.h"

#include "../Store/RingReader.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <latch>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>

namespace tscc::rt {

struct Domain;

/// What the helpers need while one clause runs; ctx->runtime points here.
struct FireScope {
  SessionState *State = nullptr;
  Target *Tgt = nullptr;
  uint32_t TargetId = 0;
  int32_t Slot = -1;          ///< the firing thread's slot in its shard
  uint64_t TimeNs = 0;        ///< CLOCK_MONOTONIC, taken once per firing
  tscc_store *View = nullptr; ///< the domain's store, the process's shard
  Domain *Dom = nullptr;      ///< whose lock is held
};

/// Processes that trust each other (Target::trustKey(): they can already
/// read and write each other's memory) share a store: the script's
/// globals, associative arrays and aggregations, the lock and the record
/// sequence number. Domain 0 is tsrun's own (BEGIN runs there; no process
/// maps it); every other one starts from the state BEGIN left.
struct Domain {
  uint32_t Index = 0;
  std::string Key;
  SharedStore *Store = nullptr;
  std::unique_ptr<SharedStore> Owned; ///< all but domain 0's
  /// Guarded by ExitMutex: tsrun's records of clauses run under this
  /// store's lock, in the order it ran them (numbered in that order, as a
  /// thread's ring numbers its own). OwnPushed counts every one ever added,
  /// OwnTaken every one collected; the queue holds those in between.
  struct OwnRecord {
    tscc_ring_record Hdr{};
    uint32_t Target = 0;
    std::vector<uint8_t> Bytes;
  };
  std::deque<OwnRecord> OwnRecords;
  uint64_t OwnPushed = 0, OwnTaken = 0, OwnBytes = 0;
  /// Records of tsrun's own clause runs dropped (the queue was full) and
  /// not yet marked, per (process, thread): the thread's next record that
  /// fits goes after a loss marker.
  std::map<std::pair<uint32_t, int32_t>, uint64_t> OwnLost;
  uint64_t OwnRecordsLost = 0; ///< every one ever dropped so
  /// Cuts taken of it so far (each cut's number), and (guarded by Lock)
  /// the last one whose records are all out.
  std::atomic<uint64_t> Cuts{0};
  uint64_t DeliveredCut = 0;
  /// Guarded by ExitMutex: the aggregation parts of the threads of its
  /// processes whose shards are gone.
  RetiredAggParts RetiredAggs;
  /// The reader's drains in a row that could not get the lock (only the
  /// reader touches it).
  unsigned FailedDrains = 0;
};

/// A process the session has seen, by the number the store knows it by.
struct TargetEntry {
  Target *Tgt = nullptr;
  int64_t Pid = 0;
};

class SessionState {
public:
  SessionState(Session &S, std::unique_ptr<OutputSink> Sink);
  ~SessionState();

  Session &S;
  const ProbeProgram &P;
  std::unique_ptr<ControlPage> Control;
  /// Domain 0's store: tsrun's own, never mapped into a process.
  std::unique_ptr<SharedStore> Store;
  /// What every store is made from.
  StoreShape Shape;
  /// The session's time zero (CLOCK_MONOTONIC), for records written
  /// anywhere; tsrun's own, never read back from shared memory.
  uint64_t StartNs = 0;
  /// exit() requests from targets that were ignored, and said so.
  bool ForgedExitReported = false;
  std::string StoreError;
  std::vector<AggregationDesc> Aggs;
  std::vector<int64_t> ParamValues;
  std::vector<const char *> ParamStrings;
  std::chrono::steady_clock::time_point Start;
  std::atomic<bool> Begun{false}, Ended{false};

  // Guarded by Lock.
  mutable std::mutex Lock;
  std::unique_ptr<OutputSink> Sink;
  bool OutputFailed = false;
  int LaunchedStatus = -1;
  std::map<const Target *, bool> Launched;
  /// Warnings already given, so a broken clause does not flood stderr.
  std::map<std::string, unsigned> WarnedOnce;
  /// Targets by id: 0 is "no process" (BEGIN, END, interval). Ids are
  /// never reused; an exited target's entry goes once its records are out.
  std::unordered_map<uint32_t, TargetEntry> Targets{{0, TargetEntry{}}};
  uint32_t NextTargetId = 1;
  std::unordered_map<const Target *, uint32_t> TargetIds;
  /// Exited targets whose records may still wait in the rings: their id,
  /// their domain, and the number of the first cut of it taken after the
  /// exit was reported (which holds each of their records).
  struct Undelivered {
    uint32_t Id;
    Domain *Dom;
    uint64_t Cut;
  };
  std::vector<Undelivered> ExitedUndelivered;
  /// Targets reported exited, and freed by their backends since; the most
  /// exited ones held at once (the end-of-session statistics).
  uint64_t TargetsExited = 0, TargetsFreed = 0, MostHeld = 0;
  /// Bumped whenever targets are released to their backends.
  std::atomic<uint64_t> Releases{0};
  /// What the rings held that was garbage, and what was said about it.
  uint64_t CorruptReported = 0;
  /// Records lost (full rings) as last warned about, and when
  /// (CLOCK_MONOTONIC ns): said during the run at most once a second.
  uint64_t LostWarned = 0, LostWarnedAtNs = 0;
  std::string FatalError;

  /// Stacks that aggregation keys stand for (thread-safe itself).
  StackTable Stacks;

  /// Which probes found a function where (thread-safe itself).
  ProbeMatcher Matcher;
  ProbeCoverage Coverage;

  // Guarded by ExitMutex.
  std::mutex ExitMutex;
  /// Threads and processes that are gone, to be retired from the store the
  /// next time its lock is taken (a backend must never wait for it).
  std::vector<std::pair<uint32_t, int64_t>> ExitedThreads;
  std::vector<uint32_t> ExitedTargets;
  /// The trust domains, in the order they appeared ([0]: tsrun's own).
  /// Never removed: a Domain * stays valid for the session.
  std::vector<std::unique_ptr<Domain>> Domains;
  /// BEGIN has run, and its state was given to every domain there was.
  bool BeginCopied = false;
  /// A process's shard, and tsrun's read positions in its rings.
  struct ShardEntry {
    uint32_t Target = 0; ///< whose
    Domain *Dom = nullptr;
    std::unique_ptr<Shard> Mem;
    RingReader Reader;
    /// Its process now belongs to another domain (a set-id exec): it is
    /// released once its rings are read.
    bool Moved = false;
    /// Processes that use the owner's memory (Session::shareShard): the
    /// only ones but Target a record in it may name.
    std::set<uint32_t> Sharers;
  };
  /// Every shard, by a number of tsrun's own, and the current one of each
  /// target. (tsrun's own, for clauses without a process, is the store's
  /// view.)
  std::map<uint64_t, ShardEntry> Shards;
  std::unordered_map<uint32_t, uint64_t> ShardOf;
  /// The shard a process sharing another's memory writes into.
  std::unordered_map<uint32_t, uint64_t> SharedShardOf;
  /// Session::setWindowWake's function.
  std::function<void()> WindowWake;
  /// Calls WindowWake if a shard has a window asked for and not granted.
  void wakeForWindows();
  /// Shard Key's owner is gone: it becomes that of a process still sharing
  /// its memory, if there is one.
  bool handShardOverLocked(uint64_t Key);
  void shareShardLocked(uint32_t Owner, uint32_t Sharer);
  void leaveShardLocked(uint32_t Id);
  /// Whose a record read from shard E is.
  uint32_t recordOwnerLocked(const ShardEntry &E,
                             const tscc_ring_record &H) const {
    return E.Sharers.count(H.target) ? H.target : E.Target;
  }
  uint64_t NextShard = 1;
  /// A released shard held a request to end the session.
  bool ExitSeen = false;
  /// Threads that died holding a store lock (guarded by Lock): the first
  /// few are noted, the total at the end.
  static constexpr uint64_t MaxLockDeathNotes = 10;
  uint64_t LockDeaths = 0;
  /// What the processes whose shards are gone counted, and what their
  /// rings held that was garbage.
  std::vector<tscc_clause_counters> RetiredCounters;
  DrainStats RetiredStats;

  // Interval timer (TimerStop guarded by Lock).
  std::thread Timer;
  std::condition_variable TimerCv;
  bool TimerStop = false;

  // Reader of the rings that targets write.
  std::thread Reader;
  std::atomic<bool> ReaderStop{false};

  uint64_t nowNs() const;
  /// The id of T in the store; takes Lock (the Locked form: Lock is held).
  uint32_t targetId(Target *T);
  uint32_t targetIdLocked(Target *T);
  TargetInfo info(Target &T) const;

  /// Runs one clause (predicate, then action) under the store lock, then
  /// hands every record emitted so far to the sink. No lock may be held.
  /// A clause without a process runs in domain D (null: T's domain).
  void runClause(uint32_t Clause, uint32_t Probe, Target *T, int64_t Tid,
                 const FireEvent *E, Domain *D = nullptr);
  /// BEGIN runs in tsrun's own domain; END and interval clauses in every
  /// domain of traced processes (in tsrun's own while there is none).
  void runNoProcessClauses(uint32_t Kind);
  /// Where END and interval clauses run: every domain of traced
  /// processes, or tsrun's own while there is none.
  std::vector<Domain *> noProcessDomains();
  void timerLoop();
  /// The rings' reader; counts LifelineHeld down once the store's
  /// reader_alive word is this thread's lifeline.
  void readerLoop(std::latch &LifelineHeld);
  /// Until a ring of any domain wants draining, or 10 ms.
  void waitForWake();
  /// A target asked to end the session (exit() in a clause it ran).
  void exitRequested();

  void warnLocked(std::string_view Message);
  void warnOnceLocked(const std::string &Key, std::string_view Message);
  /// Takes Lock.
  void warnOnce(const std::string &Key, std::string_view Message);

  /// Takes the store lock of D for tsrun (bounded wait); false if it could
  /// not. Nothing else may be held.
  bool lockStore(Domain &D, uint64_t TimeoutNs);
  void unlockStore(Domain &D);
  /// Where the records of some domains stood when their store locks were
  /// last held.
  struct Cut {
    struct Part {
      Domain *Dom = nullptr;
      uint64_t Number = 0; ///< of the domain's cuts
      std::vector<std::pair<uint64_t, DrainCut>> Rings; ///< per shard
      uint64_t OwnUpTo = 0; ///< tsrun's own records: OwnPushed then
    };
    std::vector<Part> Parts;
  };
  /// The domain of T's processes (null T: tsrun's own), created on first
  /// use with the state BEGIN left; null if it cannot be created. Takes
  /// ExitMutex, then Lock (to say so); the Locked form (ExitMutex held)
  /// says nothing.
  Domain *domainFor(Target *T);
  Domain *domainForLocked(Target *T);
  /// BEGIN has run: every domain there is starts from what it left.
  void beginDone();
  /// Gives domain To the script's state as BEGIN left it in tsrun's own:
  /// the globals and the associative arrays (not the aggregations, which
  /// are merged when printed).
  void copyBeginState(Domain &To);
  /// Every domain, in order; taken under ExitMutex.
  std::vector<Domain *> domains();
  /// The view of T's current shard (in T's domain), created on first use;
  /// null if it cannot be (the process then runs no clause). The Locked
  /// form: ExitMutex is held.
  tscc_store *view(Target &T, uint32_t Id);
  tscc_store *viewLocked(Target &T, uint32_t Id);
  /// Shard Key's process is gone and so are its records (or it moved to
  /// another domain and its rings are read): the shard goes, what it
  /// counted stays. ExitMutex is held.
  void releaseShardLocked(uint64_t Key);
  /// Every process's counters for Clause, summed (saturating: a process
  /// may have written anything into its own). Takes ExitMutex.
  tscc_clause_counters totalCounters(uint32_t Clause);
  DrainStats drainStatsLocked() const;
  /// With the store lock and ExitMutex held: retires the threads and
  /// processes reported gone.
  void retireExitedLocked();
  /// With D's store lock held (Locked; else only the heads are noted):
  /// retires exited threads, frees drained ones, and notes where every
  /// record of D below which is complete.
  Cut::Part settleLocked(Domain &D, bool Locked = true);
  /// Copies the records of C out of the rings (no lock needed), in order:
  /// every ring's run merged with the others by time.
  /// Warns about records lost to full rings since the last warning: during
  /// the run at most once a second, and at the end (Final) if any were.
  void warnLossLocked(bool Final);
  std::string lossAdvice() const;
  /// Collects C's records into Out; true when it read only part of them
  /// (one ring of one domain, in batches of at most MaxRecords): then the
  /// next call with the same cut goes on.
  bool collect(const Cut &C, RecordBatch &Out, size_t MaxRecords = SIZE_MAX);
  bool collectPart(const Cut::Part &P, RecordBatch &Mine,
                   std::vector<size_t> &Runs, size_t MaxRecords = SIZE_MAX);
  /// Where each run of the batch being collected starts (under Lock).
  std::vector<size_t> Runs;
  /// Records delivered at a time from a cut of one ring.
  static constexpr size_t DeliveryBatch = 16384;
  /// The records of the cut being delivered; kept from one drain to the
  /// next (RecordBatch::clear), so that a steady stream of records costs
  /// no allocation per drain. Under Lock.
  RecordBatch Batch;
  /// Collects the records of C and hands them to the sink, then releases
  /// the exited targets none of whose records can still come. Takes Lock,
  /// so that deliveries are whole and in order: once it returns, every
  /// record of C is out.
  void deliverUpTo(const Cut &C);
  /// Says, once, that the rings held garbage (the totals come at the end).
  void reportCorruptLocked();
  void deliverLocked(RecordBatch &Records);
  /// Gives every exited target whose records are all delivered back to its
  /// backend (Target::releaseBySession); the session forgets it.
  void releaseDeliveredLocked();
  /// Collects and delivers the records of every domain whose store lock
  /// can be had within TimeoutNs; EvenIfStuck (the reader): also of one
  /// whose lock it could not get three times running, as far as the
  /// rings' heads say. Nothing may be held.
  void drain(uint64_t TimeoutNs, bool EvenIfStuck = false);
  void deliverOne(const DrainedRecord &D);
  /// A loss marker (TSCC_RING_LOST) to the sink.
  void deliverLost(const DrainedRecord &D);
  /// With Lock and ExitMutex held, before a gone process's shard is
  /// released: loss markers for what its threads dropped at their end.
  /// Drops: what every clause lost (a bound for hostile counts).
  void markTrailingLossLocked(ShardEntry &E, int64_t Pid, uint64_t Drops);
  /// At the end of the session: the same for every shard still held (a
  /// process whose exit was not released yet, or one still running).
  void markTrailingLossAllLocked();
  /// The stack trace record for a snapshot taken in a target.
  std::vector<uint64_t>
  unwindSnapshot(Target *T, std::span<const uint8_t> Payload, uint32_t Probe);
  /// The frame limit for a stktrace(Requested): 0 or more than
  /// --max-stack-depth means --max-stack-depth.
  unsigned stackDepthLimit(uint32_t Requested) const;
  /// S as stktrace(Requested) shows it: a depth the clause asked for is
  /// no truncation (bpftrace's ustack(N) is not marked either); only
  /// --max-stack-depth is.
  UnwoundStack asRequested(UnwoundStack S, uint32_t Requested) const;
  /// A TSCC_REC_STACK record (tscc_record, then a TSCC_FIELD_STACK
  /// argument: count, end, PCs) holding at most Depth of S's PCs.
  static std::vector<uint64_t> stackRecord(UnwoundStack S, unsigned Depth);
  /// T: the entry of D's process, null if it has none (then D is not).
  bool validRecord(const DrainedRecord &D, const TargetEntry *T) const;
  /// Whether table Table (or, for a __thread map, any process's copy of
  /// it) found itself full. Takes ExitMutex.
  bool tableFullLocked(uint32_t Table);
  /// Whether a process asked to end the session (its shard says so).
  bool anyExitRequested();
  /// Warns once about every map or aggregation that ran out of room.
  void warnFullTablesLocked();
  /// What agents in targets could not do (every domain store's
  /// agent_notices).
  void warnAgentNoticesLocked();
  uint32_t agentNoticesLocked();
  /// "more than N threads ... had state at once (how to raise it)".
  std::string threadLimitText() const;
  static const char *lockTimeoutText();

  /// Prints aggregation Agg, every domain's merged (and marks it printed);
  /// takes Lock (the Locked form: held).
  void dumpAgg(uint32_t Agg, int64_t Top);
  void dumpAggLocked(uint32_t Agg, int64_t Top);
  /// Whether some domain's copy of Agg changed since it was printed.
  bool aggDirty(uint32_t Agg);
  /// Every domain's store view, for merged aggregation snapshots.
  std::vector<tscc_store *> storeViews();
  /// Where every domain's aggregations are, threads' parts included
  /// (ExitMutex held, for as long as they are read: no shard goes and no
  /// thread is folded meanwhile).
  std::vector<AggSource> aggSourcesLocked();
  /// Aggregation Agg, merged from every domain, table and thread.
  AggDump snapshotAgg(uint32_t Agg, int64_t Top);
  /// Thread Tid of T is gone: the store lock it may have held is free.
  void forgetThread(Target &T, int64_t Tid);
  void countDrop(uint32_t Clause);
  /// A record that found its buffer full: a drop, and a lost record.
  void countLost(uint32_t Clause);
  void countFault(uint32_t Clause);

  // Helpers (Helpers.cpp).
  static const tscc_helpers Helpers;
  void emit(FireScope &F, tscc_ctx &Ctx, const void *Rec, uint32_t Size);
  /// Whether a writer of D's rings waits for room (--on-full=block).
  bool writerWaiting(Domain &D);
  /// Some clause prints an aggregation: where it runs in a process, its
  /// thread waits (holding the store lock) until the reader has printed
  /// it (Agent/print.c), as a writer waiting for room does.
  bool PrintsInProcesses = false;
  /// Tells the thread that wrote print record D that it is printed.
  void ackPrintLocked(const DrainedRecord &D);
  /// A stack an agent gave an id (TSCC_RING_STACK_NEW): symbolised and
  /// interned, and the agent's id made to stand for it.
  void deliverStackLocked(const DrainedRecord &D, const TargetEntry &T);
  void stackTrace(FireScope &F, tscc_ctx &Ctx, uint32_t Depth);
  /// stack_id(): unwinds the stopped firing thread and interns its stack.
  uint64_t stackId(FireScope &F, tscc_ctx &Ctx, uint32_t Depth);
};

/// How long tsrun waits for the store lock before it gives up on a clause
/// (the holder is a target thread that cannot run: stopped by a debugger or
/// SIGSTOP).
inline constexpr uint64_t ClauseLockTimeoutNs = 250'000'000;

} // namespace tscc::rt

#endif
