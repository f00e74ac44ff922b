//===- AgentThreads.cpp - tsrun's side of the agent's thread table --------===//
#include "AgentThreads.h"

#include <algorithm>
#include <cstddef>
#include <unordered_set>

using namespace tscc::rt::pt;

namespace {

uint64_t entryAddr(const AgentTableLayout &L, uint32_t Pos) {
  return L.Threads + uint64_t(Pos) * sizeof(tscc_agent_thread);
}

bool validLayout(const AgentTableLayout &L) {
  return L.Threads && L.Capacity && !(L.Capacity & (L.Capacity - 1));
}

/// The first words of an entry: all a search needs.
struct EntryHead {
  uint64_t Key;
  int32_t Tid, Pid;
};
static_assert(offsetof(tscc_agent_thread, key) == 0 &&
              offsetof(tscc_agent_thread, tid) == 8 &&
              offsetof(tscc_agent_thread, pid) == 12);

} // namespace

std::optional<uint64_t>
tscc::rt::pt::findAgentThread(AgentMemory &M, const AgentTableLayout &L,
                              uint64_t FsBase, int32_t Tid, int32_t Pid) {
  if (!validLayout(L))
    return std::nullopt;
  uint64_t Key = tscc_agent_thread_key(FsBase);
  uint32_t Mask = L.Capacity - 1;
  uint32_t Probes = std::min(L.Capacity, TSCC_AGENT_THREAD_PROBES);
  uint32_t Pos = tscc_agent_thread_home(Key, L.Capacity);
  for (uint32_t I = 0; I < Probes; ++I, Pos = (Pos + 1) & Mask) {
    EntryHead H{};
    if (!M.read(entryAddr(L, Pos), &H, sizeof(H)) ||
        H.Key == TSCC_AGENT_KEY_EMPTY)
      return std::nullopt;
    if (H.Key == Key && H.Tid == Tid && H.Pid == Pid)
      return entryAddr(L, Pos);
  }
  return std::nullopt;
}

bool tscc::rt::pt::markAgentThreadGone(AgentMemory &M,
                                       const AgentTableLayout &L,
                                       uint64_t FsBase, int32_t Tid,
                                       int32_t Pid) {
  // The key's low byte, with the dead bit: one byte cannot be seen torn.
  uint8_t Low =
      static_cast<uint8_t>(tscc_agent_thread_key(FsBase) | TSCC_AGENT_KEY_DEAD);
  // Every entry of the thread, should it have two (table.c, one_entry).
  bool Any = false;
  while (std::optional<uint64_t> E = findAgentThread(M, L, FsBase, Tid, Pid)) {
    if (!M.write(*E + offsetof(tscc_agent_thread, key), &Low, 1))
      break;
    Any = true;
  }
  return Any;
}

bool tscc::rt::pt::handAgentThreadToChild(AgentMemory &Child,
                                          const AgentTableLayout &L,
                                          uint64_t ConfigAddr, uint64_t FsBase,
                                          int32_t ParentTid, int32_t ParentPid,
                                          int32_t ChildPid) {
  uint64_t NoFree = 0;
  Child.write(ConfigAddr + offsetof(tscc_agent_config, pool_free), &NoFree,
              sizeof(NoFree));
  std::optional<uint64_t> E =
      findAgentThread(Child, L, FsBase, ParentTid, ParentPid);
  if (!E)
    return false;
  // The child's only thread: its id is the child's pid.
  int32_t Ids[2] = {ChildPid, ChildPid};
  return Child.write(*E + offsetof(tscc_agent_thread, tid), Ids, sizeof(Ids));
}

std::vector<AgentThreadEntry>
tscc::rt::pt::agentThreadsOf(AgentMemory &M, const AgentTableLayout &L,
                             int32_t Pid) {
  std::vector<AgentThreadEntry> Out;
  if (!validLayout(L))
    return Out;
  std::vector<tscc_agent_thread> All(L.Capacity);
  if (!M.read(L.Threads, All.data(), All.size() * sizeof(All[0])))
    return Out;
  for (uint32_t I = 0; I < L.Capacity; ++I)
    if ((All[I].key & 15) == TSCC_AGENT_KEY_LIVE && All[I].pid == Pid)
      Out.push_back({entryAddr(L, I), All[I]});
  return Out;
}

std::vector<tscc_agent_shadow>
tscc::rt::pt::agentShadowFrames(AgentMemory &M, const AgentTableLayout &L,
                                const tscc_agent_thread &E) {
  std::vector<tscc_agent_shadow> Out;
  uint32_t Depth = static_cast<uint32_t>(E.stack);
  uint32_t Chunk = static_cast<uint32_t>(E.stack >> 32);
  if (!Depth)
    return Out;
  uint32_t At = (Depth - 1) % TSCC_AGENT_CHUNK_FRAMES;
  std::unordered_set<uint32_t> Seen;
  tscc_agent_chunk K;
  while (Out.size() < Depth) {
    if (!Chunk || Chunk > L.PoolChunks || !Seen.insert(Chunk).second ||
        !M.read(L.Pool + uint64_t(Chunk - 1) * sizeof(K), &K, sizeof(K)))
      break;
    for (uint32_t I = At + 1; I-- > 0 && Out.size() < Depth;)
      Out.push_back(K.frames[I]);
    Chunk = K.below;
    At = TSCC_AGENT_CHUNK_FRAMES - 1;
  }
  return Out;
}
