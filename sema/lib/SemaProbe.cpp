//===- SemaProbe.cpp - Probe specifications and clauses -------------------===//
//
// Turns every probe specification into a ProbeInfo, works out what the
// probes of a clause make available (arguments, return value, errno, a
// process at all), and runs the per-model checks of each clause.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/SemaChecker.h"

#include "tscc/Basic/SourceManager.h"

namespace tscc {

namespace {
diag::ID probeDiagID(const ProbeSpecIssue &I) {
  switch (I.Kind) {
  case ProbeSpecIssueKind::MissingAtAt:
    return diag::err_probe_missing_atat;
  case ProbeSpecIssueKind::UnknownProvider:
    return I.Arg1.empty() ? diag::err_probe_unknown_provider
                          : diag::err_probe_unknown_provider_suggest;
  case ProbeSpecIssueKind::FieldCount:
    return diag::err_probe_field_count;
  case ProbeSpecIssueKind::EmptyField:
    return diag::err_probe_empty_field;
  case ProbeSpecIssueKind::BadPid:
    return diag::err_probe_bad_pid;
  case ProbeSpecIssueKind::BadLocation:
    return diag::err_probe_bad_location;
  case ProbeSpecIssueKind::UnterminatedRegex:
    return diag::err_probe_regex_unterminated;
  case ProbeSpecIssueKind::BadRegex:
    return diag::err_probe_bad_regex;
  case ProbeSpecIssueKind::BadOffset:
    return diag::err_probe_bad_offset;
  case ProbeSpecIssueKind::OffsetWithLocation:
    return diag::err_probe_offset_with_location;
  case ProbeSpecIssueKind::UnknownSyscall:
    return I.Arg1.empty() ? diag::err_probe_unknown_syscall
                          : diag::err_probe_unknown_syscall_suggest;
  case ProbeSpecIssueKind::NoSyscallMatches:
    return diag::err_probe_no_syscall_match;
  case ProbeSpecIssueKind::SyscallOnlyIn:
    return diag::warn_probe_syscall_one_model;
  case ProbeSpecIssueKind::IntervalPid:
    return diag::err_probe_interval_pid;
  case ProbeSpecIssueKind::IntervalClock:
    return diag::err_probe_interval_clock;
  case ProbeSpecIssueKind::BadPeriod:
    return diag::err_probe_bad_period;
  }
  return diag::err_probe_missing_atat;
}
} // namespace

void SemaChecker::checkProbes() {
  Contexts.resize(S.getClauses().size());
  for (Clause *C : S.getClauses()) {
    beginBuffer();
    ClauseInfo CI;
    CI.Id = Info.Clauses.size();
    CI.Node = C;
    PresumedLoc P = SM.getPresumedLoc(C->getBeginLoc());
    CI.Loc = {P.Line, P.Column};
    CI.ProbeFirst = Info.Probes.size();
    for (ProbeSpec *PS : C->getProbes()) {
      ProbeSpecResult R = parseProbeSpec(PS->getText());
      for (const ProbeSpecIssue &I : R.Issues) {
        SourceLocation L = PS->getBeginLoc().getLocWithOffset(I.Offset);
        // Empty fields and unterminated regexes are found by the lexer as
        // well; the same wording makes the engine report them once.
        diagNeutral(L, probeDiagID(I)) << I.Arg0 << I.Arg1;
      }
      ProbeInfo PI = std::move(R.Probe);
      PI.Clause = CI.Id;
      PresumedLoc PL = SM.getPresumedLoc(PS->getBeginLoc());
      PI.Loc = {PL.Line, PL.Column};
      if (PI.PidKind == TSCC_PID_PARAM)
        Info.ParamCount = std::max<uint32_t>(Info.ParamCount, PI.PidValue);
      Info.Probes.push_back(std::move(PI));
    }
    CI.ProbeCount = Info.Probes.size() - CI.ProbeFirst;
    if (C->getPredicate())
      CI.Flags |= TSCC_CLAUSE_HAS_PREDICATE;
    Info.Clauses.push_back(std::move(CI));
    setUpClauseContext(C, Contexts[C->getIndex()]);
    flushBuffer();
  }
}

void SemaChecker::setUpClauseContext(Clause *C, ClauseContext &Ctx) {
  Ctx.C = C;
  Ctx.Index = C->getIndex();
  ClauseInfo &CI = Info.Clauses[Ctx.Index];
  llvm::ArrayRef<ProbeInfo> Probes(Info.Probes.data() + CI.ProbeFirst,
                                   CI.ProbeCount);
  bool AnyNoProcess = false, AnyProcess = false;
  const ProbeInfo *NoProcessProbe = nullptr;
  Ctx.AllExit = Ctx.AllEntry = Ctx.AllSyscall = Ctx.AllSyscallExit = true;
  Ctx.AllUsdt = true;
  bool AnyUsdt = false;
  for (const ProbeInfo &P : Probes) {
    if (isNoProcessProbe(P.Kind)) {
      AnyNoProcess = true;
      if (!NoProcessProbe)
        NoProcessProbe = &P;
    } else {
      AnyProcess = true;
    }
    Ctx.AllExit &= isExitProbe(P.Kind);
    // A USDT probe's arguments are known at its site, like an entry's.
    Ctx.AllEntry &= P.Kind == TSCC_PROBE_UFT_ENTRY ||
                    P.Kind == TSCC_PROBE_SYSCALL_ENTRY ||
                    P.Kind == TSCC_PROBE_USDT;
    Ctx.AllUsdt &= isUsdtProbe(P.Kind);
    AnyUsdt |= isUsdtProbe(P.Kind);
    Ctx.AllSyscall &= isSyscallProbe(P.Kind);
    Ctx.AllSyscallExit &= P.Kind == TSCC_PROBE_SYSCALL_EXIT;
    Ctx.AnyOffset |= P.Kind == TSCC_PROBE_UFT_OFFSET;
  }
  if (Probes.empty())
    Ctx.AllExit = Ctx.AllEntry = Ctx.AllSyscall = Ctx.AllSyscallExit =
        Ctx.AllUsdt = false;
  Ctx.NoProcess = AnyNoProcess;
  if (NoProcessProbe) {
    llvm::StringRef Spec = NoProcessProbe->Spec;
    Ctx.FirstProbeName =
        Spec.take_until([](char Ch) { return Ch == ':'; }).str();
  }
  if (AnyNoProcess && AnyProcess)
    diagNeutral(C->getBeginLoc(), diag::err_clause_mixes_process)
        << Ctx.FirstProbeName;
  if (AnyNoProcess)
    CI.Flags |= TSCC_CLAUSE_NO_PROCESS;
  CI.IsSyscall = Ctx.AllSyscall;
  CI.IsUsdt = Ctx.AllUsdt;

  // The prototype typing __argN/__rv: every probe must agree on it. Only an
  // exact function name can name a prototype.
  for (DataModel X : AllDataModels) {
    unsigned I = modelIndex(X);
    bool First = true;
    for (const ProbeInfo &P : Probes) {
      const FunctionType *F = nullptr;
      if (isUftProbe(P.Kind) && P.FunctionMatch == TSCC_MATCH_EXACT)
        F = CDecls[I]->lookupFunction(P.Function);
      // A syscall and a uft probe without prototype both read `long`s but
      // from different registers: they still share the same C view.
      if (First) {
        Ctx.Proto[I] = F;
        First = false;
      } else if (Ctx.Proto[I] != F) {
        Ctx.ProtoConflict = true;
      }
    }
    CI.Prototype[I] = Ctx.ProtoConflict ? nullptr : Ctx.Proto[I];
  }
  if (!Ctx.AllSyscall) {
    for (const ProbeInfo &P : Probes)
      if (isSyscallProbe(P.Kind))
        Ctx.ProtoConflict = true;
  }
  // USDT arguments come from the note, not from a calling convention: they
  // cannot share `__argN` with other kinds of probes.
  if (AnyUsdt && !Ctx.AllUsdt)
    Ctx.ProtoConflict = Ctx.MixedUsdt = true;
}

void SemaChecker::checkClauses() {
  for (ClauseContext &Ctx : Contexts)
    checkClause(Ctx);
}

void SemaChecker::checkClause(ClauseContext &Ctx) {
  beginBuffer();
  Cur = &Ctx;
  llvm::SmallVector<DataModel, 2> Models;
  if (!Ctx.NoProcess)
    Models.push_back(DataModel::ILP32);
  Models.push_back(DataModel::LP64);
  for (DataModel X : Models) {
    M = X;
    LastPass = X == DataModel::LP64;
    HaveOtherModel = LastPass && !Ctx.NoProcess;
    InModelPass = true;
    Scopes.clear();
    Scopes.emplace_back();
    if (Expr *Pred = Ctx.C->getPredicate()) {
      Ctx.InPredicate = true;
      checkCondition(Pred);
      Ctx.InPredicate = false;
    }
    if (CompoundStmt *Body = Ctx.C->getBody())
      checkCompound(Body, /*NewScope=*/false);
  }
  InModelPass = false;
  flushBuffer();
  Scopes.clear();
  Cur = nullptr;
}

} // namespace tscc
