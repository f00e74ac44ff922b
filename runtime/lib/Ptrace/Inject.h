//===- Inject.h - Running syscalls inside a stopped tracee (private) ------===//
//
// Scratch pages are mapped by making the target itself call mmap: one
// stopped thread is pointed at a `syscall; int3` gadget, resumed alone, and
// its registers are put back afterwards. The first gadget is written over
// the thread's current instruction (only done while every thread of the
// process is stopped: right after exec or attach); later injections use the
// gadget kept in the home scratch page.
//
// Every call is first put to the process's seccomp filters (Sandbox.h),
// with the arguments and the instruction pointer it will have: only one
// they allow is made; one they fail with an errno is not made and returns
// that error, as the kernel would; one they would kill for (or send
// SIGSYS, or hand to a supervisor, or that tsrun cannot judge) is not
// made, and injectSyscall fails saying why.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_INJECT_H
#define TSCC_RUNTIME_PTRACE_INJECT_H

#include "PtraceProcess.h"

#include "../InProcess/Installer/ProcessAccess.h"

#include "tscc/SyscallTable.h"

#include <functional>
#include <initializer_list>
#include <string>
#include <sys/user.h>

namespace tscc::rt::pt {

/// The return value of a 32-bit process's system call as injectSyscall
/// reports it: -errno sign-extended, anything else (an address from mmap
/// above 2 GiB) zero-extended, so that callers test both models alike.
uint64_t widenSyscallResult32(uint64_t Rax);

/// What Tid's sandbox would do with syscall Nr(Args) made by injection
/// now, from where injectSyscall would make it; NoInjection counts as
/// Forbidden.
SyscallVerdict injectionVerdict(PtraceProcess &P, pid_t Tid, uint64_t Nr,
                                std::initializer_list<uint64_t> Args);

/// What Tid's sandbox would do with syscall Nr(Args) made from IP (the
/// address after the system call instruction).
SyscallVerdict verdictAt(PtraceProcess &P, pid_t Tid, uint64_t Nr,
                         std::initializer_list<uint64_t> Args, uint64_t IP);

/// Whether St, a wait status of Tid while it ran an injected call, is
/// the end of the process: then Error says so, P is marked exited, and
/// the status is kept for the event loop (which must still see that end,
/// or it waits for it for ever).
bool endedDuringInjection(PtraceProcess &P, pid_t Tid, int St,
                          std::string &Error);

/// Resumes Tid and waits until it stops at the int3 at TrapPC, calling
/// WhileRunning (if any) between checks of the thread until it returns
/// true (its work done). Signals that arrive meanwhile are kept for later
/// delivery.
bool runUntilTrap(PtraceProcess &P, pid_t Tid, uint64_t TrapPC,
                  std::string &Error,
                  const std::function<bool()> &WhileRunning);

/// A thread stopped before making its system call (syscall-entry or
/// seccomp stop) gets R moved back onto its `syscall`, so that it makes the
/// call when it resumes with R instead of returning -ENOSYS.
void replayPendingSyscall(PtraceProcess &P, pid_t Tid, user_regs_struct &R);

/// Runs syscall Nr with up to six Args in Tid (in a ptrace stop). Result is
/// the raw return value (negative errno on failure; see
/// widenSyscallResult32 for 32-bit processes). False, with Error, when the
/// call could not be made, the process's sandbox among the reasons.
bool injectSyscall(PtraceProcess &P, pid_t Tid, uint64_t Nr,
                   std::initializer_list<uint64_t> Args, uint64_t &Result,
                   std::string &Error);

/// A stopped thread Tid of P as the in-process layer sees a process
/// (InProcess/Installer/ProcessAccess.h): /proc/PID/mem and injectSyscall.
class PtraceAccess final : public ip::ProcessAccess {
public:
  PtraceAccess(PtraceProcess &P, pid_t Tid) : P(P), Tid(Tid) {}
  DataModel dataModel() const override { return P.dataModel(); }
  bool readMemory(uint64_t Addr, void *Dst, size_t Len) override {
    return P.readMemory(Addr, Dst, Len);
  }
  bool writeMemory(uint64_t Addr, const void *Src, size_t Len) override {
    return P.writeMemory(Addr, Src, Len);
  }
  bool syscall(uint64_t Nr, std::initializer_list<uint64_t> Args,
               uint64_t &Result, std::string &Why) override {
    return injectSyscall(P, Tid, Nr, Args, Result, Why);
  }

private:
  PtraceProcess &P;
  pid_t Tid;
};

/// Maps P's home page (gadget + return trampoline). Every thread of P must
/// be stopped.
bool createHomePage(PtraceProcess &P, pid_t Tid, std::string &Error);

/// Maps Size bytes of read+execute scratch within +-2 GiB of [Lo, Hi), or
/// anywhere if that fails. Returns 0 on failure.
uint64_t mapScratch(PtraceProcess &P, pid_t Tid, uint64_t Lo, uint64_t Hi,
                    uint64_t Size, std::string &Error);

/// Maps Size bytes with protection Prot anywhere in P. Returns 0 on
/// failure.
uint64_t mapAnywhere(PtraceProcess &P, pid_t Tid, uint64_t Size, int Prot,
                     std::string &Error, int ExtraFlags = 0);

/// Unmaps [Addr, Addr + Size) in P; failures are ignored.
void unmapInTarget(PtraceProcess &P, pid_t Tid, uint64_t Addr, uint64_t Size);

/// munmap's number in a process of data model DM.
constexpr uint64_t munmapNumber(DataModel DM) {
  return DM == DataModel::LP64 ? syscallNumberOf(DataModel::LP64, "munmap")
                               : syscallNumberOf(DataModel::ILP32, "munmap");
}

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_INJECT_H
