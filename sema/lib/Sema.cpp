//===- Sema.cpp - Semantic analysis driver --------------------------------===//
//
// The order of the passes, the per-model diagnostic buffering and the entry
// point. The checks themselves live in the other Sema*.cpp files.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/SemaChecker.h"

#include "tscc/Sema/ScriptInfoCollector.h"

#include "tscc/Basic/SourceManager.h"

#include <algorithm>

namespace tscc {

bool PendingDiag::sameAs(const PendingDiag &O) const {
  if (ID != O.ID || Loc != O.Loc || Args != O.Args ||
      Notes.size() != O.Notes.size())
    return false;
  for (size_t I = 0; I < Notes.size(); ++I)
    if (!Notes[I].sameAs(O.Notes[I]))
      return false;
  return true;
}

SemaChecker::SemaChecker(const SemaInputs &In, ScriptInfo &Info)
    : S(In.TheScript), AST(In.AST), SM(In.SM), Diags(In.Diags),
      CDecls(In.CDecls), Info(Info) {}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

std::vector<PendingDiag> &SemaChecker::currentList() {
  // Outside a per-model pass a diagnostic is the same for both models.
  return InModelPass ? Pending[mi()] : PendingNeutral;
}

PendingBuilder SemaChecker::diag(SourceLocation Loc, diag::ID ID) {
  std::vector<PendingDiag> &List = currentList();
  List.push_back(PendingDiag{ID, Loc, {}, {}, {}});
  return PendingBuilder(List.back());
}

PendingBuilder SemaChecker::diag(SourceRange R, diag::ID ID) {
  std::vector<PendingDiag> &List = currentList();
  List.push_back(PendingDiag{ID, R.getBegin(), R, {}, {}});
  return PendingBuilder(List.back());
}

PendingBuilder SemaChecker::note(SourceLocation Loc, diag::ID ID) {
  std::vector<PendingDiag> &List = currentList();
  assert(!List.empty() && "a note needs a diagnostic to attach to");
  List.back().Notes.push_back(PendingDiag{ID, Loc, {}, {}, {}});
  return PendingBuilder(List.back().Notes.back());
}

PendingBuilder SemaChecker::diagNeutral(SourceLocation Loc, diag::ID ID) {
  PendingNeutral.push_back(PendingDiag{ID, Loc, {}, {}, {}});
  return PendingBuilder(PendingNeutral.back());
}

void SemaChecker::beginBuffer() {
  Buffering = true;
  for (auto &L : Pending)
    L.clear();
  PendingNeutral.clear();
}

void SemaChecker::emit(const PendingDiag &D, int OnlyModel) {
  auto Send = [&](const PendingDiag &X) {
    DiagnosticBuilder B = Diags.report(X.Loc, X.ID);
    if (X.Range.isValid())
      B << X.Range;
    for (const auto &A : X.Args) {
      if (const auto *Str = std::get_if<std::string>(&A))
        B << *Str;
      else
        B << static_cast<long long>(std::get<int64_t>(A));
    }
  };
  Send(D);
  if (OnlyModel >= 0)
    Diags.report(D.Loc, diag::note_only_in_model) << OnlyModel;
  for (const PendingDiag &N : D.Notes)
    Send(N);
}

void SemaChecker::flushBuffer() {
  // Merge by position so the output reads top to bottom; a diagnostic both
  // passes found is emitted once, one only one pass found names its model.
  struct Item {
    const PendingDiag *D;
    int OnlyModel;
  };
  std::vector<Item> Items;
  auto &IL = Pending[TSCC_DM_ILP32];
  auto &LP = Pending[TSCC_DM_LP64];
  bool BothRan = HaveOtherModel;
  std::vector<bool> Matched(LP.size(), false);
  for (const PendingDiag &D : IL) {
    int Only = TSCC_DM_ILP32;
    for (size_t J = 0; J < LP.size(); ++J)
      if (!Matched[J] && LP[J].sameAs(D)) {
        Matched[J] = true;
        Only = -1;
        break;
      }
    Items.push_back({&D, Only});
  }
  for (size_t J = 0; J < LP.size(); ++J)
    if (!Matched[J])
      Items.push_back({&LP[J], BothRan ? int(TSCC_DM_LP64) : -1});
  for (const PendingDiag &D : PendingNeutral)
    Items.push_back({&D, -1});
  std::stable_sort(Items.begin(), Items.end(), [](const Item &A, const Item &B) {
    return A.D->Loc < B.D->Loc;
  });
  for (const Item &I : Items)
    emit(*I.D, I.OnlyModel);
  for (auto &L : Pending)
    L.clear();
  PendingNeutral.clear();
  Buffering = false;
  HaveOtherModel = false;
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

void SemaChecker::run() {
  Diags.setSuppressDuplicates(true);
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
