//===- JumpSites.h - Probe sites that jump into the agent (private) -------===//
//
// A probe site of a process with an agent (Agent.h) gets a 5-byte jump to a
// per-site trampoline near its module instead of a breakpoint, when the
// site allows it (JumpPatch.h says when not) and when its clauses can run
// in the target. Where the jump cannot go, an int3 at the site sends the
// thread to the same trampoline through the agent's SIGTRAP handler (a
// trap site). The rest stay breakpoints: the choice is per site, and -v
// says which and why.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_JUMPSITES_H
#define TSCC_RUNTIME_PTRACE_JUMPSITES_H

#include "../../Ptrace/PtraceProcess.h"

#include "tscc/agent.h"

#include "../Installer/ProcessAccess.h"
#include "JumpPatch.h"
#include "SyscallTrampoline.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tscc::rt::pt {

struct JumpCandidate {
  uint64_t Addr = 0;
  /// The enclosing function; FuncSize 0 when no symbol says (a USDT site
  /// of a module without symbols: only a trap site can go there).
  uint64_t FuncStart = 0, FuncSize = 0;
  std::vector<Hook> Hooks;
  /// A system-call site (x86-64): Addr is a `syscall` whose calls of these
  /// numbers run the hooks (Hook::SyscallNr) in the agent, made at the
  /// process's gadget (AgentState::SyscallGadget). The jump may start a
  /// few instructions before Addr (InProcess/JumpPatch.h).
  std::vector<ip::TracedSyscall> SyscallNrs;
  bool isSyscall() const { return !SyscallNrs.empty(); }
};

/// One hook of a site that jumps, as the agent's table has it.
struct JumpHook {
  uint32_t Kind = 0; ///< TSCC_HOOK_*
  uint32_t Index = 0;
  std::string Function, ModuleName;
  /// A USDT probe's arguments, for the agent to evaluate (tscc/agent.h).
  std::vector<tscc_agent_usdt_arg> Usdt;
};

struct JumpRequest {
  uint64_t Addr = 0;
  /// The enclosing function; FuncSize 0 when no symbol says (a USDT site
  /// of a module without symbols: only a trap site can go there).
  uint64_t FuncStart = 0, FuncSize = 0;
  std::vector<JumpHook> Hooks;
  /// A system-call site: see JumpCandidate::SyscallNrs.
  std::vector<ip::TracedSyscall> SyscallNrs;
  bool isSyscall() const { return !SyscallNrs.empty(); }
};

/// The process whose sites are patched, whatever controls it.
struct JumpSiteTarget {
  ip::ProcessAccess &Acc;
  AgentState &Agent;
  X86Mode Mode;
  /// Why a stopped thread of the process is in the way of Plan (inside
  /// the bytes it overwrites, or in a system call it displaces), or "".
  std::function<std::string(const ip::PatchPlan &Plan)> ThreadsInTheWay;
  /// Size bytes of read + execute memory within reach of [Lo, Hi), or 0
  /// with Why.
  std::function<uint64_t(uint64_t Lo, uint64_t Hi, uint64_t Size,
                         std::string &Why)>
      MapScratch;
  /// Puts the agent's SIGTRAP handler in front before the first trap site
  /// (null where the target has none: its sites take no trap).
  std::function<bool(std::string &Why)> InstallTrapHandler;
  /// Out: the sites that got a trap, with why not a jump.
  std::map<uint64_t, std::string> Traps;
};

/// U's arguments as the agent evaluates them (tscc/agent.h), a symbol's
/// address moved by the module's Bias.
std::vector<tscc_agent_usdt_arg> agentUsdtArgs(const UsdtProbe &U,
                                               uint64_t Bias);

/// Patches every request of module M that can take a jump, in the process
/// T names; the same contract as the ptrace version below. Sites must
/// hold every probe site and breakpoint of M (T.Agent's jump sites are
/// added here).
std::map<uint64_t, std::string>
installJumpSites(JumpSiteTarget &T, const ModuleImage &M,
                 const std::vector<JumpRequest> &Requests,
                 std::vector<uint64_t> Sites);

/// Patches every candidate of module M that can take a jump. One that
/// cannot gets a trap site instead (an int3 that the agent's SIGTRAP
/// handler turns into the jump) when its instruction can be run from the
/// trampoline alone: Traps gets it, with why not a jump. Returns the ones
/// that can have neither, with the reason, by address (they become
/// breakpoints). Every thread of P that could run M's code is stopped.
/// Sites holds every probe site of M being installed, jump or not: a jump
/// covers none of them, nor a breakpoint or jump already there, which
/// would be skipped (or overwritten) when the jump's copy runs it.
std::map<uint64_t, std::string>
installJumpSites(PtraceProcess &P, pid_t Tid, const Module &M,
                 const std::vector<JumpCandidate> &Candidates,
                 const std::vector<uint64_t> &Sites,
                 std::map<uint64_t, std::string> &Traps);

/// Forgets the jump sites of module M, which dlclose() unmapped: their
/// entries in the agent's table are emptied and its trampoline areas left
/// for the next module within their reach, so a program that loads and
/// unloads libraries for ever keeps taking jumps (the table would fill up
/// and every later site be a breakpoint) without mapping more memory.
void forgetJumpSites(PtraceProcess &P, pid_t Tid, const Module &M);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_JUMPSITES_H
