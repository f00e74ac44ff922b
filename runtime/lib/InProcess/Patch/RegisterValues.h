//===- RegisterValues.h - What a function's registers hold where ----------===//
//
// The dataflow behind IndirectJumps.h: for every point of a function, what
// each general-purpose register holds, as far as jump targets go. The
// function is split into blocks at its branch targets and after every
// transfer of control; a block's registers are the join of what its
// predecessors leave (the block before it when it falls through, the
// direct jumps to it); a block only an indirect jump enters (a switch's
// case) gets what the registers hold at the function's indirect jumps,
// and one nothing is seen to enter (a landing pad) gets Unknown. Each
// instruction's effect comes from RegisterDefs.h. The values only rise, so
// iterating to a fixed point ends.
//
// At the entry every register holds what the caller left (Incoming): a
// pointer as far as a jump goes, never the address of a table of the
// function's own (tables are local to the function that reads them). What
// a call leaves in a register other than its result is garbage compiled
// code never reads: it adds nothing.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_INPROCESS_REGISTERVALUES_H
#define TSCC_RUNTIME_INPROCESS_REGISTERVALUES_H

#include "RegisterDefs.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tscc::rt::ip {

struct RegValue {
  enum Kind : uint8_t {
    Nothing,  ///< no write seen yet (the bottom of the lattice)
    Incoming, ///< as the function was entered
    Pointer,  ///< a code pointer: loaded, popped, returned by a call
    Const,    ///< the address constant Addr
    Indexed,  ///< an entry of the table at Addr (if TableKnown)
    Relative, ///< Base + a 4-byte entry of the table at Addr
    Unknown,  ///< anything else, or values that do not agree
  };
  /// Why a value is Unknown.
  enum class Reason : uint8_t { ComputedBy, AddsOffset, Differs, Unreached };

  Kind K = Nothing;
  Reason Why = Reason::ComputedBy;
  bool TableKnown = false; ///< Indexed
  uint8_t Scale = 0;       ///< Indexed: the index's factor
  uint8_t Width = 0;       ///< Indexed: bytes loaded (8: a pointer)
  uint64_t Addr = 0;       ///< Const, Indexed, Relative
  uint64_t Base = 0;       ///< Relative
  /// The instructions that gave the value (Unknown: where it went wrong;
  /// From2 for Differs).
  uint64_t From = 0, From2 = 0;

  bool operator==(const RegValue &O) const = default;
  /// Why an Unknown value is unknown, for -v.
  std::string describe() const;
};

using RegState = std::array<RegValue, 16>;

class RegisterValues {
public:
  /// Code: the function, decoded; Targets: its direct branch targets,
  /// sorted; PcThunkCalls: the i386 calls (by address) to a PC thunk, with
  /// the register each one loads with its return address. Runs the
  /// dataflow to its fixed point.
  RegisterValues(const std::vector<PlacedInsn> &Code,
                 const std::vector<uint64_t> &Targets,
                 const std::map<uint64_t, unsigned> &PcThunkCalls = {});

  /// Whether the fixed point was reached within the work allowed; if not,
  /// nothing here can be relied on.
  bool converged() const { return Converged; }

  /// Calls Visit for every instruction with the registers right before it,
  /// in address order.
  void forEach(const std::function<void(size_t Index, const RegState &Before)>
                   &Visit) const;

  /// The registers Code[K] writes, and how (registerWrite() != None).
  struct Write {
    unsigned R;
    RegDef D;
  };
  const std::vector<Write> &writes(size_t K) const { return Writes[K]; }
  /// What Code[At]'s write W leaves when the registers before it are In.
  RegValue value(const RegState &In, size_t At, const Write &W) const;
  /// What the load through M (at Code[At], with an index) reads.
  RegValue indexedLoad(const RegState &In, const MemOperand &M,
                       size_t At) const;

private:
  void findBlocks(const std::vector<uint64_t> &Targets);
  void apply(RegState &S, size_t At) const;
  bool run();
  RegState entryState(size_t Bl) const;
  bool update(size_t Bl);

  size_t blockEnd(size_t Bl) const;

  const std::vector<PlacedInsn> &Code;
  std::vector<std::vector<Write>> Writes;
  std::vector<size_t> Starts; ///< first instruction of each block
  /// Blocks each block comes from. One more block without instructions,
  /// the last, stands for all indirect jumps: it comes from every block
  /// that ends in one, and the blocks only they enter come from it.
  std::vector<std::vector<size_t>> Preds;
  std::vector<bool> EnteredUnseen; ///< by nothing seen: Unknown
  std::vector<RegState> In, Out;
  bool Converged = false;
};

} // namespace tscc::rt::ip

#endif // TSCC_RUNTIME_INPROCESS_REGISTERVALUES_H
