//===- SyscallSites.h - System calls traced inside the process (private) --===//
//
// A 64-bit process with an agent, launched under tsrun's seccomp filter,
// makes its traced system calls without stopping where they go through a
// `syscall` instruction of a module tsrun has patched: every such
// instruction of the module's functions takes a jump to a trampoline
// (InProcess/SyscallTrampoline.h) that compares the call's number with the
// traced ones, and for those runs the entry clauses in the agent, makes
// the call at the process's gadget -- one `syscall; ret` at a fixed
// address, the one instruction pointer the filter lets through without a
// stop -- and runs the exit clauses. Every other call, and a traced call
// made anywhere else (a site that cannot take a jump, the program's own
// raw system calls, the agent's), still stops at the filter and fires in
// tsrun, as before.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_SYSCALLSITES_H
#define TSCC_RUNTIME_PTRACE_SYSCALLSITES_H

#include "JumpSites.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tscc::rt::pt {

/// Where every process's gadget goes: far from where Linux puts programs,
/// libraries, heaps and stacks on x86-64 (0x55..., 0x7f...). tsrun's
/// seccomp filter lets calls made there through.
constexpr uint64_t SyscallGadgetAddress = 0x2e7300000000ull;
/// The instruction pointer the kernel and seccomp see for such a call.
constexpr uint64_t SyscallGadgetReturn = SyscallGadgetAddress + 2;

/// The numbers tsrun never traces in the process: calls that return on
/// another stack (clone, clone3, vfork), in another process (fork), in
/// another image (execve, execveat) or not at all to the site
/// (rt_sigreturn, and i386's sigreturn). Their probes stay at the seccomp
/// stop. Nr is of the data model's numbering.
bool syscallStaysStopped(DataModel DM, uint32_t Nr);

/// Maps P's gadget at SyscallGadgetAddress (once per image).
bool ensureSyscallGadget(PtraceProcess &P, pid_t Tid, std::string &Error);

/// The hooks of the traced calls, each with Hook::SyscallNr, and the
/// numbers (sorted, at most ip::MaxInlineSyscalls).
struct SyscallHooks {
  std::vector<Hook> Hooks;
  std::vector<ip::TracedSyscall> Nrs;
};

/// How many syscall instructions of M now trace in the process, and the
/// first reason one could not (for -v).
struct SyscallSiteCount {
  unsigned Patched = 0, Refused = 0;
  std::string FirstWhy;
  uint64_t First = 0; ///< the first patched one
};

/// Patches every syscall instruction of M's functions that can take a
/// jump, mapping P's gadget first if needed. Every thread of P is stopped.
SyscallSiteCount installSyscallSites(PtraceProcess &P, pid_t Tid,
                                     const Module &M, const SyscallHooks &H,
                                     std::string &Error);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_SYSCALLSITES_H
