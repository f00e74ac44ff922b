//===- CodeGenModule.cpp - Per-script IR generation state -----------------===//

#include "CodeGenModule.h"
#include "CodeGenFunction.h"

#include "tscc/Basic/Diagnostic.h"
#include "tscc/CodeGen/ObjectTables.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"

#include <cstddef>

using namespace llvm;
using namespace tscc;

CodeGenModule::CodeGenModule(Module &M, const Script &S, const ScriptInfo &Info,
                             DiagnosticsEngine *Diags)
    : M(M), S(S), Info(Info), Diags(Diags), ClauseFlags(Info.Clauses.size(), 0),
      SharedState(Info.Clauses.size(), false),
      AggUpdates(Info.Clauses.size(), false) {}

llvm::FunctionType *CodeGenModule::getHelperType(Helper H) {
  LLVMContext &C = getLLVMContext();
  llvm::Type *Ptr = llvm::PointerType::get(C, 0);
  llvm::Type *I32 = llvm::Type::getInt32Ty(C), *I64 = llvm::Type::getInt64Ty(C);
  llvm::Type *Void = llvm::Type::getVoidTy(C);
  switch (H) {
  case Helper::ReadMem:
    return llvm::FunctionType::get(I32, {Ptr, I64, Ptr, I64}, false);
  case Helper::ReadStr:
    return llvm::FunctionType::get(I64, {Ptr, I64, Ptr, I64}, false);
  case Helper::Emit:
    return llvm::FunctionType::get(Void, {Ptr, Ptr, I32}, false);
  case Helper::ClockNs:
    return llvm::FunctionType::get(I64, {Ptr}, false);
  case Helper::MapLookup:
    return llvm::FunctionType::get(Ptr, {Ptr, I32, Ptr, I32, I32}, false);
  case Helper::MapDelete:
    return llvm::FunctionType::get(Void, {Ptr, I32, Ptr, I32}, false);
  case Helper::AggUpdate:
    return llvm::FunctionType::get(Void, {Ptr, I32, Ptr, I32, I64}, false);
  case Helper::AggPrint:
    return llvm::FunctionType::get(Void, {Ptr, I32, I64}, false);
  case Helper::AggClear:
    return llvm::FunctionType::get(Void, {Ptr, I32}, false);
  case Helper::RequestExit:
    return llvm::FunctionType::get(Void, {Ptr}, false);
  case Helper::Within:
    return llvm::FunctionType::get(I32, {Ptr, I32}, false);
  case Helper::StackTrace:
  case Helper::Fault:
    return llvm::FunctionType::get(Void, {Ptr, I32}, false);
  case Helper::StackId:
    return llvm::FunctionType::get(I64, {Ptr, I32}, false);
  case Helper::Comm:
    return llvm::FunctionType::get(I64, {Ptr, Ptr, I64}, false);
  }
  llvm_unreachable("unknown helper");
}

uint32_t CodeGenModule::getHelperOffset(Helper H) {
  switch (H) {
  case Helper::ReadMem:
    return offsetof(tscc_helpers, read_mem);
  case Helper::ReadStr:
    return offsetof(tscc_helpers, read_str);
  case Helper::Emit:
    return offsetof(tscc_helpers, emit);
  case Helper::ClockNs:
    return offsetof(tscc_helpers, clock_ns);
  case Helper::MapLookup:
    return offsetof(tscc_helpers, map_lookup);
  case Helper::MapDelete:
    return offsetof(tscc_helpers, map_delete);
  case Helper::AggUpdate:
    return offsetof(tscc_helpers, agg_update);
  case Helper::AggPrint:
    return offsetof(tscc_helpers, agg_print);
  case Helper::AggClear:
    return offsetof(tscc_helpers, agg_clear);
  case Helper::RequestExit:
    return offsetof(tscc_helpers, request_exit);
  case Helper::Within:
    return offsetof(tscc_helpers, within);
  case Helper::StackTrace:
    return offsetof(tscc_helpers, stack_trace);
  case Helper::Fault:
    return offsetof(tscc_helpers, fault);
  case Helper::StackId:
    return offsetof(tscc_helpers, stack_id);
  case Helper::Comm:
    return offsetof(tscc_helpers, comm);
  }
  llvm_unreachable("unknown helper");
}

StringRef CodeGenModule::getHelperName(Helper H) {
  switch (H) {
  case Helper::ReadMem:
    return "read_mem";
  case Helper::ReadStr:
    return "read_str";
  case Helper::Emit:
    return "emit";
  case Helper::ClockNs:
    return "clock_ns";
  case Helper::MapLookup:
    return "map_lookup";
  case Helper::MapDelete:
    return "map_delete";
  case Helper::AggUpdate:
    return "agg_update";
  case Helper::AggPrint:
    return "agg_print";
  case Helper::AggClear:
    return "agg_clear";
  case Helper::RequestExit:
    return "request_exit";
  case Helper::Within:
    return "within";
  case Helper::StackTrace:
    return "stack_trace";
  case Helper::Fault:
    return "fault";
  case Helper::StackId:
    return "stack_id";
  case Helper::Comm:
    return "comm";
  }
  llvm_unreachable("unknown helper");
}

Constant *CodeGenModule::getStringLiteral(StringRef Bytes) {
  Constant *&Slot = Literals[Bytes];
  if (Slot)
    return Slot;
  Constant *Init = ConstantDataArray::getString(getLLVMContext(), Bytes,
                                                /*AddNull=*/true);
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Init, ".str");
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  Slot = GV;
  return GV;
}

void CodeGenModule::errorUnsupported(SourceRange Range, StringRef What) {
  HadError = true;
  if (Diags)
    Diags->report(Range, diag::err_codegen_unsupported) << What;
}

void CodeGenModule::errorInternal(SourceRange Range, StringRef What) {
  HadError = true;
  if (Diags)
    Diags->report(Range, diag::err_codegen_failed) << What;
}

void CodeGenModule::addClauseFlags(unsigned Clause, uint32_t Flags) {
  if (Clause < ClauseFlags.size())
    ClauseFlags[Clause] |= Flags;
}

void CodeGenModule::noteAggUpdate(unsigned Clause) {
  if (Clause < AggUpdates.size())
    AggUpdates[Clause] = true;
}

void CodeGenModule::noteSharedState(unsigned Clause) {
  if (Clause < SharedState.size())
    SharedState[Clause] = true;
}

void CodeGenModule::planGlobalInit() {
  bool AnyInit = false;
  for (const VariableInfo &V : Info.Variables)
    AnyInit |= V.Storage == VarStorage::Global && V.Init && V.MapId < 0;
  if (!AnyInit)
    return;
  // The first BEGIN clause runs before anything else reads a global; its
  // first function (the predicate if any) stores the initial values.
  for (const ClauseInfo &CI : Info.Clauses) {
    if (CI.ProbeCount == 0)
      continue;
    for (unsigned P = CI.ProbeFirst; P != CI.ProbeFirst + CI.ProbeCount; ++P)
      if (P < Info.Probes.size() && Info.Probes[P].Kind == TSCC_PROBE_BEGIN) {
        InitClause = CI.Id;
        return;
      }
  }
  InitClause = Info.Clauses.size();
  SyntheticInit = true;
}

bool CodeGenModule::emitScript() {
  planGlobalInit();
  for (const Clause *C : S.getClauses()) {
    if (C->getIndex() >= Info.Clauses.size()) {
      errorInternal(C->getSourceRange(), "clause has no sema information");
      continue;
    }
    for (tscc_data_model Stream : {TSCC_DM_ILP32, TSCC_DM_LP64}) {
      if (C->getPredicate())
        CodeGenFunction(*this, *C, Stream, /*IsPredicate=*/true).emit();
      CodeGenFunction(*this, *C, Stream, /*IsPredicate=*/false).emit();
    }
  }
  if (SyntheticInit)
    emitSyntheticInitClause();
  markGeneralRegsOnly();
  return !HadError;
}

/// Whether \p Ty is or holds a floating-point or vector value.
static bool needsVectorRegs(llvm::Type *Ty) {
  if (Ty->isFPOrFPVectorTy() || Ty->isVectorTy() || Ty->isX86_AMXTy())
    return true;
  if (auto *A = dyn_cast<llvm::ArrayType>(Ty))
    return needsVectorRegs(A->getElementType());
  if (auto *St = dyn_cast<llvm::StructType>(Ty))
    return any_of(St->elements(), needsVectorRegs);
  return false;
}

/// Collects \p F and the module's functions it calls, directly or not,
/// into \p Seen; false when one of them has a floating-point or vector
/// value or inline assembly. (Its calls through a pointer are calls of the
/// helper table, whose helpers use general registers only.)
static bool collectGeneralRegsOnly(Function *F,
                                   SmallPtrSetImpl<Function *> &Seen) {
  if (!Seen.insert(F).second || F->isDeclaration())
    return true;
  for (Instruction &I : instructions(*F)) {
    if (needsVectorRegs(I.getType()) || any_of(I.operands(), [](const Use &U) {
          return needsVectorRegs(U->getType());
        }))
      return false;
    if (auto *A = dyn_cast<AllocaInst>(&I))
      if (needsVectorRegs(A->getAllocatedType()))
        return false;
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call)
      continue;
    if (Call->isInlineAsm())
      return false;
    if (Function *Callee = Call->getCalledFunction())
      if (!collectGeneralRegsOnly(Callee, Seen))
        return false;
  }
  return true;
}

void CodeGenModule::markGeneralRegsOnly() {
  for (unsigned Clause = 0; Clause < ClauseFlags.size(); ++Clause) {
    SmallPtrSet<Function *, 8> Seen;
    bool Ok = true;
    for (tscc_data_model Model : {TSCC_DM_ILP32, TSCC_DM_LP64})
      for (bool Pred : {true, false})
        if (Function *F =
                M.getFunction(clauseFunctionName(Clause, Pred, Model)))
          Ok = Ok && collectGeneralRegsOnly(F, Seen);
    if (!Ok || Seen.empty())
      continue;
    for (Function *F : Seen)
      if (!F->isDeclaration())
        F->addFnAttr(Attribute::NoImplicitFloat);
    addClauseFlags(Clause, TSCC_CLAUSE_GENERAL_REGS_ONLY);
  }
}
