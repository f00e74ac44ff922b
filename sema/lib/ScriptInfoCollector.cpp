//===- ScriptInfoCollector.cpp - ScriptInfo from the typed AST ------------===//
//
// Numbers what the checked script uses, in source order (the order the
// checker visits it, so table indices are stable): a format per printf() or
// trace() call, an aggregation per `@name` at its first assignment, a
// within() entry per distinct function name. See ScriptInfoCollector.h.
//
// The walk must not crash on a script with errors: it still runs then, to
// report aggregations whose uses disagree, and skips what the checker
// could not type.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/ScriptInfoCollector.h"
#include "tscc/AbiNames.h"

#include "tscc/Sema/SemaChecker.h"
#include "tscc/Sema/SemaPrintf.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace tscc {

namespace {
constexpr DataModel ObjectModel = DataModel::LP64;

const Type *typeOf(const Expr *E) { return E->getType(ObjectModel); }

/// The record field a key or trace() argument of checked type \p T is sent
/// as. Arrays and functions decay to their address.
FieldInfo valueField(const Type *T) {
  if (T && (T->isArray() || T->isFunction()))
    return {TSCC_FIELD_PTR, 8};
  return fieldForValue(SemaChecker::formatArgType(T));
}

/// What the checker accepts as an aggregation key (after decay).
bool isKeyType(const Type *T) {
  return T && (T->isInteger() || T->isPointer() || T->isString() ||
               T->isArray() || T->isFunction());
}

std::string describeKeys(llvm::ArrayRef<FieldInfo> Keys) {
  std::string S;
  for (const FieldInfo &F : Keys) {
    if (!S.empty())
      S += ", ";
    switch (F.Kind) {
    case TSCC_FIELD_S64:
      S += "signed integer";
      break;
    case TSCC_FIELD_U64:
      S += "unsigned integer";
      break;
    case TSCC_FIELD_PTR:
      S += "pointer";
      break;
    case TSCC_FIELD_STRING:
      S += "String";
      break;
    case TSCC_FIELD_STACK_ID:
      S += "stack";
      break;
    default:
      S += "value";
      break;
    }
  }
  return S.empty() ? "no key" : S;
}

bool sameKeyKinds(llvm::ArrayRef<FieldInfo> A, llvm::ArrayRef<FieldInfo> B) {
  return A.size() == B.size() &&
         std::equal(A.begin(), A.end(), B.begin(),
                    [](const FieldInfo &X, const FieldInfo &Y) {
                      return X.Kind == Y.Kind;
                    });
}

BuiltinFunction builtinOf(const CallExpr *E) {
  return static_cast<BuiltinFunction>(E->getBuiltinID());
}
} // namespace

SourcePos ScriptInfoCollector::posOf(SourceLocation Loc) const {
  PresumedLoc P = SM.getPresumedLoc(Loc);
  return {P.Line, P.Column};
}

void ScriptInfoCollector::collect(Script &S) {
  // Initialisers of the declaration section: only `$N` counts there.
  CurClause = NoClause;
  for (VarDecl *D : S.getVars())
    traverse(D->getInit());
  for (const ClauseInfo &CI : Info.Clauses) {
    CurClause = CI.Id;
    Clause *C = const_cast<Clause *>(CI.Node);
    if (!C)
      continue;
    traverse(C->getPredicate());
    traverse(C->getBody());
  }
  // print(@a) and clear(@a) may come before the assignment.
  for (AggregationExpr *A : AggReads) {
    auto It = AggIndex.find(A->getName());
    if (It == AggIndex.end())
      Diags.report(A->getBeginLoc(), diag::err_agg_never_assigned)
          << A->getName();
    else
      Info.AggregationOfExpr[A] = It->second;
  }
}

bool ScriptInfoCollector::visitCallExpr(CallExpr *E) {
  using F = BuiltinFunction;
  if (CurClause == NoClause || !typeOf(E))
    return true; // rejected by the checker
  switch (builtinOf(E)) {
  case F::Printf:
    addFormat(E, FormatKind::Printf);
    break;
  case F::Trace:
    addFormat(E, FormatKind::Trace);
    break;
  case F::Exit:
    Info.HeaderFlags |= TSCC_HDR_USES_EXIT;
    break;
  case F::StkTrace:
    Info.HeaderFlags |= TSCC_HDR_USES_STACK;
    break;
  case F::Within:
    addWithin(E);
    break;
  case F::Print:
  case F::Clear:
    if (auto *A = llvm::dyn_cast<AggregationExpr>(E->getArg(0)->ignoreParens()))
      AggReads.push_back(A);
    break;
  default:
    break; // nothing to number
  }
  return true;
}

void ScriptInfoCollector::addFormat(CallExpr *E, FormatKind Kind) {
  FormatInfo FI;
  FI.Id = Info.Formats.size();
  FI.Kind = Kind;
  FI.Clause = CurClause;
  llvm::ArrayRef<Expr *> Values = E->getArgs().drop_front();
  if (Kind == FormatKind::Printf) {
    auto *Lit = llvm::dyn_cast<StringLiteral>(E->getArg(0)->ignoreParens());
    if (!Lit)
      return;
    // The fields follow from the conversions and the String capacities;
    // the checker already reported what the format says about the types.
    llvm::SmallVector<FormatArg, 8> Args(Values.size());
    for (size_t I = 0; I < Values.size(); ++I)
      Args[I].Types[modelIndex(ObjectModel)] =
          SemaChecker::formatArgType(typeOf(Values[I]));
    FormatCheckResult R = checkFormat(Lit->getBytes(), Args, FMM_LP64);
    if (R.hasErrors())
      return;
    FI.Text = Lit->getBytes().str();
    FI.Fields = std::move(R.Fields);
  } else {
    for (Expr *A : Values) {
      if (!isKeyType(typeOf(A)))
        return;
      FI.Fields.push_back(valueField(typeOf(A)));
    }
  }
  FI.Loc = posOf(E->getBeginLoc());
  Info.FormatOfCall[E] = FI.Id;
  Info.Formats.push_back(std::move(FI));
}

void ScriptInfoCollector::addWithin(CallExpr *E) {
  auto *Lit = llvm::dyn_cast<StringLiteral>(E->getArg(0)->ignoreParens());
  if (!Lit)
    return;
  auto It = llvm::find(Info.WithinNames, Lit->getBytes());
  unsigned Idx = It - Info.WithinNames.begin();
  if (It == Info.WithinNames.end())
    Info.WithinNames.push_back(Lit->getBytes().str());
  Info.WithinOfCall[E] = Idx;
}

bool ScriptInfoCollector::visitAssignExpr(AssignExpr *E) {
  auto *A = llvm::dyn_cast<AggregationExpr>(E->getLHS()->ignoreParens());
  auto *Call = llvm::dyn_cast<CallExpr>(E->getRHS()->ignoreParens());
  if (CurClause != NoClause && A && Call && typeOf(E) &&
      isAggregationFunction(builtinOf(Call)))
    addAggregationUse(A, Call);
  return true;
}

void ScriptInfoCollector::addAggregationUse(AggregationExpr *A,
                                            CallExpr *Call) {
  const BuiltinFunctionInfo &BI = builtinFunctionInfo(builtinOf(Call));
  std::vector<FieldInfo> Keys;
  for (Expr *K : A->getKeys()) {
    if (typeOf(K) && isStackTraceCall(K)) {
      Keys.push_back(FieldInfo{TSCC_FIELD_STACK_ID, 8});
      continue;
    }
    if (!isKeyType(typeOf(K)))
      return; // diagnosed by the checker
    Keys.push_back(valueField(typeOf(K)));
  }
  for (Expr *X : Call->getArgs())
    if (!typeOf(X) || !typeOf(X)->isInteger())
      return;
  int64_t Lo = 0, Hi = 0, Step = 0;
  if (BI.AggKind == TSCC_AGG_LHIST) {
    std::optional<int64_t> L = Evaluate(Call->getArg(1)),
                           H = Evaluate(Call->getArg(2)),
                           S = Evaluate(Call->getArg(3));
    if (!L || !H || !S)
      return;
    Lo = *L, Hi = *H, Step = *S;
  }

  auto [It, New] = AggIndex.try_emplace(A->getName(), Info.Aggregations.size());
  if (New) {
    AggregationInfo AI;
    AI.Id = It->second;
    AI.Name = A->getName().str();
    AI.Kind = static_cast<tscc_agg_kind>(BI.AggKind);
    AI.KeyFields = Keys;
    for (const FieldInfo &K : Keys)
      AI.KeySize += K.Size;
    AI.LhistLo = Lo;
    AI.LhistHi = Hi;
    AI.LhistStep = Step;
    AI.Loc = posOf(A->getBeginLoc());
    AggFirstLoc.push_back(A->getBeginLoc());
    Info.Aggregations.push_back(std::move(AI));
  } else {
    // Every use must agree with the first one: the object has one row.
    const AggregationInfo &First = Info.Aggregations[It->second];
    SourceLocation FirstLoc = AggFirstLoc[It->second];
    bool Mismatch = false;
    if (First.Kind != BI.AggKind) {
      Diags.report(Call->getCalleeLoc(), diag::err_agg_kind_mismatch)
          << A->getName() << aggKindName(First.Kind) << BI.Spelling;
      Mismatch = true;
    } else if (BI.AggKind == TSCC_AGG_LHIST &&
               (First.LhistLo != Lo || First.LhistHi != Hi ||
                First.LhistStep != Step)) {
      Diags.report(Call->getArg(1)->getBeginLoc(),
                   diag::err_lhist_bounds_mismatch)
          << A->getName() << First.LhistLo << First.LhistHi << First.LhistStep
          << Lo << Hi << Step;
      Mismatch = true;
    } else if (!sameKeyKinds(First.KeyFields, Keys)) {
      Diags.report(A->getBeginLoc(), diag::err_agg_key_mismatch)
          << A->getName() << describeKeys(Keys)
          << describeKeys(First.KeyFields);
      Mismatch = true;
    }
    if (Mismatch)
      Diags.report(FirstLoc, diag::note_agg_first_use) << A->getName();
  }
  Info.AggregationOfExpr[A] = It->second;
}

bool ScriptInfoCollector::visitBuiltinVarExpr(BuiltinVarExpr *E) {
  unsigned N = 0;
  if (CurClause != NoClause && typeOf(E) &&
      classifyBuiltinVar(E->getName(), &N) == BuiltinVar::Arg) {
    ClauseInfo &CI = Info.Clauses[CurClause];
    CI.MaxArg = std::max(CI.MaxArg, N);
  }
  return true;
}

bool ScriptInfoCollector::visitParamExpr(ParamExpr *E) {
  Info.ParamCount = std::max<uint32_t>(Info.ParamCount, E->getIndex());
  return true;
}

bool ScriptInfoCollector::visitDeclRefExpr(DeclRefExpr *E) {
  const auto *D = llvm::dyn_cast_or_null<VarDecl>(E->getDecl());
  const VariableInfo *V = D ? Info.variableFor(D) : nullptr;
  if (V && V->Storage == VarStorage::Thread && CurClause != NoClause)
    Info.Clauses[CurClause].Flags |= TSCC_CLAUSE_USES_THREAD;
  return true;
}

} // namespace tscc
