//===- StackKeys.cpp - Stack keys walked by the agent in the process -------===//
//
// A clause that keys an aggregation by a stack runs in the process like
// any other once the process has what its agent walks stacks with
// (tscc/unwind_table.h): a table of stack ids, writable and private to the
// process, and an image of its modules with their compiled unwind tables,
// read-only. Both are written here while the process is stopped: the
// table once, the tables of modules as they appear (each once, up to
// unwind::MaxTableBytesPerProcess), and a new image whenever the modules
// change (a scan of the maps, the link map after dlopen or dlclose).
// Until a dlopen()ed module is in an image, frames in it are walked by
// the frame-pointer chain (docs/runtime.md, *Stacks and symbols*).
//
//===----------------------------------------------------------------------===//
#include "BackendImpl.h"
#include "Inject.h"

#include "tscc/Runtime/Session.h"
#include "tscc/SyscallTable.h"

#include <atomic>
#include <cstddef>
#include <sys/mman.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

/// Stack ids a process can hand out (the table is three quarters full at
/// most): 16384 slots of 16 bytes, 256 KiB, touched as used.
constexpr uint32_t StackIdSlots = 16384;

/// A base no other table of the session has (tscc_stack_ids.base; those
/// agents make in fork children have TSCC_STACK_ID_CHILD).
uint64_t nextIdBase() {
  static std::atomic<uint64_t> Serial{0};
  uint64_t N = Serial.fetch_add(1, std::memory_order_relaxed) + 1;
  N &= (TSCC_STACK_ID_CHILD >> TSCC_STACK_ID_INDEX_BITS) - 1;
  return TSCC_STACK_ID_AGENT | (N << TSCC_STACK_ID_INDEX_BITS);
}

bool protectReadOnly(PtraceProcess &P, pid_t Tid, uint64_t Base, uint64_t Size,
                     std::string &Why) {
  PtraceAccess Acc(P, Tid);
  uint64_t Nr = P.dataModel() == DataModel::LP64
                    ? syscallNumberOf(DataModel::LP64, "mprotect")
                    : syscallNumberOf(DataModel::ILP32, "mprotect");
  uint64_t R = 0;
  return ip::callChecked(Acc, Nr,
                         {Base, (Size + 4095) & ~uint64_t(4095), PROT_READ}, R,
                         Why, "mprotect");
}

} // namespace

bool PtraceBackend::Impl::stackKeysInProcess(PtraceProcess &P, pid_t Tid) {
  AgentState &A = P.Agent;
  if (A.StackIds)
    return true;
  if (!A.Installed || !A.Config || A.StackIdsTried)
    return false;
  A.StackIdsTried = true;
  PtraceAccess Acc(P, Tid);
  std::string Why;
  uint64_t Size = sizeof(tscc_stack_ids) +
                  uint64_t(StackIdSlots) * sizeof(tscc_stack_id_entry);
  uint64_t Base =
      ip::mapAnonymous(Acc, Size, PROT_READ | PROT_WRITE, Why, MAP_NORESERVE);
  tscc_stack_ids Ids{nextIdBase(), StackIdSlots, 0, static_cast<int32_t>(P.Pid),
                     0};
  if (!Base || !P.writeMemory(Base, &Ids, sizeof(Ids)) ||
      !P.writeMemory(A.Config + offsetof(tscc_agent_config, stack_ids), &Base,
                     8)) {
    warnOnce("pid " + std::to_string(P.Pid) +
             ": clauses that key by a stack stay breakpoints: " +
             (Why.empty() ? std::string("the agent cannot be set up for them")
                          : Why));
    return false;
  }
  A.StackIds = Base;
  return true;
}

void PtraceBackend::Impl::syncUnwindImage(PtraceProcess &P, pid_t Tid) {
  AgentState &A = P.Agent;
  if (!A.StackIds)
    return;
  std::vector<std::pair<std::string, uint64_t>> Now;
  for (const auto &M : P.Modules)
    Now.push_back({M->Path, M->Bias});
  if (A.UnwindImage && Now == A.UnwindModules)
    return;
  // The tables not written yet, in one mapping with the new image.
  std::vector<uint8_t> Bytes;
  std::vector<std::pair<const Module *, uint64_t>> Placed; // offset in Bytes
  for (const auto &M : P.Modules) {
    if (A.UnwindTables.count({M->Path, M->Bias}))
      continue;
    std::string Why;
    auto T = UnwindTables.get(M->Elf, Why);
    if (!T ||
        A.UnwindTableBytes + T->size() > unwind::MaxTableBytesPerProcess) {
      A.UnwindTables[{M->Path, M->Bias}] = 0; // walked by frame pointers
      continue;
    }
    Bytes.resize((Bytes.size() + 7) & ~size_t(7));
    Placed.push_back({M.get(), Bytes.size()});
    Bytes.insert(Bytes.end(), T->begin(), T->end());
    A.UnwindTableBytes += T->size();
  }
  Bytes.resize((Bytes.size() + 7) & ~size_t(7));
  uint64_t ImageAt = Bytes.size();
  // The image's size does not depend on the addresses: one mapping.
  std::vector<uint64_t> AggKeys;
  const ProbeProgram &Prog = S.program();
  for (uint32_t I = 0; I < Prog.aggs().size(); ++I)
    AggKeys.push_back(unwind::stackKeyOffsets(Prog.aggKeyFields(I)));
  uint64_t Size = ImageAt + unwind::buildImage({}, 0, AggKeys).size() +
                  P.Modules.size() * sizeof(tscc_unwind_module);
  PtraceAccess Acc(P, Tid);
  std::string Why;
  auto Before = A.UnwindTables;
  uint64_t BeforeBytes = A.UnwindTableBytes;
  uint64_t Base = ip::mapAnonymous(Acc, Size, PROT_READ | PROT_WRITE, Why);
  if (!Base) {
    A.UnwindTables = std::move(Before);
    A.UnwindTableBytes = BeforeBytes;
    warnOnce("pid " + std::to_string(P.Pid) +
             ": stacks used as keys keep the modules they had: " + Why);
    return;
  }
  for (const auto &[M, Off] : Placed)
    A.UnwindTables[{M->Path, M->Bias}] = Base + Off;
  std::vector<tscc_unwind_module> Mods;
  for (const auto &M : P.Modules)
    Mods.push_back(
        {M->Start, M->End, M->Bias, A.UnwindTables[{M->Path, M->Bias}]});
  std::vector<uint8_t> Image =
      unwind::buildImage(std::move(Mods), S.options().MaxStackDepth, AggKeys);
  Bytes.insert(Bytes.end(), Image.begin(), Image.end());
  uint64_t At = Base + ImageAt;
  if (!ip::writeIntoFreshMemory(Acc, Base, Bytes) ||
      !protectReadOnly(P, Tid, Base, Bytes.size(), Why) ||
      !P.writeMemory(A.Config + offsetof(tscc_agent_config, unwind), &At, 8)) {
    A.UnwindTables = std::move(Before);
    A.UnwindTableBytes = BeforeBytes;
    warnOnce("pid " + std::to_string(P.Pid) +
             ": stacks used as keys keep the modules they had: " +
             (Why.empty() ? std::string("the process's memory cannot be "
                                        "written")
                          : Why));
    return;
  }
  A.UnwindImage = At;
  A.UnwindModules = std::move(Now);
}
