//===- tscc/Sema/ScriptInfo.h - What codegen needs besides the AST -*- C++ -*-===//
//
// Sema's summary of a script: every table of the object (abi.h) has a vector
// here with one entry per table row, in table order, so codegen can write the
// tables one to one. Everything that depends on the data model is stored per
// model (PerModel<T>, indexed by TSCC_DM_ILP32 / TSCC_DM_LP64).
//
// The annotated AST carries the per-expression types; ScriptInfo carries the
// storage layout and the numbering (variable, map, aggregation, format,
// within and probe indices), plus lookups from AST nodes to those numbers.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_SEMA_SCRIPTINFO_H
#define TSCC_SEMA_SCRIPTINFO_H

#include "tscc/DataModel.h"
#include "tscc/Sema/SemaBuiltins.h"
#include "tscc/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tscc {

class AggregationExpr;
class CallExpr;
class Clause;
class Expr;
class FunctionType;
class MemberExpr;
class Type;
class VarDecl;

/// Values indexed by data model: [TSCC_DM_ILP32] and [TSCC_DM_LP64].
template <typename T> using PerModel = std::array<T, NumDataModels>;

/// Storage class of a script variable (LANGUAGE.md section 2).
enum class VarStorage : uint8_t {
  Global, ///< one instance per session, LP64-layout global block
  Thread, ///< one instance per traced thread, per-model thread block
  Auto,   ///< one firing of one clause; codegen keeps it in the frame
};

llvm::StringRef varStorageName(VarStorage S);

/// A 1-based line and column in the script, as abi.h tables record them.
struct SourcePos {
  uint32_t Line = 0;
  uint32_t Column = 0;
};

/// One field of a key or of a record's argument area: exactly a tscc_field.
struct FieldInfo {
  tscc_field_kind Kind = TSCC_FIELD_S64;
  uint32_t Size = 8; ///< 8 for scalars; the String's capacity for strings
};

/// A folded constant initialiser of a global.
struct ConstantInit {
  bool IsString = false;
  int64_t Int = 0; ///< value converted to the variable's type (LP64)
  std::string Str; ///< IsString: the bytes, without the terminating NUL
};

/// A script variable (not a built-in). Associative arrays are variables too
/// (their MapId is set) but own no storage in the blocks: the runtime keeps
/// the map.
struct VariableInfo {
  unsigned Id = 0; ///< index in ScriptInfo::Variables
  std::string Name;
  VarStorage Storage = VarStorage::Global;
  /// The type each stream gives the variable. For globals the ILP32 entry
  /// already has the 64-bit storage width applied: a `__global long` is
  /// `long long` in the ILP32 stream, and a `__global T *` is an ILP32
  /// pointer stored in an 8-byte slot (load 8 bytes, truncate).
  PerModel<const Type *> Types{};
  /// Bytes / alignment of the storage slot in each model. Globals: both
  /// entries hold the one LP64-layout slot (scalars and pointers are 8).
  PerModel<uint32_t> Sizes{};
  PerModel<uint32_t> Aligns{};
  /// Globals: offset in the global block (same value in both entries).
  /// Thread-locals: offset in each model's thread block (after the bitmap).
  /// Autos and maps: unused (0).
  PerModel<uint32_t> Offsets{};
  /// Thread-locals: index of the variable's "written" bit in the bitmap at
  /// the start of the thread block (bit I is byte I/8, bit I%8). Codegen sets
  /// it on every store; a load of a variable whose bit is clear makes the
  /// enclosing predicate false, or yields 0 in an action.
  uint32_t WrittenBit = UINT32_MAX;
  /// Associative arrays: index in ScriptInfo::Maps; -1 otherwise.
  int32_t MapId = -1;
  /// Autos: index of the clause whose action declares it; UINT32_MAX else.
  uint32_t Clause = UINT32_MAX;
  /// Globals only: the constant to store before BEGIN runs.
  std::optional<ConstantInit> Init;
  SourcePos Loc;
};

/// An associative array: one tscc_map row.
/// Keys of one associative array at most (`bytes[__pname, __tid]`).
inline constexpr unsigned MaxMapKeys = 8;

struct MapInfo {
  unsigned Id = 0;       ///< index in ScriptInfo::Maps
  unsigned Variable = 0; ///< index in ScriptInfo::Variables
  std::string Name;
  uint32_t Flags = 0; ///< TSCC_MAP_*
  /// The keys as serialised, one after the other (scalars widened to 8
  /// bytes, strings NUL-padded to their capacity); KeySize is their sum.
  std::vector<FieldInfo> Keys;
  uint32_t KeySize = 8;
  std::vector<PerModel<const Type *>> KeyTypes;
  /// Value slot: scalars are always 8 bytes (widened), strings their
  /// capacity.
  PerModel<const Type *> ValueTypes{};
  uint32_t ValueSize = 8;
  tscc_field_kind ValueKind = TSCC_FIELD_S64;
};

/// An aggregation `@name`: one tscc_agg row. Kind and key fields are the
/// same at every use (sema checks that).
struct AggregationInfo {
  unsigned Id = 0;  ///< index in ScriptInfo::Aggregations
  std::string Name; ///< without the leading '@'
  tscc_agg_kind Kind = TSCC_AGG_COUNT;
  std::vector<FieldInfo> KeyFields; ///< in key order; empty: no key
  uint32_t KeySize = 0;             ///< sum of KeyFields sizes
  int64_t LhistLo = 0, LhistHi = 0, LhistStep = 0;
  SourcePos Loc; ///< first use
};

enum class FormatKind : uint8_t { Printf, Trace };

/// One printf or trace call site: one tscc_format row plus its fields.
/// Field kinds are the same in both models: every scalar is sent as 8 bytes,
/// sign- or zero-extended according to the argument's own type.
struct FormatInfo {
  unsigned Id = 0; ///< index in ScriptInfo::Formats
  FormatKind Kind = FormatKind::Printf;
  std::string Text; ///< printf: the format with escapes decoded; trace: ""
  unsigned Clause = 0;
  std::vector<FieldInfo> Fields; ///< one per value argument, in order
  SourcePos Loc;
};

/// One parsed probe specification: one tscc_probe row.
struct ProbeInfo {
  tscc_probe_kind Kind = TSCC_PROBE_BEGIN;
  unsigned Clause = 0;
  std::string Spec; ///< as written, including the leading "@@"
  tscc_pid_kind PidKind = TSCC_PID_ANY;
  uint64_t PidValue = 0;
  std::string Module = "*";
  tscc_match_kind ModuleMatch = TSCC_MATCH_ANY;
  std::string Function = "*"; ///< function / syscall name, glob or regex
  tscc_match_kind FunctionMatch = TSCC_MATCH_ANY;
  uint64_t Offset = 0; ///< UFT_OFFSET: bytes; INTERVAL: period in ms
  /// USDT: the PROVIDER field (Module is MODULE, Function is NAME).
  std::string Provider = "*";
  tscc_match_kind ProviderMatch = TSCC_MATCH_ANY;
  /// Syscall probes: the call's number per model, -1 where the call does not
  /// exist (the runtime maps the name itself; these are informative).
  PerModel<int32_t> SyscallNumbers{-1, -1};
  SourcePos Loc;
};

/// One clause: one tscc_clause row (code offsets are codegen's).
///
/// In a clause without a process (BEGIN/END/interval) sema checks only the
/// LP64 model: expression types are set for DataModel::LP64 only and the
/// ILP32 slots stay null; codegen mirrors the LP64 code into the ILP32
/// entry.
struct ClauseInfo {
  unsigned Id = 0;
  uint32_t Flags = 0; ///< TSCC_CLAUSE_*
  unsigned ProbeFirst = 0;
  unsigned ProbeCount = 0;
  SourcePos Loc;
  const Clause *Node = nullptr;
  /// The prototype that types `__argN`/`__rv` in uft probes, per model
  /// (null: none, arguments are `long`). Codegen uses it to find ILP32
  /// stack arguments (4-byte-rounded sizes of the earlier parameters).
  PerModel<const FunctionType *> Prototype{};
  /// The probes are system calls (arguments in syscall registers).
  bool IsSyscall = false;
  /// The probes are USDT probes (arguments evaluated by the runtime from
  /// the note, in tscc_ctx::usdt_args).
  bool IsUsdt = false;
  /// Highest `__argN` the clause reads (0: none).
  unsigned MaxArg = 0;
  /// True when the clause runs without a process (BEGIN/END/interval): only
  /// the LP64 stream is meaningful.
  bool noProcess() const { return Flags & TSCC_CLAUSE_NO_PROCESS; }
};

/// How a member access reaches its member in one model: the accumulated
/// offset from the start of the outermost record (through anonymous members
/// and macro member paths such as glibc's `sa_handler`).
struct MemberAccess {
  uint64_t BitOffset = 0;
  std::optional<unsigned> BitWidth; ///< set for bit-fields
  const Type *Ty = nullptr;         ///< the member's declared type
  /// gcc's alignment of the member (its DECL_ALIGN), for `__alignof__`.
  uint64_t Align = 1;
  uint64_t getByteOffset() const { return BitOffset / 8; }
};

/// One scalar store that initialises part of a compound literal: the value
/// of \p Value (converted by sema to \p Ty) at \p BitOffset from the start
/// of the object, \p BitWidth bits wide for a bit-field.
struct CompoundInitStore {
  uint64_t BitOffset = 0;
  std::optional<unsigned> BitWidth;
  const Type *Ty = nullptr;
  const Expr *Value = nullptr;
};

/// A compound literal in one model: its complete type (`int[]` gets its
/// length from the initializer) and, in order, the stores that initialise
/// the zeroed object.
struct CompoundLiteralInfo {
  const Type *Ty = nullptr;
  std::vector<CompoundInitStore> Stores;
};

/// Everything codegen needs besides the annotated AST.
class ScriptInfo {
public:
  std::vector<VariableInfo> Variables;
  std::vector<MapInfo> Maps;
  std::vector<AggregationInfo> Aggregations;
  std::vector<FormatInfo> Formats;
  std::vector<ProbeInfo> Probes;
  std::vector<ClauseInfo> Clauses;
  /// within("f") names in tscc_within order.
  std::vector<std::string> WithinNames;

  // Header values.
  uint32_t GlobalSize = 0;
  uint32_t GlobalAlign = 8;
  PerModel<uint32_t> ThreadSize{};
  uint32_t ThreadAlign = 8;
  /// Bytes of the "written" bitmap at the start of every thread block
  /// (rounded up to 8 so the first variable stays aligned).
  uint32_t ThreadBitmapSize = 0;
  uint32_t ParamCount = 0;  ///< highest $N used
  uint32_t HeaderFlags = 0; ///< TSCC_HDR_*

  // Lookups from AST nodes. Keys are node addresses, used only for lookup
  // and never iterated, so output order never depends on them.

  /// The variable a VarDecl declares (DeclRefExpr::getDecl() gives it).
  const VariableInfo *variableFor(const VarDecl *D) const {
    return find(VariableOfDecl, D, Variables);
  }
  /// The format of a printf()/trace() call.
  const FormatInfo *formatFor(const CallExpr *Call) const {
    return find(FormatOfCall, Call, Formats);
  }
  /// The aggregation an `@name` expression names.
  const AggregationInfo *aggregationFor(const AggregationExpr *E) const {
    return find(AggregationOfExpr, E, Aggregations);
  }
  /// The tscc_within index of a within() call.
  std::optional<unsigned> withinIndexFor(const CallExpr *Call) const {
    auto It = WithinOfCall.find(Call);
    if (It == WithinOfCall.end())
      return std::nullopt;
    return It->second;
  }
  /// The value of an integer constant sema folded and codegen cannot derive
  /// from the node's children: sizeof, _Alignof, offsetof, enumerators,
  /// object-like macros, diff_time() units, __datamodel. Pointer-typed
  /// constants (e.g. SIG_IGN) are the address value.
  std::optional<int64_t> constantFor(const Expr *E, DataModel M) const {
    auto It = Constants.find(E);
    if (It == Constants.end() || !It->second.second[modelIndex(M)])
      return std::nullopt;
    return It->second.first[modelIndex(M)];
  }
  /// Offset and bit-field data of a member access in model \p M.
  const MemberAccess *memberFor(const MemberExpr *E, DataModel M) const {
    auto It = Members.find(E);
    if (It == Members.end() || !It->second[modelIndex(M)].Ty)
      return nullptr;
    return &It->second[modelIndex(M)];
  }

  const CompoundLiteralInfo *compoundLiteralFor(const Expr *E,
                                                DataModel M) const {
    auto It = CompoundLiterals.find(E);
    if (It == CompoundLiterals.end() || !It->second[modelIndex(M)].Ty)
      return nullptr;
    return &It->second[modelIndex(M)];
  }

  // The maps behind the lookups: variables, constants and members are the
  // checker's; formats, aggregations and within() calls the collector's
  // (ScriptInfoCollector.h).
  llvm::DenseMap<const void *, unsigned> VariableOfDecl;
  llvm::DenseMap<const void *, unsigned> FormatOfCall;
  llvm::DenseMap<const void *, unsigned> AggregationOfExpr;
  llvm::DenseMap<const void *, unsigned> WithinOfCall;
  llvm::DenseMap<const void *, std::pair<PerModel<int64_t>, PerModel<bool>>>
      Constants;
  llvm::DenseMap<const void *, PerModel<MemberAccess>> Members;
  llvm::DenseMap<const void *, PerModel<CompoundLiteralInfo>> CompoundLiterals;

  const AggregationInfo *findAggregation(llvm::StringRef Name) const {
    for (const AggregationInfo &A : Aggregations)
      if (A.Name == Name)
        return &A;
    return nullptr;
  }

private:
  template <typename T>
  static const T *find(const llvm::DenseMap<const void *, unsigned> &M,
                       const void *Key, const std::vector<T> &V) {
    auto It = M.find(Key);
    return It == M.end() ? nullptr : &V[It->second];
  }
};

inline llvm::StringRef varStorageName(VarStorage S) {
  switch (S) {
  case VarStorage::Global:
    return "__global";
  case VarStorage::Thread:
    return "__thread";
  case VarStorage::Auto:
    return "__auto";
  }
  return "";
}

} // namespace tscc

#endif // TSCC_SEMA_SCRIPTINFO_H
