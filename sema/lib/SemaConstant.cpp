//===- SemaConstant.cpp - Integer constant folding per model --------------===//
//
// Folds integer constant expressions with the types sema recorded for one
// model, wrapping exactly as the target's C would (a `long` is 32 bits in
// ILP32). Used for initializers, array sizes, lhist bounds, and to spot
// comparisons that answer differently in the two models.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/SemaChecker.h"

#include "llvm/Support/ErrorHandling.h"

namespace tscc {

int64_t SemaChecker::normalize(int64_t V, const Type *T) {
  if (!T)
    return V;
  if (T->isBool())
    return V != 0;
  uint64_t Size = T->getSize();
  unsigned Bits = T->isInteger() ? T->getIntegerWidth() : unsigned(Size * 8);
  if (Size == 0 || Bits >= 64)
    return V;
  uint64_t Mask = (uint64_t(1) << Bits) - 1;
  uint64_t U = uint64_t(V) & Mask;
  if (T->isPointer() || !T->isSigned())
    return int64_t(U);
  if (U & (uint64_t(1) << (Bits - 1)))
    U |= ~Mask;
  return int64_t(U);
}

int64_t SemaChecker::convertValue(int64_t V, const Type *From, const Type *To) {
  // gcc sign-extends a pointer converted to a wider integer: in ILP32,
  // `(long long)(char *)0xfffffff0` is -16.
  if (From && To && From->isPointer() && To->isInteger() && !To->isBool() &&
      To->getSize() > From->getSize()) {
    unsigned Bits = unsigned(From->getSize() * 8);
    uint64_t U = uint64_t(V) & ((uint64_t(1) << Bits) - 1);
    if (U >> (Bits - 1))
      U |= ~((uint64_t(1) << Bits) - 1);
    V = int64_t(U);
  }
  return normalize(V, To);
}

void SemaChecker::recordConstant(const Expr *E, int64_t V) {
  auto &Entry = Info.Constants[E];
  Entry.first[mi()] = V;
  Entry.second[mi()] = true;
}

std::optional<int64_t> SemaChecker::evaluateIn(const Expr *E, DataModel X) {
  DataModel Saved = M;
  M = X;
  std::optional<int64_t> R = evaluate(E);
  M = Saved;
  return R;
}

namespace {
bool isUnsigned(const Type *T) {
  return T && (T->isPointer() || !T->isSigned());
}
} // namespace

std::optional<int64_t> SemaChecker::evaluateOperand(const Expr *E) {
  std::optional<int64_t> V = evaluate(E);
  if (!V)
    return std::nullopt;
  const ImplicitCast *C = E->getConversion(M);
  return C ? convertValue(*V, E->getDecayedType(M), C->To) : V;
}

std::optional<int64_t> SemaChecker::evaluate(const Expr *E) {
  const Type *T = E->getType(M);
  if (!T || !(T->isInteger() || T->isPointer()))
    return std::nullopt;
  // Leaves whose value sema computed (sizeof, enumerators, macros, ...),
  // and expressions folded before.
  if (auto It = Info.Constants.find(E);
      It != Info.Constants.end() && It->second.second[mi()])
    return It->second.first[mi()];
  if (NotConstant[mi()].contains(E))
    return std::nullopt;

  switch (E->getKind()) {
  case NodeKind::IntegerLiteral:
    return normalize(int64_t(llvm::cast<IntegerLiteral>(E)->getValue()), T);
  case NodeKind::CharLiteral:
    return normalize(llvm::cast<CharLiteral>(E)->getValue(), T);
  case NodeKind::ParenExpr:
    return evaluate(llvm::cast<ParenExpr>(E)->getSubExpr());
  case NodeKind::CastExpr: {
    const Expr *Sub = llvm::cast<CastExpr>(E)->getSubExpr();
    std::optional<int64_t> V = evaluateOperand(Sub);
    if (!V)
      return std::nullopt;
    return convertValue(*V, Sub->getConvertedType(M), T);
  }
  case NodeKind::UnaryOperator: {
    const auto *U = llvm::cast<UnaryOperator>(E);
    using Op = UnaryOperator::Opcode;
    std::optional<int64_t> V = evaluateOperand(U->getSubExpr());
    if (!V)
      return std::nullopt;
    switch (U->getOpcode()) {
    case Op::Plus:
      return normalize(*V, T);
    case Op::Minus:
      return normalize(int64_t(0 - uint64_t(*V)), T);
    case Op::Not:
      return normalize(~*V, T);
    case Op::LNot:
      return *V == 0;
    case Op::Deref:
    case Op::AddrOf:
    case Op::PreInc:
    case Op::PreDec:
    case Op::PostInc:
    case Op::PostDec:
      return std::nullopt;
    }
    return std::nullopt;
  }
  case NodeKind::ConditionalOperator: {
    const auto *C = llvm::cast<ConditionalOperator>(E);
    std::optional<int64_t> Cond = evaluateOperand(C->getCond());
    if (!Cond)
      return std::nullopt;
    std::optional<int64_t> V =
        evaluateOperand(*Cond ? C->getTrueExpr() : C->getFalseExpr());
    if (!V)
      return std::nullopt;
    return normalize(*V, T);
  }
  case NodeKind::BinaryOperator:
    return evaluateBinary(llvm::cast<BinaryOperator>(E));
  case NodeKind::StringLiteral:
  case NodeKind::DeclRefExpr:
  case NodeKind::BuiltinVarExpr:
  case NodeKind::ParamExpr:
  case NodeKind::AggregationExpr:
  case NodeKind::AssignExpr:
  case NodeKind::SizeofExpr:
  case NodeKind::AlignofExpr:
  case NodeKind::OffsetofExpr:
  case NodeKind::MemberExpr:
  case NodeKind::ArraySubscriptExpr:
  case NodeKind::CallExpr:
  case NodeKind::OpaqueValueExpr:
  case NodeKind::GenericSelectionExpr:
  case NodeKind::InitListExpr:
  case NodeKind::CompoundLiteralExpr:
    // Constant only if recorded above.
    return std::nullopt;
#define EXPR_NODE(CLASS) // the nodes that are not expressions follow
#define NODE(CLASS, PARENT) case NodeKind::CLASS:
#include "tscc/AST/ASTNodes.def"
    break;
  }
  llvm_unreachable("not an expression");
}

std::optional<int64_t> SemaChecker::evaluateBinary(const BinaryOperator *B) {
  using Op = BinaryOperator::Opcode;
  const Type *T = B->getType(M);
  Op O = B->getOpcode();
  // Each operand as sema converted it for this operator: to the common
  // type, promoted (shifts), to _Bool (&&, ||), to the other operand's
  // pointer type (comparisons); pointers compare as addresses.
  std::optional<int64_t> L = evaluateOperand(B->getLHS());
  if (O == Op::LAnd && L && !*L)
    return 0;
  if (O == Op::LOr && L && *L)
    return 1;
  std::optional<int64_t> R = evaluateOperand(B->getRHS());
  if (!L || !R)
    return std::nullopt;
  if (O == Op::LAnd || O == Op::LOr)
    return *R != 0;

  const Type *LT = B->getLHS()->getConvertedType(M);
  const Type *RT = B->getRHS()->getConvertedType(M);
  // Pointer arithmetic is not folded (the pointee size scaling is codegen's).
  if (!B->isComparisonOp() && (LT->isPointer() || RT->isPointer()))
    return std::nullopt;
  int64_t A = *L, C = *R;
  bool U = isUnsigned(LT);
  uint64_t UA = uint64_t(A), UC = uint64_t(C);
  int64_t Res = 0;
  switch (O) {
  case Op::Mul:
    Res = int64_t(UA * UC);
    break;
  case Op::Div:
  case Op::Rem:
    if (C == 0 || (!U && A == INT64_MIN && C == -1))
      return std::nullopt;
    if (O == Op::Div)
      Res = U ? int64_t(UA / UC) : A / C;
    else
      Res = U ? int64_t(UA % UC) : A % C;
    break;
  case Op::Add:
    Res = int64_t(UA + UC);
    break;
  case Op::Sub:
    Res = int64_t(UA - UC);
    break;
  case Op::Shl:
    if (C < 0 || uint64_t(C) >= T->getIntegerWidth())
      return std::nullopt;
    Res = int64_t(UA << C);
    break;
  case Op::Shr:
    if (C < 0 || uint64_t(C) >= T->getIntegerWidth())
      return std::nullopt;
    Res = U ? int64_t(UA >> C) : A >> C;
    break;
  case Op::And:
    Res = A & C;
    break;
  case Op::Xor:
    Res = A ^ C;
    break;
  case Op::Or:
    Res = A | C;
    break;
  case Op::LT:
    return U ? UA < UC : A < C;
  case Op::GT:
    return U ? UA > UC : A > C;
  case Op::LE:
    return U ? UA <= UC : A <= C;
  case Op::GE:
    return U ? UA >= UC : A >= C;
  case Op::EQ:
    return A == C;
  case Op::NE:
    return A != C;
  case Op::LAnd:
  case Op::LOr:
    llvm_unreachable("handled above");
  }
  return normalize(Res, T);
}

} // namespace tscc
