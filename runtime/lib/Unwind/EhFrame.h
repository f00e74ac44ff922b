//===- EhFrame.h - CFA rules from a module's .eh_frame (private) ----------===//
#ifndef TSCC_RUNTIME_UNWIND_EHFRAME_H
#define TSCC_RUNTIME_UNWIND_EHFRAME_H

#include "tscc/Runtime/ElfFile.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tscc::rt::unwind {

/// The DWARF numbers of the registers an unwind tracks: the stack and
/// frame pointers and the return address, which differ between x86-64
/// and i386 (whose .eh_frame numbers esp 4, ebp 5, eip 8).
struct DwarfRegs {
  unsigned Sp, Fp, Ra;
  unsigned PtrSize;
};
inline constexpr DwarfRegs X86_64Regs{7, 6, 16, 8};
inline constexpr DwarfRegs I386Regs{4, 5, 8, 4};

/// Where a register of the caller was saved.
struct Rule {
  /// Offset: saved at CFA + Off. AtReg: saved at register Reg + Off (a
  /// DW_CFA_expression of one DW_OP_breg). Unknown: a rule this
  /// unwinder does not follow (another register, a value expression).
  enum Kind : uint8_t { Same, Undefined, Offset, AtReg, Unknown } K = Same;
  int64_t Off = 0;
  unsigned Reg = 0;
};

/// The rules of one frame, at one PC.
struct CfaRules {
  unsigned CfaReg = 0; ///< the DWARF number of sp or fp
  int64_t CfaOff = 0;
  /// CFA = [CfaReg + CfaOff]: a DW_CFA_def_cfa_expression of DW_OP_breg
  /// and DW_OP_deref, which GCC emits for functions that realign their
  /// stack (i386 main: the caller's esp is kept below the frame pointer).
  bool CfaDeref = false;
  Rule Fp, Ra;
};

enum class RulesLookup {
  Found,       ///< Out holds the rules
  NoFde,       ///< the module has no rules for this PC
  Outermost,   ///< the return address is undefined: the first frame (_start)
  Unsupported, ///< rules this unwinder cannot follow (an unknown CFA op,
               ///< a CFA in a register other than sp/fp)
};

/// The CFA rules at link-time address PC of Elf, read from its .eh_frame
/// (parsed once per file, whoever asks, from any thread).
RulesLookup cfaRulesAt(const std::shared_ptr<const ElfFile> &Elf, uint64_t PC,
                       CfaRules &Out);

/// The rules cfaRulesAt gives for every PC of [Start, End) (link-time).
struct RulesRow {
  uint64_t Start = 0, End = 0;
  RulesLookup Kind = RulesLookup::NoFde; ///< never NoFde
  CfaRules Rules;                        ///< when Kind is Found
};

/// Every range of Elf's .eh_frame with one set of rules, in address order;
/// PCs between FDEs have none (cfaRulesAt: NoFde).
std::vector<RulesRow> allRules(const std::shared_ptr<const ElfFile> &Elf);

/// The link-time range [Start, End) of the FDE in Elf's .eh_frame that
/// covers PC, or false. Every function compiled C has gets one, even in a
/// stripped module, so it bounds the code around PC where no symbol does:
/// the whole function, or one part of it (GCC's `.cold` part has an FDE of
/// its own). Hand-written code may have one FDE over several functions or
/// none at all.
bool fdeRangeAt(const std::shared_ptr<const ElfFile> &Elf, uint64_t PC,
                uint64_t &Start, uint64_t &End);

/// The register numbering of Elf's class.
inline const DwarfRegs &dwarfRegs(const ElfFile &Elf) {
  return Elf.is64() ? X86_64Regs : I386Regs;
}

} // namespace tscc::rt::unwind

#endif // TSCC_RUNTIME_UNWIND_EHFRAME_H
