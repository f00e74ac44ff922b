//===- SyscallDispatch.h - The catch-all of Syscall User Dispatch (private) -===//
//
// In a 64-bit process that tsrun attached to (no seccomp filter of its
// own), the system calls no patched site catches are caught by Syscall
// User Dispatch: every thread has it switched on (by ptrace, Linux 6.11's
// PTRACE_SET_SYSCALL_USER_DISPATCH_CONFIG), with the SUD code page at
// SyscallGadgetAddress as the one range calls go through from, and the
// agent's SIGSYS handler (Agent/sud.c) in front of the program's. The
// handler runs the clauses of traced calls and makes every other call
// where it was made. tsrun then needs no PTRACE_SYSCALL stop.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_SYSCALLDISPATCH_H
#define TSCC_RUNTIME_PTRACE_SYSCALLDISPATCH_H

#include "SyscallSites.h"

#include <string>

namespace tscc::rt::pt {

/// Maps the SUD pages (the gadget's page first), writes the traced hooks
/// there, installs the agent's SIGSYS handler and switches SUD on in every
/// thread of P (all stopped). False with Error (nothing switched on) when
/// it cannot: the caller keeps PTRACE_SYSCALL.
bool enableSyscallDispatch(PtraceProcess &P, pid_t Tid, const SyscallHooks &H,
                           std::string &Error);

/// Switches SUD on in one stopped thread of a process that has it (a new
/// thread, or a forked child's). False with Error.
bool dispatchThread(PtraceProcess &P, pid_t Tid, std::string &Error);

/// Why no jump may be written over [Site, Site + Length) now, or "": a
/// SIGSYS of SUD's carries the pc after a call made where no jump was, and
/// the handler (or the stub it sends the thread to) goes back there. While
/// a thread is in the handler, at its restorer, or in a stub whose call
/// goes back into those bytes, a jump there would be returned into.
std::string dispatchInTheWay(PtraceProcess &P, uint64_t Site, uint64_t Length);

/// A thread in the signal-delivery stop of a SIGSYS of SUD's, about to be
/// given it: its pc goes back onto its `syscall` (the agent's handler goes
/// on past it, tscc_agent_sigsys). The kernel drops the signal of a stop
/// whose tracer dies; the thread then makes its call again, instead of
/// going on past it with the call's number as its result.
void rewindDispatchedCall(PtraceProcess &P, pid_t Tid);

/// Switches SUD off in every stopped thread, its selector first, makes a
/// thread held at a SIGSYS of SUD's make its call again, and gives SIGSYS
/// back to the program's disposition (teardown). Returns why the agent's
/// handler stays (so must its memory), or "".
std::string disableSyscallDispatch(PtraceProcess &P,
                                   const std::vector<Thread *> &Threads);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_SYSCALLDISPATCH_H
