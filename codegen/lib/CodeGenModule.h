//===- CodeGenModule.h - Per-script IR generation state ---------*- C++ -*-===//
//
// One CodeGenModule turns one annotated script into one llvm::Module holding
// both code streams. It owns what is shared between clause functions: the
// helper-table function types, string literals, the small per-model support
// functions (bounded string copy/compare) and the diagnostics sink.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_CODEGEN_LIB_CODEGENMODULE_H
#define TSCC_CODEGEN_LIB_CODEGENMODULE_H

#include "tscc/AST/AST.h"
#include "tscc/CodeGen/ObjectTables.h"
#include "tscc/Sema/ScriptInfo.h"
#include "tscc/abi.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Module.h"

#include <string>

namespace tscc {

class DiagnosticsEngine;

/// The helper-table entries of abi.h, for typed indirect calls.
enum class Helper : uint8_t {
  ReadMem,
  ReadStr,
  Emit,
  ClockNs,
  MapLookup,
  MapDelete,
  AggUpdate,
  AggPrint,
  AggClear,
  RequestExit,
  Within,
  StackTrace,
  Fault,   ///< since ABI 1.2: callers check helpers->size first
  StackId, ///< since ABI 1.4: callers check helpers->size first
  Comm,    ///< since ABI 1.5: callers check helpers->size first
};

/// Support functions emitted once per stream and called from clause code.
enum class SupportFn : uint8_t {
  StrCopy,    ///< void (ptr dst, i64 cap, ptr src, i64 srccap): bounded, NUL
  StrEqual,   ///< i1 (ptr a, i64 acap, ptr b, i64 bcap)
  StrLen,     ///< i64 (ptr s, i64 cap): strnlen
  StrCompare, ///< i32 (ptr a, i64 acap, ptr b, i64 bcap): <0, 0, >0 (bytes)
  StrFind,    ///< i64 (ptr hay, i64 hcap, ptr needle, i64 ncap): index or -1
};

class CodeGenModule {
public:
  CodeGenModule(llvm::Module &M, const Script &S, const ScriptInfo &Info,
                DiagnosticsEngine *Diags);

  llvm::Module &getModule() { return M; }
  llvm::LLVMContext &getLLVMContext() { return M.getContext(); }
  const Script &getScript() const { return S; }
  const ScriptInfo &getInfo() const { return Info; }

  /// Generates every clause in both streams. Returns false if an error was
  /// reported.
  bool emitScript();

  /// The abi.h tables for this script; call after emitScript().
  ObjectTables buildTables(llvm::StringRef SourceName,
                           llvm::StringRef SourceText) const;

  llvm::FunctionType *getHelperType(Helper H);
  static uint32_t getHelperOffset(Helper H);
  static llvm::StringRef getHelperName(Helper H);

  /// A NUL-terminated private constant holding \p Bytes.
  llvm::Constant *getStringLiteral(llvm::StringRef Bytes);

  llvm::Function *getSupportFunction(SupportFn F, tscc_data_model Stream);

  /// Reports "cannot generate code for ..." at \p Loc. Sema should have
  /// rejected whatever reaches this; it keeps a sema gap from becoming a
  /// crash or a silently wrong object.
  void errorUnsupported(SourceRange Range, llvm::StringRef What);
  void errorInternal(SourceRange Range, llvm::StringRef What);
  bool hadError() const { return HadError; }

  /// Flags codegen discovers while generating a clause (USES_THREAD).
  void addClauseFlags(unsigned Clause, uint32_t Flags);
  void addHeaderFlags(uint32_t Flags) { ExtraHeaderFlags |= Flags; }
  /// The clause reads or writes state other threads share (a global, an
  /// associative array, a print() or clear() of an aggregation, a
  /// record): it loses TSCC_CLAUSE_THREAD_OWN.
  void noteSharedState(unsigned Clause);
  /// The clause updates an aggregation: thread-own, it becomes
  /// TSCC_CLAUSE_THREAD_OWN_AGGS.
  void noteAggUpdate(unsigned Clause);

  /// The clause whose entry function stores the globals' initial values:
  /// the first BEGIN clause, or a synthesised one appended after the
  /// script's clauses (index == number of clauses).
  unsigned getInitClause() const { return InitClause; }
  bool needsSyntheticInitClause() const { return SyntheticInit; }

private:
  void planGlobalInit();
  /// Sets TSCC_CLAUSE_GENERAL_REGS_ONLY on the clauses whose code has no
  /// floating-point or vector value, and keeps SSE out of their code.
  void markGeneralRegsOnly();
  void emitSyntheticInitClause();

  llvm::Module &M;
  const Script &S;
  const ScriptInfo &Info;
  DiagnosticsEngine *Diags;
  bool HadError = false;

  llvm::StringMap<llvm::Constant *> Literals;
  llvm::Function *Support[static_cast<unsigned>(SupportFn::StrFind) + 1]
                         [TSCC_DM_COUNT] = {};
  std::vector<uint32_t> ClauseFlags;
  std::vector<bool> SharedState;
  std::vector<bool> AggUpdates;
  uint32_t ExtraHeaderFlags = 0;
  unsigned InitClause = ~0u;
  bool SyntheticInit = false;
};

} // namespace tscc

#endif // TSCC_CODEGEN_LIB_CODEGENMODULE_H
