//===- StackTable.cpp - Stacks used as aggregation keys --------------------===//

#include "tscc/Runtime/StackTable.h"
#include "tscc/unwind_table.h"

#include <cstring>

using namespace tscc::rt;

uint64_t
StackTable::intern(uint32_t Process, std::span<const uint64_t> PCs,
                   const std::function<std::string(uint64_t)> &Symbolize,
                   StackEnd End) {
  uint32_t EndWord = static_cast<uint32_t>(End);
  std::string Raw(sizeof(Process) + sizeof(EndWord) + PCs.size() * 8, '\0');
  memcpy(Raw.data(), &Process, sizeof(Process));
  memcpy(Raw.data() + sizeof(Process), &EndWord, sizeof(EndWord));
  if (!PCs.empty())
    memcpy(Raw.data() + sizeof(Process) + sizeof(EndWord), PCs.data(),
           PCs.size() * 8);
  {
    std::lock_guard<std::mutex> G(M);
    auto It = ByPCs.find(Raw);
    if (It != ByPCs.end())
      return It->second;
  }
  // Symbolised without the lock: it may read the process's modules.
  std::vector<std::string> Text;
  Text.reserve(PCs.size());
  for (uint64_t PC : PCs)
    Text.push_back(Symbolize(PC));
  // A stack cut short is a different key from the whole one.
  Text = withStackEndMarker(std::move(Text), End);
  std::lock_guard<std::mutex> G(M);
  uint64_t Id;
  auto Known = ByFrames.find(Text);
  if (Known != ByFrames.end()) {
    Id = Known->second;
  } else {
    if (Frames.size() >= MaxStacks)
      return 0;
    auto [Slot, New] = ByFrames.emplace(std::move(Text), Frames.size() + 1);
    Frames.push_back(&Slot->first);
    Id = Slot->second;
  }
  // The fast path's memory stays proportional to the stacks kept: a long
  // session of short-lived processes starts it over rather than growing.
  if (ByPCs.size() >= 4 * MaxStacks)
    ByPCs.clear();
  ByPCs.emplace(std::move(Raw), Id);
  return Id;
}

void StackTable::alias(uint64_t AgentId, uint64_t Id) {
  std::lock_guard<std::mutex> G(M);
  // Bounded as the table is: an agent's ids are as many as its stacks.
  if (Aliases.size() < 4 * MaxStacks || Aliases.count(AgentId))
    Aliases[AgentId] = Id;
}

uint64_t StackTable::canonical(uint64_t Id) const {
  if (!(Id & TSCC_STACK_ID_AGENT))
    return Id;
  std::lock_guard<std::mutex> G(M);
  auto It = Aliases.find(Id);
  return It == Aliases.end() ? Id : It->second;
}

std::optional<std::vector<std::string>> StackTable::frames(uint64_t Id) const {
  Id = canonical(Id);
  std::lock_guard<std::mutex> G(M);
  if (Id == 0 || Id > Frames.size())
    return std::nullopt;
  return *Frames[Id - 1];
}

size_t StackTable::size() const {
  std::lock_guard<std::mutex> G(M);
  return Frames.size();
}

std::string tscc::rt::stackKeyText(const std::vector<std::string> &Frames) {
  std::string Out = "\n";
  for (const std::string &F : Frames)
    Out += "        " + F + "\n";
  return Out;
}
