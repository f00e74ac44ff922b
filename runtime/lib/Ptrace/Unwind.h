//===- Unwind.h - Call stacks of a stopped thread (private) ---------------===//
#ifndef TSCC_RUNTIME_PTRACE_UNWIND_H
#define TSCC_RUNTIME_PTRACE_UNWIND_H

#include "PtraceProcess.h"

#include <cstdint>
#include <vector>

namespace tscc::rt::pt {

/// Innermost-first PCs starting at Regs (TSCC_REG_* order): .eh_frame CFA
/// rules where the module has them, frame pointers otherwise. Shadow, if
/// given, is the thread's stack of hijacked return addresses.
std::vector<uint64_t> unwind(PtraceProcess &P, const uint64_t *Regs,
                             unsigned MaxDepth,
                             const std::vector<ShadowFrame> *Shadow);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_UNWIND_H
