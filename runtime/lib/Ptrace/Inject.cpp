//===- Inject.cpp - Running syscalls inside a stopped tracee --------------===//
#include "Inject.h"
#include "ExecCost.h"
#include "InjectBatch.h"
#include "SelfRestore.h"

#include "tscc/SyscallTable.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

namespace {

/// SIGTRAP unblocked in a thread for as long as this lives. The int3 that
/// ends an injected call must not be a SIGTRAP the thread blocks (as
/// server threads that block every signal do): the kernel forces such a
/// trap, which unblocks it in that thread and resets the whole program's
/// SIGTRAP disposition to SIG_DFL, its own handler and the agent's alike.
class TrapUnblocked {
public:
  explicit TrapUnblocked(pid_t Tid) : Tid(Tid) {
    constexpr uint64_t Trap = 1ull << (SIGTRAP - 1);
    if (ptrace(PTRACE_GETSIGMASK, Tid, sizeof(Saved), &Saved) != 0 ||
        !(Saved & Trap))
      return;
    uint64_t Open = Saved & ~Trap;
    Changed = ptrace(PTRACE_SETSIGMASK, Tid, sizeof(Open), &Open) == 0;
  }
  ~TrapUnblocked() {
    if (Changed)
      ptrace(PTRACE_SETSIGMASK, Tid, sizeof(Saved), &Saved);
  }
  TrapUnblocked(const TrapUnblocked &) = delete;
  TrapUnblocked &operator=(const TrapUnblocked &) = delete;

private:
  pid_t Tid;
  uint64_t Saved = 0;
  bool Changed = false;
};

} // namespace

bool tscc::rt::pt::endedDuringInjection(PtraceProcess &P, pid_t Tid, int St,
                                        std::string &Error) {
  if (!WIFEXITED(St) && !WIFSIGNALED(St))
    return false;
  Error = "the process exited during syscall injection";
  P.Exited = true;
  if (P.Reaped)
    P.Reaped->push_back({Tid, St});
  return true;
}

bool tscc::rt::pt::runUntilTrap(PtraceProcess &P, pid_t Tid, uint64_t TrapPC,
                                std::string &Error,
                                const std::function<bool()> &WhileRunning) {
  TrapUnblocked Unblocked(Tid);
  Thread *T = nullptr;
  if (auto It = P.Threads.find(Tid); It != P.Threads.end())
    T = &It->second;
  if (ptrace(PTRACE_CONT, Tid, nullptr, nullptr) != 0) {
    Error = std::string("ptrace(CONT): ") + std::strerror(errno);
    return false;
  }
  // What tsrun does while the thread runs (answering it on a socket): one
  // step between checks of the thread, until it says it is done.
  bool Answering = static_cast<bool>(WhileRunning);
  for (;;) {
    int St = 0;
    pid_t R = waitpid(Tid, &St, __WALL | (Answering ? WNOHANG : 0));
    if (R == 0) {
      Answering = !WhileRunning();
      continue;
    }
    if (R < 0) {
      if (errno == EINTR)
        continue;
      Error = std::string("waitpid: ") + std::strerror(errno);
      return false;
    }
    if (endedDuringInjection(P, Tid, St, Error))
      return false;
    if (!WIFSTOPPED(St))
      continue;
    int Sig = WSTOPSIG(St);
    unsigned Event = static_cast<unsigned>(St) >> 16;
    if (Sig == SIGTRAP && Event == 0) {
      user_regs_struct Regs;
      if (ptrace(PTRACE_GETREGS, Tid, nullptr, &Regs) == 0 &&
          Regs.rip == TrapPC + 1)
        return true;
    } else if (Event == 0 && Sig != SIGTRAP && Sig != (SIGTRAP | 0x80) && T &&
               !T->PendingSignal) {
      T->PendingSignal = Sig; // a signal-delivery-stop: deliver later
    }
    // Seccomp and group stops, syscall stops, other signals: keep going.
    if (ptrace(PTRACE_CONT, Tid, nullptr, nullptr) != 0) {
      Error = std::string("ptrace(CONT): ") + std::strerror(errno);
      return false;
    }
  }
}

namespace {

void setSyscallRegs(user_regs_struct &R, bool Is64, uint64_t Nr,
                    std::initializer_list<uint64_t> Args) {
  uint64_t A[6] = {0, 0, 0, 0, 0, 0};
  unsigned I = 0;
  for (uint64_t V : Args)
    if (I < 6)
      A[I++] = V;
  R.rax = Nr;
  // orig_rax = -1: the kernel must not try to restart a syscall the thread
  // was stopped in while we borrow it.
  R.orig_rax = ~0ull;
  if (Is64) {
    R.rdi = A[0];
    R.rsi = A[1];
    R.rdx = A[2];
    R.r10 = A[3];
    R.r8 = A[4];
    R.r9 = A[5];
  } else {
    R.rbx = A[0];
    R.rcx = A[1];
    R.rdx = A[2];
    R.rsi = A[3];
    R.rdi = A[4];
    R.rbp = A[5];
  }
}

/// A thread in a syscall-entry or seccomp stop has not made its system
/// call yet, and borrowing it cancels the call (orig_rax = -1 below): it
/// would return -ENOSYS to the program. Its saved registers are put back
/// before the `syscall` (or `int $0x80`, where the compat sysenter path
/// also returns) instead, so that it makes the call when it resumes.
} // namespace

void tscc::rt::pt::replayPendingSyscall(PtraceProcess &P, pid_t Tid,
                                        user_regs_struct &R) {
  __ptrace_syscall_info Info{};
  if (ptrace(PTRACE_GET_SYSCALL_INFO, Tid,
             reinterpret_cast<void *>(sizeof(Info)), &Info) <= 0 ||
      (Info.op != PTRACE_SYSCALL_INFO_ENTRY &&
       Info.op != PTRACE_SYSCALL_INFO_SECCOMP))
    return;
  uint8_t Insn[2];
  if (R.rip < 2 || !P.readMemory(R.rip - 2, Insn, sizeof(Insn)))
    return;
  if ((Insn[0] == 0x0f && Insn[1] == 0x05) ||
      (Insn[0] == 0xcd && Insn[1] == 0x80)) {
    R.rip -= 2;
    R.rax = R.orig_rax;
  }
}

namespace {

/// Where the next injected call in Tid is made: the home page's gadget, or
/// before there is one, the thread's current instruction.
uint64_t gadgetAt(const PtraceProcess &P, const user_regs_struct &R) {
  return P.Home ? P.syscallGadget() : R.rip;
}

/// The instruction pointer a filter sees: just after the syscall
/// instruction (2 bytes), behind `nop; mov $nr, %eax` (6) in the first
/// gadget.
uint64_t filterIP(const PtraceProcess &P, uint64_t At) {
  return At + (P.Home ? 2 : 8);
}

} // namespace

SyscallVerdict tscc::rt::pt::verdictAt(PtraceProcess &P, pid_t Tid, uint64_t Nr,
                                       std::initializer_list<uint64_t> Args,
                                       uint64_t IP) {
  if (!P.NoInjection.empty()) {
    SyscallVerdict V;
    V.Kind = SyscallVerdict::Forbidden;
    V.Why = P.NoInjection;
    return V;
  }
  SyscallQuery Q;
  Q.DM = P.dataModel();
  Q.Nr = static_cast<uint32_t>(Nr);
  unsigned I = 0;
  for (uint64_t A : Args)
    if (I < 6)
      Q.Args[I++] = A;
  Q.IP = IP;
  return P.Seccomp.check(Tid, Q, P.tracesSeccompStops());
}

uint64_t tscc::rt::pt::widenSyscallResult32(uint64_t Rax) {
  auto Value = static_cast<uint32_t>(Rax);
  if (Value > ~uint32_t(4095))
    return static_cast<uint64_t>(static_cast<int64_t>(
        static_cast<int32_t>(Value))); // -errno, as on x86-64
  return Value; // an address above 2 GiB stays what it is
}

SyscallVerdict
tscc::rt::pt::injectionVerdict(PtraceProcess &P, pid_t Tid, uint64_t Nr,
                               std::initializer_list<uint64_t> Args) {
  user_regs_struct R{};
  if (!P.Home && ptrace(PTRACE_GETREGS, Tid, nullptr, &R) != 0) {
    SyscallVerdict V;
    V.Kind = SyscallVerdict::Unknown;
    V.Why = std::string("ptrace(GETREGS): ") + std::strerror(errno);
    return V;
  }
  return verdictAt(P, Tid, Nr, Args, filterIP(P, gadgetAt(P, R)));
}

bool tscc::rt::pt::injectSyscall(PtraceProcess &P, pid_t Tid, uint64_t Nr,
                                 std::initializer_list<uint64_t> Args,
                                 uint64_t &Result, std::string &Error) {
  user_regs_struct Saved;
  if (ptrace(PTRACE_GETREGS, Tid, nullptr, &Saved) != 0) {
    Error = std::string("ptrace(GETREGS): ") + std::strerror(errno);
    return false;
  }
  uint64_t At = gadgetAt(P, Saved);
  SyscallVerdict V = verdictAt(P, Tid, Nr, Args, filterIP(P, At));
  if (V.Kind == SyscallVerdict::Fails) {
    // What the kernel would answer, without making the call at all.
    Result = static_cast<uint64_t>(-static_cast<int64_t>(V.Errno));
    return true;
  }
  if (V.Kind != SyscallVerdict::Runs) {
    Error = V.Why;
    return false;
  }
  user_regs_struct Restore = Saved;
  replayPendingSyscall(P, Tid, Restore);
  bool Is64 = P.dataModel() == DataModel::LP64;
  // The home page holds `syscall; int3`. Before it exists, the gadget is
  // written over the current instruction and loads the number itself: in
  // the exec stop the kernel is still inside execve() and stores its
  // return value into rax when the thread resumes, after our SETREGS.
  // It starts with a nop that the thread skips: a 32-bit thread stopped in
  // a system call made through the vDSO's sysenter sits on the vDSO's
  // landing pad, and resumed there the kernel returns with SYSRETL, which
  // puts eip into ecx (the vDSO restores ecx itself). Anywhere else it
  // returns with IRET, every register as we set it.
  uint8_t Gadget[9] = {0x90, 0xb8, 0, 0, 0, 0, 0x0f, 0x05, 0xcc};
  if (!Is64) {
    Gadget[6] = 0xcd;
    Gadget[7] = 0x80;
  }
  uint32_t Nr32 = static_cast<uint32_t>(Nr);
  std::memcpy(Gadget + 2, &Nr32, 4);
  uint64_t Start = P.Home ? At : At + 1;
  uint64_t TrapAt = P.Home ? At + 2 : At + 8;
  uint8_t Orig[sizeof(Gadget)];
  bool Patched = false;
  if (!P.Home) {
    if (!P.readMemory(At, Orig, sizeof(Orig)) ||
        !P.writeMemory(At, Gadget, sizeof(Gadget))) {
      Error = "cannot write the syscall gadget";
      return false;
    }
    Patched = true;
  }
  uint64_t CostStart = cost::enabled() ? cost::nowNs() : 0;
  user_regs_struct R = Saved;
  setSyscallRegs(R, Is64, Nr, Args);
  R.rip = Start;
  // Through the home page, the thread puts its registers back itself if
  // tsrun dies before it does (SelfRestore.h).
  bool Restoring = P.restoringGadget();
  if (Restoring)
    restartAsKernelWould(Restore, Is64);
  if (Restoring && !journalRegisters(P, Restore)) {
    Error = "cannot journal the registers of the thread borrowed";
    return false;
  }
  bool Ok = ptrace(PTRACE_SETREGS, Tid, nullptr, &R) == 0 &&
            (Restoring ? runToSyscallExit(P, Tid, Error)
                       : runUntilTrap(P, Tid, TrapAt, Error, {}));
  if (Ok) {
    user_regs_struct After;
    Ok = ptrace(PTRACE_GETREGS, Tid, nullptr, &After) == 0;
    Result = Is64 ? After.rax : widenSyscallResult32(After.rax);
  }
  if (Patched && !P.Exited)
    P.writeMemory(At, Orig, sizeof(Orig));
  if (!P.Exited)
    ptrace(PTRACE_SETREGS, Tid, nullptr, &Restore);
  if (cost::enabled())
    cost::countInjected(cost::nowNs() - CostStart);
  return Ok;
}

static bool isMmapError(uint64_t R) { return R > ~uint64_t(4095); }

/// Whether [At, At + Size) overlaps memory tsrun itself mapped in P (the
/// home page, the agent's areas): a MAP_FIXED_NOREPLACE there would fail,
/// a round trip for nothing. (In a new image the agent's areas are right
/// below the loader, where the first candidate for the loader's scratch
/// falls.)
static bool overlapsOurs(const PtraceProcess &P, uint64_t At, uint64_t Size) {
  const AgentState &A = P.Agent;
  const std::pair<uint64_t, uint64_t> Ours[] = {
      {P.Home, PtraceProcess::HomeSize}, {A.AgentBase, A.AgentSize},
      {A.CodeBase, A.CodeSize},          {A.ThreadsBase, A.ThreadsSize},
      {A.RingTable, A.RingTableSize},    {A.PoolBase, A.PoolSize},
      {A.DataBase, A.DataSize},          {A.StoreBase, A.StoreSize},
      {A.ControlBase, A.ControlSize},    {A.ShardBase, A.ShardSize}};
  for (auto [Base, Len] : Ours)
    if (Base && At < Base + ((Len + 4095) & ~uint64_t(4095)) &&
        Base < At + Size)
      return true;
  return false;
}

bool tscc::rt::pt::createHomePage(PtraceProcess &P, pid_t Tid,
                                  std::string &Error) {
  P.Home = 0;
  bool Is64 = P.dataModel() == DataModel::LP64;
  uint64_t Addr = mapAnywhere(P, Tid, PtraceProcess::HomeSize,
                              PROT_READ | PROT_EXEC, Error);
  if (!Addr)
    return false;
  // The page is read+execute for the target; /proc/PID/mem writes anyway.
  // The self-restoring gadget and its journal (SelfRestore.h), then the
  // stub that runs a batch of calls in one round trip (InjectBatch.h), in
  // the same write.
  static_assert(BatchStubOffset >= HomeReservedBytes,
                "the batch stub goes after the gadget and its journal");
  std::span<const uint8_t> Batch = batchStub(P.dataModel());
  uint8_t Page[BatchStubOffset + BatchStubMax];
  std::memset(Page, 0xcc, sizeof(Page));
  Page[0] = Is64 ? 0x0f : 0xcd;
  Page[1] = Is64 ? 0x05 : 0x80;
  // The return trampoline traps like the process's breakpoints do.
  Page[16] = P.breakOpcode(); // at returnTrampoline()
  writeRestoringGadget(Page, Addr, Is64);
  // (A stub too big for its room is not copied, and batches refuse to
  // run: SyscallBatch checks the size too.)
  size_t StubBytes = Batch.size() <= BatchStubMax ? Batch.size() : 0;
  std::memcpy(Page + BatchStubOffset, Batch.data(), StubBytes);
  if (!P.writeMemory(Addr, Page, BatchStubOffset + StubBytes)) {
    Error = "cannot initialise the scratch page at " + std::to_string(Addr) +
            ": " + std::strerror(errno);
    return false;
  }
  P.Home = Addr;
  P.HomeUsed = BatchStubOffset + BatchStubMax;
  return true;
}

uint64_t tscc::rt::pt::mapScratch(PtraceProcess &P, pid_t Tid, uint64_t Lo,
                                  uint64_t Hi, uint64_t Size,
                                  std::string &Error) {
  bool Is64 = P.dataModel() == DataModel::LP64;
  uint64_t Nr = Is64 ? syscallNumberOf(DataModel::LP64, "mmap")
                     : syscallNumberOf(DataModel::ILP32, "mmap2");
  Size = (Size + 4095) & ~uint64_t(4095);
  uint64_t Flags = MAP_PRIVATE | MAP_ANONYMOUS;
  if (Is64) {
    // Below the module first (where the kernel's top-down allocator leaves
    // gaps), then above it: each candidate within reach of every byte.
    for (int Step = 1; Step <= 64; ++Step) {
      for (int Dir = 0; Dir < 2; ++Dir) {
        uint64_t Hint = Dir == 0 ? Lo - Size - uint64_t(Step) * 0x100000
                                 : ((Hi + 0xfff) & ~0xfffull) +
                                       uint64_t(Step - 1) * 0x100000;
        if ((Dir == 0 && Lo < Size + uint64_t(Step) * 0x100000) ||
            overlapsOurs(P, Hint, Size))
          continue;
        uint64_t R = 0;
        if (!injectSyscall(P, Tid, Nr,
                           {Hint, Size, PROT_READ | PROT_EXEC,
                            Flags | MAP_FIXED_NOREPLACE, ~0ull, 0},
                           R, Error))
          return 0;
        if (!isMmapError(R) && R == Hint)
          return R;
        if (!isMmapError(R)) {
          uint64_t Ignored;
          injectSyscall(P, Tid, syscallNumberOf(DataModel::LP64, "munmap"),
                        {R, Size}, Ignored, Error);
        }
      }
    }
  }
  return mapAnywhere(P, Tid, Size, PROT_READ | PROT_EXEC, Error);
}

uint64_t tscc::rt::pt::mapAnywhere(PtraceProcess &P, pid_t Tid, uint64_t Size,
                                   int Prot, std::string &Error,
                                   int ExtraFlags) {
  PtraceAccess Access(P, Tid);
  return ip::mapAnonymous(Access, Size, Prot, Error, ExtraFlags);
}

void tscc::rt::pt::unmapInTarget(PtraceProcess &P, pid_t Tid, uint64_t Addr,
                                 uint64_t Size) {
  uint64_t Ignored = 0;
  std::string Error;
  injectSyscall(P, Tid, munmapNumber(P.dataModel()),
                {Addr, (Size + 4095) & ~uint64_t(4095)}, Ignored, Error);
}
