//===- Sema.cpp - Semantic analysis driver --------------------------------===//
//
// The order of the passes, how they report diagnostics and the entry
// point. The checks themselves live in the other Sema*.cpp files.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/SemaChecker.h"

#include "tscc/Sema/ScriptInfoCollector.h"

#include "tscc/Basic/SourceManager.h"

namespace tscc {

SemaChecker::SemaChecker(const SemaInputs &In, ScriptInfo &Info)
    : S(In.TheScript), AST(In.AST), SM(In.SM), Diags(In.Diags),
      CDecls(In.CDecls), Info(Info) {}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

DiagnosticBuilder SemaChecker::diag(SourceLocation Loc, diag::ID ID) {
  DiagnosticBuilder B = Diags.report(Loc, ID);
  // Outside a per-model pass a diagnostic is the same for both models.
  B.setPass(InModelPass ? std::optional(M) : std::nullopt);
  return B;
}

DiagnosticBuilder SemaChecker::diag(SourceRange R, diag::ID ID) {
  DiagnosticBuilder B = Diags.report(R, ID);
  B.setPass(InModelPass ? std::optional(M) : std::nullopt);
  return B;
}

DiagnosticBuilder SemaChecker::note(SourceLocation Loc, diag::ID ID) {
  return Diags.report(Loc, ID);
}

DiagnosticBuilder SemaChecker::diagNeutral(SourceLocation Loc, diag::ID ID) {
  DiagnosticBuilder B = Diags.report(Loc, ID);
  B.setPass(std::nullopt);
  return B;
}

void SemaChecker::beginBuffer() { Diags.getMerger().begin(); }

void SemaChecker::flushBuffer() {
  PerModelDiagnosticMerger &Merger = Diags.getMerger();
  // Without the ILP32 pass (a clause without a process) nothing is "only
  // in LP64".
  if (HaveOtherModel)
    for (DataModel X : AllDataModels)
      Merger.markPassRun(X);
  Merger.flush();
  HaveOtherModel = false;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

void SemaChecker::run() {
  checkTopLevelVars();
  checkProbes();
  checkClauses();

  // The tables that follow from the typed uses. The collector's own
  // diagnostics (aggregations whose uses disagree) come after the clauses'.
  ScriptInfoCollector(Info, SM, Diags, [this](const Expr *E) {
    return evaluateIn(E, DataModel::LP64);
  }).collect(S);

  layoutStorage();
}

std::unique_ptr<ScriptInfo> analyzeScript(const SemaInputs &In) {
  auto Info = std::make_unique<ScriptInfo>();
  SemaChecker(In, *Info).run();
  return Info;
}

} // namespace tscc
