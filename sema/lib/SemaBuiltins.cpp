//===- SemaBuiltins.cpp - Built-in tables, values and aggregations --------===//
//
// LANGUAGE.md sections 5 and 6: the Builtins.def tables, built-in values and
// aggregation assignments (calls: SemaBuiltinCalls.cpp). What a built-in
// value means depends on the probes of the clause: `__argN` needs an entry
// probe and is typed by the function's prototype in each model, `__rv` needs
// an exit probe, `__errno` a system call exit, and clauses without a process
// have none of them.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/SemaChecker.h"

#include "tscc/AbiNames.h"
#include "tscc/ClosestName.h"
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

/// "count, sum, ..." in Builtins.def order, for err_agg_needs_function.
static std::string aggregationFunctionList() {
  std::string List;
  for (const BuiltinFunctionInfo &F : FunctionTable)
    if (F.isAggregation())
      List += (List.empty() ? "" : ", ") + F.Spelling.str();
  return List;
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

/// The closest of Candidates to a misspelled Name (tscc/ClosestName.h).
static std::string closestSpelling(llvm::StringRef Name,
                                   llvm::ArrayRef<std::string> Candidates) {
  return std::string(closestName(Name, Candidates));
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
    diag(E->getSourceRange(),
         C.MixedUsdt ? diag::err_arg_usdt_mixed : diag::err_arg_ambiguous)
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
// Aggregations
//===----------------------------------------------------------------------===//

const Type *SemaChecker::checkAggregationRef(AggregationExpr *E) {
  diag(E->getSourceRange(), diag::err_aggregation_misuse) << E->getName();
  return nullptr;
}

bool isStackTraceCall(const Expr *E) {
  const auto *Call = llvm::dyn_cast<CallExpr>(E->ignoreParens());
  return Call && Call->getBuiltinID() ==
                     static_cast<unsigned>(BuiltinFunction::StkTrace);
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
    diag(RHS->getSourceRange(), diag::err_agg_needs_function)
        << aggregationFunctionList();
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
    // `@[stktrace()]`: the key is the firing thread's stack, kept as an id
    // the runtime hands out (stack_id) and prints as the frames.
    if (T && isStackTraceCall(K))
      continue;
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
          << std::to_string(I + 1) << Call->getCalleeName() << "an integer"
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
