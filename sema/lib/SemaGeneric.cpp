//===- SemaGeneric.cpp - _Generic, __typeof__ and GNU x ?: y --------------===//
//
// Constructs whose meaning is a type: `_Generic` selects an association by
// the type of its (unevaluated) controlling expression, per model, so
// `_Generic(x, long: 1, long long: 2)` may choose differently in ILP32 and
// LP64; `__typeof__(expr)` names an expression's type; the condition of
// GNU `x ?: y` is also its value.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/SemaChecker.h"

namespace tscc {

namespace {

/// C's compatible types (6.2.7) for the types scripts have: the same type,
/// an enum and its underlying integer type, pointers to compatible types,
/// arrays of compatible elements. Qualifiers are not modelled.
bool compatible(const Type *A, const Type *B) {
  A = A->getCanonical();
  B = B->getCanonical();
  if (A == B)
    return true;
  if (const auto *E = llvm::dyn_cast<EnumType>(A))
    return E->getIntegerType() && E->getIntegerType()->getCanonical() == B;
  if (const auto *E = llvm::dyn_cast<EnumType>(B))
    return E->getIntegerType() && E->getIntegerType()->getCanonical() == A;
  const auto *PA = llvm::dyn_cast<PointerType>(A);
  const auto *PB = llvm::dyn_cast<PointerType>(B);
  if (PA && PB)
    return compatible(PA->getPointee(), PB->getPointee());
  const auto *AA = llvm::dyn_cast<ArrayType>(A);
  const auto *AB = llvm::dyn_cast<ArrayType>(B);
  if (AA && AB)
    return compatible(AA->getElementType(), AB->getElementType()) &&
           (!AA->getNumElements() || !AB->getNumElements() ||
            AA->getNumElements() == AB->getNumElements());
  return false;
}

} // namespace

const Type *SemaChecker::gnuBitFieldType(unsigned Width, const Type *T) {
  // gcc gives a bit-field the standard type of its width when there is one
  // (c_build_bitfield_integer_type), its declared type at full width, and
  // an N-bit type otherwise.
  if (Width == T->getIntegerWidth() || T->isBool())
    return T;
  bool S = T->isSigned();
  using K = Type::Kind;
  for (auto [Signed, Unsigned] :
       {std::pair{K::Int, K::UInt}, std::pair{K::SChar, K::UChar},
        std::pair{K::Short, K::UShort}, std::pair{K::Long, K::ULong},
        std::pair{K::LongLong, K::ULongLong}}) {
    const Type *C = types().getBuiltin(S ? Signed : Unsigned);
    if (C->getIntegerWidth() == Width)
      return C;
  }
  return types().getBitFieldInt(Width, S);
}

const Type *SemaChecker::controllingType(Expr *E, const Type *T) {
  // Lvalue conversion (6.5.1.1p2): arrays and functions decay; a bit-field
  // has the type gcc gives it.
  if (const auto *A = T->getAs<ArrayType>())
    return types().getPointer(A->getElementType());
  if (T->isFunction())
    return types().getPointer(T);
  if (const auto *ME = llvm::dyn_cast<MemberExpr>(E->ignoreParens()))
    if (const MemberAccess *MA = Info.memberFor(ME, M); MA && MA->BitWidth)
      return gnuBitFieldType(*MA->BitWidth, T);
  return T;
}

const Type *SemaChecker::checkGenericSelection(GenericSelectionExpr *E) {
  const Type *CT = check(E->getControllingExpr());
  llvm::ArrayRef<GenericAssociation> Assocs = E->getAssociations();
  llvm::SmallVector<const Type *, 8> Types;
  bool OK = CT != nullptr;
  int Selected = -1, Default = -1;
  for (size_t I = 0; I < Assocs.size(); ++I) {
    const GenericAssociation &A = Assocs[I];
    // Every association must be a valid expression, selected or not.
    OK &= check(A.Value) != nullptr;
    if (!A.Type) {
      if (Default >= 0) {
        diag(A.Value->getSourceRange(), diag::err_generic_duplicate_default);
        OK = false;
      }
      Default = int(I);
      Types.push_back(nullptr);
      continue;
    }
    const Type *AT = resolveTypeSpec(A.Type);
    Types.push_back(AT);
    if (!AT) {
      OK = false;
      continue;
    }
    for (size_t J = 0; J < I; ++J)
      if (Types[J] && compatible(Types[J], AT)) {
        diag(A.Type->getSourceRange(), diag::err_generic_duplicate_type)
            << AT->getName() << Types[J]->getName();
        OK = false;
      }
  }
  if (!OK)
    return nullptr;
  CT = controllingType(E->getControllingExpr(), CT);
  for (size_t I = 0; I < Types.size(); ++I)
    if (Types[I] && compatible(Types[I], CT))
      Selected = int(I);
  if (Selected < 0)
    Selected = Default;
  if (Selected < 0) {
    diag(E->getControllingExpr()->getSourceRange(), diag::err_generic_no_match)
        << CT->getName();
    return nullptr;
  }
  E->setSelected(M, Selected);
  Expr *R = Assocs[unsigned(Selected)].Value;
  if (std::optional<int64_t> V = evaluate(R))
    recordConstant(E, *V);
  return R->getType(M);
}

const Type *SemaChecker::checkTypeofExpr(TypeSpec *T) {
  // The operand is not evaluated: it is typed, never emitted.
  Expr *E = T->getTypeofExpr();
  const Type *R = check(E);
  if (!R)
    return nullptr;
  if (const auto *ME = llvm::dyn_cast<MemberExpr>(E->ignoreParens()))
    if (const MemberAccess *MA = Info.memberFor(ME, M); MA && MA->BitWidth) {
      diag(E->getSourceRange(), diag::err_typeof_bitfield);
      return nullptr;
    }
  return R;
}

const Type *SemaChecker::checkOpaqueValue(OpaqueValueExpr *E) {
  // The condition of `x ?: y`, already checked where it is written.
  Expr *Src = E->getSourceExpr();
  const Type *T = Src->getType(M);
  if (!T)
    return nullptr;
  if (std::optional<int64_t> V = evaluate(Src))
    recordConstant(E, *V);
  return T;
}

} // namespace tscc
