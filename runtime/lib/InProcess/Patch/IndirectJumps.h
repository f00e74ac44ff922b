//===- IndirectJumps.h - Where a function's indirect jumps may go ---------===//
//
// A 5-byte jump written over several short instructions leaves the start
// of the second one, and of any after it, inside the jump: a branch there
// runs half an instruction. Direct branches name their targets; this file
// finds the rest of the ways compiled code jumps into the middle of a
// function: the indirect `jmp`s. What each one jumps through is followed
// back through the function (registers only, not memory) and classified:
//
// - a jump table: an indexed load from a table whose address is a
//   constant of the code (`lea table(%rip)`, an absolute address), either
//   absolute (`jmp *table(,%idx,8)`, `mov (%r,%idx,8),%x; jmp *%x`) or
//   relative to a constant base (gcc's and clang's position-independent
//   switch: `lea table(%rip),%r; movslq (%r,%idx,4),%x; add %r,%x;
//   jmp *%x`; glibc's label-relative tables); readJumpTable() lists its
//   targets;
// - a code pointer: loaded from memory without an index (a function
//   pointer, a tail call through the GOT), passed in, returned by a call,
//   or an address constant. Such a pointer can only be a point inside a
//   function if that address was taken somewhere as a constant, so its
//   targets are the module's address constants (ModuleEntries.h);
// - unresolved: neither could be shown (an unknown instruction computes
//   the target, a table's address is not a constant). Its targets are
//   unknown.
//
// RegisterValues.h says how what a register holds is followed through the
// function's control flow.
//
// i386 code is followed the same way; its position-independent tables
// are GOT-relative (`add t@GOTOFF(%ebx,%eax,4),%ebx`), the GOT's address
// coming from a PC thunk.
//
// All of this is pure: bytes in, facts out.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_INPROCESS_INDIRECTJUMPS_H
#define TSCC_RUNTIME_INPROCESS_INDIRECTJUMPS_H

#include "tscc/Runtime/X86Insn.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace tscc::rt::ip {

enum class IndirectKind : uint8_t { Table, Pointer, Unresolved };

/// How a jump table's entries give addresses.
enum class TableForm : uint8_t {
  Absolute, ///< addresses (relocated in memory), PointerSize bytes each
  Relative, ///< 4-byte signed offsets from a base address
};

struct IndirectJump {
  uint64_t Addr = 0; ///< the jmp instruction
  IndirectKind Kind = IndirectKind::Unresolved;
  TableForm Form = TableForm::Absolute; ///< Table only
  uint64_t Table = 0;                   ///< Table: the first entry
  uint64_t Base = 0;       ///< Table, Relative: what the offsets count from
  uint8_t PointerSize = 8; ///< Table: 4 in i386 code (addresses wrap)
  /// Unresolved: why, for -v ("the target is computed by an instruction
  /// at 0x...").
  std::string Why;
};

/// What linear decoding of one function from its entry finds.
struct FunctionCode {
  std::vector<uint64_t> BranchTargets; ///< of direct branches, sorted
  std::vector<IndirectJump> Jumps;     ///< every indirect jmp (not call)
  /// Every jump table the function reads (Kind Table, Addr where it is
  /// read): those its jumps go through, and any other table whose entry it
  /// makes an address of, which may be stored before a jump uses it.
  std::vector<IndirectJump> Tables;
};

/// Reads Len bytes of the target at Addr; false if they cannot be read.
using ReadMemory = std::function<bool(uint64_t Addr, void *Dst, size_t Len)>;

/// Decodes Func (the function's bytes, starting at FuncStart), classifies
/// its indirect jumps and finds its tables. False with Why if the function
/// does not decode linearly. A function too large to trace completely gets
/// an Unresolved jump at its start. In i386 code (Mode Bits32),
/// position-independent code finds its GOT with a call to a PC thunk
/// (`call __x86.get_pc_thunk.bx; add $GOT-.,%ebx`), whose bytes outside
/// Func are read with Read; without it, such tables are Unresolved.
bool scanFunctionCode(std::span<const uint8_t> Func, uint64_t FuncStart,
                      FunctionCode &Out, std::string &Why,
                      X86Mode Mode = X86Mode::Bits64,
                      const ReadMemory *Read = nullptr);

/// Appends the targets of jump table J (Kind Table) to Targets. Entries are
/// read from the first while they point into Code (the module's code, as
/// [start, end) ranges): a table ends where its entries stop being code
/// addresses, or after MaxTableEntries. Reading past the real end only adds
/// addresses, never hides one.
void readJumpTable(const IndirectJump &J,
                   std::span<const std::pair<uint64_t, uint64_t>> Code,
                   const ReadMemory &Read, std::vector<uint64_t> &Targets);

constexpr size_t MaxTableEntries = 1 << 16;

} // namespace tscc::rt::ip

#endif // TSCC_RUNTIME_INPROCESS_INDIRECTJUMPS_H
