//===- CGExpr.cpp - Scalar expressions, conversions and operators ---------===//
//
// Sema decides C's semantics and records them on the AST per data model:
// each expression's type, the implicit conversions of its value
// (Expr::getConversion), compound assignments' computation types and folded
// constants (ScriptInfo::constantFor). Codegen reads those decisions for
// the type model and only performs them (convert() turns a value of one
// type into another with the model's widths); it never works out a
// promotion, a common type or a constant itself.
//
//===----------------------------------------------------------------------===//

#include "CodeGenFunction.h"

#include "tscc/Sema/TypeContext.h"

#include "llvm/IR/Intrinsics.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace tscc;
using TK = tscc::Type::Kind;

const tscc::Type *CodeGenFunction::typeOf(const Expr *E) const {
  return E ? E->getType(TypeDM) : nullptr;
}

llvm::Type *CodeGenFunction::convertType(const tscc::Type *T) {
  if (!T)
    return B.getInt64Ty();
  const tscc::Type *Canon = T->getCanonical();
  switch (Canon->getKind()) {
  case TK::Void:
    return B.getVoidTy();
  case TK::Float:
    return B.getFloatTy();
  case TK::Double:
    return B.getDoubleTy();
  case TK::LongDouble:
    return llvm::Type::getX86_FP80Ty(CGM.getLLVMContext());
  case TK::Record:
  case TK::Array:
  case TK::String:
  case TK::Opaque:
  case TK::Function:
    return B.getPtrTy();
  default:
    break;
  }
  // gcc's N-bit bit-field type computes modulo 2^N.
  if (const auto *BF = dyn_cast<BitFieldIntType>(Canon))
    return B.getIntNTy(BF->getWidth());
  // Integers, bool, enums and target pointers.
  uint64_t Size = Canon->getSize();
  return B.getIntNTy(Size ? Size * 8 : 32);
}

static bool isSignedInt(const tscc::Type *T) {
  return T && T->isInteger() && T->isSigned();
}

Value *CodeGenFunction::toBool(Value *V, const tscc::Type *From) {
  if (V->getType()->isIntegerTy(1))
    return V;
  if (V->getType()->isFloatingPointTy())
    return B.CreateFCmpUNE(V, ConstantFP::get(V->getType(), 0.0), "tobool");
  if (V->getType()->isPointerTy())
    return B.getTrue(); // a buffer (String, record) is always "present"
  return B.CreateIsNotNull(V, "tobool");
}

Value *CodeGenFunction::convert(Value *V, const tscc::Type *From,
                                const tscc::Type *To) {
  if (!V || !To)
    return V;
  const tscc::Type *F = From ? From->getCanonical() : nullptr;
  const tscc::Type *T = To->getCanonical();
  if (T->isVoid())
    return nullptr;
  if (F == T)
    return V;
  llvm::Type *DstTy = convertType(T);
  if (T->isBool())
    return B.CreateZExt(toBool(V, F), DstTy, "conv");
  llvm::Type *SrcTy = V->getType();
  if (SrcTy == DstTy)
    return V;
  if (SrcTy->isPointerTy() || DstTy->isPointerTy())
    return V; // buffers: Strings and aggregates keep their storage
  if (SrcTy->isIntegerTy() && DstTy->isIntegerTy()) {
    if (SrcTy->isIntegerTy(1))
      return B.CreateZExt(V, DstTy, "conv");
    // gcc sign-extends a pointer converted to a wider integer (an i386
    // address above 2 GiB is a negative long long), as it does a signed
    // integer.
    bool SignExtend = isSignedInt(F) || (F && F->isPointer());
    return SignExtend ? B.CreateSExtOrTrunc(V, DstTy, "conv")
                      : B.CreateZExtOrTrunc(V, DstTy, "conv");
  }
  if (SrcTy->isIntegerTy() && DstTy->isFloatingPointTy())
    return isSignedInt(F) ? B.CreateSIToFP(V, DstTy, "conv")
                          : B.CreateUIToFP(V, DstTy, "conv");
  if (SrcTy->isFloatingPointTy() && DstTy->isIntegerTy()) {
    // Saturating: an out-of-range double must not become poison.
    Intrinsic::ID ID =
        isSignedInt(T) ? Intrinsic::fptosi_sat : Intrinsic::fptoui_sat;
    return B.CreateIntrinsic(ID, {DstTy, SrcTy}, {V}, nullptr, "conv");
  }
  if (SrcTy->isFloatingPointTy() && DstTy->isFloatingPointTy())
    return B.CreateFPCast(V, DstTy, "conv");
  return V;
}

Value *CodeGenFunction::extendToI64(Value *V, const tscc::Type *From) {
  if (V->getType()->isFloatingPointTy())
    return B.CreateBitCast(B.CreateFPCast(V, B.getDoubleTy()), B.getInt64Ty());
  if (!V->getType()->isIntegerTy())
    return B.getInt64(0);
  return isSignedInt(From) ? B.CreateSExtOrTrunc(V, B.getInt64Ty())
                           : B.CreateZExtOrTrunc(V, B.getInt64Ty());
}

RValue CodeGenFunction::emitConverted(const Expr *E) {
  RValue V = emitExpr(E);
  const ImplicitCast *C = E ? E->getConversion(TypeDM) : nullptr;
  if (!V || !C)
    return V;
  if (V.V->getType()->isPointerTy()) {
    errorUnsupported(E, "a string or aggregate used as a number");
    return {};
  }
  // A decay needs no code: a target array's value is its address.
  return RValue::scalar(convert(V.V, E->getDecayedType(TypeDM), C->To));
}

Value *CodeGenFunction::emitScalarAs(const Expr *E, const tscc::Type *To) {
  RValue V = emitConverted(E);
  if (!V)
    return Constant::getNullValue(convertType(To));
  llvm::Type *Want = convertType(To);
  if (V.V->getType()->isPointerTy() && !Want->isPointerTy()) {
    errorUnsupported(E, "a string or aggregate used as a number");
    return Constant::getNullValue(Want);
  }
  return convert(V.V, E->getConvertedType(TypeDM), To);
}

Value *CodeGenFunction::emitScalarAsI64(const Expr *E) {
  RValue V = emitExpr(E);
  if (!V || V.V->getType()->isPointerTy())
    return B.getInt64(0);
  return extendToI64(V.V, typeOf(E));
}

Value *CodeGenFunction::emitCondition(const Expr *E) {
  if (!E)
    return B.getFalse();
  // Sema recorded the conversion to _Bool (IntegralToBoolean or
  // PointerToBoolean); branches want it as i1, so it is applied here as a
  // test against zero rather than through convert() to _Bool's i8.
  RValue V = emitExpr(E);
  if (!V)
    return B.getFalse();
  return toBool(V.V, typeOf(E));
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

namespace {

using BinOp = tscc::BinaryOperator::Opcode;

/// Pointer arithmetic scales by the pointee's size; `void *` and function
/// pointers step by bytes, as GNU C does.
uint64_t pointeeSize(const tscc::Type *PtrTy) {
  const auto *P = PtrTy->getAs<tscc::PointerType>();
  if (!P)
    return 1;
  uint64_t Size = P->getPointee()->getSize();
  return Size ? Size : 1;
}

} // namespace

/// C leaves x/0 and INT_MIN/-1 undefined; x86 traps on both, which would
/// kill the tracer. Scripts get 0 for a zero divisor, counted as a fault of
/// the clause (as DTrace reports it), and the wrapped result for INT_MIN/-1
/// (well defined in two's complement, so not a fault); no input can trap.
static Value *emitSafeDivRem(CodeGenFunction &CGF, IRBuilder<> &B, Value *L,
                             Value *R, bool Signed, bool IsRem) {
  llvm::Type *Ty = L->getType();
  if (Ty->isFloatingPointTy())
    return IsRem ? B.CreateFRem(L, R, "rem") : B.CreateFDiv(L, R, "div");
  Value *Zero = ConstantInt::get(Ty, 0);
  Value *IsZero = B.CreateICmpEQ(R, Zero, "div.zero");
  CGF.emitFaultIf(IsZero, TSCC_FAULT_DIV_ZERO);
  Value *Bad = IsZero;
  if (Signed) {
    Value *MinusOne = B.CreateICmpEQ(R, ConstantInt::getSigned(Ty, -1));
    Bad = B.CreateOr(IsZero, MinusOne);
  }
  Value *SafeR = B.CreateSelect(Bad, ConstantInt::get(Ty, 1), R, "div.safe");
  Value *Res = Signed ? (IsRem ? B.CreateSRem(L, SafeR, "rem")
                               : B.CreateSDiv(L, SafeR, "div"))
                      : (IsRem ? B.CreateURem(L, SafeR, "rem")
                               : B.CreateUDiv(L, SafeR, "div"));
  if (!Signed)
    return B.CreateSelect(IsZero, Zero, Res);
  // x / -1 == -x (wrapping), x % -1 == 0.
  Value *MinusOneRes = IsRem ? Zero : B.CreateSub(Zero, L, "neg");
  Value *OnBad = B.CreateSelect(IsZero, Zero, MinusOneRes);
  return B.CreateSelect(Bad, OnBad, Res);
}

/// Applies an arithmetic or bitwise operator to operands already converted
/// to \p Ty.
static Value *emitArith(CodeGenFunction &CGF, IRBuilder<> &B, BinOp Op,
                        Value *L, Value *R, const tscc::Type *Ty) {
  bool FP = L->getType()->isFloatingPointTy();
  bool Signed = isSignedInt(Ty);
  switch (Op) {
  case BinOp::Mul:
    return FP ? B.CreateFMul(L, R, "mul") : B.CreateMul(L, R, "mul");
  case BinOp::Div:
    return emitSafeDivRem(CGF, B, L, R, Signed, /*IsRem=*/false);
  case BinOp::Rem:
    return emitSafeDivRem(CGF, B, L, R, Signed, /*IsRem=*/true);
  case BinOp::Add:
    return FP ? B.CreateFAdd(L, R, "add") : B.CreateAdd(L, R, "add");
  case BinOp::Sub:
    return FP ? B.CreateFSub(L, R, "sub") : B.CreateSub(L, R, "sub");
  case BinOp::Shl:
  case BinOp::Shr: {
    // Oversized shift counts are undefined in C and poison in IR; mask them
    // the way x86 does so every input gives a defined value. A bit-field
    // type's N bits (not a power of two) shift in a 64-bit register, as
    // gcc's code does.
    llvm::Type *Ty = L->getType();
    unsigned Bits = Ty->getIntegerBitWidth();
    unsigned RegBits = unsigned(llvm::PowerOf2Ceil(Bits));
    if (RegBits != Bits) {
      llvm::Type *Reg = B.getIntNTy(RegBits);
      L = Signed ? B.CreateSExt(L, Reg) : B.CreateZExt(L, Reg);
      R = B.CreateZExtOrTrunc(R, Reg);
    }
    Value *Amt = B.CreateAnd(R, ConstantInt::get(R->getType(), RegBits - 1));
    Value *Res = Op == BinOp::Shl ? B.CreateShl(L, Amt, "shl")
                 : Signed         ? B.CreateAShr(L, Amt, "shr")
                                  : B.CreateLShr(L, Amt, "shr");
    return B.CreateTrunc(Res, Ty);
  }
  case BinOp::And:
    return B.CreateAnd(L, R, "and");
  case BinOp::Xor:
    return B.CreateXor(L, R, "xor");
  case BinOp::Or:
    return B.CreateOr(L, R, "or");
  case BinOp::LT:
  case BinOp::GT:
  case BinOp::LE:
  case BinOp::GE:
  case BinOp::EQ:
  case BinOp::NE:
  case BinOp::LAnd:
  case BinOp::LOr:
    break;
  }
  llvm_unreachable("not an arithmetic operator");
}

Value *CodeGenFunction::emitBinaryArith(tscc::BinaryOperator::Opcode Op,
                                        Value *L, Value *R,
                                        const tscc::Type *Ty) {
  return emitArith(*this, B, Op, L, R, Ty);
}

static CmpInst::Predicate comparePredicate(BinOp Op, bool Signed, bool FP) {
  switch (Op) {
  case BinOp::LT:
    return FP       ? CmpInst::FCMP_OLT
           : Signed ? CmpInst::ICMP_SLT
                    : CmpInst::ICMP_ULT;
  case BinOp::GT:
    return FP       ? CmpInst::FCMP_OGT
           : Signed ? CmpInst::ICMP_SGT
                    : CmpInst::ICMP_UGT;
  case BinOp::LE:
    return FP       ? CmpInst::FCMP_OLE
           : Signed ? CmpInst::ICMP_SLE
                    : CmpInst::ICMP_ULE;
  case BinOp::GE:
    return FP       ? CmpInst::FCMP_OGE
           : Signed ? CmpInst::ICMP_SGE
                    : CmpInst::ICMP_UGE;
  case BinOp::EQ:
    return FP ? CmpInst::FCMP_OEQ : CmpInst::ICMP_EQ;
  case BinOp::NE:
    return FP ? CmpInst::FCMP_UNE : CmpInst::ICMP_NE;
  case BinOp::Mul:
  case BinOp::Div:
  case BinOp::Rem:
  case BinOp::Add:
  case BinOp::Sub:
  case BinOp::Shl:
  case BinOp::Shr:
  case BinOp::And:
  case BinOp::Xor:
  case BinOp::Or:
  case BinOp::LAnd:
  case BinOp::LOr:
    break;
  }
  llvm_unreachable("not a comparison");
}

namespace tscc {
/// Operator emission lives in a small friend-less helper so the big switch
/// stays out of CodeGenFunction's interface.
class OperatorEmitter {
public:
  explicit OperatorEmitter(CodeGenFunction &CGF) : CGF(CGF), B(CGF.builder()) {}

  RValue binary(const BinaryOperator *E);
  RValue unary(const UnaryOperator *E);
  RValue conditional(const ConditionalOperator *E);

private:
  RValue logical(const BinaryOperator *E);
  RValue comparison(const BinaryOperator *E);
  RValue pointerArith(const BinaryOperator *E, const tscc::Type *LT,
                      const tscc::Type *RT);

  CodeGenFunction &CGF;
  IRBuilder<> &B;
};
} // namespace tscc

RValue OperatorEmitter::logical(const BinaryOperator *E) {
  bool IsAnd = E->getOpcode() == BinOp::LAnd;
  Value *L = CGF.emitCondition(E->getLHS());
  BasicBlock *LHSEnd = B.GetInsertBlock();
  Function *Fn = LHSEnd->getParent();
  BasicBlock *RHSBlock =
      BasicBlock::Create(B.getContext(), IsAnd ? "land.rhs" : "lor.rhs", Fn);
  BasicBlock *End =
      BasicBlock::Create(B.getContext(), IsAnd ? "land.end" : "lor.end", Fn);
  if (IsAnd)
    B.CreateCondBr(L, RHSBlock, End);
  else
    B.CreateCondBr(L, End, RHSBlock);
  B.SetInsertPoint(RHSBlock);
  Value *R = CGF.emitCondition(E->getRHS());
  BasicBlock *RHSEnd = B.GetInsertBlock();
  B.CreateBr(End);
  B.SetInsertPoint(End);
  PHINode *Phi = B.CreatePHI(B.getInt1Ty(), 2, IsAnd ? "land" : "lor");
  Phi->addIncoming(B.getInt1(!IsAnd), LHSEnd);
  Phi->addIncoming(R, RHSEnd);
  return RValue::scalar(
      B.CreateZExt(Phi, CGF.convertType(CGF.typeOf(E)), "logical"));
}

RValue OperatorEmitter::comparison(const BinaryOperator *E) {
  const tscc::Type *LT = CGF.typeOf(E->getLHS());
  const tscc::Type *RT = CGF.typeOf(E->getRHS());
  llvm::Type *ResTy = CGF.convertType(CGF.typeOf(E));
  if (LT && RT && LT->isString() && RT->isString()) {
    RValue L = CGF.emitExpr(E->getLHS());
    RValue R = CGF.emitExpr(E->getRHS());
    if (!L || !R)
      return RValue::scalar(ConstantInt::get(ResTy, 0));
    Value *Res;
    if (E->getOpcode() == BinOp::EQ || E->getOpcode() == BinOp::NE) {
      Res = CGF.emitStringEqual(L, R);
      if (E->getOpcode() == BinOp::NE)
        Res = B.CreateNot(Res, "str.ne");
    } else {
      // Ordering: strcmp(L, R) OP 0.
      Value *Cmp = CGF.emitStringCompare(L, R);
      Res = B.CreateICmp(comparePredicate(E->getOpcode(), /*Signed=*/true,
                                          /*FP=*/false),
                         Cmp, B.getInt32(0), "str.order");
    }
    return RValue::scalar(B.CreateZExt(Res, ResTy, "cmp"));
  }
  // Sema converted both operands to their common type, or an integer to
  // the other side's pointer type; target addresses compare unsigned.
  RValue LV = CGF.emitConverted(E->getLHS());
  RValue RV = CGF.emitConverted(E->getRHS());
  if (!LV || !RV || LV.V->getType() != RV.V->getType() ||
      LV.V->getType()->isPointerTy()) {
    if (LV && RV)
      CGF.errorUnsupported(E, "a comparison of operands of different types");
    return {};
  }
  Value *L = LV.V, *R = RV.V;
  bool Signed = isSignedInt(E->getLHS()->getConvertedType(CGF.typeModel()));
  bool FP = L->getType()->isFloatingPointTy();
  Value *Cmp =
      FP ? B.CreateFCmp(comparePredicate(E->getOpcode(), Signed, true), L, R,
                        "cmp")
         : B.CreateICmp(comparePredicate(E->getOpcode(), Signed, false), L, R,
                        "cmp");
  return RValue::scalar(B.CreateZExt(Cmp, ResTy, "cmp.ext"));
}

RValue OperatorEmitter::pointerArith(const BinaryOperator *E,
                                     const tscc::Type *LT,
                                     const tscc::Type *RT) {
  IntegerType *IP = CGF.intPtrTy();
  auto AsAddr = [&](const Expr *X, const tscc::Type *T) -> Value * {
    RValue V = CGF.emitExpr(X);
    if (!V || !V.V->getType()->isIntegerTy())
      return ConstantInt::get(IP, 0);
    return isSignedInt(T) ? B.CreateSExtOrTrunc(V.V, IP)
                          : B.CreateZExtOrTrunc(V.V, IP);
  };
  // LT and RT are decayed: a target array is a pointer to its first element.
  bool LPtr = LT->isPointer();
  bool RPtr = RT->isPointer();
  auto Scale = [](const tscc::Type *T) { return pointeeSize(T); };
  Value *L = AsAddr(E->getLHS(), LT);
  Value *R = AsAddr(E->getRHS(), RT);
  if (LPtr && RPtr) { // p - q
    Value *Diff = B.CreateSub(L, R, "ptr.diff");
    uint64_t S = Scale(LT);
    if (S != 1)
      Diff = B.CreateSDiv(Diff, ConstantInt::get(IP, S), "ptr.elems");
    return RValue::scalar(
        CGF.convert(Diff, LT->getContext().getPtrDiffType(), CGF.typeOf(E)));
  }
  Value *Ptr = LPtr ? L : R;
  Value *Idx = LPtr ? R : L;
  uint64_t S = Scale(LPtr ? LT : RT);
  if (S != 1)
    Idx = B.CreateMul(Idx, ConstantInt::get(IP, S), "ptr.scale");
  Value *Res = E->getOpcode() == BinOp::Sub ? B.CreateSub(Ptr, Idx, "ptr.sub")
                                            : B.CreateAdd(Ptr, Idx, "ptr.add");
  return RValue::scalar(Res);
}

RValue OperatorEmitter::binary(const BinaryOperator *E) {
  BinOp Op = E->getOpcode();
  if (E->isLogicalOp())
    return logical(E);
  if (E->isComparisonOp())
    return comparison(E);
  DataModel DM = CGF.typeModel();
  const tscc::Type *LT = E->getLHS()->getConvertedType(DM);
  const tscc::Type *RT = E->getRHS()->getConvertedType(DM);
  const tscc::Type *ResT = CGF.typeOf(E);
  if (!LT || !RT || !ResT) {
    CGF.errorUnsupported(E, "an operand without a type");
    return {};
  }
  if ((Op == BinOp::Add || Op == BinOp::Sub) &&
      (LT->isPointer() || RT->isPointer()))
    return pointerArith(E, LT, RT);
  // Sema converted the operands to the result type; for shifts each was
  // promoted on its own, and IR wants the amount as wide as the value.
  RValue LV = CGF.emitConverted(E->getLHS());
  RValue RV = CGF.emitConverted(E->getRHS());
  if (!LV || !RV)
    return {};
  Value *L = LV.V, *R = RV.V;
  if (L->getType()->isPointerTy() || R->getType()->isPointerTy()) {
    CGF.errorUnsupported(E, "arithmetic on a non-scalar value");
    return {};
  }
  if (E->isShiftOp())
    R = isSignedInt(RT) ? B.CreateSExtOrTrunc(R, L->getType())
                        : B.CreateZExtOrTrunc(R, L->getType());
  if (L->getType() != R->getType()) {
    CGF.errorUnsupported(E, "arithmetic on operands of different types");
    return {};
  }
  return RValue::scalar(emitArith(CGF, B, Op, L, R, ResT));
}

RValue OperatorEmitter::unary(const UnaryOperator *E) {
  using UOp = tscc::UnaryOperator::Opcode;
  const tscc::Type *ResT = CGF.typeOf(E);
  switch (E->getOpcode()) {
  case UOp::Plus:
    return RValue::scalar(CGF.emitScalarAs(E->getSubExpr(), ResT));
  case UOp::Minus: {
    Value *V = CGF.emitScalarAs(E->getSubExpr(), ResT);
    return RValue::scalar(V->getType()->isFloatingPointTy()
                              ? B.CreateFNeg(V, "neg")
                              : B.CreateNeg(V, "neg"));
  }
  case UOp::Not:
    return RValue::scalar(
        B.CreateNot(CGF.emitScalarAs(E->getSubExpr(), ResT), "not"));
  case UOp::LNot: {
    Value *C = CGF.emitCondition(E->getSubExpr());
    return RValue::scalar(
        B.CreateZExt(B.CreateNot(C, "lnot"), CGF.convertType(ResT)));
  }
  case UOp::Deref:
    return CGF.emitLoad(CGF.emitLValue(E));
  case UOp::AddrOf: {
    LValue LV = CGF.emitLValue(E->getSubExpr());
    if (!LV.isValid())
      return {};
    if (LV.K != LValue::Target || LV.isBitField()) {
      CGF.errorUnsupported(E, "the address of a script variable");
      return {};
    }
    return RValue::scalar(LV.Addr);
  }
  case UOp::PreInc:
  case UOp::PreDec:
  case UOp::PostInc:
  case UOp::PostDec:
    return CGF.emitIncDec(E);
  }
  llvm_unreachable("unknown unary operator");
}

RValue OperatorEmitter::conditional(const ConditionalOperator *E) {
  const tscc::Type *ResT = CGF.typeOf(E);
  Value *Cond;
  if (isa<OpaqueValueExpr>(E->getTrueExpr())) {
    // GNU `x ?: y`: x is evaluated once, tested, and is the true value.
    RValue X = CGF.emitExpr(E->getCond());
    Cond = X ? CGF.toBool(X.V, CGF.typeOf(E->getCond())) : B.getFalse();
    CGF.bindOpaqueValue(E->getTrueExpr(), X);
  } else {
    Cond = CGF.emitCondition(E->getCond());
  }
  Function *Fn = B.GetInsertBlock()->getParent();
  LLVMContext &Ctx = B.getContext();
  BasicBlock *TrueBB = BasicBlock::Create(Ctx, "cond.true", Fn);
  BasicBlock *FalseBB = BasicBlock::Create(Ctx, "cond.false", Fn);
  BasicBlock *End = BasicBlock::Create(Ctx, "cond.end", Fn);
  B.CreateCondBr(Cond, TrueBB, FalseBB);

  // Sema converted each scalar arm to the result type.
  auto Arm = [&](BasicBlock *BB, const Expr *X, uint64_t &Cap) -> Value * {
    B.SetInsertPoint(BB);
    RValue V = CGF.emitConverted(X);
    Value *Res;
    if (ResT && ResT->isVoid())
      Res = nullptr;
    else if (V && V.V->getType()->isPointerTy()) {
      Res = V.V;
      Cap = std::max(Cap, V.Capacity);
    } else
      Res = V ? V.V : Constant::getNullValue(CGF.convertType(ResT));
    B.CreateBr(End);
    return Res;
  };
  uint64_t Cap = 0;
  Value *TV = Arm(TrueBB, E->getTrueExpr(), Cap);
  BasicBlock *TrueEnd = B.GetInsertBlock();
  Value *FV = Arm(FalseBB, E->getFalseExpr(), Cap);
  BasicBlock *FalseEnd = B.GetInsertBlock();
  B.SetInsertPoint(End);
  if (!TV || !FV || TV->getType() != FV->getType())
    return {};
  PHINode *Phi = B.CreatePHI(TV->getType(), 2, "cond");
  Phi->addIncoming(TV, TrueEnd);
  Phi->addIncoming(FV, FalseEnd);
  return {Phi, Cap};
}

//===----------------------------------------------------------------------===//
// The expression dispatcher
//===----------------------------------------------------------------------===//

RValue CodeGenFunction::emitExpr(const Expr *E) {
  if (!E)
    return {};
  const tscc::Type *T = typeOf(E);
  // Sema folded it (sizeof, enumerators, macros, operators over constants).
  if (std::optional<int64_t> V = getInfo().constantFor(E, TypeDM))
    return RValue::scalar(ConstantInt::get(convertType(T), *V, true));
  switch (E->getKind()) {
  case NodeKind::ParenExpr:
    return emitExpr(cast<ParenExpr>(E)->getSubExpr());
  case NodeKind::IntegerLiteral:
    return RValue::scalar(ConstantInt::get(
        convertType(T), cast<IntegerLiteral>(E)->getValue(), false));
  case NodeKind::CharLiteral:
    return RValue::scalar(ConstantInt::get(
        convertType(T), cast<CharLiteral>(E)->getValue(), true));
  case NodeKind::StringLiteral: {
    StringRef Bytes = cast<tscc::StringLiteral>(E)->getBytes();
    return RValue::buffer(CGM.getStringLiteral(Bytes), Bytes.size() + 1);
  }
  case NodeKind::DeclRefExpr: {
    const auto *DRE = cast<DeclRefExpr>(E);
    if (DRE->getDecl())
      return emitLoad(emitLValue(E));
    errorUnsupported(E, "identifier '" + DRE->getName().str() + "'");
    return {};
  }
  case NodeKind::BuiltinVarExpr:
    return emitBuiltinVar(cast<BuiltinVarExpr>(E));
  case NodeKind::ParamExpr:
    return emitParam(cast<ParamExpr>(E));
  case NodeKind::UnaryOperator:
    return OperatorEmitter(*this).unary(cast<UnaryOperator>(E));
  case NodeKind::BinaryOperator:
    return OperatorEmitter(*this).binary(cast<BinaryOperator>(E));
  case NodeKind::ConditionalOperator:
    return OperatorEmitter(*this).conditional(cast<ConditionalOperator>(E));
  case NodeKind::AssignExpr: {
    RValue Result;
    emitAssign(cast<AssignExpr>(E), &Result);
    return Result;
  }
  case NodeKind::CastExpr: {
    const Expr *Sub = cast<CastExpr>(E)->getSubExpr();
    RValue V = emitExpr(Sub);
    if (!V)
      return {};
    if (T && T->isVoid())
      return {};
    if (V.V->getType()->isPointerTy())
      return V;
    return RValue::scalar(convert(V.V, Sub->getDecayedType(TypeDM), T));
  }
  case NodeKind::SizeofExpr:
  case NodeKind::AlignofExpr:
  case NodeKind::OffsetofExpr:
    errorUnsupported(E, "this constant expression");
    return {};
  case NodeKind::MemberExpr:
  case NodeKind::ArraySubscriptExpr:
    return emitLoad(emitLValue(E));
  case NodeKind::CallExpr:
    return emitCall(cast<CallExpr>(E));
  case NodeKind::AggregationExpr:
    errorUnsupported(E, "reading an aggregation's value");
    return {};
  case NodeKind::OpaqueValueExpr: {
    auto It = OpaqueValues.find(E);
    if (It == OpaqueValues.end()) {
      errorUnsupported(E, "an unbound opaque value");
      return {};
    }
    return It->second;
  }
  case NodeKind::GenericSelectionExpr:
    return emitExpr(cast<GenericSelectionExpr>(E)->getResultExpr(TypeDM));
  case NodeKind::CompoundLiteralExpr:
    return emitLoad(emitCompoundLiteral(cast<CompoundLiteralExpr>(E)));
  case NodeKind::InitListExpr:
    errorUnsupported(E, "a braced initializer list");
    return {};
    // Not expressions.
#define EXPR_NODE(CLASS)
#define NODE(CLASS, PARENT) case NodeKind::CLASS:
#include "tscc/AST/ASTNodes.def"
    break;
  }
  llvm_unreachable("not an expression");
}
