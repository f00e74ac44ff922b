//===- tscc/Sema/ScriptInfoCollector.h - Tables from the AST ---*- C++ -*-===//
//
// The second half of sema, as bpftrace's ResourceAnalyser follows its
// SemanticAnalyser: once the checker has typed every expression in both
// models, one walk over the clauses builds the ScriptInfo tables that
// follow from the uses in the script -- printf/trace formats, aggregations,
// within() names, header flags, `$N` and `__argN` use, thread-local use --
// and owns their mapping to abi.h. The checker decides what is valid; this
// pass only numbers and records it, so checking never mutates these tables.
//
// The tables are model-independent, so the walk reads the LP64 types: every
// clause has them (clauses without a process are checked in LP64 only).
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_SEMA_SCRIPTINFOCOLLECTOR_H
#define TSCC_SEMA_SCRIPTINFOCOLLECTOR_H

#include "tscc/AST/RecursiveASTVisitor.h"
#include "tscc/Basic/Diagnostic.h"
#include "tscc/Basic/SourceManager.h"
#include "tscc/Sema/ScriptInfo.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <vector>

namespace tscc {

class ScriptInfoCollector : public RecursiveASTVisitor<ScriptInfoCollector> {
public:
  /// Folds an integer constant expression in LP64 (the checker's folder;
  /// lhist() bounds are recorded as the object stores them).
  using ConstantEvaluator =
      llvm::function_ref<std::optional<int64_t>(const Expr *)>;

  ScriptInfoCollector(ScriptInfo &Info, const SourceManager &SM,
                      DiagnosticsEngine &Diags, ConstantEvaluator Evaluate)
      : Info(Info), SM(SM), Diags(Diags), Evaluate(Evaluate) {}

  /// Walks the declaration section's initialisers, then the predicate and
  /// action of every clause in Info.Clauses, in order, then resolves
  /// print()/clear() arguments. Reports aggregations whose uses disagree or
  /// that are never assigned.
  void collect(Script &S);

  bool visitCallExpr(CallExpr *E);
  bool visitAssignExpr(AssignExpr *E);
  bool visitBuiltinVarExpr(BuiltinVarExpr *E);
  bool visitParamExpr(ParamExpr *E);
  bool visitDeclRefExpr(DeclRefExpr *E);

private:
  void addFormat(CallExpr *E, FormatKind Kind);
  void addWithin(CallExpr *E);
  void addAggregationUse(AggregationExpr *A, CallExpr *Call);
  SourcePos posOf(SourceLocation Loc) const;

  ScriptInfo &Info;
  const SourceManager &SM;
  DiagnosticsEngine &Diags;
  ConstantEvaluator Evaluate;
  static constexpr unsigned NoClause = ~0u;
  unsigned CurClause = NoClause;
  /// Index in Info.Aggregations of each `@name` assigned so far, and where
  /// each was first assigned (for the note of a disagreeing use).
  llvm::StringMap<unsigned> AggIndex;
  std::vector<SourceLocation> AggFirstLoc;
  /// print()/clear() arguments, resolved once every assignment is known.
  std::vector<AggregationExpr *> AggReads;
};

} // namespace tscc

#endif // TSCC_SEMA_SCRIPTINFOCOLLECTOR_H
