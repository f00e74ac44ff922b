//===- SemaDump.cpp - Deterministic dump of sema's results ----------------===//
//
// `tscc --dump-sema`: the ScriptInfo tables, then every expression with its
// type in each model (and folded constants / member offsets), in source
// order. The format is for people and FileCheck; it never depends on
// pointer values or hash order.
//
//===----------------------------------------------------------------------===//

#include "tscc/AST/RecursiveASTVisitor.h"
#include "tscc/AbiNames.h"
#include "tscc/Basic/SourceManager.h"
#include "tscc/Sema/Sema.h"
#include "tscc/Sema/Type.h"

#include "llvm/Support/raw_ostream.h"

namespace tscc {

namespace {
void printFields(llvm::raw_ostream &OS, llvm::ArrayRef<FieldInfo> Fields) {
  OS << "[";
  for (size_t I = 0; I < Fields.size(); ++I)
    OS << (I ? " " : "") << fieldKindName(Fields[I].Kind) << ":"
       << Fields[I].Size;
  OS << "]";
}

std::string typeOrNone(const Type *T) { return T ? T->getName() : "-"; }

class ExprDumper : public RecursiveASTVisitor<ExprDumper> {
public:
  ExprDumper(const ScriptInfo &Info, const SourceManager &SM,
             llvm::raw_ostream &OS)
      : Info(Info), SM(SM), OS(OS) {}

  bool visitExpr(Expr *E) {
    PresumedLoc P = SM.getPresumedLoc(E->getBeginLoc());
    OS << "  " << P.Line << ":" << P.Column << " " << E->getKindName();
    if (auto *DR = llvm::dyn_cast<DeclRefExpr>(E))
      OS << " '" << DR->getName() << "'";
    else if (auto *B = llvm::dyn_cast<BuiltinVarExpr>(E))
      OS << " '" << B->getName() << "'";
    else if (auto *ME = llvm::dyn_cast<MemberExpr>(E))
      OS << " '" << (ME->isArrow() ? "->" : ".") << ME->getMemberName() << "'";
    else if (auto *C = llvm::dyn_cast<CallExpr>(E))
      OS << " '"
         << (C->getBuiltinID()
                 ? builtinFunctionName(BuiltinFunction(C->getBuiltinID()))
                 : C->getCalleeName())
         << "'";
    for (DataModel M : AllDataModels) {
      OS << " " << dataModelName(M) << " '" << typeOrNone(E->getType(M)) << "'";
      if (std::optional<int64_t> V = Info.constantFor(E, M))
        OS << " = " << *V;
      if (auto *ME = llvm::dyn_cast<MemberExpr>(E))
        if (const MemberAccess *MA = Info.memberFor(ME, M)) {
          OS << " @" << MA->getByteOffset();
          if (MA->BitWidth)
            OS << "." << (MA->BitOffset % 8) << ":" << *MA->BitWidth;
        }
    }
    OS << "\n";
    dumpImplicitCasts(E);
    if (auto *A = llvm::dyn_cast<AssignExpr>(E);
        A && A->isCompoundAssign() &&
        (A->getComputationType(DataModel::ILP32) ||
         A->getComputationType(DataModel::LP64))) {
      OS << "    computation";
      for (DataModel M : AllDataModels)
        OS << (M == DataModel::ILP32 ? " ILP32 '" : " LP64 '")
           << typeOrNone(A->getComputationType(M)) << "'";
      OS << "\n";
    }
    return true;
  }

private:
  /// Like clang's ImplicitCastExpr lines: what the parent does to the value,
  /// per model, in order (`<ArrayToPointerDecay> 'char *'
  /// <PointerToBoolean> '_Bool'`); `-` for a model without any.
  void dumpImplicitCasts(const Expr *E) {
    bool Any = false;
    for (DataModel M : AllDataModels)
      Any |= E->getDecay(M) || E->getConversion(M);
    if (!Any)
      return;
    OS << "    implicit";
    for (DataModel M : AllDataModels) {
      OS << (M == DataModel::ILP32 ? " ILP32" : " LP64");
      const ImplicitCast *Steps[] = {E->getDecay(M), E->getConversion(M)};
      if (!Steps[0] && !Steps[1])
        OS << " -";
      for (const ImplicitCast *C : Steps)
        if (C)
          OS << " <" << getImplicitCastKindName(C->Kind) << "> '"
             << typeOrNone(C->To) << "'";
    }
    OS << "\n";
  }

  const ScriptInfo &Info;
  const SourceManager &SM;
  llvm::raw_ostream &OS;
};
} // namespace

void dumpSema(const Script &S, const ScriptInfo &Info, const SourceManager &SM,
              llvm::raw_ostream &OS) {
  OS << "header: global_size " << Info.GlobalSize << " global_align "
     << Info.GlobalAlign << " thread_size ILP32 "
     << Info.ThreadSize[TSCC_DM_ILP32] << " LP64 "
     << Info.ThreadSize[TSCC_DM_LP64] << " thread_bitmap "
     << Info.ThreadBitmapSize << " params " << Info.ParamCount;
  if (Info.HeaderFlags & TSCC_HDR_USES_STACK)
    OS << " uses-stack";
  if (Info.HeaderFlags & TSCC_HDR_USES_EXIT)
    OS << " uses-exit";
  OS << "\n";

  OS << "variables:\n";
  for (const VariableInfo &V : Info.Variables) {
    OS << "  #" << V.Id << " " << V.Name << " " << varStorageName(V.Storage);
    if (V.MapId >= 0)
      OS << " map " << V.MapId;
    if (V.Storage == VarStorage::Auto)
      OS << " clause " << V.Clause;
    if (V.Storage == VarStorage::Thread && V.MapId < 0)
      OS << " bit " << V.WrittenBit;
    for (unsigned X = 0; X < TSCC_DM_COUNT; ++X) {
      OS << " " << dataModelName(AllDataModels[X]) << " '"
         << typeOrNone(V.Types[X]) << "'";
      if (V.MapId < 0 && V.Storage != VarStorage::Auto)
        OS << " size " << V.Sizes[X] << " offset " << V.Offsets[X];
    }
    if (V.Init) {
      OS << " init ";
      if (V.Init->IsString)
        OS << '"' << V.Init->Str << '"';
      else
        OS << V.Init->Int;
    }
    OS << "\n";
  }

  OS << "maps:\n";
  for (const MapInfo &Mp : Info.Maps) {
    OS << "  #" << Mp.Id << " " << Mp.Name
       << ((Mp.Flags & TSCC_MAP_THREAD) ? " thread" : " global") << " key ";
    for (size_t I = 0; I < Mp.Keys.size(); ++I)
      OS << (I ? "+" : "") << fieldKindName(Mp.Keys[I].Kind) << ":"
         << Mp.Keys[I].Size;
    OS << " value " << fieldKindName(Mp.ValueKind) << ":" << Mp.ValueSize
       << "\n";
  }

  OS << "aggregations:\n";
  for (const AggregationInfo &A : Info.Aggregations) {
    OS << "  #" << A.Id << " @" << A.Name << " " << aggKindName(A.Kind)
       << " keys ";
    printFields(OS, A.KeyFields);
    if (A.Kind == TSCC_AGG_LHIST)
      OS << " lhist " << A.LhistLo << " " << A.LhistHi << " " << A.LhistStep;
    OS << "\n";
  }

  OS << "formats:\n";
  for (const FormatInfo &F : Info.Formats) {
    OS << "  #" << F.Id << " clause " << F.Clause
       << (F.Kind == FormatKind::Printf ? " printf \"" : " trace \"");
    OS.write_escaped(F.Text) << "\" ";
    printFields(OS, F.Fields);
    OS << "\n";
  }

  OS << "within:";
  for (const std::string &W : Info.WithinNames)
    OS << " " << W;
  OS << "\n";

  OS << "clauses:\n";
  for (const ClauseInfo &C : Info.Clauses) {
    OS << "  #" << C.Id << " line " << C.Loc.Line << " probes " << C.ProbeFirst
       << "+" << C.ProbeCount;
    if (C.Flags & TSCC_CLAUSE_HAS_PREDICATE)
      OS << " predicate";
    if (C.Flags & TSCC_CLAUSE_USES_THREAD)
      OS << " uses-thread";
    if (C.Flags & TSCC_CLAUSE_NO_PROCESS)
      OS << " no-process";
    if (C.IsSyscall)
      OS << " syscall";
    if (C.MaxArg)
      OS << " max-arg " << C.MaxArg;
    for (unsigned X = 0; X < TSCC_DM_COUNT; ++X)
      if (C.Prototype[X])
        OS << " " << dataModelName(AllDataModels[X]) << " '"
           << C.Prototype[X]->getName() << "'";
    OS << "\n";
    for (unsigned I = C.ProbeFirst; I < C.ProbeFirst + C.ProbeCount; ++I) {
      const ProbeInfo &P = Info.Probes[I];
      OS << "    probe " << probeKindName(P.Kind) << " pid ";
      if (P.PidKind == TSCC_PID_ANY)
        OS << "*";
      else if (P.PidKind == TSCC_PID_PARAM)
        OS << "$" << P.PidValue;
      else
        OS << P.PidValue;
      OS << " module " << matchKindName(P.ModuleMatch) << " '" << P.Module
         << "' function " << matchKindName(P.FunctionMatch) << " '"
         << P.Function << "'";
      if (P.Kind == TSCC_PROBE_UFT_OFFSET)
        OS << " offset " << P.Offset;
      if (P.Kind == TSCC_PROBE_INTERVAL)
        OS << " period " << P.Offset;
      if (P.Kind == TSCC_PROBE_USDT)
        OS << " provider " << matchKindName(P.ProviderMatch) << " '"
           << P.Provider << "'";
      if (P.Kind == TSCC_PROBE_SYSCALL_ENTRY ||
          P.Kind == TSCC_PROBE_SYSCALL_EXIT)
        OS << " nr " << P.SyscallNumbers[TSCC_DM_ILP32] << "/"
           << P.SyscallNumbers[TSCC_DM_LP64];
      OS << "\n";
    }
  }

  OS << "expressions:\n";
  ExprDumper(Info, SM, OS).traverse(const_cast<Script *>(&S));
}

} // namespace tscc
