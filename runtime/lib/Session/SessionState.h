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
#include <latch>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace tscc::rt {

/// What the helpers need while one clause runs; ctx->runtime points here.
struct FireScope {
  SessionState *State = nullptr;
  Target *Tgt = nullptr;
  uint32_t TargetId = 0;
  int32_t Slot = -1;   ///< the firing thread's slot in the store
  uint64_t TimeNs = 0; ///< CLOCK_MONOTONIC, taken once per firing
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
  std::unique_ptr<SharedStore> Store;
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
  /// and the store's next sequence number when the exit was reported (each
  /// of their records has a lower one).
  std::vector<std::pair<uint32_t, uint64_t>> ExitedUndelivered;
  /// Every record with a lower sequence number has been handed to the sink.
  uint64_t DeliveredSeq = 0;
  /// Targets reported exited, and freed by their backends since; the most
  /// exited ones held at once (the end-of-session statistics).
  uint64_t TargetsExited = 0, TargetsFreed = 0, MostHeld = 0;
  /// Bumped whenever targets are released to their backends.
  std::atomic<uint64_t> Releases{0};
  uint64_t CorruptReported = 0;
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
  /// Slots of exited threads whose rings are drained, to free.
  std::vector<int32_t> EmptyDead;
  DrainStats Drains;

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
  void runClause(uint32_t Clause, uint32_t Probe, Target *T, int64_t Tid,
                 const FireEvent *E);
  void runNoProcessClauses(uint32_t Kind);
  void timerLoop();
  /// The rings' reader; counts LifelineHeld down once the store's
  /// reader_alive word is this thread's lifeline.
  void readerLoop(std::latch &LifelineHeld);

  void warnLocked(std::string_view Message);
  void warnOnceLocked(const std::string &Key, std::string_view Message);
  /// Takes Lock.
  void warnOnce(const std::string &Key, std::string_view Message);

  /// Takes the store lock for tsrun (bounded wait); false if it could not.
  /// Nothing else may be held.
  bool lockStore(uint64_t TimeoutNs);
  void unlockStore();
  /// With the store lock held: retires exited threads, frees drained ones,
  /// and returns the horizon below which every record is complete.
  uint64_t settleLocked();
  /// Copies the records below Horizon out of the rings (no lock needed).
  void collect(uint64_t Horizon, std::vector<DrainedRecord> &Out);
  /// Collects the records below Horizon and hands them to the sink, then
  /// releases the exited targets none of whose records can still come.
  /// Takes Lock, so that deliveries are whole and in order: once it
  /// returns, every record below Horizon is out.
  void deliverUpTo(uint64_t Horizon);
  void deliverLocked(std::vector<DrainedRecord> &Records);
  /// Gives every exited target whose records are all delivered back to its
  /// backend (Target::releaseBySession); the session forgets it.
  void releaseDeliveredLocked();
  /// Collects and delivers if the store lock can be had within TimeoutNs.
  /// Nothing may be held.
  void drain(uint64_t TimeoutNs);
  void deliverOne(const DrainedRecord &D);
  /// The stack trace record for a snapshot taken in a target.
  std::vector<uint64_t> unwindSnapshot(Target *T,
                                       const std::vector<uint8_t> &Payload);
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
  bool validRecord(const tscc_ring_record &H,
                   const std::vector<uint8_t> &Payload) const;
  /// Warns once about every map or aggregation that ran out of room.
  void warnFullTablesLocked();

  /// Prints aggregation Agg (and marks it printed); takes Lock (the Locked
  /// form: held). The store lock should be held, so that the snapshot is
  /// consistent.
  void dumpAgg(uint32_t Agg, int64_t Top);
  void dumpAggLocked(uint32_t Agg, int64_t Top);
  void countDrop(uint32_t Clause);
  void countFault(uint32_t Clause);

  // Helpers (Helpers.cpp).
  static const tscc_helpers Helpers;
  void emit(FireScope &F, tscc_ctx &Ctx, const void *Rec, uint32_t Size);
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
