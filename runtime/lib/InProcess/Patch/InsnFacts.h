//===- InsnFacts.h - Small facts of decoded instructions (private) --------===//
//
// What the in-process planners (JumpPatch, IndirectJumps, RegisterValues,
// ModuleEntries) all ask of an instruction, and how they print addresses.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_INPROCESS_INSNFACTS_H
#define TSCC_RUNTIME_INPROCESS_INSNFACTS_H

#include "tscc/Runtime/X86Insn.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

namespace tscc::rt::ip {

/// "0x7f1234560002", as every reason and message of the planners says it.
inline std::string hexAddr(uint64_t V) {
  char Buf[24];
  std::snprintf(Buf, sizeof(Buf), "0x%" PRIx64, V);
  return Buf;
}

/// A branch whose target is in its displacement (jmp, jcc, call, loop).
inline bool hasRelTarget(const X86Insn &I) {
  switch (I.Flow) {
  case X86Flow::JmpRel:
  case X86Flow::JccRel:
  case X86Flow::CallRel:
  case X86Flow::LoopRel:
    return true;
  default:
    return false;
  }
}

/// Where the relative branch I at Addr goes: its displacement counts from
/// the next instruction.
inline uint64_t branchTarget(uint64_t Addr, const X86Insn &I) {
  return Addr + I.Length + static_cast<uint64_t>(I.RelTarget);
}

/// `jmp *` through a register or memory (not a call, not far).
inline bool isIndirectJump(const X86Insn &I) {
  return I.Flow == X86Flow::Indirect && I.modrmReg() == 4;
}

} // namespace tscc::rt::ip

#endif // TSCC_RUNTIME_INPROCESS_INSNFACTS_H
