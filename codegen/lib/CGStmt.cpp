//===- CGStmt.cpp - Statements, assignments, ++/-- ------------------------===//
//
// A script global is updated like any other place: load, compute, store.
// Every clause that reads or writes a global runs under the session lock
// (in tsrun and in an in-process agent alike: such a clause is never
// thread-own, docs/runtime.md), which already makes `n++` and `n += x` as
// exact as `n = n * 2`; a locked read-modify-write instruction would cost
// a hit more than the rest of a counting clause on top of it.
//
//===----------------------------------------------------------------------===//

#include "CodeGenFunction.h"

using namespace llvm;
using namespace tscc;

void CodeGenFunction::emitStmt(const Stmt *S) {
  if (!S)
    return;
  ensureInsertPoint();
  switch (S->getKind()) {
  case NodeKind::CompoundStmt:
    for (const Stmt *Sub : cast<CompoundStmt>(S)->body())
      emitStmt(Sub);
    return;
  case NodeKind::ExprStmt: {
    const Expr *E = cast<ExprStmt>(S)->getExpr();
    if (const auto *A =
            dyn_cast_or_null<AssignExpr>(E ? E->ignoreParens() : nullptr)) {
      emitAssign(A, nullptr);
      return;
    }
    emitExpr(E);
    return;
  }
  case NodeKind::IfStmt: {
    const auto *If = cast<IfStmt>(S);
    Value *Cond = emitCondition(If->getCond());
    Function *Fn = B.GetInsertBlock()->getParent();
    LLVMContext &Ctx_ = B.getContext();
    BasicBlock *Then = BasicBlock::Create(Ctx_, "if.then", Fn);
    BasicBlock *End = BasicBlock::Create(Ctx_, "if.end", Fn);
    BasicBlock *Else =
        If->getElse() ? BasicBlock::Create(Ctx_, "if.else", Fn) : End;
    B.CreateCondBr(Cond, Then, Else);
    B.SetInsertPoint(Then);
    emitStmt(If->getThen());
    if (!isTerminated())
      B.CreateBr(End);
    if (If->getElse()) {
      B.SetInsertPoint(Else);
      emitStmt(If->getElse());
      if (!isTerminated())
        B.CreateBr(End);
    }
    End->moveAfter(&Fn->back());
    B.SetInsertPoint(End);
    return;
  }
  case NodeKind::ReturnStmt:
    if (ReturnBlock)
      B.CreateBr(ReturnBlock);
    return;
  case NodeKind::DeclStmt:
    emitDeclStmt(cast<DeclStmt>(S));
    return;
  case NodeKind::NullStmt:
    return;
    // Not statements.
#define STMT_NODE(CLASS)
#define NODE(CLASS, PARENT) case NodeKind::CLASS:
#include "tscc/AST/ASTNodes.def"
    errorUnsupported(S, "this statement");
  }
}

/// `x op= y`: load, compute in sema's computation
/// type, convert back, store.
static Value *emitCompound(CodeGenFunction &CGF, const AssignExpr *E,
                           const LValue &LV) {
  IRBuilder<> &B = CGF.builder();
  const tscc::Type *T = LV.Ty;
  const tscc::Type *CT = E->getComputationType(CGF.typeModel());
  tscc::BinaryOperator::Opcode Op = E->getBinaryOpcode();
  RValue Old = CGF.emitLoad(LV);
  if (!Old || Old.V->getType()->isPointerTy() || !CT) {
    CGF.errorUnsupported(E, "compound assignment to a non-scalar");
    return nullptr;
  }
  Value *New;
  const auto *P = T->getAs<tscc::PointerType>();
  uint64_t Scale =
      P && P->getPointee()->getSize() ? P->getPointee()->getSize() : 1;
  const tscc::Type *RT = E->getRHS()->getConvertedType(CGF.typeModel());
  if (CT->isPointer() && (Op == tscc::BinaryOperator::Opcode::Add ||
                          Op == tscc::BinaryOperator::Opcode::Sub)) {
    Value *Idx = CGF.emitScalarAs(E->getRHS(), T);
    Idx = B.CreateMul(Idx, ConstantInt::get(Idx->getType(), Scale));
    New = Op == tscc::BinaryOperator::Opcode::Add ? B.CreateAdd(Old.V, Idx)
                                                  : B.CreateSub(Old.V, Idx);
  } else if (P && RT && RT->isPointer()) {
    // `p -= q`, which GNU C accepts with a warning: p becomes the element
    // difference p - q (CT is ptrdiff_t), converted back to the pointer.
    RValue Q = CGF.emitConverted(E->getRHS());
    if (!Q || Q.V->getType() != Old.V->getType()) {
      CGF.errorUnsupported(E, "compound assignment from a non-scalar");
      return nullptr;
    }
    New = B.CreateSub(Old.V, Q.V, "ptr.diff");
    if (Scale != 1)
      New = B.CreateSDiv(New, ConstantInt::get(New->getType(), Scale),
                         "ptr.elems");
  } else {
    bool Shift = Op == tscc::BinaryOperator::Opcode::Shl ||
                 Op == tscc::BinaryOperator::Opcode::Shr;
    // Sema converted the RHS to CT (shifts: promoted it on its own).
    Value *L = CGF.convert(Old.V, T, CT);
    RValue RV = CGF.emitConverted(E->getRHS());
    if (!RV || RV.V->getType()->isPointerTy()) {
      CGF.errorUnsupported(E, "compound assignment from a non-scalar");
      return nullptr;
    }
    Value *R = RV.V;
    if (Shift)
      R = B.CreateZExtOrTrunc(R, L->getType());
    if (R->getType() != L->getType()) {
      CGF.errorUnsupported(E, "compound assignment on different types");
      return nullptr;
    }
    // Reuse the binary-operator code path through a synthetic opcode.
    New = CGF.emitBinaryArith(Op, L, R, CT);
    New = CGF.convert(New, CT, T);
  }
  CGF.emitStore(LV, RValue::scalar(New));
  return New;
}

void CodeGenFunction::emitAssign(const AssignExpr *E, RValue *Result) {
  if (const auto *Agg =
          dyn_cast<AggregationExpr>(E->getLHS()->ignoreParens())) {
    (void)Agg;
    emitAggregationUpdate(E);
    return;
  }
  LValue LV = emitLValue(E->getLHS());
  if (!LV.isValid())
    return;
  const tscc::Type *T = LV.Ty->getCanonical();
  if (!E->isCompoundAssign()) {
    RValue V = T->isScalar() ? RValue::scalar(emitScalarAs(E->getRHS(), T))
                             : emitExpr(E->getRHS());
    emitStore(LV, V);
    if (Result)
      *Result = V;
    return;
  }
  Value *New = emitCompound(*this, E, LV);
  if (Result && New)
    *Result = RValue::scalar(New);
}

RValue CodeGenFunction::emitIncDec(const UnaryOperator *E) {
  using UOp = tscc::UnaryOperator::Opcode;
  bool Inc = E->getOpcode() == UOp::PreInc || E->getOpcode() == UOp::PostInc;
  LValue LV = emitLValue(E->getSubExpr());
  if (!LV.isValid())
    return {};
  const tscc::Type *T = LV.Ty->getCanonical();
  llvm::Type *LTy = convertType(T);
  if (T->isFloating()) {
    RValue Old = emitLoad(LV);
    if (!Old)
      return {};
    Value *One = ConstantFP::get(LTy, 1.0);
    Value *New =
        Inc ? B.CreateFAdd(Old.V, One, "inc") : B.CreateFSub(Old.V, One, "dec");
    emitStore(LV, RValue::scalar(New));
    return RValue::scalar(E->isPostfix() ? Old.V : New);
  }
  if (!LTy->isIntegerTy()) {
    errorUnsupported(E, "++/-- on a non-scalar");
    return {};
  }
  uint64_t Step = 1;
  if (const auto *P = T->getAs<tscc::PointerType>())
    Step = P->getPointee()->getSize() ? P->getPointee()->getSize() : 1;
  Value *Delta = ConstantInt::get(LTy, Step);
  RValue Old = emitLoad(LV);
  if (!Old)
    return {};
  Value *New;
  if (T->isBool())
    New = Inc ? ConstantInt::get(LTy, 1)
              : B.CreateZExt(B.CreateIsNull(B.CreateSub(Old.V, Delta)), LTy);
  else
    New = Inc ? B.CreateAdd(Old.V, Delta, "inc")
              : B.CreateSub(Old.V, Delta, "dec");
  emitStore(LV, RValue::scalar(New));
  return RValue::scalar(E->isPostfix() ? Old.V : New);
}
