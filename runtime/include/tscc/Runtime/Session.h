//===- tscc/Runtime/Session.h - One tracing session ------------------------===//
//
// A session runs one ProbeProgram against any number of targets reached by
// any number of backends. It owns the variable storage (globals, per-thread
// blocks, associative arrays, aggregations), the helper table that clause
// code calls, per-clause counters and the output sink.
//
// Threading: every public method is thread-safe. tsrun's clause execution
// and output are serialised by the session lock, so backends may call
// fire() from their own threads. Variables live in the shared store, whose
// own lock serialises every clause, in tsrun and in targets alike.
// requestStop()/stopRequested() are lock-free and async-signal-safe.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_SESSION_H
#define TSCC_RUNTIME_SESSION_H

#include "tscc/Runtime/Output.h"
#include "tscc/Runtime/ProbeProgram.h"
#include "tscc/Runtime/Target.h"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tscc::rt {

class StackTable;

class ElfFile;
struct ModuleRef;
class SessionState;
class SharedStore;
class ControlPage;
class Shard;

struct SessionOptions {
  /// $1, $2, ... as given on the command line.
  std::vector<std::string> Params;
  /// Entries per associative array / aggregation before updates are dropped
  /// (and counted as drops for the clause).
  size_t MapCapacity = 1u << 16;
  /// Bytes of each traced thread's record ring (a power of two).
  uint32_t ThreadBuffer = 64u << 20;
  /// --on-full=block: a thread whose buffer is full waits for the reader.
  bool BlockWhenFull = false;
  /// Threads that can have state in the store at once (--max-threads).
  uint32_t MaxThreads = 1024;
  /// Burst extents of each process, and the bytes of each (--burst-buffers,
  /// --burst-buffer): a thread whose ring is full goes on in a free one.
  uint32_t BurstBuffers = 0;
  uint32_t BurstBuffer = 64u << 20;
  /// Frames kept by stktrace() without an explicit depth, and its ceiling.
  unsigned MaxStackDepth = 64;
  /// Called (with the session lock held) when a clause calls exit(); tsrun
  /// uses it to interrupt every backend. Must not call back into the
  /// session.
  std::function<void()> OnStop;
  /// Where "tsrun: warning: ..." goes.
  FILE *Diag = stderr;
};

/// How a target came to be traced; the `How` argument of targetAttached().
/// Backends pass one of these so tsrun can find the launched command.
inline constexpr std::string_view HowLaunched = "launched";
inline constexpr std::string_view HowAttached = "attached";
inline constexpr std::string_view HowForked = "forked";
inline constexpr std::string_view HowRemote = "remote";

class Session {
public:
  /// Sink receives every report; the session owns it.
  Session(const ProbeProgram &Program, std::unique_ptr<OutputSink> Sink,
          SessionOptions Opts = {});
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  const ProbeProgram &program() const { return Program; }
  const SessionOptions &options() const { return Opts; }
  /// Non-empty when the session's shared store could not be created; the
  /// session then runs no clause.
  const std::string &initError() const;
  /// tsrun's own store (where BEGIN runs; no process maps it), from which
  /// every domain's is made (tscc/store.h); null after an init error.
  SharedStore *store();
  /// The store of T's trust domain (the processes with its credentials):
  /// the script's state they share, which T's agent maps; created on
  /// first use; null after an init error or if it cannot be created.
  SharedStore *storeFor(Target &T);
  /// Every domain's store, tsrun's own first.
  std::vector<SharedStore *> stores();
  /// The shard of T: the state that belongs to it alone (its threads and
  /// their rings, __thread maps, clause counters), created on first use;
  /// null after an init error or if it cannot be created.
  Shard *shard(Target &T);
  /// Sharer uses Owner's memory (a vfork() child, clone(CLONE_VM) without
  /// CLONE_THREAD), agent and shard included: a record in that shard that
  /// names Sharer is Sharer's. Only processes told so here can be named;
  /// any other record there is its owner's, whatever it says. (Processes
  /// that share memory can write each other's anyway: this gives nothing
  /// away.)
  void shareShard(Target &Owner, Target &Sharer);
  /// Leaving no longer uses the memory it shared (it exec'ed or exited).
  void leaveShard(Target &Leaving);
  /// Called from the reader's thread whenever a thread in some shard asks
  /// for a window (tscc_shard_header.window_tid) that is not granted yet:
  /// the backend that lets processes go wakes its event loop (it must be
  /// async-signal-safe in spirit: quick, no lock of the backend's). Empty:
  /// none. Set before run(), cleared after it.
  void setWindowWake(std::function<void()> Wake);
  /// The page of words that steer the session (tscc_control), which
  /// targets map read-only; null after an init error.
  ControlPage *control();
  /// The stacks that aggregation keys stand for (TSCC_FIELD_STACK_ID).
  const StackTable &stacks() const;
  /// Aggregation Agg as print() shows it: every domain's table and every
  /// thread's own part, merged (Top > 0: only the Top largest).
  AggDump snapshotAggregation(uint32_t Agg, int64_t Top = 0);
  /// The number the store knows T by (records, thread slots).
  uint32_t targetId(Target &T);
  /// $1..$N as integers (0 where a parameter is not a number).
  const std::vector<int64_t> &paramValues() const;

  /// The highest $N the program uses (script and probe PIDs).
  uint32_t paramsUsed() const;
  /// Checks the parameters against the program ($N used but not given).
  bool checkParams(std::string &Error) const;
  /// The pid a TSCC_PID_PARAM / TSCC_PID_NUMBER probe asks for, or -1 for
  /// any. Backends use it when deciding whether a probe applies.
  int64_t probePid(uint32_t Probe) const;

  /// Runs every BEGIN clause, then starts the interval timer thread.
  void begin();
  /// Stops the timer, runs every END clause (once, even if called again),
  /// prints the aggregations not yet printed and the per-clause counters.
  void end();

  /// Thread-safe; runs clause of E.Probe: stream[E.Tgt->dataModel()],
  /// predicate then action.
  void fire(FireEvent &E);
  void withinEnter(Target &T, int64_t Tid, uint32_t WithinIndex);
  void withinExit(Target &T, int64_t Tid, uint32_t WithinIndex);
  /// Frees thread-local blocks, thread maps and within() state of the thread.
  void threadExited(Target &T, int64_t Tid);
  /// The thread has left user space for good (it is in the kernel's exit
  /// path, ptrace's exit event): whatever of the store lock it held is
  /// free from now on, before anyone who joins it learns that it is gone.
  void threadEnding(Target &T, int64_t Tid);
  void targetAttached(Target &T, std::string_view How);
  /// Mechanism says how hits reach the clause ("in-process", or
  /// "breakpoint (why not in-process)"); empty where there is one way.
  void probeAttached(Target &T, uint32_t Probe, std::string_view Function,
                     std::string_view Module, uint64_t Address,
                     std::string_view Mechanism = {});
  /// Reported; the session goes on with the other targets. Also frees all
  /// of the target's thread state. Signal is 0 for a normal exit.
  void targetExited(Target &T, int ExitCode, int Signal);
  /// Bumped each time the session releases exited targets to their
  /// backends (Target::releaseBySession): a backend that sees it change
  /// frees the released ones it owns.
  uint64_t releaseCount() const;
  /// A backend destroyed a released target (for the end-of-session
  /// statistics: how many exited processes' bookkeeping is still held).
  void targetFreed();
  /// Delivers what exited targets left in the rings, waiting for the store
  /// lock as long as a clause may, so that they are released. Backends
  /// call it as they finish, so nothing of theirs outlives their run().
  void deliverExited();
  /// What ProbeMatcher::matchModule() found in a module (Found: per probe,
  /// see ProbeCoverage). Warns at once about probes that name this module
  /// and cannot match in it; when that leaves no probe of the program that
  /// can fire, the session fails (fatalError()) and stops.
  void moduleSearched(std::string_view ModuleName, bool IsMain,
                      const ElfFile &File, std::span<const int> Found);
  /// The backend loaded module M but probes nothing in it (Why: "it is not
  /// the library the target maps"); see ProbeCoverage::skipped().
  void moduleSkipped(std::string_view ModuleName, const ModuleRef &M,
                     std::string_view Why);
  /// Why the session cannot do anything useful; empty normally.
  std::string fatalError() const;
  /// Lock-free: whether fatalError() is set.
  bool failed() const { return Failed.load(std::memory_order_acquire); }
  /// "tsrun: warning: ..." on stderr, and a JSON "warning" event.
  void warn(std::string_view Message);
  /// "tsrun: ..." on stderr with -v, and a JSON "note" event: how the
  /// session is set up (which processes run clauses themselves).
  void note(std::string_view Message);

  /// exit() was called, or a signal arrived.
  bool stopRequested() const {
    return StopFlag.load(std::memory_order_acquire);
  }
  /// Async-signal-safe. Clause code running in targets stops starting new
  /// clauses at once too.
  void requestStop() {
    StopFlag.store(true, std::memory_order_release);
    if (StoreStopping)
      __atomic_store_n(StoreStopping, 1u, __ATOMIC_RELEASE);
  }

  /// Whether clauses run (trcon/trcoff): SIGUSR2 / SIGUSR1, --collect=off,
  /// a full single buffer. BEGIN and END run either way.
  bool collecting() const {
    return !CollectOff.load(std::memory_order_acquire);
  }
  /// Async-signal-safe: switches collection at once, everywhere (tsrun's
  /// breakpoints, remote targets, the agents in targets). Announce the
  /// switch afterwards with announceCollection() from a normal thread.
  void setCollecting(bool On) {
    CollectOff.store(!On, std::memory_order_release);
    if (StoreCollectOff)
      __atomic_store_n(StoreCollectOff, On ? 0u : 1u, __ATOMIC_RELEASE);
  }
  /// After the records from before the switch are out: "tsrun: collection
  /// stopped (WHY)" on stderr, and a "collection" event in the output.
  void announceCollection(bool On, std::string_view Why);
  /// Circular buffer mode: writes the ring to a new numbered file now, and
  /// says so (stderr and a "snapshot" event). False (with Error) otherwise.
  bool snapshot(std::string &Error);

  /// Per-clause counters so far.
  std::vector<ClauseCounters> counters() const;
  /// Whether any output write failed, and the errno of the first failure.
  bool outputOk() const;
  int outputError() const;
  /// The exit status of the first launched target that has exited, as a
  /// shell reports it (128 + signal when killed); -1 if none has exited.
  int launchedExitStatus() const;

private:
  friend class SessionState;
  std::vector<ClauseCounters> countersLocked() const;
  const ProbeProgram &Program;
  SessionOptions Opts;
  std::atomic<bool> StopFlag{false};
  std::atomic<bool> Failed{false};
  uint32_t *StoreStopping = nullptr; ///< the control page's stopping
  std::atomic<bool> CollectOff{false};
  uint32_t *StoreCollectOff = nullptr; ///< the control page's collect_off
  std::unique_ptr<SessionState> State;
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_SESSION_H
