//===- CompactTable.h - .eh_frame compiled for a walker (private) ---------===//
//
// A module's .eh_frame rules as sorted address ranges of one rule each
// (tscc/unwind_table.h), for a walker that runs no DWARF: the in-process
// agent's (runtime/lib/InProcess/Agent/unwind.c). Looking a PC up in the
// table gives what cfaRulesAt (EhFrame.h) gives, in the form the walker
// follows; rules the table cannot express (a CFA in another register, a
// return address that is not at CFA + offset) are TSCC_UNW_NONE, where both
// unwinders fall back to the frame-pointer chain.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_UNWIND_COMPACTTABLE_H
#define TSCC_RUNTIME_UNWIND_COMPACTTABLE_H

#include "tscc/Runtime/ElfFile.h"
#include "tscc/unwind_table.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tscc::rt::unwind {

/// Elf's table: a struct tscc_unwind_table, then its rows, ready to be
/// copied into a process (8-byte aligned). Empty, with Why, when the module
/// is too large for 32-bit row offsets or has no code.
std::vector<uint8_t>
compileUnwindTable(const std::shared_ptr<const ElfFile> &Elf, std::string &Why);

} // namespace tscc::rt::unwind

#endif // TSCC_RUNTIME_UNWIND_COMPACTTABLE_H
