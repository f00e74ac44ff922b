//===- SessionState.h - The session's storage and dispatch ------*- C++ -*-===//
//
// Internal to libtsrt. Everything here is guarded by SessionState::Lock.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_SESSION_SESSIONSTATE_H
#define TSCC_RUNTIME_LIB_SESSION_SESSIONSTATE_H

#include "tscc/Runtime/Aggregation.h"
#include "tscc/Runtime/Session.h"

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace tscc::rt {

/// A zeroed, aligned block of bytes (globals, thread-locals, map values).
class Block {
public:
  Block() = default;
  Block(size_t Size, size_t Align);
  uint8_t *data() { return Data; }
  size_t size() const { return Size; }

private:
  std::unique_ptr<uint8_t[]> Storage;
  uint8_t *Data = nullptr;
  size_t Size = 0;
};

/// One associative array: serialised key -> zero-initialised value slot.
struct MapTable {
  std::unordered_map<std::string, Block> Entries;
};

/// Per traced thread: its thread-local block, thread maps and within depths.
struct ThreadState {
  Block Locals;
  bool HasLocals = false;
  std::vector<MapTable> Maps;   ///< indexed like the map table (thread maps)
  std::vector<uint32_t> Within; ///< activation depth per within entry
};

/// What the helpers need while one clause runs; ctx->runtime points here.
struct FireScope {
  SessionState *State = nullptr;
  Target *Tgt = nullptr;
  ThreadState *Thread = nullptr;
  uint64_t TimeNs = 0;
};

class SessionState {
public:
  SessionState(Session &S, std::unique_ptr<OutputSink> Sink);
  ~SessionState();

  Session &S;
  const ProbeProgram &P;
  std::unique_ptr<OutputSink> Sink;
  mutable std::mutex Lock;

  Block Globals;
  std::vector<MapTable> GlobalMaps;
  std::vector<Aggregation> Aggs;
  std::vector<ClauseCounters> Counters;
  /// Threads by (target, tid). Target-less clauses use (nullptr, 0).
  std::map<std::pair<const Target *, int64_t>, ThreadState> Threads;
  std::vector<int64_t> ParamValues;
  std::vector<const char *> ParamStrings;
  std::chrono::steady_clock::time_point Start;
  bool Begun = false, Ended = false;
  bool OutputFailed = false;
  int LaunchedStatus = -1;
  std::map<const Target *, bool> Launched;
  /// Warnings already given, so a broken clause does not flood stderr.
  std::map<std::string, unsigned> WarnedOnce;

  // Interval timer.
  std::thread Timer;
  std::condition_variable TimerCv;
  bool TimerStop = false;

  uint64_t nowNs() const;
  ThreadState &thread(const Target *T, int64_t Tid);
  TargetInfo info(Target &T) const;
  /// Runs one clause (predicate, then action); Lock must be held.
  void runClause(uint32_t Clause, uint32_t Probe, Target *T, int64_t Tid,
                 const FireEvent *E);
  void runNoProcessClauses(uint32_t Kind);
  void timerLoop();
  void warnLocked(std::string_view Message);
  void warnOnce(const std::string &Key, std::string_view Message);
  void dumpAgg(uint32_t Agg, int64_t Top);

  // Helpers (Helpers.cpp).
  static const tscc_helpers Helpers;
  void *mapLookup(FireScope &F, uint32_t Clause, uint32_t Map,
                  const void *Key, uint32_t KeySize, bool Create);
  void mapDelete(FireScope &F, uint32_t Map, const void *Key,
                 uint32_t KeySize);
  void emit(FireScope &F, tscc_ctx &Ctx, const void *Rec, uint32_t Size);
  void stackTrace(FireScope &F, tscc_ctx &Ctx, uint32_t Depth);
};

} // namespace tscc::rt

#endif
