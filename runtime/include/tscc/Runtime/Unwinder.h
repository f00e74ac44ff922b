//===- tscc/Runtime/Unwinder.h - Call stacks, for every backend -*- C++ -*-===//
//
// One unwinder for every path a process is traced on: native processes
// (stopped threads and the in-process agent's stack snapshots) and the
// processes behind a gdb-remote stub, of either data model. Each frame is
// unwound with its module's .eh_frame CFA rules; frames without them fall
// back to the frame-pointer chain. The backend supplies what only it can
// reach: the memory, the module that holds a PC (its ELF file and load
// bias), and the real return addresses of calls it hijacked.
//
// An unwind also says why it ended: at the outermost frame, or early (the
// depth limit, a frame it cannot unwind, unreadable memory, a corrupt
// stack). Output shows an early end as a last pseudo-frame.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_UNWINDER_H
#define TSCC_RUNTIME_UNWINDER_H

#include "tscc/DataModel.h"
#include "tscc/abi.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tscc::rt {

struct ModuleImage;

/// Why a stack ends: TSCC_STACK_END_* (abi.h), as stack records carry it.
enum class StackEnd : uint32_t {
  Complete = TSCC_STACK_END_COMPLETE,
  DepthLimit = TSCC_STACK_END_DEPTH_LIMIT,
  NoUnwindInfo = TSCC_STACK_END_NO_UNWIND_INFO,
  Unreadable = TSCC_STACK_END_UNREADABLE,
  Corrupt = TSCC_STACK_END_CORRUPT,
};

/// Innermost-first program counters and why there are no more.
struct UnwoundStack {
  std::vector<uint64_t> PCs;
  StackEnd End = StackEnd::Complete;
};

/// What an unwind needs of the process, whatever reaches it.
struct UnwindSource {
  /// Reads a pointer-sized word (zero-extended in 32-bit processes).
  std::function<bool(uint64_t Addr, uint64_t &Word)> Read;
  /// The module mapped at Addr, null if none: its ELF file has the
  /// .eh_frame, its bias maps run-time to link-time addresses.
  std::function<const ModuleImage *(uint64_t Addr)> ModuleAt;
  /// For a return address that was replaced by a trampoline, the real one
  /// (each call consumes one, innermost first). Unset: PC itself.
  std::function<uint64_t(uint64_t PC)> RealReturn;
};

/// The stack of a thread whose registers (TSCC_REG_* order) are Regs, in
/// a process of data model DM (x86-64 or i386 registers and pointers), at
/// most MaxDepth frames. End is DepthLimit only when a further frame
/// exists.
UnwoundStack unwindStack(const UnwindSource &Src, DataModel DM,
                         const uint64_t *Regs, unsigned MaxDepth);

/// A stack snapshot an agent took in a target (stktrace()): the registers,
/// the top of the stack from their stack pointer, and the real addresses
/// of the returns it hijacked for exit probes (innermost last), which
/// stand where the stack holds ReturnTrampoline.
struct StackSnapshot {
  const uint64_t *Regs = nullptr;
  std::span<const uint8_t> Stack;
  std::span<const uint64_t> Shadow;
  uint64_t ReturnTrampoline = 0;
};

/// Unwinds Snap, as unwindStack does: words inside the snapshot come from
/// it, the rest from Beyond (the process as it is now; unset where it
/// cannot be read, and the stack then ends there, cut short).
UnwoundStack
unwindSnapshot(const StackSnapshot &Snap, DataModel DM,
               std::function<const ModuleImage *(uint64_t Addr)> ModuleAt,
               std::function<bool(uint64_t Addr, uint64_t &Word)> Beyond,
               unsigned MaxDepth);

/// The pseudo-frame that ends a stack cut short ("[truncated: depth
/// limit]"), or empty for a complete stack; "[truncated]" for a value this
/// tsrun does not know (a newer writer's reason). Every output shows a stack
/// as its frames followed by this line, so stacks that ended early are
/// told apart from whole ones, and aggregation keys differ too.
std::string_view stackEndMarker(StackEnd End);

/// Frame texts, then the marker of End if any.
std::vector<std::string> withStackEndMarker(std::vector<std::string> Frames,
                                            StackEnd End);

/// If Frame is a marker stackEndMarker() makes, the reason it names
/// ("depth limit"), for JSON's `truncated` field.
std::optional<std::string_view> stackEndReason(std::string_view Frame);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_UNWINDER_H
