//===- SelfRestore.h - Injected calls that survive tsrun's death -*- C++ -*-=//
//
// tsrun makes a stopped thread run a system call for it (Inject.h) by
// setting its registers to the call's and pointing it at a `syscall` in
// the home page; it puts the registers back when the call returns. If
// tsrun is SIGKILLed meanwhile, the kernel detaches the thread as it is:
// with the call's registers and, were the gadget `syscall; int3`, an int3
// that nobody takes. That killed a process tsrun had let go of (--detach)
// and attached again for a window, about 1 kill in 4 there.
//
// So the home page's gadget is `syscall` followed by code that puts the
// thread's registers back itself, from a journal tsrun writes into the
// home page before it borrows the thread: its flags (through the thread's
// own stack, below the red zone), every general register, its stack
// pointer, and last its instruction pointer, with an indirect jump. tsrun
// never lets the thread run that code: it stops it at the call's exit
// (PTRACE_SYSCALL) and puts the registers back itself. A thread tsrun
// borrowed inside an interrupted system call of its own is journalled as
// the kernel would restart that call, and tsrun puts it back so too.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_SELFRESTORE_H
#define TSCC_RUNTIME_PTRACE_SELFRESTORE_H

#include "PtraceProcess.h"

#include <cstdint>
#include <string>
#include <sys/user.h>

namespace tscc::rt::pt {

/// Where, in the home page, the self-restoring gadget's `syscall` is, and
/// the journal it reads.
constexpr uint64_t RestoringGadgetOffset = PtraceProcess::HomeGadgetOffset;
constexpr uint64_t RestoreJournalOffset = 256;
/// The home page's first byte after the gadget and its journal.
constexpr uint64_t HomeReservedBytes = 512;

/// Writes the gadget for a home page mapped at Home into Page, the
/// page's first HomeReservedBytes bytes.
void writeRestoringGadget(uint8_t *Page, uint64_t Home, bool Is64);

/// R as the kernel would resume it from an interrupted system call with
/// no signal handler to run: the call made again (restart_syscall for one
/// with a restart block). A thread put back at the exit of an injected
/// call has no signal pending, so the kernel does not do that itself.
void restartAsKernelWould(user_regs_struct &R, bool Is64);

/// Journals Restore, the registers Tid is to get back, in P's home page.
bool journalRegisters(PtraceProcess &P, const user_regs_struct &Restore);

/// Resumes Tid at the self-restoring gadget and waits for the exit of its
/// system call (kept stopped there). Signals that arrive meanwhile are kept
/// for later delivery.
bool runToSyscallExit(PtraceProcess &P, pid_t Tid, std::string &Error);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_SELFRESTORE_H
