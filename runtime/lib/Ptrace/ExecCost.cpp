//===- ExecCost.cpp - Where tsrun's time goes per process -----------------===//
#include "ExecCost.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <linux/ptrace.h>

using namespace tscc::rt::pt;

uint64_t cost::nowNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

uint64_t cost::cpuNs() {
  timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return uint64_t(T.tv_sec) * 1000000000u + uint64_t(T.tv_nsec);
}

namespace {

constexpr unsigned Phases = static_cast<unsigned>(cost::Phase::Count);
constexpr const char *PhaseNames[Phases] = {
    "new child",   "child's first stop", "exec",    "  path plan",
    "  home page", "  healer",           "  agent", "  maps",
    "link map",    "ELF parse",          "match",   "module",
    "exit"};

/// Event 0 is a signal stop; PTRACE_EVENT_STOP is the last one counted.
constexpr unsigned Events = PTRACE_EVENT_STOP + 1;

struct Counts {
  uint64_t Stops[Events] = {};
  /// Injection round trips (a single call or a batch) and the system
  /// calls they made.
  uint64_t Injected = 0, InjectedNs = 0, InjectedCalls = 0, Batches = 0;
  uint64_t Reads = 0, ReadBytes = 0, Writes = 0, WriteBytes = 0;
  uint64_t Ptrace = 0;
  uint64_t PhaseN[Phases] = {}, PhaseNs[Phases] = {}, PhaseCpuNs[Phases] = {};
  /// Site plans (SitePlanCache.h): served from the cache, and made.
  uint64_t PlanHits = 0, PlanMisses = 0;
  uint64_t PhaseInjected[Phases] = {}, PhaseWritten[Phases] = {};
};

Counts &counts() {
  static Counts C;
  return C;
}

const char *eventName(unsigned E) {
  switch (E) {
  case 0:
    return "signal or syscall";
  case PTRACE_EVENT_FORK:
    return "fork";
  case PTRACE_EVENT_VFORK:
    return "vfork";
  case PTRACE_EVENT_CLONE:
    return "clone";
  case PTRACE_EVENT_EXEC:
    return "exec";
  case PTRACE_EVENT_VFORK_DONE:
    return "vfork done";
  case PTRACE_EVENT_EXIT:
    return "exit";
  case PTRACE_EVENT_SECCOMP:
    return "seccomp";
  case PTRACE_EVENT_STOP:
    return "stop (new, interrupt)";
  default:
    return "other";
  }
}

} // namespace

bool cost::enabled() {
  static const bool On = std::getenv("TSCC_EXEC_STATS") != nullptr;
  return On;
}

void cost::countStop(unsigned Event) {
  if (enabled())
    ++counts().Stops[Event < Events ? Event : 0];
}

void cost::countInjected(uint64_t Ns) {
  if (!enabled())
    return;
  ++counts().Injected;
  ++counts().InjectedCalls;
  counts().InjectedNs += Ns;
}

void cost::countBatch(uint64_t Calls, uint64_t Ns) {
  if (!enabled())
    return;
  ++counts().Injected;
  ++counts().Batches;
  counts().InjectedCalls += Calls;
  counts().InjectedNs += Ns;
}

void cost::countMemory(bool Write, size_t Bytes) {
  if (!enabled())
    return;
  Counts &C = counts();
  ++(Write ? C.Writes : C.Reads);
  (Write ? C.WriteBytes : C.ReadBytes) += Bytes;
}

void cost::countPlan(bool Hit) {
  if (enabled())
    ++(Hit ? counts().PlanHits : counts().PlanMisses);
}

void cost::countPtrace() {
  if (enabled())
    ++counts().Ptrace;
}

cost::Timer::Timer(Phase P) : P(P) {
  if (!enabled())
    return;
  Start = nowNs();
  StartCpu = cpuNs();
  Injected = counts().Injected;
  Written = counts().WriteBytes;
}

cost::Timer::~Timer() {
  if (!enabled())
    return;
  auto I = static_cast<unsigned>(P);
  ++counts().PhaseN[I];
  counts().PhaseNs[I] += nowNs() - Start;
  counts().PhaseCpuNs[I] += cpuNs() - StartCpu;
  counts().PhaseInjected[I] += counts().Injected - Injected;
  counts().PhaseWritten[I] += counts().WriteBytes - Written;
}

void cost::report() {
  if (!enabled())
    return;
  const Counts &C = counts();
  fprintf(stderr, "tsrun exec stats:\n");
  for (unsigned E = 0; E < Events; ++E)
    if (C.Stops[E])
      fprintf(stderr, "  stops %-22s %8" PRIu64 "\n", eventName(E), C.Stops[E]);
  fprintf(stderr, "  injected round trips %8" PRIu64 " %10.3f ms\n", C.Injected,
          double(C.InjectedNs) / 1e6);
  fprintf(stderr, "  injected system calls %7" PRIu64 "\n", C.InjectedCalls);
  fprintf(stderr, "  ... in batches %14" PRIu64 "\n", C.Batches);
  fprintf(stderr, "  memory reads %16" PRIu64 " %10" PRIu64 " bytes\n", C.Reads,
          C.ReadBytes);
  fprintf(stderr, "  memory writes %15" PRIu64 " %10" PRIu64 " bytes\n",
          C.Writes, C.WriteBytes);
  fprintf(stderr, "  site plans cached %10" PRIu64 "\n", C.PlanHits);
  fprintf(stderr, "  site plans made %12" PRIu64 "\n", C.PlanMisses);
  // Wall time depends on the machine's load; the CPU time of tsrun's
  // event-loop thread in each phase much less.
  for (unsigned I = 0; I < Phases; ++I)
    if (C.PhaseN[I])
      fprintf(stderr,
              "  %-26s %8" PRIu64 " %10.3f ms %10.3f ms cpu %8" PRIu64
              " round trips %10" PRIu64 " bytes written\n",
              PhaseNames[I], C.PhaseN[I], double(C.PhaseNs[I]) / 1e6,
              double(C.PhaseCpuNs[I]) / 1e6, C.PhaseInjected[I],
              C.PhaseWritten[I]);
  fprintf(stderr, "  event-loop thread cpu %14.3f ms\n", double(cpuNs()) / 1e6);
}
