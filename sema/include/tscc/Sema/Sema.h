//===- tscc/Sema/Sema.h - Semantic analysis of a script ---------*- C++ -*-===//
//
// Sema binds names, types every expression once per data model with the C
// declarations Clang laid out for that model, checks the built-ins, probe
// specifications, printf formats and storage classes, and produces the
// ScriptInfo codegen turns into the object's tables.
//
// It reports every error in one run; an erroneous expression gets a null
// type, which silences follow-on errors about it. Diagnostics found in both
// model passes are reported once (DiagnosticsEngine duplicate suppression);
// those that differ between the models name the model.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_SEMA_SEMA_H
#define TSCC_SEMA_SEMA_H

#include "tscc/DataModel.h"
#include "tscc/Sema/ScriptInfo.h"

#include <array>
#include <memory>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tscc {

class ASTContext;
class CDeclarations;
class DiagnosticsEngine;
class Script;
class SourceManager;

/// The inputs of semantic analysis.
struct SemaInputs {
  Script &TheScript;
  ASTContext &AST;
  SourceManager &SM;
  DiagnosticsEngine &Diags;
  /// The script's C declarations, one per data model ([ILP32], [LP64]).
  std::array<CDeclarations *, NumDataModels> CDecls;
};

/// Checks and annotates the script. Always returns a ScriptInfo (possibly
/// partial); callers test Diags.hasErrorOccurred() before code generation.
std::unique_ptr<ScriptInfo> analyzeScript(const SemaInputs &In);

/// Prints, deterministically, every expression's type per model and the
/// ScriptInfo tables (variables with offsets, maps, aggregations, formats,
/// probes, clauses). Used by `tscc --dump-sema` and the lit tests.
void dumpSema(const Script &S, const ScriptInfo &Info, const SourceManager &SM,
              llvm::raw_ostream &OS);

} // namespace tscc

#endif // TSCC_SEMA_SEMA_H
