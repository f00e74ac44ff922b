//===- JumpSites.h - Probe sites that jump into the agent (private) -------===//
//
// A probe site of a process with an agent (Agent.h) gets a 5-byte jump to a
// per-site trampoline near its module instead of a breakpoint, when the
// site allows it (JumpPatch.h says when not) and when its
// clauses can run in the target. The rest stay breakpoints: the choice is
// per site, and -v says which and why.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_JUMPSITES_H
#define TSCC_RUNTIME_PTRACE_JUMPSITES_H

#include "../../Ptrace/PtraceProcess.h"

#include "SyscallTrampoline.h"

#include <map>
#include <string>
#include <vector>

namespace tscc::rt::pt {

struct JumpCandidate {
  uint64_t Addr = 0;
  uint64_t FuncStart = 0, FuncSize = 0; ///< the enclosing function
  std::vector<Hook> Hooks;
  /// A system-call site (x86-64): Addr is a `syscall` whose calls of these
  /// numbers run the hooks (Hook::SyscallNr) in the agent, made at the
  /// process's gadget (AgentState::SyscallGadget). The jump may start a
  /// few instructions before Addr (InProcess/JumpPatch.h).
  std::vector<ip::TracedSyscall> SyscallNrs;
  bool isSyscall() const { return !SyscallNrs.empty(); }
};

/// Patches every candidate of module M that can take a jump. Returns the
/// ones that cannot, with the reason, by address (they become
/// breakpoints). Every thread of P that could run M's code is stopped.
/// Sites holds every probe site of M being installed, jump or not: a jump
/// covers none of them, nor a breakpoint or jump already there, which
/// would be skipped (or overwritten) when the jump's copy runs it.
std::map<uint64_t, std::string>
installJumpSites(PtraceProcess &P, pid_t Tid, const Module &M,
                 const std::vector<JumpCandidate> &Candidates,
                 const std::vector<uint64_t> &Sites);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_JUMPSITES_H
