//===- SemaBuiltinCalls.cpp - Calls of built-in functions -----------------===//
//
// LANGUAGE.md section 6. checkCall applies what Builtins.def says about
// every built-in (predicates, aggregation context, clauses without a
// process, arity, result type); the checkX functions below add what is
// particular to one. Aggregation functions are checked by
// checkAggregationAssign (SemaBuiltins.cpp), printf() and trace() by
// SemaFormat.cpp. Nothing here numbers the calls: ScriptInfoCollector does.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/SemaChecker.h"

namespace tscc {

namespace {
/// "argument 2 of 'f'" as err_call_arg_type's first two arguments.
std::string argWhat(unsigned I) { return std::to_string(I + 1); }
} // namespace

bool SemaChecker::checkArgCount(CallExpr *E, unsigned Min, unsigned Max) {
  unsigned N = E->getNumArgs();
  if (N >= Min && N <= Max)
    return true;
  std::string Expected =
      Min == Max          ? std::to_string(Min)
      : Max == UINT32_MAX ? "at least " + std::to_string(Min)
                          : std::to_string(Min) + " or " + std::to_string(Max);
  diag(N < Min ? E->getRParenLoc() : E->getArg(Max)->getBeginLoc(),
       diag::err_call_arity)
      << (N < Min ? 0 : 1) << E->getCalleeName() << Expected << N;
  return false;
}

const Type *SemaChecker::checkCall(CallExpr *E) {
  std::optional<BuiltinFunction> Fn = lookupBuiltinFunction(E->getCalleeName());
  if (!Fn) {
    std::string Fix = suggestBuiltinFunction(E->getCalleeName());
    if (Fix.empty())
      diag(E->getCalleeLoc(), diag::err_unknown_function) << E->getCalleeName();
    else
      diag(E->getCalleeLoc(), diag::err_unknown_function_suggest)
          << E->getCalleeName() << Fix;
    for (Expr *A : E->getArgs())
      check(A);
    return nullptr;
  }
  E->setBuiltinID(static_cast<unsigned>(*Fn));
  // What Builtins.def says about every built-in ...
  const BuiltinFunctionInfo &BI = builtinFunctionInfo(*Fn);
  if (Cur && Cur->InPredicate && BI.hasSideEffects()) {
    diag(E->getCalleeLoc(), diag::err_side_effect_in_predicate)
        << ("call to '" + E->getCalleeName() + "'").str();
    return nullptr;
  }
  if (BI.isAggregation()) {
    diag(E->getCalleeLoc(), diag::err_agg_function_context)
        << E->getCalleeName();
    return nullptr;
  }
  if (Cur && Cur->NoProcess && BI.needsProcess()) {
    diag(E->getCalleeLoc(), diag::err_builtin_no_process)
        << (E->getCalleeName() + "()").str() << Cur->FirstProbeName;
    return nullptr;
  }
  if (!checkArgCount(E, BI.MinArgs, BI.MaxArgs))
    return nullptr;
  // ... then what is particular to this one.
  const Type *StringResult = nullptr;
  if (!checkBuiltinCallArgs(E, *Fn, StringResult))
    return nullptr;
  return BI.Result == BuiltinResult::String ? StringResult
                                            : builtinResultType(BI.Result);
}

bool SemaChecker::checkBuiltinCallArgs(CallExpr *E, BuiltinFunction Fn,
                                       const Type *&StringResult) {
  using F = BuiltinFunction;
  switch (Fn) {
  case F::StrLen:
    return checkCallArgs(E, 0) && checkStringArg(E, 0);
  case F::StrContains:
    return checkCallArgs(E, 0) && checkStringArg(E, 0) && checkStringArg(E, 1);
  case F::StrStr:
    if (!checkCallArgs(E, 0) || !checkStringArg(E, 0) || !checkStringArg(E, 1))
      return false;
    StringResult = E->getArg(0)->getType(M); // a suffix fits in s's capacity
    return true;
  case F::Substr:
    if (!checkCallArgs(E, 0) || !checkStringArg(E, 0) || !checkIntArg(E, 1) ||
        (E->getNumArgs() == 3 && !checkIntArg(E, 2)))
      return false;
    StringResult = E->getArg(0)->getType(M);
    return true;
  case F::Printf:
    return checkPrintf(E) != nullptr;
  case F::Trace:
    return checkTrace(E) != nullptr;
  case F::Exit:
  case F::Timestamp:
    return true;
  case F::DiffTime:
    return checkDiffTime(E);
  case F::GetUserString:
    StringResult = checkGetUserString(E);
    return StringResult != nullptr;
  case F::CopyUserData:
    return checkCopyUserData(E);
  case F::StkTrace:
    return checkCallArgs(E, 0) && (E->getNumArgs() == 0 || checkIntArg(E, 0));
  case F::Within:
    return checkWithin(E);
  case F::Print:
  case F::Clear:
    return checkAggregationOperand(E);
  case F::Exists:
  case F::Delete: {
    const Type *Elem = checkMapElementOperand(E);
    return Fn == F::Delete || Elem;
  }
  case F::None:
#define AGGREGATION_FUNCTION(Id, ...) case F::Id:
#include "tscc/Builtins.def"
    break; // checkCall rejects these, checkAggregationAssign takes them
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Arguments
//===----------------------------------------------------------------------===//

void SemaChecker::callArgError(CallExpr *E, unsigned I,
                               llvm::StringRef Expected) {
  const Type *T = E->getArg(I)->getType(M);
  diag(E->getArg(I)->getSourceRange(), diag::err_call_arg_type)
      << argWhat(I) << E->getCalleeName() << Expected << typeStr(T);
}

bool SemaChecker::checkCallArgs(CallExpr *E, unsigned From) {
  bool Ok = true;
  for (unsigned I = From; I < E->getNumArgs(); ++I)
    Ok &= check(E->getArg(I)) != nullptr;
  return Ok;
}

bool SemaChecker::checkIntArg(CallExpr *E, unsigned I) {
  const Type *T = rvalue(E->getArg(I), E->getArg(I)->getType(M));
  if (!T)
    return false;
  if (T->isInteger())
    return true;
  callArgError(E, I, "an integer");
  return false;
}

bool SemaChecker::checkAddressArg(CallExpr *E, unsigned I) {
  const Type *T = rvalue(E->getArg(I), E->getArg(I)->getType(M));
  if (!T)
    return false;
  if (T->isInteger() || T->isPointer())
    return true;
  callArgError(E, I, "a pointer");
  return false;
}

bool SemaChecker::checkStringArg(CallExpr *E, unsigned I) {
  Expr *A = E->getArg(I);
  const Type *T = A->getType(M);
  if (T && T->isString())
    return true;
  if (paramAsString(A)) // a `$N` used as a String
    return true;
  if (T)
    callArgError(E, I, "a String");
  return false;
}

//===----------------------------------------------------------------------===//
// The built-ins with checks of their own
//===----------------------------------------------------------------------===//

bool SemaChecker::checkDiffTime(CallExpr *E) {
  bool Ok = check(E->getArg(0)) && check(E->getArg(1));
  Ok = Ok && checkIntArg(E, 0) && checkIntArg(E, 1);
  auto *Unit = llvm::dyn_cast<DeclRefExpr>(E->getArg(2)->ignoreParens());
  if (!Unit || !lookupTimeUnit(Unit->getName()) || lookupVar(Unit->getName())) {
    diag(E->getArg(2)->getSourceRange(), diag::err_diff_time_unit);
    return false;
  }
  check(E->getArg(2));
  return Ok;
}

const Type *SemaChecker::checkGetUserString(CallExpr *E) {
  if (!checkCallArgs(E, 0) || !checkAddressArg(E, 0))
    return nullptr;
  uint64_t Cap = StringType::DefaultCapacity;
  if (E->getNumArgs() == 2) {
    if (!checkIntArg(E, 1))
      return nullptr;
    // A constant bound sizes the String; a computed one is applied at run
    // time within the default capacity.
    if (std::optional<int64_t> Max = evaluate(E->getArg(1))) {
      if (*Max < 1 || *Max > 4096) {
        callArgError(E, 1, "a length from 1 to 4096");
        return nullptr;
      }
      Cap = uint64_t(*Max);
    }
  }
  return types().getString(Cap);
}

bool SemaChecker::checkCopyUserData(CallExpr *E) {
  if (!checkCallArgs(E, 0) || !checkAddressArg(E, 0))
    return false;
  Expr *Dest = E->getArg(1);
  auto *DR = llvm::dyn_cast<DeclRefExpr>(Dest->ignoreParens());
  const Type *DT = Dest->getType(M);
  if (DR && DR->getDecl() && !DT)
    return false; // the variable's type was already diagnosed
  if (!DR || !DR->getDecl() || DT->isString()) {
    diag(Dest->getSourceRange(), diag::err_copy_userdata_dest);
    return false;
  }
  return true;
}

bool SemaChecker::checkWithin(CallExpr *E) {
  auto *Lit = llvm::dyn_cast<StringLiteral>(E->getArg(0)->ignoreParens());
  if (!Lit || Lit->getBytes().empty()) {
    diag(E->getArg(0)->getSourceRange(), diag::err_within_literal);
    return false;
  }
  check(E->getArg(0));
  return true;
}

bool SemaChecker::checkAggregationOperand(CallExpr *E) {
  auto *A = llvm::dyn_cast<AggregationExpr>(E->getArg(0)->ignoreParens());
  if (!A || A->hasBrackets()) {
    diag(E->getArg(0)->getSourceRange(), diag::err_needs_aggregation)
        << E->getCalleeName();
    return false;
  }
  // print()'s optional second argument: how many entries.
  return E->getNumArgs() == 1 || (checkCallArgs(E, 1) && checkIntArg(E, 1));
}

const Type *SemaChecker::checkMapElementOperand(CallExpr *E) {
  auto *AS = llvm::dyn_cast<ArraySubscriptExpr>(E->getArg(0)->ignoreParens());
  auto *DR =
      AS ? llvm::dyn_cast<DeclRefExpr>(AS->getBase()->ignoreParens()) : nullptr;
  VarDecl *D = DR ? lookupVar(DR->getName()) : nullptr;
  if (!D || !D->isAssociativeArray()) {
    diag(E->getArg(0)->getSourceRange(), diag::err_delete_not_map)
        << E->getCalleeName();
    return nullptr;
  }
  const Type *Elem = checkMapAccess(AS, D);
  E->getArg(0)->setType(M, Elem);
  return Elem;
}

} // namespace tscc
