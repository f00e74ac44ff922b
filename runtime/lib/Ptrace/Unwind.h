//===- Unwind.h - Call stacks of a stopped thread (private) ---------------===//
#ifndef TSCC_RUNTIME_PTRACE_UNWIND_H
#define TSCC_RUNTIME_PTRACE_UNWIND_H

#include "PtraceProcess.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace tscc::rt::pt {

/// Where an unwind reads the stack, and what a hijacked return address
/// really was.
struct UnwindSource {
  /// Reads a pointer-sized word of the thread's memory.
  std::function<bool(uint64_t Addr, uint64_t &Word)> Read;
  /// For a return address that was replaced by a trampoline, the real
  /// one (each call consumes one, innermost first); otherwise PC itself.
  std::function<uint64_t(uint64_t PC)> RealReturn;
};

/// Innermost-first PCs starting at Regs (TSCC_REG_* order): .eh_frame CFA
/// rules where the module has them, frame pointers otherwise.
std::vector<uint64_t> unwindWith(PtraceProcess &P, const uint64_t *Regs,
                                 unsigned MaxDepth, const UnwindSource &Src);

/// The same from the live process. Shadow, if given, is the thread's stack
/// of return addresses hijacked by breakpoint exit probes.
std::vector<uint64_t> unwind(PtraceProcess &P, const uint64_t *Regs,
                             unsigned MaxDepth,
                             const std::vector<ShadowFrame> *Shadow);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_UNWIND_H
