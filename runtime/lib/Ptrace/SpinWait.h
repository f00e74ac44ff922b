//===- SpinWait.h - When the event loop polls instead of sleeping --*- C++ -*-===//
//
// A tracee that hits a breakpoint stops and wakes tsrun; tsrun handles the
// stop and resumes it. When tsrun sleeps in waitpid(), each hit pays for
// waking tsrun's CPU out of idle, and on a VM that wake-up is an
// inter-processor interrupt the hypervisor has to deliver: about 8 µs of
// the ~29 µs a hit costs on the reference machine (docs/performance.md).
// Polling waitpid(WNOHANG) for a short while after resuming a thread keeps
// tsrun's CPU awake, so the next stop is picked up at once.
//
// Polling costs CPU time, so it is adaptive, like an adaptive mutex: tsrun
// polls only while events have been arriving within the limit of each
// other, and never for longer than that limit. A probe that fires rarely
// costs nothing; a hot one costs at most one CPU for as long as it is hot.
// The poll loop yields the CPU on every round (see PtraceBackend.cpp), so a
// target thread that wants tsrun's CPU gets it.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_SPINWAIT_H
#define TSCC_RUNTIME_PTRACE_SPINWAIT_H

#include <cstdint>

namespace tscc::rt::pt {

class SpinPolicy {
public:
  /// LimitNs == 0 turns polling off.
  explicit SpinPolicy(uint64_t LimitNs) : LimitNs(LimitNs) {}

  /// How long to poll before blocking, in nanoseconds; 0 means block now.
  uint64_t budgetNs() const { return LastGapNs <= LimitNs ? LimitNs : 0; }

  /// The time from the end of handling one event to the arrival of the
  /// next (a polled arrival, or a blocking one including its wake-up).
  void observe(uint64_t GapNs) { LastGapNs = GapNs; }

private:
  uint64_t LimitNs;
  /// Start cold: the first event after a quiet period is waited for
  /// blocking, and polling begins once two arrive close together.
  uint64_t LastGapNs = UINT64_MAX;
};

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_SPINWAIT_H
