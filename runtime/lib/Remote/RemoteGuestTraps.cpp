//===- RemoteGuestTraps.cpp - Clauses tsrun runs, one guest thread at a time =//
//
// In a qemu-i386 guest with the agent, a clause that needs tsrun at the hit
// (a stack as a key, print() of an aggregation) does not keep a breakpoint
// of the stub's: its site jumps into the agent like any other
// (TSCC_HOOK_HOST), and the agent traps to tsrun through a gate in guest
// memory that lets one thread through at a time (Agent/guest.c). qemu-user
// 7.2's stub cannot serve two threads stopped at once; with the gate it
// never has to. The thread stops right after the agent's int3 with eax
// pointing at the registers of the hit and edx holding the site's address;
// tsrun runs the site's clauses with those registers (memory, stacks and
// stack keys read through the stub as at a breakpoint) and resumes it with
// no signal.
//
//===----------------------------------------------------------------------===//
#include "RemoteImpl.h"
#include "RemoteInject.h"

#include "../Loader/LoadedImage.h"

#include "tscc/Runtime/Session.h"
#include "tscc/agent.h"
#include "tscc/agent_guest.h"

#include <cstddef>
#include <cstring>
#include <filesystem>

using namespace tscc;
using namespace tscc::rt;
using namespace tscc::rt::remote;

namespace {

constexpr uint64_t GateOwner = offsetof(tscc_guest_gate, owner);
constexpr uint64_t GateAttached = offsetof(tscc_guest_gate, attached);

constexpr int GdbSigTrap = 5;

uint64_t symbolOf(const RelocatedImage &Img, const char *Name) {
  auto It = Img.Symbols.find(Name);
  return It == Img.Symbols.end() ? 0 : It->second;
}

} // namespace

bool RemoteBackend::Impl::setUpGuestTraps(const RelocatedImage &AgentImg,
                                          std::string &Why) {
  GuestGate = symbolOf(AgentImg, TSCC_AGENT_SYM_GUEST_GATE);
  GuestTrapEnd = symbolOf(AgentImg, TSCC_AGENT_SYM_GUEST_TRAP_END);
  uint32_t One = 1;
  if (!GuestGate || !GuestTrapEnd ||
      !Access->writeMemory(GuestGate + GateAttached, &One, sizeof(One))) {
    GuestGate = GuestTrapEnd = 0;
    Why = "the agent's trap gate cannot be set up";
    return false;
  }
  return true;
}

bool RemoteBackend::Impl::guestTrapFits(uint32_t Flags, uint32_t ProbeKind,
                                        std::string &Why) {
  if (Flags & TSCC_CLAUSE_CALLS_AGG_PRINT)
    Why = "the clause prints an aggregation";
  else if (Flags & TSCC_CLAUSE_CALLS_STACK_ID)
    Why = "the clause uses a stack as a key";
  else
    return false;
  // An exit probe's clause would need the return followed in tsrun: it
  // keeps its breakpoint (and its return breakpoint).
  return GuestTrapEnd && ProbeKind != TSCC_PROBE_UFT_EXIT;
}

void RemoteBackend::Impl::onGuestTrap(const RspThreadId &T,
                                      const uint64_t *Stopped) {
  uint64_t Site = Stopped[TSCC_REG_RDX] & 0xffffffffu;
  uint64_t At = Stopped[TSCC_REG_RAX] & 0xffffffffu;
  auto It = GuestTraps.find(Site);
  if (It == GuestTraps.end()) {
    warnOnce(where() + ": thread " + std::to_string(T.Tid) +
             " trapped for a site tsrun does not know (0x" +
             rsp::hexNumber(Site) + "); its clauses did not run");
    return;
  }
  uint64_t Regs[TSCC_REG_COUNT];
  if (!Tgt->readMemory(At, Regs, sizeof(Regs))) {
    warnOnce(where() + ": cannot read the registers of a hit at 0x" +
             rsp::hexNumber(Site) + " in the guest; its clauses did not run");
    return;
  }
  Regs[TSCC_REG_RIP] = Site;
  // Copy: a clause may make tsrun install modules (never these hooks'),
  // but the table is not to be walked while it may change.
  std::vector<Hook> Hooks = It->second;
  for (const Hook &H : Hooks)
    fire(T, H.Index, Regs, H.Function, H.ModuleName, 0, 0, &H);
}

bool RemoteBackend::Impl::closeGuestTraps(RspThreadId Stopped,
                                          uint64_t StoppedPC) {
  if (!GuestGate)
    return true;
  uint32_t Zero = 0;
  if (!Access->writeMemory(GuestGate + GateAttached, &Zero, sizeof(Zero)))
    return false;
  // A stop that tsrun's interrupt collected (StoppedPC 0) may be a trap
  // that raced with it: its clauses run, as any other trap's.
  if (!StoppedPC && Stopped.Tid > 0) {
    uint64_t Regs[TSCC_REG_COUNT];
    if (!Tgt->readRegisters(Stopped, Regs))
      return false;
    StoppedPC = Regs[TSCC_REG_RIP];
    if (StoppedPC == GuestTrapEnd)
      onGuestTrap(Stopped, Regs);
  }
  // From now on a thread that gets the gate opens it again without a trap.
  // One that holds it already may be on its way to its trap: it is let
  // through (a few times at most), so that it never traps with no debugger
  // there to take it (qemu would give the program SIGTRAP).
  for (int Round = 0; Round < 8; ++Round) {
    uint32_t Owner = 0;
    Tgt->invalidateCache();
    if (!Access->readMemory(GuestGate + GateOwner, &Owner, sizeof(Owner)))
      return false;
    if (!Owner || (Owner == Stopped.Tid && StoppedPC == GuestTrapEnd) ||
        (stubIsLocal() &&
         !std::filesystem::exists("/proc/" + std::to_string(Tgt->pid()) +
                                  "/task/" + std::to_string(Owner))))
      return true;
    if (!resume())
      return false;
    RspStop Stop;
    RspClient::WaitResult W = Client->waitStop(Stop, -1, 1000);
    if (W == RspClient::WaitResult::TimedOut) {
      if (!stopTarget(Stop))
        return false;
    } else if (W != RspClient::WaitResult::Stopped) {
      return false;
    }
    if (Stop.K == RspStop::Exited || Stop.K == RspStop::Terminated) {
      handleStop(Stop);
      return false;
    }
    Stopped = Stop.Thread;
    Access->useThread(Stopped);
    uint64_t Regs[TSCC_REG_COUNT];
    if (!Tgt->readRegisters(Stopped, Regs))
      return false;
    StoppedPC = Regs[TSCC_REG_RIP];
    if (Stop.Sig == GdbSigTrap && StoppedPC == GuestTrapEnd)
      onGuestTrap(Stopped, Regs);
    else if (Stop.Sig != GdbSigTrap && Stop.Sig != 2 && Stop.Sig != 0)
      warnOnce(where() + ": signal " + std::to_string(Stop.Sig) +
               " of the target arrived while tsrun detached; it is not "
               "passed on");
  }
  return false;
}
