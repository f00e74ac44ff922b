//===- tscc/Sema/SemaPrintf.h - printf format checking ----------*- C++ -*-===//
//
// Checks a printf format against its arguments like clang's -Wformat, but in
// both data models at once: a length modifier means a different width in
// ILP32 and LP64 (`%ld` is 32 bits in one, 64 in the other), so a mismatch
// that only bites in one model is reported naming that model.
//
// The checker works on a small description of each argument per model
// (FormatArgType) rather than on sema Types, so it is unit-tested alone.
//
// Formatting itself happens on the consumer side (ARCHITECTURE.md): clause
// code sends every scalar as 8 bytes, sign- or zero-extended from the
// argument's own type; the consumer applies the conversion, with the length
// modifier's width in the firing model, exactly as C's printf would.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_SEMA_SEMAPRINTF_H
#define TSCC_SEMA_SEMAPRINTF_H

#include "tscc/Sema/ScriptInfo.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tscc {

/// What one argument is in one data model, as far as formatting cares.
struct FormatArgType {
  enum Class : uint8_t {
    Error,   ///< the argument already had an error; check nothing
    Integer, ///< integer, enum or bool (Bits, Signed)
    Pointer, ///< a target pointer (Bits is the model's pointer width)
    String,  ///< a script String (Bits unused; Capacity in bytes)
    Other,   ///< record, array, void, function: cannot be formatted
  };
  Class C = Error;
  unsigned Bits = 0;
  bool Signed = true;
  bool IsCharPointer = false; ///< `char *` & co: suggest get_userstring()
  uint32_t Capacity = 0;      ///< String capacity
  std::string Name;           ///< type spelling for messages
  /// The value, when the argument is a constant: a constant that fits the
  /// conversion prints correctly whatever its type (`%d` of sizeof(x)).
  std::optional<int64_t> Const;

  static FormatArgType integer(unsigned Bits, bool Signed, std::string Name) {
    FormatArgType T;
    T.C = Integer;
    T.Bits = Bits;
    T.Signed = Signed;
    T.Name = std::move(Name);
    return T;
  }
  static FormatArgType pointer(unsigned Bits, std::string Name,
                               bool CharPtr = false) {
    FormatArgType T;
    T.C = Pointer;
    T.Bits = Bits;
    T.Signed = false;
    T.IsCharPointer = CharPtr;
    T.Name = std::move(Name);
    return T;
  }
  static FormatArgType string(uint32_t Capacity) {
    FormatArgType T;
    T.C = String;
    T.Capacity = Capacity;
    T.Name = "String";
    return T;
  }
  static FormatArgType other(std::string Name) {
    FormatArgType T;
    T.C = Other;
    T.Name = std::move(Name);
    return T;
  }
};

/// One argument described in both models.
struct FormatArg {
  PerModel<FormatArgType> Types;
};

enum class FormatIssueKind : uint8_t {
  Incomplete,        ///< '%' at the end of the format
  InvalidConversion, ///< Arg0: the conversion character
  FloatConversion,   ///< Arg0: the specifier, e.g. "%f"
  NConversion,       ///< %n
  LengthNoEffect,    ///< warning. Arg0: length modifier; Arg1: conversion
  TooFewArgs,        ///< Arg0: the specifier without an argument
  TooManyArgs,       ///< warning; ArgIndex: first unused argument
  TypeMismatch,      ///< warning. Arg0: expected type; Arg1: actual type
  NeedString,        ///< Arg0: actual type; CharPointer: suggest get_userstring
  StringForInteger,  ///< Arg0: expected type
  NotFormattable,    ///< Arg0: actual type
  StarNotInt,        ///< warning. Arg0: "width"/"precision"; Arg1: actual
  PointerNotPointer, ///< warning. %p with a non-pointer. Arg0: actual type
};

/// The models in which a per-model issue occurs.
enum FormatModelMask : uint8_t {
  FMM_ILP32 = 1 << TSCC_DM_ILP32,
  FMM_LP64 = 1 << TSCC_DM_LP64,
  FMM_Both = FMM_ILP32 | FMM_LP64,
};

struct FormatIssue {
  FormatIssueKind Kind;
  bool IsWarning = false;
  unsigned Offset = 0; ///< byte offset in the (decoded) format text
  unsigned Length = 0;
  int ArgIndex = -1; ///< 0-based among the value arguments; -1: none
  uint8_t Models = FMM_Both;
  bool CharPointer = false;
  std::string Arg0, Arg1;
};

struct FormatCheckResult {
  /// One field per argument the format consumes (including `*` width and
  /// precision arguments), in order.
  std::vector<FieldInfo> Fields;
  std::vector<FormatIssue> Issues;
  bool hasErrors() const {
    for (const FormatIssue &I : Issues)
      if (!I.IsWarning)
        return true;
    return false;
  }
};

/// Checks \p Format against \p Args. \p Models selects which models the call
/// can run in (FMM_LP64 only in BEGIN/END/interval clauses).
FormatCheckResult checkFormat(llvm::StringRef Format,
                              llvm::ArrayRef<FormatArg> Args,
                              uint8_t Models = FMM_Both);

/// The record field a value of this type is sent as (trace() arguments,
/// aggregation and map keys). Errors and unformattable types give S64.
FieldInfo fieldForValue(const FormatArgType &T);

} // namespace tscc

#endif // TSCC_SEMA_SEMAPRINTF_H
