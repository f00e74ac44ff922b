//===- InjectBatch.cpp - Many system calls for one ptrace round trip ------===//
#include "InjectBatch.h"
#include "ExecCost.h"
#include "Inject.h"

#include <cerrno>
#include <cstring>
#include <sys/ptrace.h>
#include <sys/user.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

// runtime/lib/InProcess/Agent/{x86_64,i386}/batch.S, assembled and cut down
// to their raw bytes by the build (runtime/CMakeLists.txt).
asm(".pushsection .rodata.tscc_batch_stubs,\"a\",@progbits\n"
    ".balign 16\n"
    "tscc_batch_x86_64_begin:\n"
    ".incbin \"" TSCC_BATCH_X86_64_PATH "\"\n"
    "tscc_batch_x86_64_end:\n"
    ".balign 16\n"
    "tscc_batch_i386_begin:\n"
    ".incbin \"" TSCC_BATCH_I386_PATH "\"\n"
    "tscc_batch_i386_end:\n"
    ".popsection\n");

extern "C" const uint8_t tscc_batch_x86_64_begin[], tscc_batch_x86_64_end[],
    tscc_batch_i386_begin[], tscc_batch_i386_end[];

std::span<const uint8_t> tscc::rt::pt::batchStub(DataModel DM) {
  if (DM == DataModel::LP64)
    return {tscc_batch_x86_64_begin, tscc_batch_x86_64_end};
  return {tscc_batch_i386_begin, tscc_batch_i386_end};
}

namespace {

/// The stub's own table of offsets: where it starts, and the end of its
/// system call instruction (what a seccomp filter sees as the caller).
struct StubOffsets {
  uint32_t Entry, AfterSyscall;
};

StubOffsets offsetsOf(DataModel DM) {
  StubOffsets O;
  std::memcpy(&O, batchStub(DM).data(), sizeof(O));
  return O;
}

uint64_t alignUp(uint64_t V, uint64_t A) { return (V + A - 1) & ~(A - 1); }

} // namespace

bool SyscallBatch::canRun(PtraceProcess &P, std::string &Why) {
  static_assert(sizeof(StubOffsets) == 8);
  if (batchStub(P.dataModel()).size() > BatchStubMax) {
    Why = "the batch stub does not fit its room in the home page";
    return false;
  }
  if (!P.Home || !P.NoInjection.empty()) {
    Why = P.Home ? P.NoInjection : "the process has no home page";
    return false;
  }
  // Syscall User Dispatch lets system calls through from its own pages
  // only: the stub's would be SIGSYS (a fork child inherits it; exec
  // turns it off).
  if (P.Agent.SudMapped) {
    Why = "Syscall User Dispatch is on in it";
    return false;
  }
  DataBytes.clear();
  Calls.clear();
  Whats.clear();
  return true;
}

bool SyscallBatch::begin(PtraceProcess &P, pid_t Tid, std::string &Why) {
  if (!canRun(P, Why))
    return false;
  user_regs_struct R;
  if (ptrace(PTRACE_GETREGS, Tid, nullptr, &R) != 0) {
    Why = std::string("ptrace(GETREGS): ") + std::strerror(errno);
    return false;
  }
  uint64_t Sp =
      P.dataModel() == DataModel::LP64 ? R.rsp : (R.rsp & 0xffffffffu);
  // Past the red zone (128 bytes) and a margin; the stub's own stack is
  // below the area.
  if (Sp < AreaSize + 4096) {
    Why = "the thread's stack pointer is too low for a batch";
    return false;
  }
  Area = (Sp - 256 - AreaSize) & ~uint64_t(63);
  Room = AreaSize;
  Stack = (Area - 64) & ~uint64_t(15);
  return true;
}

bool SyscallBatch::beginAt(PtraceProcess &P, uint64_t At, std::string &Why) {
  if (!canRun(P, Why))
    return false;
  Area = At;
  Room = AreaSize - 128;
  Stack = At + AreaSize - 64;
  return true;
}

uint64_t SyscallBatch::addData(const void *Data, size_t Size) {
  DataBytes.resize(alignUp(DataBytes.size(), 16));
  uint64_t At = Area + DataBytes.size();
  const auto *B = static_cast<const uint8_t *>(Data);
  DataBytes.insert(DataBytes.end(), B, B + Size);
  return At;
}

size_t SyscallBatch::add(const BatchCall &C, const char *What) {
  Calls.push_back(C);
  Whats.push_back(What);
  return Calls.size() - 1;
}

std::string SyscallBatch::whyNot(PtraceProcess &P, pid_t Tid) {
  if (P.Seccomp.sandboxed(Tid))
    return "it has seccomp filters of its own (" + P.Seccomp.describe(Tid) +
           ")";
  uint64_t IP =
      P.Home + BatchStubOffset + offsetsOf(P.dataModel()).AfterSyscall;
  for (size_t I = 0; I < Calls.size(); ++I) {
    uint64_t A[6];
    for (unsigned J = 0; J < 6; ++J)
      A[J] = Calls[I].Kinds[J] == BatchCall::Value ? Calls[I].Args[J] : 0;
    SyscallVerdict V = verdictAt(P, Tid, Calls[I].Nr,
                                 {A[0], A[1], A[2], A[3], A[4], A[5]}, IP);
    if (V.Kind != SyscallVerdict::Runs)
      return std::string(Whats[I]) + ": " +
             (V.Why.empty() ? std::string("not allowed by a filter") : V.Why);
  }
  return "";
}

bool SyscallBatch::stage(PtraceProcess &P, std::string &Why) {
  std::vector<uint8_t> &Bytes = Staged;
  Bytes = DataBytes;
  Bytes.resize(alignUp(Bytes.size(), 16));
  Table = Area + Bytes.size();
  BatchCall End;
  for (const BatchCall &C : Calls)
    Bytes.insert(Bytes.end(), reinterpret_cast<const uint8_t *>(&C),
                 reinterpret_cast<const uint8_t *>(&C + 1));
  Bytes.insert(Bytes.end(), reinterpret_cast<const uint8_t *>(&End),
               reinterpret_cast<const uint8_t *>(&End + 1));
  if (Bytes.size() > Room) {
    Why = "the batch does not fit its area";
    return false;
  }
  if (!P.writeMemory(Area, Bytes.data(), Bytes.size())) {
    Why = "cannot write the batch into the process (below the thread's "
          "stack pointer, or the agent's scratch page)";
    return false;
  }
  return true;
}

bool SyscallBatch::run(PtraceProcess &P, pid_t Tid,
                       const std::function<bool()> &WhileRunning, size_t &Done,
                       std::vector<uint8_t> &Data, std::string &Why) {
  bool Is64 = P.dataModel() == DataModel::LP64;
  std::vector<uint8_t> &Bytes = Staged;
  size_t DataSize = Table - Area;
  user_regs_struct Saved;
  if (ptrace(PTRACE_GETREGS, Tid, nullptr, &Saved) != 0) {
    Why = std::string("ptrace(GETREGS): ") + std::strerror(errno);
    return false;
  }
  user_regs_struct Restore = Saved;
  replayPendingSyscall(P, Tid, Restore);
  std::span<const uint8_t> Stub = batchStub(P.dataModel());
  uint64_t StubAt = P.Home + BatchStubOffset;
  user_regs_struct R = Saved;
  R.orig_rax = ~0ull; // no restart of a call the thread was stopped in
  R.rip = StubAt + offsetsOf(P.dataModel()).Entry;
  R.rsp = Stack;
  (Is64 ? R.rdi : R.rax) = Table;
  uint64_t Start = cost::enabled() ? cost::nowNs() : 0;
  bool Ok = ptrace(PTRACE_SETREGS, Tid, nullptr, &R) == 0 &&
            runUntilTrap(P, Tid, StubAt + Stub.size() - 1, Why, WhileRunning);
  if (Ok) {
    user_regs_struct After;
    Ok = ptrace(PTRACE_GETREGS, Tid, nullptr, &After) == 0;
    Done = Is64 ? After.rax : (After.rax & 0xffffffffu);
    Ok = Ok && P.readMemory(Area, Bytes.data(), Bytes.size());
    if (!Ok)
      Why = "cannot read the batch's results";
  }
  if (!P.Exited)
    ptrace(PTRACE_SETREGS, Tid, nullptr, &Restore);
  if (cost::enabled())
    cost::countBatch(Calls.size(), cost::nowNs() - Start);
  if (!Ok)
    return false;
  for (size_t I = 0; I < Calls.size(); ++I) {
    std::memcpy(&Calls[I], Bytes.data() + DataSize + I * sizeof(BatchCall),
                sizeof(BatchCall));
    if (!Is64)
      Calls[I].Result = widenSyscallResult32(Calls[I].Result);
  }
  Data.assign(Bytes.begin(), Bytes.begin() + DataSize);
  return true;
}
