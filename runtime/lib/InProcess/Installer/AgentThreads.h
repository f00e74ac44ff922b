//===- AgentThreads.h - tsrun's side of the agent's thread table ----------===//
//
// The agent keeps its traced threads and their shadow stacks in its own
// memory (tscc/agent.h, runtime/lib/InProcess/Agent/table.c). tsrun reads that
// table from outside: to put hijacked return addresses back when it detaches,
// to mark a thread's entry dead when the thread ends, and to hand the forking
// thread's entry to a fork() child. Everything here goes through an
// AgentMemory, a process's memory for tsrun and plain memory for the unit
// tests, and writes only what the agent allows writing from outside while
// the process runs (the one-byte dead mark), or what no running thread
// uses (a fork child before it runs; a process whose threads are stopped).
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_AGENTTHREADS_H
#define TSCC_RUNTIME_PTRACE_AGENTTHREADS_H

#include "tscc/agent.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace tscc::rt::pt {

/// Reads and writes of the memory the agent's table is in.
class AgentMemory {
public:
  virtual ~AgentMemory() = default;
  virtual bool read(uint64_t Addr, void *Dst, size_t Len) = 0;
  virtual bool write(uint64_t Addr, const void *Src, size_t Len) = 0;
};

/// Where the table and the pool are (tsrun mapped them; the agent's
/// configuration says the same).
struct AgentTableLayout {
  uint64_t Threads = 0;
  uint32_t Capacity = 0; ///< a power of two
  uint64_t Pool = 0;
  uint32_t PoolChunks = 0;
};

/// The entry of thread Tid of process Pid, whose fs base is FsBase: its
/// address in the agent's memory.
std::optional<uint64_t> findAgentThread(AgentMemory &M,
                                        const AgentTableLayout &L,
                                        uint64_t FsBase, int32_t Tid,
                                        int32_t Pid);

/// Marks that entry dead (the thread is ending); false when there is none.
/// One byte: safe while other threads of the process use the table.
bool markAgentThreadGone(AgentMemory &M, const AgentTableLayout &L,
                         uint64_t FsBase, int32_t Tid, int32_t Pid);

/// In a fork() child that has not run yet: the entry of the forking thread
/// (of the parent, by its ids) becomes the child's, and the copy of the
/// pool starts with no free list (the parent may have been changing it
/// while the child's memory was copied). False when there is no entry.
bool handAgentThreadToChild(AgentMemory &Child, const AgentTableLayout &L,
                            uint64_t ConfigAddr, uint64_t FsBase,
                            int32_t ParentTid, int32_t ParentPid,
                            int32_t ChildPid);

/// An entry read whole, with its address.
struct AgentThreadEntry {
  uint64_t Addr = 0;
  tscc_agent_thread Entry{};
};

/// Every entry of a live thread of process Pid (one read of the table).
std::vector<AgentThreadEntry>
agentThreadsOf(AgentMemory &M, const AgentTableLayout &L, int32_t Pid);

/// The shadow frames of an entry, innermost first. A chain that leaves the
/// pool or loops ends the list.
std::vector<tscc_agent_shadow> agentShadowFrames(AgentMemory &M,
                                                 const AgentTableLayout &L,
                                                 const tscc_agent_thread &E);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_AGENTTHREADS_H
