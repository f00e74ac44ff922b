//===- tscc/AbiNames.h - Printable names of abi.h's enumerations -*- C++ -*-===//
//
// How tscc --dump-sema, tsreport --describe, tsrun's outputs (text, JSON,
// metrics) and diagnostics spell the values of abi.h's enumerations, in one
// place. LLVM-free and header-only, like everything next to abi.h. Each
// function returns "?" for a value abi.h does not define (an object of a
// newer ABI, or a damaged one).
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_ABINAMES_H
#define TSCC_ABINAMES_H

#include "tscc/abi.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace tscc {

/// The aggregation function's name in a script: "count", "sum", ...,
/// "lhist".
constexpr const char *aggKindName(uint32_t Kind) {
  // The spellings are the aggregation functions' in tscc/Builtins.def.
  switch (Kind) {
#define AGGREGATION_FUNCTION(Id, Spelling, NumArgs, AggKind, Example)          \
  case AggKind:                                                                \
    return Spelling;
#include "tscc/Builtins.def"
  }
  return "?";
}

/// The aggregation kind aggKindName() spells \p Name, if any.
constexpr std::optional<tscc_agg_kind> aggKindFromName(std::string_view Name) {
  for (uint32_t K = TSCC_AGG_COUNT; K <= TSCC_AGG_LHIST; ++K)
    if (Name == aggKindName(K))
      return static_cast<tscc_agg_kind>(K);
  return std::nullopt;
}

/// "s64", "u64", "ptr", "char", "double", "string", "stack" or "stack-id".
constexpr const char *fieldKindName(uint32_t Kind) {
  switch (Kind) {
  case TSCC_FIELD_S64:
    return "s64";
  case TSCC_FIELD_U64:
    return "u64";
  case TSCC_FIELD_PTR:
    return "ptr";
  case TSCC_FIELD_CHAR:
    return "char";
  case TSCC_FIELD_DOUBLE:
    return "double";
  case TSCC_FIELD_STRING:
    return "string";
  case TSCC_FIELD_STACK:
    return "stack";
  case TSCC_FIELD_STACK_ID:
    return "stack-id";
  }
  return "?";
}

/// "BEGIN", "END" (as a spec names them), "uft-entry", "syscall-exit", ...
constexpr const char *probeKindName(uint32_t Kind) {
  switch (Kind) {
  case TSCC_PROBE_BEGIN:
    return "BEGIN";
  case TSCC_PROBE_END:
    return "END";
  case TSCC_PROBE_UFT_ENTRY:
    return "uft-entry";
  case TSCC_PROBE_UFT_EXIT:
    return "uft-exit";
  case TSCC_PROBE_UFT_OFFSET:
    return "uft-offset";
  case TSCC_PROBE_SYSCALL_ENTRY:
    return "syscall-entry";
  case TSCC_PROBE_SYSCALL_EXIT:
    return "syscall-exit";
  case TSCC_PROBE_INTERVAL:
    return "interval";
  case TSCC_PROBE_USDT:
    return "usdt";
  }
  return "?";
}

/// "any", "exact", "glob" or "regex".
constexpr const char *matchKindName(uint32_t Kind) {
  switch (Kind) {
  case TSCC_MATCH_ANY:
    return "any";
  case TSCC_MATCH_EXACT:
    return "exact";
  case TSCC_MATCH_GLOB:
    return "glob";
  case TSCC_MATCH_REGEX:
    return "regex";
  }
  return "?";
}

// The runtime's namespace sees the same definitions.
namespace rt {
using ::tscc::aggKindFromName;
using ::tscc::aggKindName;
using ::tscc::fieldKindName;
using ::tscc::matchKindName;
using ::tscc::probeKindName;
} // namespace rt

} // namespace tscc

#endif // TSCC_ABINAMES_H
