//===- ExecCost.h - Where tsrun's time goes per process (private) -*- C++ -*-===//
//
// A fork+exec loop under tsrun costs several times what it costs untraced
// (bench/fork-exec). To see where that time goes, tsrun counts, when the
// environment variable TSCC_EXEC_STATS is set, the stops its event loop
// handles, the system calls it injects, its reads and writes of target
// memory, and the time spent in each phase of setting a process up, and
// prints them on stderr when the backend ends. Off (the default), each
// counting point costs one predictable branch.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_EXECCOST_H
#define TSCC_RUNTIME_PTRACE_EXECCOST_H

#include <cstddef>
#include <cstdint>

namespace tscc::rt::pt::cost {

/// The phases timed (inclusive: a phase inside another counts in both).
enum class Phase : unsigned {
  NewChild,  ///< a fork/vfork/clone event
  ChildStop, ///< a fork child's first stop (its shard)
  Exec,      ///< an exec stop, the whole new image's setup
  PathPlan,  ///< choosing the path (seccomp filters)
  HomePage,  ///< the home page's mmap
  Healer,    ///< the healer
  Agent,     ///< the agent: images, store, configuration
  Maps,      ///< the executable and the loader from /proc/PID/maps
  LinkMap,   ///< a link-map sync at the loader's breakpoint
  ElfOpen,   ///< parsing an ELF file
  Match,     ///< matching probes against a module
  Module,    ///< installing a module's sites, matching included
  Exit,      ///< a process's end
  Count
};

bool enabled();
uint64_t nowNs();
/// CPU time of the calling thread (tsrun's event loop).
uint64_t cpuNs();

/// A stop the event loop handled: its ptrace event (0 for a signal).
void countStop(unsigned Event);
/// An injected system call that took Ns nanoseconds (one round trip).
void countInjected(uint64_t Ns);
/// A batch of Calls injected system calls made in one round trip of Ns
/// nanoseconds (InjectBatch.h).
void countBatch(uint64_t Calls, uint64_t Ns);
/// A read or write of target memory.
void countMemory(bool Write, size_t Bytes);
/// A module's site plan served from the site-plan cache (Hit) or made
/// (SitePlanCache.h).
void countPlan(bool Hit);
/// A ptrace(2) request the backend made (counted where it matters).
void countPtrace();

class Timer {
public:
  explicit Timer(Phase P);
  ~Timer();
  Timer(const Timer &) = delete;
  Timer &operator=(const Timer &) = delete;

private:
  Phase P;
  uint64_t Start = 0, StartCpu = 0, Injected = 0, Written = 0;
};

/// Prints every count on stderr (when enabled).
void report();

} // namespace tscc::rt::pt::cost

#endif // TSCC_RUNTIME_PTRACE_EXECCOST_H
