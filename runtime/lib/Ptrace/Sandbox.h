//===- Sandbox.h - A process's seccomp filters, as tsrun sees them (private) =//
//
// tsrun makes traced processes run system calls (Inject.h): mmap for its
// pages, rt_sigaction for its handlers, the store's socket... A sandboxed
// process (seccomp: browsers' renderers, systemd's SystemCallFilter=,
// containers) may be killed by the first of them. So before any injected
// call tsrun asks the thread's filters, read from the kernel, what they
// would do with exactly that call: that number, those arguments, that
// architecture, from that instruction pointer (SeccompBpf.h). Only a call
// the filters allow (or allow and log) is made; one they fail with an
// errno is not made and fails the same way; anything else (a kill, a
// SIGSYS, a supervisor, an unknown answer) is never made.
//
// Where tsrun reads the filters: /proc/PID/task/TID/status says whether a
// thread has any (`Seccomp:` 0 none, 1 strict, 2 filters) and how many
// (`Seccomp_filters:`); PTRACE_SECCOMP_GET_FILTER reads each one of a
// stopped tracee, which needs CAP_SYS_ADMIN and a tsrun that is not under
// seccomp itself. Filters are per thread (each thread may add its own) and
// only ever added, so a thread's count tells when to read them again.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_SANDBOX_H
#define TSCC_RUNTIME_PTRACE_SANDBOX_H

#include "tscc/DataModel.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <linux/filter.h>
#include <map>
#include <string>
#include <sys/types.h>
#include <vector>

namespace tscc::rt::pt {

/// One thread's seccomp state.
struct SeccompState {
  int Mode = 0;       ///< 0 none, 1 strict, 2 filters
  unsigned Count = 0; ///< filters /proc counts
  /// Every filter, most recently installed first (Mode 2 and readable).
  std::vector<std::vector<sock_filter>> Filters;
  std::string Unreadable; ///< why Filters could not be read ("" if read)
};

/// A system call as a thread would make it.
struct SyscallQuery {
  DataModel DM = DataModel::LP64; ///< AUDIT_ARCH_X86_64 or AUDIT_ARCH_I386
  uint32_t Nr = 0;
  std::array<uint64_t, 6> Args{};
  uint64_t IP = 0; ///< the instruction pointer: just after the syscall
  /// seccomp_data words (SeccompBpf.h, BpfOutcome::Loaded) whose values
  /// here only stand for values tsrun cannot know in advance (a pointer,
  /// a descriptor, where the code will be): a verdict that read one of
  /// them holds for nothing else.
  uint16_t Unforeseen = 0;
};

/// What the kernel would do with a SyscallQuery.
struct SyscallVerdict {
  enum KindT : uint8_t {
    Runs,      ///< allowed (or logged): make it
    Fails,     ///< not executed, returns -Errno: emulate, do not make it
    Forbidden, ///< would kill, send SIGSYS or wait for a supervisor
    Unknown,   ///< unreadable filters, or a verdict that is not general
  } Kind = Runs;
  int Errno = 0;      ///< Fails
  bool Stops = false; ///< Runs, after a seccomp stop that tsrun continues
  std::string Why;    ///< not Runs: "its seccomp filter kills ... on mmap"
};

/// A system call something tsrun puts into a process will make, listed
/// before it is put there (PathPlan.h): the call by name, its arguments as
/// far as they are known then, and the seccomp_data words that are not.
struct PlannedCall {
  const char *Name;
  std::array<uint64_t, 6> Args;
  uint16_t Unforeseen = 0;
};

/// Unforeseen words for arguments 1-based N... (as the manual pages count).
constexpr uint16_t unforeseenArgs(std::initializer_list<unsigned> Ns) {
  uint16_t M = 0;
  for (unsigned N : Ns)
    M |= uint16_t(3u << (4 + 2 * (N - 1)));
  return M;
}
/// The instruction pointer's words: the call is made from code whose
/// address is not known yet.
constexpr uint16_t UnforeseenIP = 3u << 2;

/// The seccomp filters of one process's threads, read as needed.
class SeccompView {
public:
  explicit SeccompView(pid_t Pid = 0) : Pid(Pid) {}

  /// Thread Tid's state, read again when /proc shows a new filter. Reading
  /// filters needs Tid in a ptrace stop.
  const SeccompState &state(pid_t Tid);
  /// What Tid's filters do with Q. TraceStops: tsrun asked the process for
  /// seccomp stops (PTRACE_O_TRACESECCOMP), so RET_TRACE stops in tsrun,
  /// which lets the call run, instead of failing it with ENOSYS.
  SyscallVerdict check(pid_t Tid, const SyscallQuery &Q, bool TraceStops);
  /// Forgets a thread that is gone, or every thread (exec keeps filters
  /// but the threads are new).
  void forget(pid_t Tid) { Threads.erase(Tid); }
  void forgetAll() { Threads.clear(); }
  void setPid(pid_t P) { Pid = P; }

  /// "seccomp: 2 filters, read" for reports; "" when Tid has none but
  /// tsrun's own.
  std::string describe(pid_t Tid);
  /// Whether Tid has a filter that is not tsrun's own.
  bool sandboxed(pid_t Tid) { return !describe(Tid).empty(); }
  /// The filter tsrun installed in launched commands (Seccomp.h), which
  /// counts in every verdict but does not make a process sandboxed.
  void setOwnFilter(std::vector<sock_filter> F) { Own = std::move(F); }
  const std::vector<sock_filter> &ownFilter() const { return Own; }

private:
  pid_t Pid;
  std::map<pid_t, SeccompState> Threads;
  std::vector<sock_filter> Own;
};

/// What a thread in state S would have the kernel do with Q (see
/// SeccompView::check).
SyscallVerdict evaluateSyscall(const SeccompState &S, const SyscallQuery &Q,
                               bool TraceStops);

/// Mode and filter count of a thread, from /proc/PID/task/TID/status.
/// False when the file cannot be read (the thread is gone).
bool readSeccompStatus(pid_t Pid, pid_t Tid, int &Mode, unsigned &Count);

/// Reads every filter of a stopped tracee with PTRACE_SECCOMP_GET_FILTER
/// (which numbers them from the oldest), into Out most recent first. False,
/// with Why, when the kernel does not let tsrun.
bool readSeccompFilters(pid_t Tid, unsigned Count,
                        std::vector<std::vector<sock_filter>> &Out,
                        std::string &Why);

/// "mmap" for messages (the number if the table has no name).
std::string syscallLabel(DataModel DM, uint32_t Nr);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_SANDBOX_H
