//===- tscc/Runtime/Target.h - What the session needs from a backend -----===//
//
// The session (clause dispatch, variables, output) is independent of how a
// process is reached. A backend (ptrace, gdb-remote) owns its processes and
// its event loop and reports probe hits to the session as FireEvents.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_TARGET_H
#define TSCC_RUNTIME_TARGET_H

#include "tscc/DataModel.h"
#include "tscc/Runtime/Unwinder.h"
#include "tscc/abi.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tscc::rt {

/// One traced process, as the session sees it. Implementations must make
/// every method safe to call from the thread that delivered the FireEvent.
class Target {
public:
  virtual ~Target() = default;

  virtual int64_t pid() const = 0;
  virtual int64_t ppid() const = 0;
  virtual int64_t uid() const = 0;
  /// Whom the process trusts: processes with the same key (their real,
  /// effective and saved user and group ids) can already read and write
  /// each other's memory, so they may share the script's state (a trust
  /// domain, docs/runtime.md "Security"). A process that maps no memory of
  /// the session (a remote target, whose clauses tsrun runs) shares it
  /// with the processes of tsrun's own user: the default.
  virtual std::string trustKey() const;
  /// Set once, from the process itself (ELF class, or the stub's
  /// architecture); every firing dispatches on it.
  virtual DataModel dataModel() const = 0;
  /// The process name (__pname): the executable's base name.
  virtual const std::string &name() const = 0;
  /// The kernel's name of thread Tid (__comm): /proc/PID/task/TID/comm,
  /// else the program's file name cut to 15 bytes, as exec sets it.
  virtual std::string threadComm(int64_t Tid) const;
  /// "ptrace" or "gdb-remote", for reports.
  virtual std::string_view backendName() const = 0;
  /// How the backend runs this process's probes ("agent", "breakpoints",
  /// "breakpoints-no-inject"), where it chooses; "" otherwise.
  virtual std::string pathName() const { return {}; }
  /// What sandboxes the process, as far as the backend knows ("seccomp: 2
  /// filters, read"); "" when nothing does.
  virtual std::string sandbox() const { return {}; }

  /// Copies len bytes of target memory. Returns false on any fault; never
  /// throws and never disturbs the target.
  virtual bool readMemory(uint64_t Addr, void *Dst, size_t Len) = 0;

  /// The user call stack of thread Tid starting from Regs, innermost first,
  /// at most MaxDepth program counters, and why it ends (Unwinder.h).
  virtual UnwoundStack unwindStack(int64_t Tid, const uint64_t *Regs,
                                   unsigned MaxDepth) = 0;
  /// The call stack of a thread as a stack snapshot taken in the process
  /// describes it (tscc_stack_snapshot: registers, the top of the stack
  /// from Regs[RSP], the real return addresses of returns the agent
  /// hijacked to ReturnTrampoline, innermost last), innermost first.
  /// Memory beyond the snapshot is read from the process if it still
  /// runs. By default: just the PC, marked as cut short.
  virtual UnwoundStack unwindSnapshot(const uint64_t *Regs,
                                      std::span<const uint8_t> Stack,
                                      std::span<const uint64_t> Shadow,
                                      uint64_t ReturnTrampoline,
                                      unsigned MaxDepth) {
    return {{Regs[TSCC_REG_RIP]}, StackEnd::NoUnwindInfo};
  }
  /// "func+0x12 (module)" for a PC, or "0x..." when unknown. Called when the
  /// output is formatted, which may be after the target has exited, so
  /// implementations keep what they need.
  virtual std::string symbolize(uint64_t PC) = 0;

  /// Set by the session once it will never use this target again: the
  /// process has exited (Session::targetExited) and every record it made
  /// has been handed to the output, stacks symbolised. From then on its
  /// backend may destroy it (then calling Session::targetFreed), which is
  /// what keeps a long session's memory from growing with every process
  /// that came and went. Thread-safe.
  bool releasedBySession() const {
    return SessionReleased.load(std::memory_order_acquire);
  }
  void releaseBySession() {
    SessionReleased.store(true, std::memory_order_release);
  }

private:
  std::atomic<bool> SessionReleased{false};
};

/// One probe hit, delivered by a backend to Session::fire().
struct FireEvent {
  Target *Tgt = nullptr;
  int64_t Tid = 0;
  uint32_t Probe = 0; ///< index into the object's probe table
  uint64_t Regs[TSCC_REG_COUNT] = {};
  int32_t Errno = 0; ///< syscall exit: the error, else 0
  uint64_t SyscallNr = 0;
  std::string_view Function; ///< __func: resolved function / syscall name
  std::string_view Module;   ///< __module: resolved module name
  /// USDT probes: the note's arguments evaluated at the hit (Usdt.h).
  uint64_t UsdtArgs[TSCC_USDT_MAX_ARGS] = {};
  uint32_t UsdtArgCount = 0;
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_TARGET_H
