//===- CGLValue.cpp - Places: target memory, script storage, map slots ----===//
//
// Every read of the traced process's memory goes through
// helpers->read_mem with the type model's layout; clause code never
// dereferences a target address. Script storage (globals, thread-locals,
// autos, map slots) is tracer memory and is accessed directly.
//
//===----------------------------------------------------------------------===//

#include "CodeGenFunction.h"

using namespace llvm;
using namespace tscc;

void CodeGenFunction::emitReadTarget(Value *Addr, Value *Dst, uint64_t Size) {
  callHelper(Helper::ReadMem, {targetAddrToI64(Addr), Dst, B.getInt64(Size)});
}

Value *CodeGenFunction::emitReadTargetScalar(Value *Addr,
                                             const tscc::Type *Ty) {
  llvm::Type *LTy = convertType(Ty);
  uint64_t Size = Ty->getSize();
  AllocaInst *Tmp = createTemp(Size, 8, "target.val");
  // read_mem zero-fills on a fault, so a bad address reads as 0.
  emitReadTarget(Addr, Tmp, Size);
  return B.CreateLoad(LTy, Tmp, "target.load");
}

Value *CodeGenFunction::materialize(const LValue &LV) {
  uint64_t Size = LV.Ty->getSize();
  if (LV.K != LValue::Target)
    return LV.Addr;
  AllocaInst *Tmp = createTemp(Size, 8, "target.copy");
  emitReadTarget(LV.Addr, Tmp, Size);
  return Tmp;
}

/// The container of a bit-field: a power-of-two number of bytes covering
/// [BitOffset, BitOffset + Width).
static unsigned bitFieldContainerBytes(const LValue &LV) {
  unsigned Need = (LV.BitOffset + LV.BitWidth + 7) / 8;
  unsigned Bytes = 1;
  while (Bytes < Need)
    Bytes *= 2;
  return Bytes;
}

static Value *extractBitField(IRBuilder<> &B, Value *Container,
                              const LValue &LV, llvm::Type *ResTy) {
  unsigned Bits = Container->getType()->getIntegerBitWidth();
  Value *V = Container;
  // Shift the field to the top, then back down: arithmetic for signed
  // fields sign-extends for free.
  unsigned Top = Bits - LV.BitOffset - LV.BitWidth;
  if (Top)
    V = B.CreateShl(V, Top, "bf.shl");
  bool Signed = LV.Ty->isInteger() && LV.Ty->isSigned();
  V = Signed ? B.CreateAShr(V, Bits - LV.BitWidth, "bf.ashr")
             : B.CreateLShr(V, Bits - LV.BitWidth, "bf.lshr");
  return Signed ? B.CreateSExtOrTrunc(V, ResTy, "bf.val")
                : B.CreateZExtOrTrunc(V, ResTy, "bf.val");
}

/// Loads a scalar of LV.Ty from host storage of LV.StorageSize bytes.
static Value *loadHostScalar(CodeGenFunction &CGF, const LValue &LV,
                             Value *Addr) {
  IRBuilder<> &B = CGF.builder();
  llvm::Type *LTy = CGF.convertType(LV.Ty);
  if (LV.isBitField()) {
    unsigned Bytes = bitFieldContainerBytes(LV);
    Value *C = B.CreateLoad(B.getIntNTy(Bytes * 8), Addr, "bf.load");
    return extractBitField(B, C, LV, LTy);
  }
  uint64_t TySize = LV.Ty->getSize();
  if (LTy->isIntegerTy() && LV.StorageSize > TySize) {
    Value *Wide = B.CreateLoad(B.getIntNTy(LV.StorageSize * 8), Addr, "load");
    return B.CreateTrunc(Wide, LTy, "load.narrow");
  }
  return B.CreateLoad(LTy, Addr, "load");
}

RValue CodeGenFunction::emitLoad(const LValue &LV) {
  if (!LV.isValid())
    return {};
  const tscc::Type *T = LV.Ty->getCanonical();

  if (LV.K == LValue::Target) {
    if (T->isArray())
      return RValue::scalar(LV.Addr); // decays to its address
    if (T->isRecord() || isa<OpaqueType>(T))
      return RValue::buffer(materialize(LV), T->getSize());
    if (T->isString() || T->isFunction() || T->isVoid()) {
      errorUnsupported(nullptr,
                       "reading a '" + T->getName() + "' from target memory");
      return {};
    }
    if (!LV.isBitField())
      return RValue::scalar(emitReadTargetScalar(LV.Addr, T));
    unsigned Bytes = bitFieldContainerBytes(LV);
    AllocaInst *Tmp = createTemp(Bytes, 8, "bf.target");
    emitReadTarget(LV.Addr, Tmp, Bytes);
    Value *C = B.CreateLoad(B.getIntNTy(Bytes * 8), Tmp, "bf.container");
    return RValue::scalar(extractBitField(B, C, LV, convertType(T)));
  }

  if (LV.K == LValue::MapElem) {
    Value *Slot = emitMapSlot(LV, /*Create=*/false);
    LValue SlotLV = LV;
    SlotLV.K = LValue::Host;
    if (T->isString() || T->isRecord() || T->isArray()) {
      // A missing key reads as an empty string / zeroed value.
      uint64_t Size = std::max<uint64_t>(LV.StorageSize, T->getSize());
      AllocaInst *Zero = createTemp(Size, 8, "map.absent");
      B.CreateMemSet(Zero, B.getInt8(0), Size, MaybeAlign(8));
      Value *P = B.CreateSelect(B.CreateIsNull(Slot), Zero, Slot, "map.val");
      return RValue::buffer(P, T->isString() ? Size : T->getSize());
    }
    Function *Fn = B.GetInsertBlock()->getParent();
    BasicBlock *Present = BasicBlock::Create(B.getContext(), "map.present", Fn);
    BasicBlock *Done = BasicBlock::Create(B.getContext(), "map.done", Fn);
    BasicBlock *From = B.GetInsertBlock();
    B.CreateCondBr(B.CreateIsNull(Slot), Done, Present);
    B.SetInsertPoint(Present);
    Value *V = loadHostScalar(*this, SlotLV, Slot);
    BasicBlock *PresentEnd = B.GetInsertBlock();
    B.CreateBr(Done);
    B.SetInsertPoint(Done);
    PHINode *Phi = B.CreatePHI(V->getType(), 2, "map.value");
    Phi->addIncoming(Constant::getNullValue(V->getType()), From);
    Phi->addIncoming(V, PresentEnd);
    return RValue::scalar(Phi);
  }

  if (LV.K == LValue::Thread) {
    Value *Written = emitThreadWritten(LV);
    Function *Fn = B.GetInsertBlock()->getParent();
    if (IsPredicate) {
      // Reading a never-written thread-local makes the predicate false.
      BasicBlock *Cont = BasicBlock::Create(B.getContext(), "tls.set", Fn);
      B.CreateCondBr(Written, Cont, getFalseBlock());
      B.SetInsertPoint(Cont);
    } else if (T->isString() || T->isRecord() || T->isArray()) {
      uint64_t Size =
          T->isString() ? cast<StringType>(T)->getCapacity() : T->getSize();
      AllocaInst *Zero = createTemp(Size, 8, "tls.unset");
      B.CreateMemSet(Zero, B.getInt8(0), Size, MaybeAlign(8));
      Value *P = B.CreateSelect(Written, LV.Addr, Zero, "tls.val");
      return RValue::buffer(P, Size);
    } else {
      // In an action an unwritten thread-local reads as 0.
      BasicBlock *Set = BasicBlock::Create(B.getContext(), "tls.set", Fn);
      BasicBlock *Done = BasicBlock::Create(B.getContext(), "tls.done", Fn);
      BasicBlock *From = B.GetInsertBlock();
      B.CreateCondBr(Written, Set, Done);
      B.SetInsertPoint(Set);
      Value *V = loadHostScalar(*this, LV, LV.Addr);
      BasicBlock *SetEnd = B.GetInsertBlock();
      B.CreateBr(Done);
      B.SetInsertPoint(Done);
      PHINode *Phi = B.CreatePHI(V->getType(), 2, "tls.value");
      Phi->addIncoming(Constant::getNullValue(V->getType()), From);
      Phi->addIncoming(V, SetEnd);
      return RValue::scalar(Phi);
    }
  }

  // Host storage (and a written thread-local in a predicate).
  if (const auto *S = dyn_cast<StringType>(T))
    return RValue::buffer(LV.Addr, S->getCapacity());
  if (T->isRecord() || T->isArray() || isa<OpaqueType>(T))
    return RValue::buffer(LV.Addr, T->getSize());
  return RValue::scalar(loadHostScalar(*this, LV, LV.Addr));
}

/// Stores scalar \p V (already of LV.Ty) into host storage.
static void storeHostScalar(CodeGenFunction &CGF, const LValue &LV, Value *Addr,
                            Value *V) {
  IRBuilder<> &B = CGF.builder();
  if (LV.isBitField()) {
    unsigned Bytes = bitFieldContainerBytes(LV);
    llvm::Type *CTy = B.getIntNTy(Bytes * 8);
    Value *Old = B.CreateLoad(CTy, Addr, "bf.old");
    APInt Mask =
        APInt::getBitsSet(Bytes * 8, LV.BitOffset, LV.BitOffset + LV.BitWidth);
    Value *NewBits = B.CreateShl(B.CreateZExtOrTrunc(V, CTy), LV.BitOffset);
    NewBits = B.CreateAnd(NewBits, ConstantInt::get(CTy, Mask));
    Value *Kept = B.CreateAnd(Old, ConstantInt::get(CTy, ~Mask));
    B.CreateStore(B.CreateOr(Kept, NewBits, "bf.new"), Addr);
    return;
  }
  uint64_t TySize = LV.Ty->getSize();
  if (V->getType()->isIntegerTy() && LV.StorageSize > TySize) {
    bool Signed = LV.Ty->isInteger() && LV.Ty->isSigned();
    llvm::Type *Wide = B.getIntNTy(LV.StorageSize * 8);
    V = Signed ? B.CreateSExt(V, Wide) : B.CreateZExt(V, Wide);
  }
  B.CreateStore(V, Addr);
}

void CodeGenFunction::emitStore(const LValue &LV, RValue V) {
  if (!LV.isValid() || !V)
    return;
  const tscc::Type *T = LV.Ty->getCanonical();
  if (LV.K == LValue::Target) {
    errorUnsupported(nullptr, "a store to target memory");
    return;
  }
  Value *Addr = LV.Addr;
  BasicBlock *Done = nullptr;
  Function *Fn = B.GetInsertBlock()->getParent();
  if (LV.K == LValue::MapElem) {
    Addr = emitMapSlot(LV, /*Create=*/true);
    // A full map returns no slot; the runtime counted the drop.
    BasicBlock *Have = BasicBlock::Create(B.getContext(), "map.slot", Fn);
    Done = BasicBlock::Create(B.getContext(), "map.stored", Fn);
    B.CreateCondBr(B.CreateIsNull(Addr), Done, Have);
    B.SetInsertPoint(Have);
  } else if (LV.K == LValue::Thread) {
    // Without a thread block (BEGIN/END/interval) the store goes nowhere.
    Value *Th = ctxField(offsetof(tscc_ctx, thread), B.getPtrTy(), "thread");
    BasicBlock *Have = BasicBlock::Create(B.getContext(), "tls.store", Fn);
    Done = BasicBlock::Create(B.getContext(), "tls.stored", Fn);
    B.CreateCondBr(B.CreateIsNull(Th), Done, Have);
    B.SetInsertPoint(Have);
    emitSetThreadWritten(LV);
  }

  if (const auto *S = dyn_cast<StringType>(T)) {
    uint64_t Cap = LV.K == LValue::MapElem
                       ? std::max<uint64_t>(LV.StorageSize, S->getCapacity())
                       : S->getCapacity();
    emitStringCopy(Addr, Cap, V);
  } else if (T->isRecord() || T->isArray() || isa<OpaqueType>(T)) {
    if (V.V->getType()->isPointerTy())
      B.CreateMemCpy(Addr, MaybeAlign(1), V.V, MaybeAlign(1), T->getSize());
  } else {
    storeHostScalar(*this, LV, Addr, V.V);
  }

  if (Done) {
    B.CreateBr(Done);
    B.SetInsertPoint(Done);
  }
}

//===----------------------------------------------------------------------===//
// Designators
//===----------------------------------------------------------------------===//

/// A host-array or String index that is out of bounds must not touch tracer
/// memory: it is redirected to a zeroed scratch element.
static Value *boundedHostElement(CodeGenFunction &CGF, Value *Base, Value *Idx,
                                 uint64_t Count, uint64_t ElemSize) {
  IRBuilder<> &B = CGF.builder();
  Value *Idx64 = B.CreateSExtOrTrunc(Idx, B.getInt64Ty());
  Value *InRange = B.CreateICmpULT(Idx64, B.getInt64(Count), "idx.ok");
  Value *Elem = B.CreateGEP(B.getInt8Ty(), Base,
                            B.CreateMul(Idx64, B.getInt64(ElemSize)), "elem");
  AllocaInst *Scratch = CGF.createTemp(ElemSize, 8, "idx.scratch");
  B.CreateMemSet(Scratch, B.getInt8(0), ElemSize, MaybeAlign(8));
  return B.CreateSelect(InRange, Elem, Scratch, "elem.safe");
}

static LValue emitSubscript(CodeGenFunction &CGF, const ArraySubscriptExpr *E) {
  IRBuilder<> &B = CGF.builder();
  const Expr *Base = E->getBase();
  const tscc::Type *BT = CGF.typeOf(Base);
  const tscc::Type *ET = CGF.typeOf(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Base->ignoreParens()))
    if (const auto *VD = dyn_cast_or_null<VarDecl>(DRE->getDecl()))
      if (const VariableInfo *V = CGF.getInfo().variableFor(VD))
        if (V->MapId >= 0)
          return CGF.emitMapElement(*V, E);
  if (!BT || !ET || E->getIndices().size() != 1) {
    CGF.errorUnsupported(E, "this subscript");
    return {};
  }
  const tscc::Type *IT = CGF.typeOf(E->getIdx());
  uint64_t ElemSize = ET->getSize() ? ET->getSize() : 1;
  LValue LV;
  LV.Ty = ET;
  if (const auto *Lit = dyn_cast<tscc::StringLiteral>(Base->ignoreParens())) {
    // "abc"[i]: the literal's bytes and its NUL, in the probe object.
    Value *Idx = CGF.emitConverted(E->getIdx()).V;
    if (!Idx)
      return {};
    LV.K = LValue::Host;
    LV.Addr =
        boundedHostElement(CGF, CGF.getCGM().getStringLiteral(Lit->getBytes()),
                           Idx, Lit->getBytes().size() + 1, 1);
    return LV;
  }
  if (BT->isPointer()) {
    Value *Ptr = CGF.emitExpr(Base).V;
    Value *Idx = CGF.emitExpr(E->getIdx()).V;
    if (!Ptr || !Idx)
      return {};
    IntegerType *IP = CGF.intPtrTy();
    Idx = IT && IT->isSigned() ? B.CreateSExtOrTrunc(Idx, IP)
                               : B.CreateZExtOrTrunc(Idx, IP);
    LV.K = LValue::Target;
    LV.Addr = B.CreateAdd(Ptr, B.CreateMul(Idx, ConstantInt::get(IP, ElemSize)),
                          "arrayidx");
    return LV;
  }
  LValue BaseLV = CGF.emitLValue(Base);
  if (!BaseLV.isValid())
    return {};
  Value *Idx = CGF.emitExpr(E->getIdx()).V;
  if (!Idx)
    return {};
  if (BaseLV.K == LValue::Target) {
    IntegerType *IP = CGF.intPtrTy();
    Idx = IT && IT->isSigned() ? B.CreateSExtOrTrunc(Idx, IP)
                               : B.CreateZExtOrTrunc(Idx, IP);
    LV.K = LValue::Target;
    LV.Addr = B.CreateAdd(BaseLV.Addr,
                          B.CreateMul(Idx, ConstantInt::get(IP, ElemSize)),
                          "arrayidx");
    return LV;
  }
  if (BaseLV.K == LValue::MapElem) {
    CGF.errorUnsupported(E, "subscripting an associative-array value");
    return {};
  }
  uint64_t Count = 0;
  if (const auto *S = BT->getAs<StringType>())
    Count = S->getCapacity();
  else if (const auto *A = BT->getAs<tscc::ArrayType>())
    Count = A->getNumElements().value_or(0);
  LV = BaseLV;
  LV.Ty = ET;
  LV.StorageSize = 0;
  LV.IsGlobal = false;
  LV.Addr = boundedHostElement(CGF, BaseLV.Addr, Idx, Count, ElemSize);
  return LV;
}

static LValue emitMember(CodeGenFunction &CGF, const MemberExpr *E) {
  IRBuilder<> &B = CGF.builder();
  const MemberAccess *MA = CGF.getInfo().memberFor(E, CGF.typeModel());
  if (!MA) {
    CGF.errorUnsupported(E, "member '" + E->getMemberName().str() + "'");
    return {};
  }
  LValue LV;
  if (E->isArrow()) {
    Value *Ptr = CGF.emitExpr(E->getBase()).V;
    if (!Ptr || !Ptr->getType()->isIntegerTy())
      return {};
    LV.K = LValue::Target;
    LV.Addr = Ptr;
  } else {
    LV = CGF.emitLValue(E->getBase());
    if (!LV.isValid())
      return {};
    if (LV.K == LValue::MapElem) {
      CGF.errorUnsupported(E, "a member of an associative-array value");
      return {};
    }
  }
  uint64_t Offset = MA->getByteOffset();
  if (LV.K == LValue::Target)
    LV.Addr = Offset ? B.CreateAdd(LV.Addr,
                                   ConstantInt::get(LV.Addr->getType(), Offset),
                                   E->getMemberName())
                     : LV.Addr;
  else
    LV.Addr = CGF.byteGEP(LV.Addr, Offset, E->getMemberName());
  LV.Ty = CGF.typeOf(E) ? CGF.typeOf(E) : MA->Ty;
  LV.StorageSize = 0;
  LV.IsGlobal = false;
  LV.BitOffset = MA->BitWidth ? MA->BitOffset % 8 : 0;
  LV.BitWidth = MA->BitWidth.value_or(0);
  return LV;
}

LValue CodeGenFunction::emitCompoundLiteral(const CompoundLiteralExpr *E) {
  const CompoundLiteralInfo *CI = getInfo().compoundLiteralFor(E, TypeDM);
  if (!CI) {
    errorUnsupported(E, "this compound literal");
    return {};
  }
  // A bit-field's container may reach past the object's last byte: pad.
  uint64_t Size = CI->Ty->getSize();
  AllocaInst *Obj = createTemp(Size + 8, 8, "compound");
  B.CreateMemSet(Obj, B.getInt8(0), Size + 8, MaybeAlign(8));
  for (const CompoundInitStore &S : CI->Stores) {
    LValue Part;
    Part.K = LValue::Host;
    Part.Ty = S.Ty;
    Part.Addr = byteGEP(Obj, S.BitOffset / 8);
    Part.BitOffset = S.BitWidth ? S.BitOffset % 8 : 0;
    Part.BitWidth = S.BitWidth.value_or(0);
    emitStore(Part, RValue::scalar(emitScalarAs(S.Value, S.Ty)));
  }
  LValue LV;
  LV.K = LValue::Host;
  LV.Ty = CI->Ty;
  LV.Addr = Obj;
  return LV;
}

LValue CodeGenFunction::emitLValue(const Expr *E) {
  if (!E)
    return {};
  switch (E->getKind()) {
  case NodeKind::ParenExpr:
    return emitLValue(cast<ParenExpr>(E)->getSubExpr());
  case NodeKind::DeclRefExpr: {
    const auto *D = dyn_cast_or_null<VarDecl>(cast<DeclRefExpr>(E)->getDecl());
    const VariableInfo *V = D ? getInfo().variableFor(D) : nullptr;
    if (!V) {
      errorUnsupported(E, "'" + cast<DeclRefExpr>(E)->getName().str() +
                              "' as a variable");
      return {};
    }
    return emitVariable(*V, E);
  }
  case NodeKind::UnaryOperator: {
    const auto *U = cast<UnaryOperator>(E);
    if (U->getOpcode() != UnaryOperator::Opcode::Deref)
      break;
    Value *Ptr = emitExpr(U->getSubExpr()).V;
    if (!Ptr || !Ptr->getType()->isIntegerTy())
      return {};
    LValue LV;
    LV.K = LValue::Target;
    LV.Ty = typeOf(E);
    LV.Addr = Ptr;
    return LV;
  }
  case NodeKind::MemberExpr:
    return emitMember(*this, cast<MemberExpr>(E));
  case NodeKind::ArraySubscriptExpr:
    return emitSubscript(*this, cast<ArraySubscriptExpr>(E));
  case NodeKind::CompoundLiteralExpr:
    return emitCompoundLiteral(cast<CompoundLiteralExpr>(E));
  case NodeKind::GenericSelectionExpr:
    return emitLValue(cast<GenericSelectionExpr>(E)->getResultExpr(TypeDM));
    // Not expressions.
#define EXPR_NODE(CLASS)
#define NODE(CLASS, PARENT) case NodeKind::CLASS:
#include "tscc/AST/ASTNodes.def"
  case NodeKind::IntegerLiteral:
  case NodeKind::CharLiteral:
  case NodeKind::StringLiteral:
  case NodeKind::BuiltinVarExpr:
  case NodeKind::ParamExpr:
  case NodeKind::AggregationExpr:
  case NodeKind::BinaryOperator:
  case NodeKind::AssignExpr:
  case NodeKind::ConditionalOperator:
  case NodeKind::CastExpr:
  case NodeKind::SizeofExpr:
  case NodeKind::AlignofExpr:
  case NodeKind::OffsetofExpr:
  case NodeKind::CallExpr:
  case NodeKind::OpaqueValueExpr:
  case NodeKind::InitListExpr:
    break;
  }
  errorUnsupported(E, "this expression as a place");
  return {};
}
