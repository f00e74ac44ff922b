//===- CGBuiltins.cpp - Built-in functions and aggregations ---------------===//
//
// Built-ins reach the runtime only through the helper table in the context;
// see abi.h for each helper's contract. printf()/trace() are in CGPrintf.
//
//===----------------------------------------------------------------------===//

#include "CodeGenFunction.h"

#include "tscc/Sema/SemaBuiltins.h"

using namespace llvm;
using namespace tscc;

namespace {

using BF = BuiltinFunction;

const AggregationExpr *asAggregation(const Expr *E) {
  return E ? dyn_cast<AggregationExpr>(E->ignoreParens()) : nullptr;
}

} // namespace

/// get_userstring(ptr [, max]): a bounded copy of a target string.
static RValue emitGetUserString(CodeGenFunction &CGF, const CallExpr *E) {
  IRBuilder<> &B = CGF.builder();
  const auto *ST = CGF.typeOf(E) ? CGF.typeOf(E)->getAs<StringType>() : nullptr;
  uint64_t Cap = ST ? ST->getCapacity() : StringType::DefaultCapacity;
  RValue Buf = CGF.emitStringTemp(Cap);
  Value *Addr = CGF.emitExpr(E->getArg(0)).V;
  if (!Addr || !Addr->getType()->isIntegerTy())
    return Buf;
  Value *Max = B.getInt64(Cap);
  if (E->getNumArgs() > 1) {
    // max counts bytes including the NUL, clamped to [1, capacity].
    Value *Want = CGF.emitScalarAsI64(E->getArg(1));
    Value *TooBig = B.CreateICmpSGT(Want, Max);
    Value *TooSmall = B.CreateICmpSLT(Want, B.getInt64(1));
    Max = B.CreateSelect(TooBig, Max,
                         B.CreateSelect(TooSmall, B.getInt64(1), Want), "max");
  }
  CGF.callHelper(Helper::ReadStr, {CGF.targetAddrToI64(Addr), Buf.V, Max});
  return Buf;
}

/// copy_userdata(ptr, var): sizeof(var) bytes of target memory.
static void emitCopyUserData(CodeGenFunction &CGF, const CallExpr *E) {
  IRBuilder<> &B = CGF.builder();
  Value *Addr = CGF.emitExpr(E->getArg(0)).V;
  LValue Dst = CGF.emitLValue(E->getArg(1));
  if (!Addr || !Dst.isValid())
    return;
  if (Dst.K == LValue::Target || Dst.isBitField()) {
    CGF.errorUnsupported(E->getArg(1), "copy_userdata() into this place");
    return;
  }
  uint64_t Size = Dst.Ty->getSize();
  if (const auto *S = Dst.Ty->getAs<StringType>())
    Size = S->getCapacity();
  if (Dst.K == LValue::Host) {
    CGF.emitReadTarget(Addr, Dst.Addr, Size);
    if (Dst.Ty->isString()) // keep the String terminated
      B.CreateStore(B.getInt8(0), CGF.byteGEP(Dst.Addr, Size - 1));
    return;
  }
  // Thread-locals and map elements: read into a temporary, then store it
  // through the place's own rules (written bit, slot creation).
  AllocaInst *Tmp = CGF.createTemp(Size, 8, "copy");
  CGF.emitReadTarget(Addr, Tmp, Size);
  if (Dst.Ty->isString()) {
    B.CreateStore(B.getInt8(0), CGF.byteGEP(Tmp, Size - 1));
    CGF.emitStore(Dst, RValue::buffer(Tmp, Size));
  } else if (Dst.Ty->isScalar()) {
    Value *V = B.CreateLoad(CGF.convertType(Dst.Ty), Tmp, "copy.val");
    CGF.emitStore(Dst, RValue::scalar(V));
  } else {
    CGF.emitStore(Dst, RValue::buffer(Tmp, Size));
  }
}

static RValue emitDiffTime(CodeGenFunction &CGF, const CallExpr *E) {
  IRBuilder<> &B = CGF.builder();
  Value *T1 = CGF.emitScalarAsI64(E->getArg(0));
  Value *T2 = CGF.emitScalarAsI64(E->getArg(1));
  Value *Diff = B.CreateSub(T2, T1, "elapsed");
  int64_t Unit = 1;
  if (E->getNumArgs() > 2) {
    const Expr *U = E->getArg(2);
    std::optional<int64_t> V = CGF.getInfo().constantFor(U, CGF.typeModel());
    if (!V)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(U->ignoreParens()))
        V = lookupTimeUnit(DRE->getName());
    if (!V || *V <= 0) {
      CGF.errorUnsupported(U, "a diff_time() unit that is not a constant");
      return {};
    }
    Unit = *V;
  }
  if (Unit != 1)
    Diff = B.CreateSDiv(Diff, B.getInt64(Unit), "elapsed.units");
  const tscc::Type *RT = CGF.typeOf(E);
  return RValue::scalar(
      B.CreateSExtOrTrunc(Diff, CGF.convertType(RT), "diff_time"));
}

static unsigned aggregationId(CodeGenFunction &CGF, const Expr *Arg, bool &Ok) {
  const AggregationExpr *A = asAggregation(Arg);
  const AggregationInfo *Info = A ? CGF.getInfo().aggregationFor(A) : nullptr;
  if (!Info && A)
    Info = CGF.getInfo().findAggregation(A->getName());
  Ok = Info != nullptr;
  if (!Ok)
    CGF.errorUnsupported(Arg, "this aggregation argument");
  return Ok ? Info->Id : 0;
}

static void emitDelete(CodeGenFunction &CGF, const CallExpr *E) {
  LValue LV = CGF.emitLValue(E->getArg(0));
  if (!LV.isValid())
    return;
  if (LV.K != LValue::MapElem) {
    CGF.errorUnsupported(E, "delete() of something that is not a map element");
    return;
  }
  IRBuilder<> &B = CGF.builder();
  CGF.callHelper(Helper::MapDelete,
                 {B.getInt32(LV.Map->Id), LV.Key, B.getInt32(LV.Map->KeySize)});
}

/// exists(arr[k...]): looks the entry up without creating it.
static Value *emitExists(CodeGenFunction &CGF, const CallExpr *E) {
  IRBuilder<> &B = CGF.builder();
  LValue LV = CGF.emitLValue(E->getArg(0));
  if (!LV.isValid() || LV.K != LValue::MapElem) {
    CGF.errorUnsupported(E, "exists() of something that is not a map element");
    return B.getInt32(0);
  }
  Value *Slot = CGF.emitMapSlot(LV, /*Create=*/false);
  return B.CreateZExt(B.CreateIsNotNull(Slot), B.getInt32Ty(), "exists");
}

RValue CodeGenFunction::emitCall(const CallExpr *E) {
  auto F = static_cast<BuiltinFunction>(E->getBuiltinID());
  if (F == BF::None)
    if (std::optional<BuiltinFunction> L =
            lookupBuiltinFunction(E->getCalleeName()))
      F = *L;
  const tscc::Type *RT = typeOf(E);
  auto Result = [&](Value *V, bool Signed) -> RValue {
    if (!RT || RT->isVoid())
      return RValue::scalar(V);
    llvm::Type *Ty = convertType(RT);
    return RValue::scalar(Signed ? B.CreateSExtOrTrunc(V, Ty)
                                 : B.CreateZExtOrTrunc(V, Ty));
  };
  switch (F) {
  case BF::Printf:
    emitRecord(E, /*IsTrace=*/false);
    return {};
  case BF::Trace:
    emitRecord(E, /*IsTrace=*/true);
    return {};
  case BF::Exit:
    CGM.addHeaderFlags(TSCC_HDR_USES_EXIT);
    callHelper(Helper::RequestExit, {});
    return {};
  case BF::Timestamp:
    return Result(callHelper(Helper::ClockNs, {}), false);
  case BF::DiffTime:
    if (E->getNumArgs() < 2)
      break;
    return emitDiffTime(*this, E);
  case BF::GetUserString:
    if (E->getNumArgs() < 1)
      break;
    return emitGetUserString(*this, E);
  case BF::CopyUserData:
    if (E->getNumArgs() != 2)
      break;
    emitCopyUserData(*this, E);
    return {};
  case BF::StkTrace: {
    CGM.addHeaderFlags(TSCC_HDR_USES_STACK);
    // 0 asks the runtime for its default depth.
    Value *Depth =
        E->getNumArgs()
            ? B.CreateTrunc(emitScalarAsI64(E->getArg(0)), B.getInt32Ty())
            : B.getInt32(0);
    callHelper(Helper::StackTrace, {Depth});
    return {};
  }
  case BF::Within: {
    std::optional<unsigned> Index = getInfo().withinIndexFor(E);
    if (!Index)
      break;
    Value *In = callHelper(Helper::Within, {B.getInt32(*Index)});
    return Result(B.CreateZExt(B.CreateIsNotNull(In), B.getInt32Ty()), false);
  }
  case BF::Print: {
    if (E->getNumArgs() < 1)
      break;
    bool Ok;
    unsigned Id = aggregationId(*this, E->getArg(0), Ok);
    if (!Ok)
      return {};
    Value *Top =
        E->getNumArgs() > 1 ? emitScalarAsI64(E->getArg(1)) : B.getInt64(0);
    callHelper(Helper::AggPrint, {B.getInt32(Id), Top});
    return {};
  }
  case BF::Clear: {
    if (E->getNumArgs() < 1)
      break;
    bool Ok;
    unsigned Id = aggregationId(*this, E->getArg(0), Ok);
    if (Ok)
      callHelper(Helper::AggClear, {B.getInt32(Id)});
    return {};
  }
  case BF::Delete:
    if (E->getNumArgs() != 1)
      break;
    emitDelete(*this, E);
    return {};
  case BF::Exists:
    if (E->getNumArgs() != 1)
      break;
    return Result(emitExists(*this, E), false);
  case BF::StrLen: {
    RValue S = emitExpr(E->getArg(0));
    if (!S)
      break;
    return Result(emitStringLength(S), true);
  }
  case BF::StrContains: {
    RValue S = emitExpr(E->getArg(0)), T = emitExpr(E->getArg(1));
    if (!S || !T)
      break;
    return Result(
        B.CreateZExt(B.CreateICmpSGE(emitStringFind(S, T), B.getInt64(0)),
                     B.getInt32Ty()),
        false);
  }
  case BF::StrStr: {
    RValue S = emitExpr(E->getArg(0)), T = emitExpr(E->getArg(1));
    if (!S || !T)
      break;
    // ProbeVue's strstr(): s from t's first occurrence on, "" if none.
    Value *At = emitStringFind(S, T);
    Value *Len = emitStringLength(S);
    Value *None = B.CreateICmpSLT(At, B.getInt64(0), "strstr.none");
    Value *Start = B.CreateSelect(None, Len, At, "strstr.start");
    return emitSubstring(S, Start, B.CreateSub(Len, Start, "strstr.count"));
  }
  case BF::Substr: {
    RValue S = emitExpr(E->getArg(0));
    if (!S)
      break;
    // bpftrace's substr(s, index [, length]): a negative index counts from
    // the end; everything is clamped to the string.
    Value *Len = emitStringLength(S);
    Value *Index = emitScalarAsI64(E->getArg(1));
    Value *FromEnd = B.CreateAdd(Len, Index);
    Value *Start =
        B.CreateSelect(B.CreateICmpSLT(Index, B.getInt64(0)), FromEnd, Index);
    Start = B.CreateBinaryIntrinsic(Intrinsic::smax, Start, B.getInt64(0),
                                    nullptr, "substr.lo");
    Start = B.CreateBinaryIntrinsic(Intrinsic::smin, Start, Len, nullptr,
                                    "substr.start");
    Value *Avail = B.CreateSub(Len, Start);
    Value *Count = Avail;
    if (E->getNumArgs() > 2) {
      Value *Want = B.CreateBinaryIntrinsic(
          Intrinsic::smax, emitScalarAsI64(E->getArg(2)), B.getInt64(0));
      Count = B.CreateBinaryIntrinsic(Intrinsic::smin, Want, Avail, nullptr,
                                      "substr.count");
    }
    return emitSubstring(S, Start, Count);
  }
  // No default: a Builtins.def line without a case here is a -Wswitch
  // warning. Aggregation functions are emitted by emitAggregationUpdate.
  case BF::None:
#define AGGREGATION_FUNCTION(Id, ...) case BF::Id:
#include "tscc/Builtins.def"
    break;
  }
  errorUnsupported(E, "a call to '" + E->getCalleeName().str() + "' here");
  return {};
}

Value *CodeGenFunction::emitStackId(const Expr *Key) {
  const auto *Call = dyn_cast<CallExpr>(Key->ignoreParens());
  CGM.addHeaderFlags(TSCC_HDR_USES_STACK);
  // 0 asks the runtime for its default depth.
  Value *Depth =
      Call && Call->getNumArgs()
          ? B.CreateTrunc(emitScalarAsI64(Call->getArg(0)), B.getInt32Ty())
          : B.getInt32(0);
  // Without stack_id() (a runtime older than ABI 1.4) the key is 0, which
  // the runtime prints as an unknown stack.
  Value *Has = emitHasHelper(Helper::StackId);
  llvm::LLVMContext &LC = CGM.getLLVMContext();
  BasicBlock *Entry = B.GetInsertBlock();
  BasicBlock *Then = BasicBlock::Create(LC, "stack_id", Fn);
  BasicBlock *Cont = BasicBlock::Create(LC, "stack_id.cont", Fn);
  B.CreateCondBr(Has, Then, Cont);
  B.SetInsertPoint(Then);
  Value *Id = callHelper(Helper::StackId, {Depth});
  BasicBlock *ThenEnd = B.GetInsertBlock();
  B.CreateBr(Cont);
  B.SetInsertPoint(Cont);
  PHINode *Phi = B.CreatePHI(B.getInt64Ty(), 2, "stack.id");
  Phi->addIncoming(B.getInt64(0), Entry);
  Phi->addIncoming(Id, ThenEnd);
  return Phi;
}

void CodeGenFunction::emitAggregationUpdate(const AssignExpr *E) {
  const AggregationExpr *A = asAggregation(E->getLHS());
  const auto *Call = dyn_cast<CallExpr>(E->getRHS()->ignoreParens());
  const AggregationInfo *Info = A ? getInfo().aggregationFor(A) : nullptr;
  if (!Info && A)
    Info = getInfo().findAggregation(A->getName());
  if (!Info || !Call || E->isCompoundAssign()) {
    errorUnsupported(E, "this aggregation update");
    return;
  }
  SmallVector<const Expr *, 4> Keys(A->getKeys().begin(), A->getKeys().end());
  if (Keys.size() != Info->KeyFields.size()) {
    errorUnsupported(E, "aggregation keys that do not match its fields");
    return;
  }
  Value *Key = emitKeyBuffer(Keys, Info->KeyFields, Info->KeySize);
  Value *V = Info->Kind == TSCC_AGG_COUNT || Call->getNumArgs() == 0
                 ? B.getInt64(1)
                 : emitScalarAsI64(Call->getArg(0));
  callHelper(Helper::AggUpdate,
             {B.getInt32(Info->Id), Key, B.getInt32(Info->KeySize), V});
}
