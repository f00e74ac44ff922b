//===- CGVariables.cpp - Globals, thread-locals, autos and maps -----------===//
//
// Globals live in ctx->globals at their (LP64-layout) offset, thread-locals
// in ctx->thread at their per-model offset, with a "written" bitmap at the
// start of the thread block; autos are allocas; associative-array elements
// are slots the runtime hands out for a serialised key.
//
//===----------------------------------------------------------------------===//

#include "CodeGenFunction.h"

#include <cstddef>

using namespace llvm;
using namespace tscc;

LValue CodeGenFunction::emitVariable(const VariableInfo &V, const Expr *Ref) {
  unsigned M = modelIndex(TypeDM);
  LValue LV;
  LV.Ty = V.Types[M];
  if (!LV.Ty) {
    errorUnsupported(Ref, "variable '" + V.Name + "' without a type");
    return {};
  }
  if (V.MapId >= 0) {
    errorUnsupported(Ref, "associative array '" + V.Name + "' without a key");
    return {};
  }
  LV.StorageSize = V.Sizes[M];
  switch (V.Storage) {
  case VarStorage::Global: {
    Value *G = ctxField(offsetof(tscc_ctx, globals), B.getPtrTy(), "globals");
    LV.K = LValue::Host;
    // Always a named GEP, even at offset 0, so the IR says which global.
    LV.Addr = B.CreateInBoundsGEP(
        B.getInt8Ty(), G, B.getInt64(V.Offsets[modelIndex(DataModel::LP64)]),
        V.Name);
    LV.IsGlobal = true;
    return LV;
  }
  case VarStorage::Thread: {
    CGM.addClauseFlags(C.getIndex(), TSCC_CLAUSE_USES_THREAD);
    Value *Th = ctxField(offsetof(tscc_ctx, thread), B.getPtrTy(), "thread");
    LV.K = LValue::Thread;
    // Not inbounds: the block may be absent (null), and the address is only
    // used once the written-bit check has established it is not.
    LV.Addr = B.CreateGEP(B.getInt8Ty(), Th, B.getInt64(V.Offsets[M]), V.Name);
    LV.WrittenBit = V.WrittenBit;
    return LV;
  }
  case VarStorage::Auto: {
    AllocaInst *&A = Autos[V.Id];
    if (!A) {
      uint64_t Size = std::max<uint64_t>(LV.StorageSize, LV.Ty->getSize());
      A = createTemp(Size, std::max<uint64_t>(V.Aligns[M], 8), V.Name);
    }
    LV.K = LValue::Host;
    LV.Addr = A;
    LV.StorageSize = 0;
    return LV;
  }
  }
  return {};
}

Value *CodeGenFunction::emitThreadWritten(const LValue &LV) {
  Value *Th = ctxField(offsetof(tscc_ctx, thread), B.getPtrTy(), "thread");
  Function *Fn = B.GetInsertBlock()->getParent();
  BasicBlock *From = B.GetInsertBlock();
  BasicBlock *Check = BasicBlock::Create(B.getContext(), "tls.check", Fn);
  BasicBlock *Done = BasicBlock::Create(B.getContext(), "tls.checked", Fn);
  B.CreateCondBr(B.CreateIsNull(Th), Done, Check);
  B.SetInsertPoint(Check);
  Value *Byte =
      B.CreateLoad(B.getInt8Ty(), byteGEP(Th, LV.WrittenBit / 8), "tls.bits");
  Value *Bit = B.CreateAnd(Byte, B.getInt8(1u << (LV.WrittenBit % 8)));
  Value *Set = B.CreateIsNotNull(Bit, "tls.written");
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  PHINode *Phi = B.CreatePHI(B.getInt1Ty(), 2, "tls.is.written");
  Phi->addIncoming(B.getFalse(), From);
  Phi->addIncoming(Set, Check);
  return Phi;
}

void CodeGenFunction::emitSetThreadWritten(const LValue &LV) {
  Value *Th = ctxField(offsetof(tscc_ctx, thread), B.getPtrTy(), "thread");
  Value *Addr = byteGEP(Th, LV.WrittenBit / 8, "tls.bits.addr");
  Value *Byte = B.CreateLoad(B.getInt8Ty(), Addr, "tls.bits");
  B.CreateStore(B.CreateOr(Byte, B.getInt8(1u << (LV.WrittenBit % 8))), Addr);
}

Value *CodeGenFunction::emitKeyBuffer(ArrayRef<const Expr *> Keys,
                                      ArrayRef<FieldInfo> Fields,
                                      uint32_t Size) {
  if (Size == 0)
    return ConstantPointerNull::get(B.getPtrTy());
  AllocaInst *Buf = createTemp(Size, 8, "key");
  // Zeroed first: strings are NUL-padded to their capacity so that equal
  // keys are equal bytes.
  B.CreateMemSet(Buf, B.getInt8(0), Size, MaybeAlign(8));
  uint64_t Off = 0;
  for (size_t I = 0; I != Keys.size() && I != Fields.size(); ++I) {
    const FieldInfo &F = Fields[I];
    if (Off + F.Size > Size)
      break;
    Value *Dst = byteGEP(Buf, Off, "key.field");
    if (F.Kind == TSCC_FIELD_STACK_ID) {
      B.CreateStore(emitStackId(Keys[I]), Dst);
    } else if (F.Kind == TSCC_FIELD_STRING) {
      RValue S = emitExpr(Keys[I]);
      if (S && S.V->getType()->isPointerTy())
        emitStringCopy(Dst, F.Size, S);
    } else {
      B.CreateStore(emitScalarAsI64(Keys[I]), Dst);
    }
    Off += F.Size;
  }
  return Buf;
}

LValue CodeGenFunction::emitMapElement(const VariableInfo &V,
                                       const ArraySubscriptExpr *E) {
  if (V.MapId < 0 || static_cast<size_t>(V.MapId) >= getInfo().Maps.size()) {
    errorUnsupported(E, "map '" + V.Name + "'");
    return {};
  }
  const MapInfo &Map = getInfo().Maps[V.MapId];
  unsigned M = modelIndex(TypeDM);
  SmallVector<const Expr *, 2> Keys(E->getIndices().begin(),
                                    E->getIndices().end());
  if (Keys.size() != Map.Keys.size()) {
    errorUnsupported(E, "a map access with " + std::to_string(Keys.size()) +
                            " keys");
    return {};
  }
  LValue LV;
  LV.K = LValue::MapElem;
  LV.Ty = Map.ValueTypes[M] ? Map.ValueTypes[M] : typeOf(E);
  LV.StorageSize = Map.ValueSize;
  LV.Map = &Map;
  LV.Key = emitKeyBuffer(Keys, Map.Keys, Map.KeySize);
  if (Map.Flags & TSCC_MAP_THREAD)
    CGM.addClauseFlags(C.getIndex(), TSCC_CLAUSE_USES_THREAD);
  return LV;
}

Value *CodeGenFunction::emitMapSlot(const LValue &LV, bool Create) {
  return callHelper(Helper::MapLookup,
                    {B.getInt32(LV.Map->Id), LV.Key,
                     B.getInt32(LV.Map->KeySize), B.getInt32(Create)});
}

void CodeGenFunction::emitDeclStmt(const DeclStmt *S) {
  for (const VarDecl *D : S->decls()) {
    const VariableInfo *V = getInfo().variableFor(D);
    if (!V) {
      errorUnsupported(D, "declaration of '" + D->getName().str() + "'");
      continue;
    }
    if (V->Storage != VarStorage::Auto) {
      // Only the initialiser matters; storage is the runtime's.
      if (const Expr *Init = D->getInit()) {
        LValue LV = emitVariable(*V, Init);
        if (LV.isValid())
          emitStore(LV, LV.Ty->isScalar()
                            ? RValue::scalar(emitScalarAs(Init, LV.Ty))
                            : emitExpr(Init));
      }
      continue;
    }
    LValue LV = emitVariable(*V, nullptr);
    if (!LV.isValid())
      continue;
    // Autos start zeroed: a deterministic value beats C's indeterminate one.
    uint64_t Size =
        std::max<uint64_t>(V->Sizes[modelIndex(TypeDM)], LV.Ty->getSize());
    B.CreateMemSet(LV.Addr, B.getInt8(0), Size ? Size : 1, MaybeAlign(8));
    if (const Expr *Init = D->getInit()) {
      if (LV.Ty->isScalar())
        emitStore(LV, RValue::scalar(emitScalarAs(Init, LV.Ty)));
      else
        emitStore(LV, emitExpr(Init));
    }
  }
}

void CodeGenFunction::emitGlobalInitializers() {
  Value *G = nullptr;
  for (const VariableInfo &V : getInfo().Variables) {
    if (V.Storage != VarStorage::Global || !V.Init || V.MapId >= 0)
      continue;
    if (!G)
      G = ctxField(offsetof(tscc_ctx, globals), B.getPtrTy(), "globals");
    unsigned LP = modelIndex(DataModel::LP64);
    uint32_t Size = V.Sizes[LP];
    Value *Addr = byteGEP(G, V.Offsets[LP], V.Name + ".init");
    if (V.Init->IsString) {
      if (Size == 0)
        continue;
      StringRef Bytes(V.Init->Str);
      Bytes = Bytes.take_front(Size - 1);
      Constant *Lit = CGM.getStringLiteral(Bytes);
      B.CreateMemCpy(Addr, MaybeAlign(1), Lit, MaybeAlign(1), Bytes.size() + 1);
      continue;
    }
    if (Size == 0 || Size > 8)
      continue;
    B.CreateStore(ConstantInt::get(B.getIntNTy(Size * 8), V.Init->Int, true),
                  Addr);
  }
}
