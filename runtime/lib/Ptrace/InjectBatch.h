//===- InjectBatch.h - Many system calls for one ptrace round trip (private) =//
//
// Each system call injectSyscall (Inject.h) makes a process run is a ptrace
// round trip: registers set, a resume, a stop, tsrun woken, registers put
// back, some 10-25 us on a loaded machine. Setting the agent up in a new
// image takes twenty of them. A batch runs a whole table of calls in one
// round trip instead: a stub in the home page (Agent/x86_64/batch.S,
// Agent/i386/batch.S) makes them one after the other and traps once.
//
// The table and the data the calls point to are written in one write,
// below the borrowed thread's stack pointer (past the red zone), where the
// stub also gets its stack. A call can take an argument from memory that
// an earlier call of the batch wrote (a descriptor recvmsg received) or
// copy its result somewhere (into the agent's configuration), so calls
// that depend on each other still go in one batch.
//
// Every call is put to the process's seccomp filters first, as
// injectSyscall does: a batch runs only where each of its calls would
// run; the caller otherwise makes them one by one (which also emulates a
// filter's errno), and says why.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_INJECTBATCH_H
#define TSCC_RUNTIME_PTRACE_INJECTBATCH_H

#include "PtraceProcess.h"

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace tscc::rt::pt {

/// Where the stub is in the home page (after the self-restoring gadget
/// and its journal, SelfRestore.h), and the room it has there.
inline constexpr uint64_t BatchStubOffset = 512;
inline constexpr uint64_t BatchStubMax = 224;

/// The raw bytes of the stub for a process of data model DM.
std::span<const uint8_t> batchStub(DataModel DM);

/// One call of a batch: the layout batch.S reads (80 bytes).
struct BatchCall {
  enum Kind : uint8_t {
    Value = 0,  ///< the argument as it is
    Load32 = 1, ///< the 32-bit word at that address, zero-extended
    Load64 = 2, ///< the 64-bit word at that address (32 in a 32-bit one)
  };
  enum Flag : uint8_t {
    GoOn = 1,   ///< an error does not end the batch
    Copy32 = 2, ///< CopyTo takes 32 bits of the result (else 64)
    /// Made again if a signal interrupted it (EINTR): a signal that
    /// arrives while the thread runs the batch is kept by tsrun for
    /// later, which wakes a blocking call without a handler to run.
    Restart = 4,
  };
  uint64_t Nr = ~0ull;
  uint64_t Args[6] = {};
  uint8_t Kinds[6] = {};
  uint8_t Flags = 0;
  uint8_t Pad = 0;
  uint64_t Result = 0;
  uint64_t CopyTo = 0; ///< where a successful result goes, or 0
};
static_assert(sizeof(BatchCall) == 80, "the layout of batch.S");

/// A batch being built: its calls, and the data they point to, whose
/// addresses are known before it is written (the area below the stack
/// pointer of the thread it runs in).
class SyscallBatch {
public:
  /// Room for data and calls; a batch that needs more is not made.
  static constexpr uint64_t AreaSize = 4096;

  /// Starts a batch for thread Tid of P (stopped), its data and calls
  /// below the thread's stack pointer. False with Why when P cannot run
  /// one (no home page, no injection, its registers).
  bool begin(PtraceProcess &P, pid_t Tid, std::string &Why);
  /// The same in [At, At + AreaSize), memory of tsrun's own in P (the
  /// agent's scratch page), the stub's stack at its top.
  bool beginAt(PtraceProcess &P, uint64_t At, std::string &Why);
  /// Data at a target address known now (aligned to 16).
  uint64_t addData(const void *Data, size_t Size);
  /// A call; its index in the batch.
  size_t add(const BatchCall &C, const char *What);
  const BatchCall &call(size_t I) const { return Calls[I]; }
  const char *what(size_t I) const { return Whats[I]; }
  size_t size() const { return Calls.size(); }

  /// Whether every call would run under P's seccomp filters ("" if so), a
  /// loaded argument taken as unknown: a process with filters of its own
  /// does not run batches.
  std::string whyNot(PtraceProcess &P, pid_t Tid);

  /// Writes the data and the calls into P: false (Why) if they cannot be
  /// (a stack too small below its pointer), nothing having run.
  bool stage(PtraceProcess &P, std::string &Why);
  /// Runs the staged batch; WhileRunning is called while the thread runs, until
  /// it returns true (runUntilTrap). Done is
  /// the number of calls made without error (the batch stops at the first
  /// error, GoOn aside); each call's Result is read back, and Data (the
  /// bytes of the data area, from its start) too. False with Why when the
  /// batch could not be run at all.
  bool run(PtraceProcess &P, pid_t Tid,
           const std::function<bool()> &WhileRunning, size_t &Done,
           std::vector<uint8_t> &Data, std::string &Why);

private:
  bool canRun(PtraceProcess &P, std::string &Why);

  uint64_t Area = 0;  ///< the target address of the data, then the calls
  uint64_t Room = 0;  ///< bytes there for data and calls
  uint64_t Stack = 0; ///< the stub's stack pointer
  std::vector<uint8_t> DataBytes;
  std::vector<BatchCall> Calls;
  std::vector<const char *> Whats;
  std::vector<uint8_t> Staged; ///< what stage() wrote
  uint64_t Table = 0;          ///< where the calls start in it
};

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_INJECTBATCH_H
