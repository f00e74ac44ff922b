//===- AgentSetup.h - The pieces of installAgent, for its batch (private) -===//
//
// installAgent (Agent.cpp) sets the agent up with one injected system call
// at a time. In a freshly exec'ed image, AgentBatch.cpp makes the same
// calls in two batches (Ptrace/InjectBatch.h) with the pieces declared
// here, which Agent.cpp defines.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_INPROCESS_AGENTSETUP_H
#define TSCC_RUNTIME_INPROCESS_AGENTSETUP_H

#include "Agent.h"

#include <array>
#include <functional>

namespace tscc::rt {
class Shard;
}

namespace tscc::rt::pt::setup {

/// The agent's data area: its size, and the scratch page at its start.
uint64_t dataSize();
uint64_t dataScratch();
/// The shadow-stack pool sizes to try, largest first.
std::span<const uint64_t> poolSizes();
/// The entries of the agent's thread table for the session's store.
uint32_t threadCapacity(AgentFactory &F);

/// The agent object and the probe object's code for T's model, and how
/// the code's undefined symbols resolve against the relocated agent.
bool objectsFor(Target &T, AgentFactory &F, std::span<const uint8_t> &Agent,
                std::span<const uint8_t> &Code, std::string &Why);
SymbolResolver codeResolver(DataModel DM, const RelocatedImage &AgentImg);
/// A's entry points, from the relocated agent.
bool takeAgentSymbols(AgentState &A, const RelocatedImage &AgentImg,
                      std::string &Why);

/// What the configuration needs of P besides its Target (auxv, vDSO).
AgentTargetFacts targetFacts(PtraceProcess &P);
/// Writes the configuration and its tables into A's data area.
bool writeConfig(ip::ProcessAccess &Acc, Target &T, AgentState &A,
                 AgentFactory &F, const RelocatedImage &Code,
                 const AgentTargetFacts &Facts, std::string &Why);

/// The signals whose handler is the agent's, the sigaction that installs
/// it (the model's struct), and where the program's goes in the config.
std::span<const int> agentSignals();
std::array<uint8_t, 32> handlerAction(DataModel DM, const AgentState &A);
uint64_t chainedSlot(const AgentState &A, unsigned I);

/// Gives the process its epoch and arms the agent.
bool arm(ip::ProcessAccess &Acc, const AgentState &A, AgentFactory &F,
         bool MayHeal);

/// installAgent in a fresh image (just exec'ed, one thread), with two
/// batches of injected calls instead of twenty round trips. Tried is false
/// when P cannot run batches (Why says why, and the caller installs the
/// agent call by call); true with a false result when a call of a batch
/// failed (Why), as installAgent fails.
bool installAgentBatched(PtraceProcess &P, pid_t Tid, AgentFactory &F,
                         bool &Tried, std::string &Why);

/// finishChildAgent's shard (a fork child at its first stop) in one batch
/// in the child's data area: its own shard received from tsrun and mapped,
/// its parent's descriptor closed, its ring table cleared. Tried as for
/// installAgentBatched; the caller then writes the configuration.
bool finishChildBatched(PtraceProcess &Child, pid_t Tid, AgentFactory &F,
                        Shard &Mine, bool &Tried, std::string &Why);

} // namespace tscc::rt::pt::setup

#endif // TSCC_RUNTIME_INPROCESS_AGENTSETUP_H
