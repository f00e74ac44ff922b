//===- tscc/CodeGen/ObjectTables.h - The abi.h tables of one object -*- C++ -*-===//
//
// An in-memory image of every table a probe object carries (abi.h). Codegen
// fills it from ScriptInfo one to one; ObjectEmitter places it into the
// module's tscc_* sections and, after LLVM has emitted the object, patches
// the clause table with the code offsets and sizes LLVM chose.
//
// The tables are kept as the abi.h structs themselves: abi.h defines them as
// naturally aligned, fixed-width, little-endian records and the compiler only
// runs on x86-64 hosts, so the host representation *is* the wire format.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_CODEGEN_OBJECTTABLES_H
#define TSCC_CODEGEN_OBJECTTABLES_H

#include "tscc/abi.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tscc {

/// The contents of tscc_strtab: NUL-terminated strings, offset 0 is the
/// empty string, identical strings are stored once. Offsets are stable as
/// soon as add() returns, so tables can record them immediately.
class ObjectStringTable {
public:
  ObjectStringTable() { Data.push_back('\0'); }

  /// Returns the offset of \p S, appending it on first use. Strings with an
  /// embedded NUL are stored up to that NUL (the table cannot represent more).
  uint32_t add(llvm::StringRef S);

  llvm::StringRef data() const { return {Data.data(), Data.size()}; }
  uint32_t size() const { return static_cast<uint32_t>(Data.size()); }

private:
  std::vector<char> Data;
  llvm::StringMap<uint32_t> Offsets;
};

struct ObjectTables {
  ObjectTables();

  /// Counts and strtab_size are filled by finishHeader(); everything else in
  /// Header (sizes of the variable blocks, param_count, flags) by the caller.
  tscc_header Header;
  std::vector<tscc_clause> Clauses;
  std::vector<tscc_probe> Probes;
  std::vector<tscc_format> Formats;
  std::vector<tscc_field> Fields;
  std::vector<tscc_map> Maps;
  std::vector<tscc_agg> Aggs;
  std::vector<uint32_t> Within;
  ObjectStringTable Strings;

  /// Sets magic, ABI version, header_size, the source name/hash, the
  /// compiler version string and every count from the vectors.
  void finishHeader(llvm::StringRef SourceName, llvm::StringRef SourceText);

  /// A clause whose stream entries say "no code yet"; the object emitter
  /// fills them in after emission.
  static tscc_clause makeClause(uint32_t Id);
};

/// Names of the clause functions, e.g. "tscc_clause3_pred_lp64".
std::string clauseFunctionName(uint32_t Clause, bool Predicate,
                               tscc_data_model Model);

/// "ilp32" / "lp64".
llvm::StringRef dataModelSuffix(tscc_data_model Model);

/// The text section of a model's clause code.
llvm::StringRef textSectionName(tscc_data_model Model);

} // namespace tscc

#endif // TSCC_CODEGEN_OBJECTTABLES_H
