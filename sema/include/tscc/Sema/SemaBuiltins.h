//===- tscc/Sema/SemaBuiltins.h - Built-in values and functions -*- C++ -*-===//
//
// The names the language predefines (LANGUAGE.md sections 5 and 6). Sema
// stores the BuiltinFunction of every call in CallExpr::setBuiltinID(), so
// codegen switches on it instead of comparing names; built-in values are
// classified from their spelling with classifyBuiltinVar().
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_SEMA_SEMABUILTINS_H
#define TSCC_SEMA_SEMABUILTINS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tscc {

/// Built-in functions. 0 is "unresolved" (CallExpr's initial BuiltinID).
enum class BuiltinFunction : unsigned {
  None = 0,
  Printf,
  Trace,
  Exit,
  Timestamp,
  DiffTime,
  GetUserString,
  CopyUserData,
  StkTrace,
  Within,
  Print,
  Clear,
  Delete,
  Exists,      ///< exists(arr[k...]): int, 1 if the entry is there
  // String functions (bpftrace's and ProbeVue's names).
  StrLen,      ///< strlen(s): long long
  StrContains, ///< strcontains(s, t): int, 1 if t occurs in s
  StrStr,      ///< strstr(s, t): String, s from t's first occurrence, or ""
  Substr,      ///< substr(s, start [, len]): String; start < 0 counts back
  // Aggregation functions: only as the right side of `@a[...] = f(...)`.
  Count,
  Sum,
  Min,
  Max,
  Avg,
  Stats,
  Hist,
  Lhist,
};

std::optional<BuiltinFunction> lookupBuiltinFunction(llvm::StringRef Name);
llvm::StringRef builtinFunctionName(BuiltinFunction F);
inline bool isAggregationFunction(BuiltinFunction F) {
  return F >= BuiltinFunction::Count;
}

class Expr;
/// A checked call to stktrace(): as an aggregation key it stands for the
/// firing thread's stack (TSCC_FIELD_STACK_ID) instead of printing it.
bool isStackTraceCall(const Expr *E);

/// Built-in values.
enum class BuiltinVar : uint8_t {
  Pid,
  Tid,
  Ppid,
  Uid,
  Pname,
  Func,
  Module,
  Probe,
  Ip,
  DataModel,
  Arg, ///< __arg1 .. __arg8 (the index comes from BuiltinVarExpr)
  Rv,
  Errno,
};

/// Classifies a `__name` spelling; \p ArgIndex receives N for `__argN`.
std::optional<BuiltinVar> classifyBuiltinVar(llvm::StringRef Name,
                                             unsigned *ArgIndex = nullptr);

/// The highest N of `__argN`.
inline constexpr unsigned MaxProbeArgs = 12; ///< USDT: sys/sdt.h's limit
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
