//===- Healer.h - An attached process that survives tsrun's death (private) ===//
//
// If tsrun is killed with SIGKILL (or by the OOM killer, or crashes), the
// kernel detaches every tracee as it is: breakpoints stay in its text,
// hijacked return addresses stay on its stacks. Launched commands die with
// tsrun (PTRACE_O_EXITKILL); an attached process must live on.
//
// So an attached process gets breakpoints that fault instead of trap
// (PtraceProcess::FaultBreaks: in a 64-bit process an invalid opcode,
// SIGILL; in a 32-bit one `hlt`, SIGSEGV, see faultOpcode()), plus a small
// handler for that signal written into its home page (x86-64: below in
// Healer.cpp; i386: runtime/lib/InProcess/Agent/i386/healer.S) and a journal in
// a read+write mapping:
//   - every breakpoint's address and original byte, written before the
//     breakpoint itself;
//   - every hijacked return slot and its real return address, written in
//     the same process_vm_writev as the trampoline address.
// While tsrun is alive the handler never runs: ptrace reports the faults to
// tsrun, which swallows them. Once nobody traces the process, its first
// fault at one of our addresses runs the handler, which writes every
// original byte back through /proc/self/mem (mprotect as the fallback) and
// lets the instruction run again, or, at the return trampoline, continues
// at the real return address. Faults that are not ours go on to the
// disposition the process had before (its handler, SIG_IGN, or the
// default action, raised again).
//
// Why a fault and not int3: a trap leaves rip after the int3. A thread that
// is stopped at a breakpoint when tsrun dies resumes there without its
// SIGTRAP (the kernel drops the stop signal on detach, measured on Linux
// 6.18) and would run the rest of the displaced instruction. A fault leaves
// rip on the breakpoint, so that thread simply faults again, or -- if tsrun
// had already moved it on -- carries on where tsrun put it. The price is
// about 2.4 us more per hit on the machines we measured (docs/performance.md).
//
// A clean detach restores the old disposition and unmaps the journal.
//
// A program that sets its own handler for that signal while traced would
// replace the healer; the backend hooks glibc's sigaction() and, when it
// returns, puts the healer back in front, chaining to the program's new
// handler.
//
// A tsrun that attaches to a process a killed tsrun left behind finds the
// old handler where it installs its own, recognises it by its code, and
// repairs the old breakpoints at once from the old journal. The old handler
// stays, chained behind the new one, for returns through its trampoline.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_HEALER_H
#define TSCC_RUNTIME_PTRACE_HEALER_H

#include "../../Ptrace/PtraceProcess.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tscc::rt::pt {

/// Writes the handler into P's home page (which must exist), maps the
/// journal and installs the handler for P.faultSignal(). Tid must be
/// stopped.
/// If the process still has breakpoints of a tsrun that was killed before
/// they were repaired, they are repaired now, before any probe is placed,
/// and Repaired says how many.
bool installHealer(PtraceProcess &P, pid_t Tid, std::string &Error,
                   unsigned &Repaired);

/// Makes the journal list P.Breakpoints plus Pending, before Pending's
/// breakpoints are written. Tid must be stopped (the table may need a
/// bigger mapping). No-op without a healer.
bool syncHealerBreakpoints(PtraceProcess &P, pid_t Tid,
                           const std::vector<const Breakpoint *> &Pending,
                           std::string &Error);

/// Points the return slot at Slot to the return trampoline, journalling
/// its real return address Ret first. False if the slot was not written.
bool hijackSlot(PtraceProcess &P, uint64_t Slot, uint64_t Ret,
                std::string &Warning);

/// The libc function every sigaction() and signal() call goes through
/// (glibc). The backend hooks it in processes with a healer.
inline constexpr const char *HealerGuardFunction = "__libc_sigaction";

/// If Handler is the handler of P's healer, the one it replaced (and chains
/// to): in a 32-bit process, where healer and agent both handle SIGSEGV,
/// how the agent finds what is behind the healer.
std::optional<uint64_t> healerReplacedHandler(PtraceProcess &P,
                                              uint64_t Handler);

/// The i386 healer (runtime/lib/InProcess/Agent/i386/healer.S) as raw code: its
/// header pointer, the offsets of its handler and restorer and its size (u32
/// each), then the code.
std::span<const uint8_t> healerBlobI386();

/// After the program set its own disposition of P.faultSignal(): installs
/// the healer's handler again, which from now on chains to the program's.
/// Tid must be stopped.
bool reinstallHealer(PtraceProcess &P, pid_t Tid, std::string &Error);

/// Gives the process back the disposition it had before us. Every
/// breakpoint and hijacked return must already be restored; Tid must be
/// stopped. Where the process's sandbox does not let tsrun (Sandbox.h),
/// the handler stays, healing nothing and passing every SIGILL on, and so
/// does its journal: returns what stays and why ("" when nothing does).
/// SharedLater: another process that uses the same memory is detached
/// after P, and the journal stays mapped for it.
std::string uninstallHealer(PtraceProcess &P, pid_t Tid,
                            bool SharedLater = false);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_HEALER_H
