//===- Unwind.cpp - Call stacks of a stopped thread -----------------------===//
#include "Unwind.h"

#include "PtraceProcess.h"

using namespace tscc::rt;
using namespace tscc::rt::pt;

std::vector<uint64_t> tscc::rt::pt::unwind(PtraceProcess &P,
                                               const uint64_t *Regs,
                                               unsigned MaxDepth) {
  std::vector<uint64_t> PCs;
  if (!MaxDepth)
    return PCs;
  uint64_t PC = Regs[TSCC_REG_RIP];
  uint64_t FP = Regs[TSCC_REG_RBP];
  PCs.push_back(PC);
  unsigned Ptr = P.pointerSize();
  // Frame-pointer chain: [fp] = caller's fp, [fp + ptr] = return address.
  while (PCs.size() < MaxDepth && FP) {
    bool Ok1 = false, Ok2 = false;
    uint64_t NextFP = P.readPointer(FP, Ok1);
    uint64_t Ret = P.readPointer(FP + Ptr, Ok2);
    if (!Ok1 || !Ok2 || !Ret)
      break;
    PCs.push_back(Ret);
    if (NextFP <= FP)
      break; // stacks grow down; anything else is not a frame chain
    FP = NextFP;
  }
  return PCs;
}
