//===- CGTables.cpp - ScriptInfo to the abi.h tables ----------------------===//
//
// Sema numbers every table row; this file copies ScriptInfo into the abi.h
// structs one to one, adds the fields of map and aggregation keys after the
// format fields, and appends the synthesised initialiser clause if there is
// one. Code offsets are left for the object emitter to fill in.
//
//===----------------------------------------------------------------------===//

#include "CodeGenFunction.h"
#include "CodeGenModule.h"

#include <cstring>

using namespace llvm;
using namespace tscc;

static uint32_t appendFields(ObjectTables &T, ArrayRef<FieldInfo> Fields) {
  uint32_t First = static_cast<uint32_t>(T.Fields.size());
  for (const FieldInfo &F : Fields)
    T.Fields.push_back({static_cast<uint32_t>(F.Kind), F.Size});
  return First;
}

static tscc_probe makeProbe(ObjectStringTable &Str, const ProbeInfo &P) {
  tscc_probe R;
  std::memset(&R, 0, sizeof(R));
  R.kind = P.Kind;
  R.clause = P.Clause;
  R.spec = Str.add(P.Spec);
  R.pid_kind = P.PidKind;
  R.pid_value = P.PidValue;
  R.module = Str.add(P.Module);
  R.module_match = P.ModuleMatch;
  R.function = Str.add(P.Function);
  R.function_match = P.FunctionMatch;
  R.offset = P.Offset;
  if (P.Kind == TSCC_PROBE_USDT)
    R.offset = TSCC_USDT_MAKE_OFFSET(Str.add(P.Provider), P.ProviderMatch);
  return R;
}

static void addClauses(ObjectTables &T, const ScriptInfo &Info, const Script &S,
                       ArrayRef<uint32_t> ExtraFlags,
                       const std::vector<bool> &SharedState,
                       const std::vector<bool> &AggUpdates) {
  for (const ClauseInfo &CI : Info.Clauses) {
    tscc_clause C = ObjectTables::makeClause(CI.Id);
    C.flags = CI.Flags | (CI.Id < ExtraFlags.size() ? ExtraFlags[CI.Id] : 0) |
              TSCC_CLAUSE_CTX_LISTED;
    if (CI.Id < SharedState.size() && !SharedState[CI.Id] &&
        !(C.flags & TSCC_CLAUSE_NO_PROCESS))
      C.flags |= CI.Id < AggUpdates.size() && AggUpdates[CI.Id]
                     ? TSCC_CLAUSE_THREAD_OWN_AGGS
                     : TSCC_CLAUSE_THREAD_OWN;
    const Clause *Node =
        CI.Node
            ? CI.Node
            : (CI.Id < S.getClauses().size() ? S.getClauses()[CI.Id] : nullptr);
    if (Node && Node->getPredicate())
      C.flags |= TSCC_CLAUSE_HAS_PREDICATE;
    C.probe_first = CI.ProbeFirst;
    C.probe_count = CI.ProbeCount;
    C.source_line = CI.Loc.Line;
    C.source_column = CI.Loc.Column;
    T.Clauses.push_back(C);
  }
}

ObjectTables CodeGenModule::buildTables(StringRef SourceName,
                                        StringRef SourceText) const {
  ObjectTables T;
  tscc_header &H = T.Header;
  H.global_size = Info.GlobalSize;
  H.global_align = Info.GlobalAlign ? Info.GlobalAlign : 8;
  for (unsigned M = 0; M != TSCC_DM_COUNT; ++M)
    H.thread_size[M] = Info.ThreadSize[M];
  H.thread_align = Info.ThreadAlign ? Info.ThreadAlign : 8;
  H.param_count = Info.ParamCount;
  H.flags = Info.HeaderFlags | ExtraHeaderFlags;

  addClauses(T, Info, S, ClauseFlags, SharedState, AggUpdates);
  for (const ProbeInfo &P : Info.Probes)
    T.Probes.push_back(makeProbe(T.Strings, P));

  for (const FormatInfo &F : Info.Formats) {
    tscc_format R;
    R.text = T.Strings.add(F.Kind == FormatKind::Printf ? F.Text : "");
    R.clause = F.Clause;
    R.field_first = appendFields(T, F.Fields);
    R.field_count = static_cast<uint32_t>(F.Fields.size());
    T.Formats.push_back(R);
  }
  for (const MapInfo &Mp : Info.Maps) {
    tscc_map R;
    R.name = T.Strings.add(Mp.Name);
    R.flags = Mp.Flags |
              tscc_map_key_count_flags(static_cast<uint32_t>(Mp.Keys.size()));
    R.key_size = Mp.KeySize;
    R.value_size = Mp.ValueSize;
    R.key_field = appendFields(T, Mp.Keys);
    R.value_kind = Mp.ValueKind;
    T.Maps.push_back(R);
  }
  for (const AggregationInfo &A : Info.Aggregations) {
    tscc_agg R;
    std::memset(&R, 0, sizeof(R));
    R.name = T.Strings.add(A.Name);
    R.kind = A.Kind;
    R.key_size = A.KeySize;
    R.key_field_first = appendFields(T, A.KeyFields);
    R.key_field_count = static_cast<uint32_t>(A.KeyFields.size());
    R.lhist_lo = A.LhistLo;
    R.lhist_hi = A.LhistHi;
    R.lhist_step = A.LhistStep;
    T.Aggs.push_back(R);
  }
  for (const std::string &W : Info.WithinNames)
    T.Within.push_back(T.Strings.add(W));

  if (SyntheticInit) {
    // Initial values of globals when the script has no BEGIN clause: one
    // more BEGIN clause, after the script's own, so no index moves.
    tscc_clause C = ObjectTables::makeClause(InitClause);
    C.flags = TSCC_CLAUSE_NO_PROCESS;
    C.probe_first = static_cast<uint32_t>(T.Probes.size());
    C.probe_count = 1;
    T.Clauses.push_back(C);
    ProbeInfo P;
    P.Kind = TSCC_PROBE_BEGIN;
    P.Clause = InitClause;
    P.Spec = "@@BEGIN";
    T.Probes.push_back(makeProbe(T.Strings, P));
  }
  T.finishHeader(SourceName, SourceText);
  return T;
}

void CodeGenModule::emitSyntheticInitClause() {
  Clause Synthetic(SourceRange(), InitClause, {}, nullptr, SourceLocation(),
                   nullptr);
  for (tscc_data_model Stream : {TSCC_DM_ILP32, TSCC_DM_LP64})
    CodeGenFunction(*this, Synthetic, Stream, /*IsPredicate=*/false).emit();
}
