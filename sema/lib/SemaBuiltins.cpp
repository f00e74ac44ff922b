//===- SemaBuiltins.cpp - Built-in values, functions and aggregations -----===//
//
// LANGUAGE.md sections 5 and 6. What a built-in value means depends on the
// probes of the clause: `__argN` needs an entry probe and is typed by the
// function's prototype in each model, `__rv` needs an exit probe, `__errno`
// a system call exit, and clauses without a process have none of them.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/SemaChecker.h"

#include "tscc/Sema/DataModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cassert>

#include <algorithm>
#include <vector>

namespace tscc {

//===----------------------------------------------------------------------===//
// Name tables
//===----------------------------------------------------------------------===//

namespace {
constexpr BuiltinFunctionInfo FunctionTable[] = {
#define BUILTIN_FUNCTION(Id, Spelling, MinArgs, MaxArgs, Effect, Process,      \
                         Result, Example)                                      \
  {BuiltinFunction::Id,                                                        \
   Spelling,                                                                   \
   MinArgs,                                                                    \
   MaxArgs,                                                                    \
   BuiltinEffect::Effect,                                                      \
   BuiltinProcess::Process,                                                    \
   BuiltinResult::Result,                                                      \
   0,                                                                          \
   Example},
#define AGGREGATION_FUNCTION(Id, Spelling, NumArgs, AggKind, Example)          \
  {BuiltinFunction::Id,                                                        \
   Spelling,                                                                   \
   NumArgs,                                                                    \
   NumArgs,                                                                    \
   BuiltinEffect::SideEffect,                                                  \
   BuiltinProcess::AnyClause,                                                  \
   BuiltinResult::LongLong,                                                    \
   AggKind,                                                                    \
   Example},
#include "tscc/Builtins.def"
};

constexpr BuiltinVarInfo VarTable[] = {
#define BUILTIN_VARIABLE(Id, Spelling, Process, Result, Probes, Example)       \
  {BuiltinVar::Id,          Spelling,                                          \
   BuiltinProcess::Process, BuiltinResult::Result,                             \
   BuiltinProbes::Probes,   Example},
#include "tscc/Builtins.def"
};

// The tables are indexed by the enumerators, which come from the same lines.
constexpr bool tablesFollowEnums() {
  for (unsigned I = 0; I < std::size(FunctionTable); ++I)
    if (static_cast<unsigned>(FunctionTable[I].Id) != I + 1)
      return false;
  for (unsigned I = 0; I < std::size(VarTable); ++I)
    if (static_cast<unsigned>(VarTable[I].Id) != I)
      return false;
  return true;
}
static_assert(tablesFollowEnums());
} // namespace

llvm::ArrayRef<BuiltinFunctionInfo> builtinFunctions() { return FunctionTable; }

llvm::ArrayRef<BuiltinVarInfo> builtinVars() { return VarTable; }

const BuiltinFunctionInfo &builtinFunctionInfo(BuiltinFunction F) {
  assert(F != BuiltinFunction::None && "no entry for an unresolved call");
  return FunctionTable[static_cast<unsigned>(F) - 1];
}

const BuiltinVarInfo &builtinVarInfo(BuiltinVar V) {
  return VarTable[static_cast<unsigned>(V)];
}

std::optional<BuiltinFunction> lookupBuiltinFunction(llvm::StringRef Name) {
  for (const BuiltinFunctionInfo &F : FunctionTable)
    if (F.Spelling == Name)
      return F.Id;
  return std::nullopt;
}

llvm::StringRef builtinFunctionName(BuiltinFunction F) {
  return F == BuiltinFunction::None ? "" : builtinFunctionInfo(F).Spelling;
}

llvm::StringRef aggregationKindName(uint32_t Kind) {
  for (const BuiltinFunctionInfo &F : FunctionTable)
    if (F.isAggregation() && F.AggKind == Kind)
      return F.Spelling;
  return "";
}

std::optional<BuiltinVar> classifyBuiltinVar(llvm::StringRef Name,
                                             unsigned *ArgIndex) {
  llvm::StringRef Rest = Name;
  if (Rest.consume_front(builtinVarInfo(BuiltinVar::Arg).Spelling)) {
    unsigned N = 0;
    if (Rest.empty() || Rest.front() == '0' || Rest.getAsInteger(10, N) ||
        N < 1 || N > MaxProbeArgs)
      return std::nullopt;
    if (ArgIndex)
      *ArgIndex = N;
    return BuiltinVar::Arg;
  }
  for (const BuiltinVarInfo &V : VarTable)
    if (V.Id != BuiltinVar::Arg && V.Spelling == Name)
      return V.Id;
  return std::nullopt;
}

/// The closest of Candidates to a misspelled Name, as Clang's typo
/// correction picks it: about one edit per three characters at most.
static std::string closestSpelling(llvm::StringRef Name,
                                   llvm::ArrayRef<std::string> Candidates) {
  unsigned Limit = std::clamp<unsigned>((Name.size() + 2) / 3, 1, 3);
  std::string Best;
  unsigned BestDistance = Limit + 1;
  for (const std::string &C : Candidates) {
    unsigned D = Name.edit_distance(C, /*AllowReplacements=*/true, Limit);
    if (D < BestDistance) {
      BestDistance = D;
      Best = C;
    }
  }
  return Best;
}

std::string suggestBuiltinVar(llvm::StringRef Name) {
  static const std::vector<std::string> Names = [] {
    std::vector<std::string> V;
    for (const BuiltinVarInfo &B : VarTable)
      if (B.Id != BuiltinVar::Arg)
        V.push_back(B.Spelling.str());
    // After the others: on a tie the earlier candidate wins.
    for (unsigned I = 1; I <= MaxProbeArgs; ++I)
      V.push_back(builtinVarInfo(BuiltinVar::Arg).Spelling.str() +
                  std::to_string(I));
    return V;
  }();
  return closestSpelling(Name, Names);
}

std::string suggestBuiltinFunction(llvm::StringRef Name) {
  static const std::vector<std::string> Names = [] {
    std::vector<std::string> V;
    for (const BuiltinFunctionInfo &F : FunctionTable)
      V.push_back(F.Spelling.str());
    return V;
  }();
  return closestSpelling(Name, Names);
}

std::optional<int64_t> lookupTimeUnit(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<int64_t>>(Name)
      .Case("NANOSECONDS", 1)
      .Case("MICROSECONDS", 1000)
      .Case("MILLISECONDS", 1000000)
      .Case("SECONDS", 1000000000)
      .Default(std::nullopt);
}

//===----------------------------------------------------------------------===//
// Built-in values
//===----------------------------------------------------------------------===//

const Type *SemaChecker::checkBuiltinVar(BuiltinVarExpr *E) {
  unsigned N = 0;
  std::optional<BuiltinVar> V = classifyBuiltinVar(E->getName(), &N);
  if (!V) {
    llvm::StringRef Digits = E->getName();
    if (Digits.consume_front("__arg") && !Digits.empty() &&
        llvm::all_of(Digits, llvm::isDigit)) {
      diag(E->getSourceRange(), diag::err_builtin_arg_range)
          << E->getName() << std::to_string(MaxProbeArgs);
      return nullptr;
    }
    std::string Fix = suggestBuiltinVar(E->getName());
    if (Fix.empty())
      diag(E->getSourceRange(), diag::err_unknown_builtin_var) << E->getName();
    else
      diag(E->getSourceRange(), diag::err_unknown_builtin_var_suggest)
          << E->getName() << Fix;
    return nullptr;
  }
  const BuiltinVarInfo &BI = builtinVarInfo(*V);
  if (Cur && Cur->NoProcess && BI.needsProcess()) {
    diag(E->getSourceRange(), diag::err_builtin_no_process)
        << E->getName() << Cur->FirstProbeName;
    return nullptr;
  }
  if (*V == BuiltinVar::DataModel)
    recordConstant(E, dataModelBits(M));
  if (BI.Result == BuiltinResult::ProbeTyped ||
      BI.Probes != BuiltinProbes::AnyProbe)
    return checkArgOrRv(E, *V, N);
  return builtinResultType(BI.Result);
}

const Type *SemaChecker::builtinResultType(BuiltinResult R) {
  switch (R) {
  case BuiltinResult::Void:
    return types().getVoid();
  case BuiltinResult::Int:
    return types().getInt();
  case BuiltinResult::UInt:
    return types().getUInt();
  case BuiltinResult::LongLong:
    return types().getLongLong();
  case BuiltinResult::ULongLong:
    return types().getULongLong();
  case BuiltinResult::String:
    return types().getString();
  case BuiltinResult::VoidPointer:
    return types().getPointer(types().getVoid());
  case BuiltinResult::ProbeTyped:
    break; // only checkArgOrRv knows
  }
  return nullptr;
}

const Type *SemaChecker::checkArgOrRv(BuiltinVarExpr *E, BuiltinVar V,
                                      unsigned N) {
  if (!Cur) // the declaration section: not a constant, said by the caller
    return types().getLong();
  const ClauseContext &C = *Cur;
  const FunctionType *Proto = C.Proto[mi()];
  llvm::StringRef FuncName;
  if (Proto) {
    const ClauseInfo &CI = Info.Clauses[C.Index];
    FuncName = Info.Probes[CI.ProbeFirst].Function;
  }
  if (V == BuiltinVar::Errno) {
    if (!C.AllSyscallExit) {
      diag(E->getSourceRange(), diag::err_errno_not_syscall_exit);
      return nullptr;
    }
    return types().getInt();
  }
  if (V == BuiltinVar::Rv) {
    if (!C.AllExit) {
      diag(E->getSourceRange(), diag::err_rv_not_exit);
      return nullptr;
    }
    if (C.ProtoConflict) {
      diag(E->getSourceRange(), diag::err_arg_ambiguous) << E->getName();
      return nullptr;
    }
    if (C.AllSyscall || !Proto)
      return types().getLong();
    const Type *R = Proto->getReturnType();
    if (R->isVoid()) {
      diag(E->getSourceRange(), diag::err_rv_void) << FuncName;
      return nullptr;
    }
    if (R->isRecord() || R->isFloating()) {
      diag(E->getSourceRange(), diag::err_arg_by_value)
          << E->getName() << R->getName();
      return nullptr;
    }
    return R;
  }
  // __argN
  if (!C.AllEntry) {
    diag(E->getSourceRange(), C.AnyOffset && !C.AllExit
                                  ? diag::err_arg_at_offset
                                  : diag::err_arg_in_exit)
        << E->getName();
    return nullptr;
  }
  if (C.ProtoConflict) {
    diag(E->getSourceRange(), C.MixedUsdt ? diag::err_arg_usdt_mixed
                                          : diag::err_arg_ambiguous)
        << E->getName();
    return nullptr;
  }
  ClauseInfo &CI = Info.Clauses[C.Index];
  CI.MaxArg = std::max(CI.MaxArg, N);
  // Each USDT site's note gives the size; 64 bits hold any of them, sign-
  // or zero-extended by the runtime.
  if (C.AllUsdt)
    return types().getLongLong();
  if (N > MaxFunctionArgs) {
    diag(E->getSourceRange(), diag::err_arg_only_usdt) << E->getName();
    return nullptr;
  }
  if (C.AllSyscall) {
    if (N > 6) {
      diag(E->getSourceRange(), diag::err_syscall_arg_range) << E->getName();
      return nullptr;
    }
    return types().getLong();
  }
  if (!Proto || !Proto->hasPrototype())
    return types().getLong();
  llvm::ArrayRef<const Type *> Params = Proto->getParams();
  if (N > Params.size()) {
    if (Proto->isVariadic())
      return types().getLong();
    diag(E->getSourceRange(), diag::err_arg_beyond_prototype)
        << E->getName() << FuncName << unsigned(Params.size());
    return nullptr;
  }
  const Type *P = Params[N - 1];
  if (P->isRecord() || P->isFloating()) {
    diag(E->getSourceRange(), diag::err_arg_by_value)
        << E->getName() << P->getName();
    return nullptr;
  }
  return P;
}

//===----------------------------------------------------------------------===//
// Built-in functions
//===----------------------------------------------------------------------===//

bool SemaChecker::checkArgCount(CallExpr *E, unsigned Min, unsigned Max) {
  unsigned N = E->getNumArgs();
  if (N >= Min && N <= Max)
    return true;
  std::string Expected = Min == Max ? std::to_string(Min)
                         : Max == UINT32_MAX
                             ? "at least " + std::to_string(Min)
                             : std::to_string(Min) + " or " +
                                   std::to_string(Max);
  diag(N < Min ? E->getRParenLoc() : E->getArg(Max)->getBeginLoc(),
       diag::err_call_arity)
      << (N < Min ? 0 : 1) << E->getCalleeName() << Expected << N;
  return false;
}

namespace {
/// "argument 2 of 'f'" as err_call_arg_type's first two arguments.
std::string argWhat(unsigned I) { return std::to_string(I + 1); }
} // namespace

const Type *SemaChecker::checkCall(CallExpr *E) {
  std::optional<BuiltinFunction> Fn = lookupBuiltinFunction(E->getCalleeName());
  if (!Fn) {
    std::string Fix = suggestBuiltinFunction(E->getCalleeName());
    if (Fix.empty())
      diag(E->getCalleeLoc(), diag::err_unknown_function)
          << E->getCalleeName();
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
  auto ArgError = [&](unsigned I, llvm::StringRef Expected) {
    const Type *T = E->getArg(I)->getType(M);
    diag(E->getArg(I)->getSourceRange(), diag::err_call_arg_type)
        << argWhat(I) << E->getCalleeName() << Expected << typeStr(T);
  };
  auto CheckArgs = [&](unsigned From) {
    bool Ok = true;
    for (unsigned I = From; I < E->getNumArgs(); ++I)
      Ok &= check(E->getArg(I)) != nullptr;
    return Ok;
  };
  auto IntArg = [&](unsigned I) {
    const Type *T = rvalue(E->getArg(I), E->getArg(I)->getType(M));
    if (!T)
      return false;
    if (T->isInteger())
      return true;
    ArgError(I, "an integer");
    return false;
  };
  auto AddrArg = [&](unsigned I) {
    const Type *T = rvalue(E->getArg(I), E->getArg(I)->getType(M));
    if (!T)
      return false;
    if (T->isInteger() || T->isPointer())
      return true;
    ArgError(I, "a pointer");
    return false;
  };
  // A String argument, or a `$N` used as one.
  auto StrArg = [&](unsigned I) {
    Expr *A = E->getArg(I);
    const Type *T = A->getType(M);
    if (T && T->isString())
      return true;
    if (paramAsString(A))
      return true;
    if (T)
      ArgError(I, "a String");
    return false;
  };
  switch (Fn) {
  case F::StrLen:
    return CheckArgs(0) && StrArg(0);
  case F::StrContains:
    return CheckArgs(0) && StrArg(0) && StrArg(1);
  case F::StrStr:
    if (!CheckArgs(0) || !StrArg(0) || !StrArg(1))
      return false;
    StringResult =
        E->getArg(0)->getType(M); // a suffix fits in the same capacity
    return true;
  case F::Substr:
    if (!CheckArgs(0) || !StrArg(0) || !IntArg(1) ||
        (E->getNumArgs() == 3 && !IntArg(2)))
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
  case F::DiffTime: {
    bool Ok = check(E->getArg(0)) && check(E->getArg(1));
    Ok = Ok && IntArg(0) && IntArg(1);
    auto *Unit = llvm::dyn_cast<DeclRefExpr>(E->getArg(2)->ignoreParens());
    if (!Unit || !lookupTimeUnit(Unit->getName()) ||
        lookupVar(Unit->getName())) {
      diag(E->getArg(2)->getSourceRange(), diag::err_diff_time_unit);
      return false;
    }
    check(E->getArg(2));
    return Ok;
  }
  case F::GetUserString: {
    if (!CheckArgs(0) || !AddrArg(0))
      return false;
    uint64_t Cap = StringType::DefaultCapacity;
    if (E->getNumArgs() == 2) {
      if (!IntArg(1))
        return false;
      // A constant bound sizes the String; a computed one is applied at
      // run time within the default capacity.
      if (std::optional<int64_t> Max = evaluate(E->getArg(1))) {
        if (*Max < 1 || *Max > 4096) {
          ArgError(1, "a length from 1 to 4096");
          return false;
        }
        Cap = uint64_t(*Max);
      }
    }
    StringResult = types().getString(Cap);
    return true;
  }
  case F::CopyUserData: {
    if (!CheckArgs(0) || !AddrArg(0))
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
  case F::StkTrace:
    return CheckArgs(0) && (E->getNumArgs() == 0 || IntArg(0));
  case F::Within: {
    auto *Lit = llvm::dyn_cast<StringLiteral>(E->getArg(0)->ignoreParens());
    if (!Lit || Lit->getBytes().empty()) {
      diag(E->getArg(0)->getSourceRange(), diag::err_within_literal);
      return false;
    }
    check(E->getArg(0));
    return true;
  }
  case F::Print:
  case F::Clear: {
    auto *A = llvm::dyn_cast<AggregationExpr>(E->getArg(0)->ignoreParens());
    if (!A || A->hasBrackets()) {
      diag(E->getArg(0)->getSourceRange(), diag::err_needs_aggregation)
          << E->getCalleeName();
      return false;
    }
    return E->getNumArgs() == 1 || (CheckArgs(1) && IntArg(1));
  }
  case F::Exists:
  case F::Delete: {
    auto *AS = llvm::dyn_cast<ArraySubscriptExpr>(E->getArg(0)->ignoreParens());
    auto *DR = AS ? llvm::dyn_cast<DeclRefExpr>(AS->getBase()->ignoreParens())
                  : nullptr;
    VarDecl *D = DR ? lookupVar(DR->getName()) : nullptr;
    if (!D || !D->isAssociativeArray()) {
      diag(E->getArg(0)->getSourceRange(), diag::err_delete_not_map)
          << E->getCalleeName();
      return false;
    }
    const Type *Elem = checkMapAccess(AS, D);
    E->getArg(0)->setType(M, Elem);
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
// Aggregations
//===----------------------------------------------------------------------===//

const Type *SemaChecker::checkAggregationRef(AggregationExpr *E) {
  diag(E->getSourceRange(), diag::err_aggregation_misuse) << E->getName();
  return nullptr;
}

const Type *SemaChecker::checkAggregationAssign(AssignExpr *E,
                                                AggregationExpr *A) {
  using F = BuiltinFunction;
  Expr *RHS = E->getRHS();
  auto *Call = llvm::dyn_cast<CallExpr>(RHS->ignoreParens());
  F Fn = Call ? lookupBuiltinFunction(Call->getCalleeName()).value_or(F::None)
              : F::None;
  if (Cur && Cur->InPredicate) {
    diag(E->getOperatorLoc(), diag::err_side_effect_in_predicate)
        << "aggregation";
    return nullptr;
  }
  if (E->isCompoundAssign() || Fn == F::None || !isAggregationFunction(Fn)) {
    diag(RHS->getSourceRange(), diag::err_agg_needs_function);
    if (Call)
      for (Expr *X : Call->getArgs())
        check(X);
    else
      check(RHS);
    return nullptr;
  }
  Call->setBuiltinID(static_cast<unsigned>(Fn));
  // Keys.
  bool Ok = true;
  for (Expr *K : A->getKeys()) {
    const Type *T = check(K);
    if (T && !T->isRecord() && !T->isVoid())
      T = rvalue(K, T);
    if (!T) {
      Ok = false;
      continue;
    }
    if (!T->isInteger() && !T->isPointer() && !T->isString()) {
      diag(K->getSourceRange(), diag::err_agg_key_type) << T->getName();
      Ok = false;
    }
  }
  // The aggregated value and lhist's bounds.
  const BuiltinFunctionInfo &BI = builtinFunctionInfo(Fn);
  if (!checkArgCount(Call, BI.MinArgs, BI.MaxArgs)) {
    for (Expr *X : Call->getArgs())
      check(X);
    return nullptr;
  }
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    Expr *X = Call->getArg(I);
    const Type *T = rvalue(X, check(X));
    if (!T) {
      Ok = false;
      continue;
    }
    if (!T->isInteger()) {
      diag(X->getSourceRange(), diag::err_call_arg_type)
          << argWhat(I) << Call->getCalleeName() << "an integer"
          << T->getName();
      Ok = false;
    }
  }
  if (Ok && Fn == F::Lhist) {
    std::optional<int64_t> L = evaluate(Call->getArg(1)),
                           H = evaluate(Call->getArg(2)),
                           St = evaluate(Call->getArg(3));
    if (!L || !H || !St || *L >= *H || *St <= 0) {
      diag(Call->getArg(1)->getBeginLoc(), diag::err_lhist_params);
      return nullptr;
    }
  }
  Call->setType(M, builtinResultType(BI.Result));
  // The collector registers the aggregation and compares its uses.
  return types().getVoid();
}

} // namespace tscc
