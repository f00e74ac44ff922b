//===- tscc/Sema/SemaBuiltins.h - Built-in values and functions -*- C++ -*-===//
//
// The names the language predefines (LANGUAGE.md sections 5 and 6), as
// listed once in tscc/Builtins.def. Sema stores the BuiltinFunction of every
// call in CallExpr::setBuiltinID(), so codegen switches on it instead of
// comparing names; built-in values are classified from their spelling with
// classifyBuiltinVar().
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_SEMA_SEMABUILTINS_H
#define TSCC_SEMA_SEMABUILTINS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tscc {

/// Built-in functions, in tscc/Builtins.def order. 0 is "unresolved"
/// (CallExpr's initial BuiltinID).
enum class BuiltinFunction : unsigned {
  None = 0,
#define BUILTIN_FUNCTION(Id, ...) Id,
#define AGGREGATION_FUNCTION(Id, ...) Id,
#include "tscc/Builtins.def"
};

/// Built-in values, in tscc/Builtins.def order.
enum class BuiltinVar : uint8_t {
#define BUILTIN_VARIABLE(Id, ...) Id,
#include "tscc/Builtins.def"
};

/// Whether a call may appear in a predicate.
enum class BuiltinEffect : uint8_t { Pure, SideEffect };
/// Whether a built-in is meaningful in BEGIN/END/interval clauses.
enum class BuiltinProcess : uint8_t { AnyClause, NeedsProcess };
/// The type class of a built-in's value; String capacities and ProbeTyped
/// types are decided by the built-in's own check.
enum class BuiltinResult : uint8_t {
  Void,
  Int,
  UInt,
  LongLong,
  ULongLong,
  String,
  VoidPointer,
  ProbeTyped,
};
/// The probes a built-in value needs in every probe of its clause.
enum class BuiltinProbes : uint8_t {
  AnyProbe,
  EntryProbes,
  ExitProbes,
  SyscallExitProbes,
};

/// One BUILTIN_FUNCTION or AGGREGATION_FUNCTION line of Builtins.def.
struct BuiltinFunctionInfo {
  BuiltinFunction Id;
  llvm::StringRef Spelling;
  unsigned MinArgs;
  unsigned MaxArgs; ///< UINT32_MAX: no limit
  BuiltinEffect Effect;
  BuiltinProcess Process;
  BuiltinResult Result;
  /// Aggregation functions: the kind the object records; 0 otherwise.
  uint32_t AggKind;
  llvm::StringRef Example; ///< a statement using it (see Builtins.def)

  bool isAggregation() const { return AggKind != 0; }
  bool hasSideEffects() const { return Effect == BuiltinEffect::SideEffect; }
  bool needsProcess() const { return Process == BuiltinProcess::NeedsProcess; }
};

/// One BUILTIN_VARIABLE line of Builtins.def.
struct BuiltinVarInfo {
  BuiltinVar Id;
  llvm::StringRef Spelling; ///< `__arg` for `__argN`
  BuiltinProcess Process;
  BuiltinResult Result;
  BuiltinProbes Probes;
  llvm::StringRef Example;

  bool needsProcess() const { return Process == BuiltinProcess::NeedsProcess; }
};

/// Every built-in function (aggregations last), in Builtins.def order.
llvm::ArrayRef<BuiltinFunctionInfo> builtinFunctions();
/// Every built-in value, in Builtins.def order.
llvm::ArrayRef<BuiltinVarInfo> builtinVars();
/// The entry of \p F, which must not be None.
const BuiltinFunctionInfo &builtinFunctionInfo(BuiltinFunction F);
const BuiltinVarInfo &builtinVarInfo(BuiltinVar V);

std::optional<BuiltinFunction> lookupBuiltinFunction(llvm::StringRef Name);
/// The spelling of \p F; "" for None.
llvm::StringRef builtinFunctionName(BuiltinFunction F);
inline bool isAggregationFunction(BuiltinFunction F) {
  return F != BuiltinFunction::None && builtinFunctionInfo(F).isAggregation();
}

class Expr;
/// A checked call to stktrace(): as an aggregation key it stands for the
/// firing thread's stack (TSCC_FIELD_STACK_ID) instead of printing it.
bool isStackTraceCall(const Expr *E);

/// Classifies a `__name` spelling; \p ArgIndex receives N for `__argN`.
std::optional<BuiltinVar> classifyBuiltinVar(llvm::StringRef Name,
                                             unsigned *ArgIndex = nullptr);

/// The highest N of `__argN`.
inline constexpr unsigned MaxProbeArgs = 12;   ///< USDT: sys/sdt.h's limit
inline constexpr unsigned MaxFunctionArgs = 8; ///< uft and syscall probes

/// The built-in variable / function a misspelling most likely meant
/// (`__pidd` -> `__pid`, `prinf` -> `printf`), or "" when none is close.
std::string suggestBuiltinVar(llvm::StringRef Name);
std::string suggestBuiltinFunction(llvm::StringRef Name);

/// diff_time() units: the built-in constants NANOSECONDS .. SECONDS, whose
/// values are the number of nanoseconds in one unit.
std::optional<int64_t> lookupTimeUnit(llvm::StringRef Name);

} // namespace tscc

#endif // TSCC_SEMA_SEMABUILTINS_H
