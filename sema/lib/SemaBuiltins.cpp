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
#include "tscc/AbiNames.h"
#include "tscc/ClosestName.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <vector>

namespace tscc {

//===----------------------------------------------------------------------===//
// Name tables
//===----------------------------------------------------------------------===//

std::optional<BuiltinFunction> lookupBuiltinFunction(llvm::StringRef Name) {
  using F = BuiltinFunction;
  F R = llvm::StringSwitch<F>(Name)
            .Case("printf", F::Printf)
            .Case("trace", F::Trace)
            .Case("exit", F::Exit)
            .Case("timestamp", F::Timestamp)
            .Case("diff_time", F::DiffTime)
            .Case("get_userstring", F::GetUserString)
            .Case("copy_userdata", F::CopyUserData)
            .Case("stktrace", F::StkTrace)
            .Case("within", F::Within)
            .Case("print", F::Print)
            .Case("clear", F::Clear)
            .Case("delete", F::Delete)
            .Case("exists", F::Exists)
            .Case("strlen", F::StrLen)
            .Case("strcontains", F::StrContains)
            .Case("strstr", F::StrStr)
            .Case("substr", F::Substr)
            .Case("count", F::Count)
            .Case("sum", F::Sum)
            .Case("min", F::Min)
            .Case("max", F::Max)
            .Case("avg", F::Avg)
            .Case("stats", F::Stats)
            .Case("hist", F::Hist)
            .Case("lhist", F::Lhist)
            .Default(F::None);
  if (R == F::None)
    return std::nullopt;
  return R;
}

llvm::StringRef builtinFunctionName(BuiltinFunction F) {
  static const char *const Names[] = {
      "",          "printf", "trace",          "exit",          "timestamp",
      "diff_time", "get_userstring",           "copy_userdata", "stktrace",
      "within",    "print",  "clear",          "delete",        "exists",
      "strlen",
      "strcontains", "strstr", "substr",       "count",
      "sum",       "min",    "max",            "avg",           "stats",
      "hist",      "lhist"};
  unsigned I = static_cast<unsigned>(F);
  return I < std::size(Names) ? Names[I] : "";
}

std::optional<BuiltinVar> classifyBuiltinVar(llvm::StringRef Name,
                                             unsigned *ArgIndex) {
  using V = BuiltinVar;
  llvm::StringRef Rest = Name;
  if (Rest.consume_front("__arg")) {
    unsigned N = 0;
    if (Rest.empty() || Rest.front() == '0' || Rest.getAsInteger(10, N) ||
        N < 1 || N > MaxProbeArgs)
      return std::nullopt;
    if (ArgIndex)
      *ArgIndex = N;
    return V::Arg;
  }
  std::optional<V> R = llvm::StringSwitch<std::optional<V>>(Name)
                           .Case("__pid", V::Pid)
                           .Case("__tid", V::Tid)
                           .Case("__ppid", V::Ppid)
                           .Case("__uid", V::Uid)
                           .Case("__pname", V::Pname)
                           .Case("__func", V::Func)
                           .Case("__module", V::Module)
                           .Case("__probe", V::Probe)
                           .Case("__ip", V::Ip)
                           .Case("__datamodel", V::DataModel)
                           .Case("__rv", V::Rv)
                           .Case("__errno", V::Errno)
                           .Default(std::nullopt);
  return R;
}

/// The closest of Candidates to a misspelled Name (tscc/ClosestName.h).
static std::string closestSpelling(llvm::StringRef Name,
                                   llvm::ArrayRef<std::string> Candidates) {
  return std::string(closestName(Name, Candidates));
}

std::string suggestBuiltinVar(llvm::StringRef Name) {
  static const std::vector<std::string> Names = [] {
    std::vector<std::string> V{"__pid",    "__tid",   "__ppid",  "__uid",
                               "__pname",  "__func",  "__module", "__probe",
                               "__ip",     "__datamodel", "__rv", "__errno"};
    for (unsigned I = 1; I <= MaxProbeArgs; ++I)
      V.push_back("__arg" + std::to_string(I));
    return V;
  }();
  return closestSpelling(Name, Names);
}

std::string suggestBuiltinFunction(llvm::StringRef Name) {
  static const std::vector<std::string> Names = [] {
    std::vector<std::string> V;
    for (unsigned I = 1;; ++I) {
      llvm::StringRef N = builtinFunctionName(static_cast<BuiltinFunction>(I));
      if (N.empty())
        break;
      V.push_back(N.str());
    }
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
  bool NeedsProcess = *V != BuiltinVar::Probe && *V != BuiltinVar::DataModel;
  if (Cur && Cur->NoProcess && NeedsProcess) {
    diag(E->getSourceRange(), diag::err_builtin_no_process)
        << E->getName() << Cur->FirstProbeName;
    return nullptr;
  }
  switch (*V) {
  case BuiltinVar::Pid:
  case BuiltinVar::Tid:
  case BuiltinVar::Ppid:
    return types().getInt();
  case BuiltinVar::Uid:
    return types().getUInt();
  case BuiltinVar::Pname:
  case BuiltinVar::Func:
  case BuiltinVar::Module:
  case BuiltinVar::Probe:
    return types().getString();
  case BuiltinVar::Ip:
    return types().getPointer(types().getVoid());
  case BuiltinVar::DataModel:
    recordConstant(E, dataModelBits(M));
    return types().getInt();
  case BuiltinVar::Arg:
  case BuiltinVar::Rv:
  case BuiltinVar::Errno:
    return checkArgOrRv(E, *V, N);
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
bool hasSideEffect(BuiltinFunction F) {
  switch (F) {
  case BuiltinFunction::Timestamp:
  case BuiltinFunction::DiffTime:
  case BuiltinFunction::GetUserString:
  case BuiltinFunction::Within:
  case BuiltinFunction::Exists:
  case BuiltinFunction::StrLen:
  case BuiltinFunction::StrContains:
  case BuiltinFunction::StrStr:
  case BuiltinFunction::Substr:
    return false;
  default:
    return true;
  }
}

/// "argument 2 of 'f'" as err_call_arg_type's first two arguments.
std::string argWhat(unsigned I) { return std::to_string(I + 1); }
} // namespace

const Type *SemaChecker::checkCall(CallExpr *E) {
  using F = BuiltinFunction;
  std::optional<F> Fn = lookupBuiltinFunction(E->getCalleeName());
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
  if (Cur && Cur->InPredicate && hasSideEffect(*Fn)) {
    diag(E->getCalleeLoc(), diag::err_side_effect_in_predicate)
        << ("call to '" + E->getCalleeName() + "'").str();
    return nullptr;
  }
  if (isAggregationFunction(*Fn)) {
    diag(E->getCalleeLoc(), diag::err_agg_function_context)
        << E->getCalleeName();
    return nullptr;
  }
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
  const Type *Void = types().getVoid();
  if (Cur && Cur->NoProcess &&
      (*Fn == F::GetUserString || *Fn == F::CopyUserData ||
       *Fn == F::StkTrace || *Fn == F::Within)) {
    diag(E->getCalleeLoc(), diag::err_builtin_no_process)
        << (E->getCalleeName() + "()").str() << Cur->FirstProbeName;
    return nullptr;
  }
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
  switch (*Fn) {
  case F::StrLen:
    if (!checkArgCount(E, 1, 1) || !CheckArgs(0) || !StrArg(0))
      return nullptr;
    return types().getLongLong();
  case F::StrContains:
    if (!checkArgCount(E, 2, 2) || !CheckArgs(0) || !StrArg(0) || !StrArg(1))
      return nullptr;
    return types().getInt();
  case F::StrStr:
    if (!checkArgCount(E, 2, 2) || !CheckArgs(0) || !StrArg(0) || !StrArg(1))
      return nullptr;
    return E->getArg(0)->getType(M); // a suffix fits in the same capacity
  case F::Substr:
    if (!checkArgCount(E, 2, 3) || !CheckArgs(0) || !StrArg(0) || !IntArg(1) ||
        (E->getNumArgs() == 3 && !IntArg(2)))
      return nullptr;
    return E->getArg(0)->getType(M);
  case F::Printf:
    return checkPrintf(E);
  case F::Trace:
    return checkTrace(E);
  case F::Exit:
    if (!checkArgCount(E, 0, 0))
      return nullptr;
    Info.HeaderFlags |= TSCC_HDR_USES_EXIT;
    return Void;
  case F::Timestamp:
    return checkArgCount(E, 0, 0) ? types().getULongLong() : nullptr;
  case F::DiffTime: {
    if (!checkArgCount(E, 3, 3))
      return nullptr;
    bool Ok = check(E->getArg(0)) && check(E->getArg(1));
    Ok = Ok && IntArg(0) && IntArg(1);
    auto *Unit = llvm::dyn_cast<DeclRefExpr>(E->getArg(2)->ignoreParens());
    if (!Unit || !lookupTimeUnit(Unit->getName()) ||
        lookupVar(Unit->getName())) {
      diag(E->getArg(2)->getSourceRange(), diag::err_diff_time_unit);
      return nullptr;
    }
    check(E->getArg(2));
    return Ok ? types().getLongLong() : nullptr;
  }
  case F::GetUserString: {
    if (!checkArgCount(E, 1, 2) || !CheckArgs(0) || !AddrArg(0))
      return nullptr;
    uint64_t Cap = StringType::DefaultCapacity;
    if (E->getNumArgs() == 2) {
      if (!IntArg(1))
        return nullptr;
      // A constant bound sizes the String; a computed one is applied at
      // run time within the default capacity.
      if (std::optional<int64_t> Max = evaluate(E->getArg(1))) {
        if (*Max < 1 || *Max > 4096) {
          ArgError(1, "a length from 1 to 4096");
          return nullptr;
        }
        Cap = uint64_t(*Max);
      }
    }
    return types().getString(Cap);
  }
  case F::CopyUserData: {
    if (!checkArgCount(E, 2, 2) || !CheckArgs(0) || !AddrArg(0))
      return nullptr;
    Expr *Dest = E->getArg(1);
    auto *DR = llvm::dyn_cast<DeclRefExpr>(Dest->ignoreParens());
    const Type *DT = Dest->getType(M);
    if (DR && DR->getDecl() && !DT)
      return nullptr; // the variable's type was already diagnosed
    if (!DR || !DR->getDecl() || DT->isString()) {
      diag(Dest->getSourceRange(), diag::err_copy_userdata_dest);
      return nullptr;
    }
    return Void;
  }
  case F::StkTrace:
    if (!checkArgCount(E, 0, 1) || !CheckArgs(0) ||
        (E->getNumArgs() == 1 && !IntArg(0)))
      return nullptr;
    Info.HeaderFlags |= TSCC_HDR_USES_STACK;
    return Void;
  case F::Within: {
    if (!checkArgCount(E, 1, 1))
      return nullptr;
    auto *Lit = llvm::dyn_cast<StringLiteral>(E->getArg(0)->ignoreParens());
    if (!Lit || Lit->getBytes().empty()) {
      diag(E->getArg(0)->getSourceRange(), diag::err_within_literal);
      return nullptr;
    }
    check(E->getArg(0));
    if (LastPass) {
      auto It = llvm::find(Info.WithinNames, Lit->getBytes());
      unsigned Idx = It - Info.WithinNames.begin();
      if (It == Info.WithinNames.end())
        Info.WithinNames.push_back(Lit->getBytes().str());
      Info.WithinOfCall[E] = Idx;
    }
    return types().getInt();
  }
  case F::Print:
  case F::Clear: {
    unsigned Max = *Fn == F::Print ? 2 : 1;
    if (!checkArgCount(E, 1, Max))
      return nullptr;
    auto *A = llvm::dyn_cast<AggregationExpr>(E->getArg(0)->ignoreParens());
    if (!A || A->hasBrackets()) {
      diag(E->getArg(0)->getSourceRange(), diag::err_needs_aggregation)
          << E->getCalleeName();
      return nullptr;
    }
    if (LastPass)
      AggReads.push_back({A, A->getBeginLoc()});
    if (E->getNumArgs() == 2 && (!CheckArgs(1) || !IntArg(1)))
      return nullptr;
    return Void;
  }
  case F::Exists:
  case F::Delete: {
    if (!checkArgCount(E, 1, 1))
      return nullptr;
    auto *AS = llvm::dyn_cast<ArraySubscriptExpr>(E->getArg(0)->ignoreParens());
    auto *DR = AS ? llvm::dyn_cast<DeclRefExpr>(AS->getBase()->ignoreParens())
                  : nullptr;
    VarDecl *D = DR ? lookupVar(DR->getName()) : nullptr;
    if (!D || !D->isAssociativeArray()) {
      diag(E->getArg(0)->getSourceRange(), diag::err_delete_not_map)
          << E->getCalleeName();
      return nullptr;
    }
    const Type *Elem = checkMapAccess(AS, D);
    E->getArg(0)->setType(M, Elem);
    if (*Fn == F::Exists)
      return Elem ? types().getInt() : nullptr;
    return Void;
  }
  default:
    break;
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Aggregations
//===----------------------------------------------------------------------===//

const Type *SemaChecker::checkAggregationRef(AggregationExpr *E) {
  diag(E->getSourceRange(), diag::err_aggregation_misuse) << E->getName();
  return nullptr;
}

namespace {
tscc_agg_kind aggKind(BuiltinFunction F) {
  switch (F) {
  case BuiltinFunction::Count: return TSCC_AGG_COUNT;
  case BuiltinFunction::Sum: return TSCC_AGG_SUM;
  case BuiltinFunction::Min: return TSCC_AGG_MIN;
  case BuiltinFunction::Max: return TSCC_AGG_MAX;
  case BuiltinFunction::Avg: return TSCC_AGG_AVG;
  case BuiltinFunction::Stats: return TSCC_AGG_STATS;
  case BuiltinFunction::Hist: return TSCC_AGG_HIST;
  case BuiltinFunction::Lhist: return TSCC_AGG_LHIST;
  default: return TSCC_AGG_COUNT;
  }
}

std::string describeKeys(llvm::ArrayRef<FieldInfo> Keys) {
  std::string S;
  for (const FieldInfo &F : Keys) {
    if (!S.empty())
      S += ", ";
    switch (F.Kind) {
    case TSCC_FIELD_S64: S += "signed integer"; break;
    case TSCC_FIELD_U64: S += "unsigned integer"; break;
    case TSCC_FIELD_PTR: S += "pointer"; break;
    case TSCC_FIELD_STRING: S += "String"; break;
    case TSCC_FIELD_STACK_ID: S += "stack"; break;
    default: S += "value"; break;
    }
  }
  return S.empty() ? "no key" : S;
}
} // namespace

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
  std::vector<FieldInfo> Keys;
  for (Expr *K : A->getKeys()) {
    const Type *T = check(K);
    // `@[stktrace()]`: the key is the firing thread's stack, kept as an id
    // the runtime hands out (stack_id) and prints as the frames.
    if (T && isStackTraceCall(K)) {
      Keys.push_back(FieldInfo{TSCC_FIELD_STACK_ID, 8});
      continue;
    }
    if (T && !T->isRecord() && !T->isVoid())
      T = rvalue(K, T);
    if (!T) {
      Ok = false;
      continue;
    }
    if (!T->isInteger() && !T->isPointer() && !T->isString()) {
      diag(K->getSourceRange(), diag::err_agg_key_type) << T->getName();
      Ok = false;
      continue;
    }
    Keys.push_back(fieldForValue(formatArgType(T)));
  }
  // The aggregated value and lhist's bounds.
  unsigned Want = Fn == F::Count ? 0 : Fn == F::Lhist ? 4 : 1;
  if (!checkArgCount(Call, Want, Want)) {
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
  int64_t Lo = 0, Hi = 0, Step = 0;
  if (Ok && Fn == F::Lhist) {
    std::optional<int64_t> L = evaluate(Call->getArg(1)),
                           H = evaluate(Call->getArg(2)),
                           St = evaluate(Call->getArg(3));
    if (!L || !H || !St || *L >= *H || *St <= 0) {
      diag(Call->getArg(1)->getBeginLoc(), diag::err_lhist_params);
      return nullptr;
    }
    Lo = *L;
    Hi = *H;
    Step = *St;
  }
  Call->setType(M, types().getLongLong());
  if (!Ok || !LastPass)
    return types().getVoid();

  // Register, or check against the first assignment of this name.
  tscc_agg_kind Kind = aggKind(Fn);
  auto [It, New] = AggFirstUse.try_emplace(
      A->getName(), AggUse{Kind, Keys, A->getBeginLoc()});
  if (New) {
    AggregationInfo AI;
    AI.Id = Info.Aggregations.size();
    AI.Name = A->getName().str();
    AI.Kind = Kind;
    AI.KeyFields = Keys;
    for (const FieldInfo &K : Keys)
      AI.KeySize += K.Size;
    AI.LhistLo = Lo;
    AI.LhistHi = Hi;
    AI.LhistStep = Step;
    PresumedLoc P = SM.getPresumedLoc(A->getBeginLoc());
    AI.Loc = {P.Line, P.Column};
    AggIndex[A->getName()] = AI.Id;
    Info.Aggregations.push_back(std::move(AI));
  } else {
    const AggUse &First = It->second;
    const AggregationInfo &AI = Info.Aggregations[AggIndex[A->getName()]];
    bool SameKeys = First.Keys.size() == Keys.size();
    for (size_t I = 0; SameKeys && I < Keys.size(); ++I)
      SameKeys = First.Keys[I].Kind == Keys[I].Kind;
    if (First.Kind != Kind ||
        (Kind == TSCC_AGG_LHIST &&
         (AI.LhistLo != Lo || AI.LhistHi != Hi || AI.LhistStep != Step))) {
      diagNeutral(Call->getCalleeLoc(), diag::err_agg_kind_mismatch)
          << A->getName() << aggKindName(First.Kind) << aggKindName(Kind);
      PendingNeutral.back().Notes.push_back(
          PendingDiag{diag::note_agg_first_use, First.Loc, {}, {A->getName().str()}, {}});
    } else if (!SameKeys) {
      diagNeutral(A->getBeginLoc(), diag::err_agg_key_mismatch)
          << A->getName() << describeKeys(Keys) << describeKeys(First.Keys);
      PendingNeutral.back().Notes.push_back(
          PendingDiag{diag::note_agg_first_use, First.Loc, {}, {A->getName().str()}, {}});
    }
  }
  Info.AggregationOfExpr[A] = AggIndex[A->getName()];
  return types().getVoid();
}

} // namespace tscc
