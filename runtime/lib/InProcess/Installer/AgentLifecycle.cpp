//===- AgentLifecycle.cpp - The agent as threads end and processes share --===//
//
// The agent's table of threads (tscc/agent.h) lives in the process's
// memory, and what happens to that memory decides what tsrun does to it:
//   - a thread ends: its entry is marked dead at its PTRACE_EVENT_EXIT
//     stop, before its stack and TCB can be reused by a new thread, so that
//     the new thread gets an entry of its own and the table never fills up
//     with the dead, whatever their stacks;
//   - fork(): the child has a copy; the forking thread's entry becomes the
//     child's (rearmAgent), the other entries are stale in the child;
//   - vfork(), clone(CLONE_VM) without CLONE_THREAD: the child uses the
//     same memory, agent included, and its threads may have the fs base of
//     the parent's. The agent is told who shares the memory (its sharers)
//     and then tells threads apart by their ids too, until the child
//     execs or exits.
//
//===----------------------------------------------------------------------===//
#include "Agent.h"

#include "tscc/Runtime/Session.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <dirent.h>
#include <linux/kcmp.h>
#include <set>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

/// The thread pointer the agent keys Tid's entry by (agent/*/arch.h): the
/// fs base, or in a 32-bit process the TCB, which is the gs base.
bool fsBaseOf(pid_t Tid, uint64_t &FsBase) {
  user_regs_struct R;
  if (ptrace(PTRACE_GETREGS, Tid, nullptr, &R) != 0)
    return false;
  // A 32-bit process has cs 0x23; its fs base is not its thread pointer.
  FsBase = R.cs == 0x23 ? R.gs_base : R.fs_base;
  return true;
}

/// Tells the agent (through Via, which uses its memory) who shares it.
bool writeSharers(PtraceProcess &Via, const AgentSharers &G) {
  tscc_agent_sharer Table[TSCC_AGENT_MAX_SHARERS] = {};
  size_t N = std::min<size_t>(G.Members.size(), TSCC_AGENT_MAX_SHARERS);
  for (size_t I = 0; I < N; ++I)
    Table[I] = {G.Members[I].Pid, G.Members[I].TargetId, G.Members[I].PPid,
                G.Members[I].Uid};
  uint64_t Config = Via.Agent.Config;
  uint32_t Shared = 1;
  return Via.writeMemory(Config + offsetof(tscc_agent_config, sharers), Table,
                         sizeof(Table)) &&
         Via.writeMemory(Config + offsetof(tscc_agent_config, shared_mm),
                         &Shared, sizeof(Shared));
}

/// The memory is one process's again: the agent's identity becomes that
/// of Last (which may not be the process it was set up in), then it stops
/// telling threads apart by their ids.
void writeAlone(PtraceProcess &Via, const AgentSharers::Member &Last) {
  uint64_t Config = Via.Agent.Config;
  int64_t Ids[3] = {Last.Pid, Last.PPid, Last.Uid};
  Via.writeMemory(Config + offsetof(tscc_agent_config, target_id),
                  &Last.TargetId, sizeof(Last.TargetId));
  Via.writeMemory(Config + offsetof(tscc_agent_config, pid), Ids, sizeof(Ids));
  uint32_t Shared = 0;
  Via.writeMemory(Config + offsetof(tscc_agent_config, shared_mm), &Shared,
                  sizeof(Shared));
  tscc_agent_sharer None[TSCC_AGENT_MAX_SHARERS] = {};
  Via.writeMemory(Config + offsetof(tscc_agent_config, sharers), None,
                  sizeof(None));
}

/// The group of processes using P's memory, made with P alone if there is
/// none yet.
std::shared_ptr<AgentSharers> groupOf(PtraceProcess &P) {
  std::shared_ptr<AgentSharers> &G = P.Agent.Sharers;
  if (!G) {
    G = std::make_shared<AgentSharers>();
    G->Members.push_back({P.Pid, P.Agent.TargetId, P.PPid, P.Uid});
  }
  return G;
}

} // namespace

AgentTableLayout tscc::rt::pt::agentTableOf(const AgentState &A) {
  AgentTableLayout L;
  L.Threads = A.ThreadsBase;
  L.Capacity = A.ThreadCapacity;
  L.Pool = A.PoolBase;
  L.PoolChunks = static_cast<uint32_t>(A.PoolSize / sizeof(tscc_agent_chunk));
  return L;
}

void tscc::rt::pt::agentThreadEnding(PtraceProcess &P, pid_t Tid) {
  uint64_t FsBase = 0;
  if (!P.Agent.Installed || !fsBaseOf(Tid, FsBase))
    return;
  ProcessAgentMemory M(P);
  markAgentThreadGone(M, agentTableOf(P.Agent), FsBase, Tid, P.Pid);
}

void tscc::rt::pt::handForkingThread(PtraceProcess &Child,
                                     const PtraceProcess &Parent,
                                     pid_t ForkingTid) {
  uint64_t FsBase = 0;
  if (!fsBaseOf(ForkingTid, FsBase))
    return;
  ProcessAgentMemory M(Child);
  handAgentThreadToChild(M, agentTableOf(Child.Agent), Child.Agent.Config,
                         FsBase, ForkingTid, Parent.Pid, Child.Pid);
}

bool tscc::rt::pt::threadsHaveOwnFsBase(const PtraceProcess &P) {
  std::set<uint64_t> Seen;
  for (const auto &[Tid, T] : P.Threads) {
    uint64_t FsBase = 0;
    if (fsBaseOf(Tid, FsBase) && !Seen.insert(FsBase).second)
      return false;
  }
  return true;
}

std::vector<pid_t> tscc::rt::pt::processesSharingMemory(pid_t Pid) {
  std::vector<pid_t> Out;
  DIR *D = opendir("/proc");
  if (!D)
    return Out;
  while (dirent *E = readdir(D)) {
    char *End = nullptr;
    long Other = strtol(E->d_name, &End, 10);
    if (*End || Other <= 0 || Other == Pid)
      continue;
    if (syscall(SYS_kcmp, Pid, static_cast<pid_t>(Other), KCMP_VM, 0, 0) == 0)
      Out.push_back(static_cast<pid_t>(Other));
  }
  closedir(D);
  return Out;
}

bool tscc::rt::pt::agentTellsThreadsById(PtraceProcess &P, std::string &Why) {
  if (!P.Agent.Installed)
    return true;
  std::shared_ptr<AgentSharers> G = groupOf(P);
  if (G->ById)
    return true;
  G->ById = true;
  if (writeSharers(P, *G))
    return true;
  Why = "cannot tell the agent that threads share an fs base";
  return false;
}

bool tscc::rt::pt::shareAgent(PtraceProcess &Parent, PtraceProcess &Child,
                              AgentFactory &F, std::string &Why) {
  if (!Parent.Agent.Installed)
    return true;
  std::shared_ptr<AgentSharers> G = groupOf(Parent);
  Child.Agent = Parent.Agent;
  Child.Agent.TargetId = F.session().targetId(Child);
  G->Members.push_back(
      {Child.Pid, Child.Agent.TargetId, Child.PPid, Child.Uid});
  // Its threads write into Parent's shard, naming it: tsrun takes their
  // word for it, as it takes no one else's.
  F.session().shareShard(Parent, Child);
  if (!writeSharers(Parent, *G)) {
    Why = "cannot tell the agent about a process sharing its memory";
    return false;
  }
  if (G->Members.size() > TSCC_AGENT_MAX_SHARERS) {
    Why = "more than " + std::to_string(TSCC_AGENT_MAX_SHARERS) +
          " processes share the memory of pid " + std::to_string(Parent.Pid) +
          "; in-process hits of the others are counted as drops (--ptrace "
          "traces them)";
    return false;
  }
  return true;
}

void tscc::rt::pt::unshareAgent(PtraceProcess &Leaving,
                                PtraceProcess *Remaining) {
  std::shared_ptr<AgentSharers> G = std::move(Leaving.Agent.Sharers);
  if (!G)
    return;
  std::erase_if(G->Members, [&](const AgentSharers::Member &M) {
    return M.Pid == Leaving.Pid;
  });
  if (!Remaining || !Remaining->Agent.Installed ||
      Remaining->Agent.Sharers != G)
    return;
  if (G->Members.size() > 1 || G->ById) {
    writeSharers(*Remaining, *G);
    return;
  }
  if (G->Members.size() == 1)
    writeAlone(*Remaining, G->Members.front());
  Remaining->Agent.Sharers.reset();
}
