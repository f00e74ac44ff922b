//===- AgentExit.h - Bringing threads out of an agent (private) -----------===//
//
// What AgentRemoval.cpp and AgentExit.cpp share: where an agent's code is,
// where the vDSO it calls is, and what to do with a stopped thread that is
// somewhere in them.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_AGENTEXIT_H
#define TSCC_RUNTIME_PTRACE_AGENTEXIT_H

#include "../../Ptrace/PtraceProcess.h"

#include <cstdint>
#include <sys/user.h>
#include <utility>
#include <vector>

namespace tscc::rt::pt {

/// A set of address ranges (start, size).
struct AddressRanges {
  std::vector<std::pair<uint64_t, uint64_t>> Ranges;
  bool contains(uint64_t X) const {
    for (auto [Lo, Size] : Ranges)
      if (X >= Lo && X - Lo < Size)
        return true;
    return false;
  }
};

/// Where an agent has code: its own image, the probe object's, and the
/// trampoline areas.
AddressRanges agentCode(const AgentState &A);

/// The vDSO of process Pid (/proc/PID/maps). The agent calls its
/// clock_gettime, so a thread there may be on its way back into the agent.
AddressRanges vdsoOf(pid_t Pid);

/// Whether signal Sig is queued for thread Tid alone, not blocked, and not
/// yet reported: a trap or fault the thread took just before a stop for
/// something else (an interrupt) was reported instead. Detached like that,
/// the thread would get the signal at once.
bool signalQueued(pid_t Tid, int Sig);

/// Where a stopped thread is, with respect to an agent being removed.
enum class Whereabouts {
  Program, ///< in the program's own code, nothing of the agent on its way
  Inside,  ///< in the agent: it must run until it leaves (bringOutOfAgents)
  Unknown, ///< could not be told: the agent's memory must stay
};

/// Classifies thread T, which shares the memory of P and is stopped, and
/// moves it where it can be moved without running it: from a boundary of
/// a trampoline's copy of displaced instructions to the same place in the
/// original code, and out of the vDSO and out of a relocated instruction's
/// expansion by single steps (never over an instruction that reads or
/// writes TF). Sites must have their original bytes back already.
Whereabouts settleThread(PtraceProcess &P, Thread &T, const AddressRanges &Code,
                         const AddressRanges &Vdso);

/// Whether a 32-bit thread in the vDSO (at stack pointer Sp) may have been
/// called there by the agent (Code): a return address into it a few words
/// up its stack. Every system call of an i386 program is in the vDSO.
bool vdsoCalledFromAgent32(PtraceProcess &P, uint64_t Sp,
                           const AddressRanges &Code);

/// Whether a 32-bit thread stopped in the vDSO (registers R) is in a
/// system call that only the program makes there.
bool inProgramSyscall32(const user_regs_struct &R);

/// The address of the `ret` that ends tscc_agent_return, where a thread
/// that returns through a hijacked return address leaves the agent; 0 if
/// it cannot be found.
uint64_t agentReturnExit(PtraceProcess &P);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_AGENTEXIT_H
