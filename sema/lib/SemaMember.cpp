//===- SemaMember.cpp - Members, subscripts, sizeof, offsetof -------------===//
//
// Everything whose answer is a layout: member offsets, element sizes,
// sizeof/_Alignof/offsetof. Each is computed from the current model's
// Clang layout, so the ILP32 and LP64 passes record different numbers.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/SemaChecker.h"

#include "tscc/AST/ASTContext.h"

namespace tscc {

const Type *SemaChecker::checkMember(MemberExpr *E) {
  Expr *Base = E->getBase();
  const Type *Raw = check(Base);
  if (!Raw)
    return nullptr;
  const RecordType *R = nullptr;
  if (E->isArrow()) {
    if (Raw->isRecord()) {
      diag(E->getOperatorLoc(), diag::err_member_arrow_non_pointer)
          << Raw->getName();
      return nullptr;
    }
    const Type *T = rvalue(Base, Raw);
    if (!T)
      return nullptr;
    const auto *P = T->getAs<PointerType>();
    if (!P) {
      diag(E->getOperatorLoc(), T->isRecord()
                                    ? diag::err_member_arrow_non_pointer
                                    : diag::err_member_not_record)
          << T->getName();
      return nullptr;
    }
    R = P->getPointee()->getAs<RecordType>();
    if (!R) {
      diag(E->getOperatorLoc(), diag::err_member_not_record)
          << P->getPointee()->getName();
      return nullptr;
    }
  } else {
    if (const auto *P = Raw->getAs<PointerType>();
        P && P->getPointee()->isRecord()) {
      diag(E->getOperatorLoc(), diag::err_member_dot_pointer) << Raw->getName();
      return nullptr;
    }
    R = Raw->getAs<RecordType>();
    if (!R) {
      diag(E->getOperatorLoc(), diag::err_member_not_record) << Raw->getName();
      return nullptr;
    }
  }
  if (!R->hasDefinition()) {
    diag(E->getMemberLoc(), diag::err_member_incomplete) << R->getName();
    return nullptr;
  }
  // Direct members, members of anonymous members, and macro member paths
  // (glibc's `sa_handler` is `__sigaction_handler.sa_handler`).
  std::optional<FieldPath> Path = cdecls().lookupMember(R, E->getMemberName());
  if (!Path) {
    diag(E->getMemberLoc(), diag::err_no_member)
        << E->getMemberName() << R->getName();
    return nullptr;
  }
  MemberAccess &MA = Info.Members[E][mi()];
  MA.BitOffset = Path->BitOffset;
  MA.BitWidth = Path->getField().BitWidth;
  MA.Ty = Path->getType();
  MA.Align = Path->getField().Align;
  return Path->getType();
}

const Type *SemaChecker::checkSubscript(ArraySubscriptExpr *E) {
  Expr *Base = E->getBase();
  if (auto *DR = llvm::dyn_cast<DeclRefExpr>(Base->ignoreParens()))
    if (VarDecl *D = lookupVar(DR->getName()); D && D->isAssociativeArray())
      return checkMapAccess(E, D);
  const Type *Raw = check(Base);
  for (Expr *I : E->getIndices())
    check(I);
  if (!Raw)
    return nullptr;
  if (E->getIndices().size() != 1) {
    diag(E->getSourceRange(), diag::err_subscript_count);
    return nullptr;
  }
  if (swapSubscriptOperands(E))
    return checkSubscript(E);
  Expr *Idx = E->getIdx();
  if (auto *Lit = llvm::dyn_cast<StringLiteral>(Base->ignoreParens()))
    return checkStringLiteralSubscript(E, Lit);
  const Type *IT = rvalue(Idx, Idx->getType(M));
  if (!IT)
    return nullptr;
  if (!IT->isInteger()) {
    diag(Idx->getSourceRange(), diag::err_subscript_not_integer);
    return nullptr;
  }
  const Type *Elem = nullptr;
  if (const auto *A = Raw->getAs<ArrayType>())
    Elem = A->getElementType();
  else if (const auto *P = Raw->getAs<PointerType>())
    Elem = P->getPointee();
  if (!Elem) {
    diag(Base->getSourceRange(), diag::err_subscript_base) << Raw->getName();
    return nullptr;
  }
  if (Elem->isVoid()) {
    diag(E->getSourceRange(), diag::err_deref_void) << Raw->getName();
    return nullptr;
  }
  if (!Elem->isComplete()) {
    diag(E->getSourceRange(), diag::err_deref_incomplete) << Elem->getName();
    return nullptr;
  }
  return Elem;
}

bool SemaChecker::swapSubscriptOperands(ArraySubscriptExpr *E) {
  // `i[arr]` is `arr[i]` in C (6.5.2.1: one operand is the pointer, the
  // other the integer). The operands are put in the order `arr[i]` once,
  // in the first model's pass, so that codegen and the other pass see the
  // usual shape.
  Expr *Base = E->getBase(), *Idx = E->getIdx();
  const Type *BT = Base->getType(M), *IT = Idx->getType(M);
  if (!BT || !IT || !BT->isInteger())
    return false;
  if (!IT->isArray() && !IT->isPointer() &&
      !llvm::isa<StringLiteral>(Idx->ignoreParens()))
    return false;
  E->setBase(Idx);
  E->setIndices(AST.copyArray(llvm::ArrayRef<Expr *>(Base)));
  return true;
}

const Type *SemaChecker::checkStringLiteralSubscript(ArraySubscriptExpr *E,
                                                     StringLiteral *Lit) {
  // A string literal is a `char[N]`: "abc"[1] is 'b', "abc"[3] its NUL.
  Expr *Idx = E->getIdx();
  const Type *IT = rvalue(Idx, Idx->getType(M));
  if (!IT)
    return nullptr;
  if (!IT->isInteger()) {
    diag(Idx->getSourceRange(), diag::err_subscript_not_integer);
    return nullptr;
  }
  convertTo(Idx, promote(promoteBitField(Idx, IT)));
  uint64_t Len = Lit->getBytes().size() + 1;
  if (std::optional<int64_t> I = evaluateOperand(Idx)) {
    bool Neg = IT->isSigned() && *I < 0;
    if (Neg || uint64_t(*I) >= Len) {
      diag(Idx->getSourceRange(), diag::err_string_index_range)
          << std::to_string(*I) << unsigned(Len);
      return nullptr;
    }
    uint64_t At = uint64_t(*I);
    recordConstant(E, At < Len - 1 ? int64_t(int8_t(Lit->getBytes()[At])) : 0);
  }
  return types().getChar();
}

const Type *SemaChecker::checkMapAccess(ArraySubscriptExpr *E, VarDecl *Map) {
  auto *DR = llvm::cast<DeclRefExpr>(E->getBase()->ignoreParens());
  DR->setDecl(Map);
  const VariableInfo &VI = varInfo(Map);
  const Type *Value = VI.Types[mi()];
  DR->setType(M, Value);
  E->getBase()->setType(M, Value);
  llvm::SmallVector<const Type *, 2> KeyTypes;
  for (Expr *K : E->getIndices())
    KeyTypes.push_back(rvalue(K, check(K)));
  if (VI.MapId < 0 || !Value)
    return nullptr;
  const MapInfo &MI = Info.Maps[VI.MapId];
  if (E->getIndices().size() != MI.KeyTypes.size()) {
    diag(E->getSourceRange(), diag::err_map_key_count)
        << Map->getName() << unsigned(MI.KeyTypes.size())
        << unsigned(MI.KeyTypes.size() != 1)
        << unsigned(E->getIndices().size());
    return nullptr;
  }
  for (size_t I = 0; I < KeyTypes.size(); ++I) {
    const Type *KeyT = MI.KeyTypes[I][mi()];
    Expr *K = E->getIndices()[I];
    if (KeyTypes[I] && KeyT &&
        !checkConvertible(K, KeyTypes[I], KeyT, K->getBeginLoc(),
                          "indexing with"))
      return nullptr;
  }
  return Value;
}

namespace {

/// gcc's alignment of a type for `__alignof__` (its TYPE_ALIGN), which is
/// clang's preferred alignment: the C11 alignment, except that a `long
/// long`, `unsigned long long`, `double` or 64-bit enum (or an array of
/// them) standing alone is aligned to its size, 8, where a member of that
/// type is aligned to 4 (i386). An alignment that a typedef sets is kept.
uint64_t gnuTypeAlign(const Type *T) {
  uint64_t ABI = T->getAlign();
  const Type *Base = T;
  while (true) {
    for (const Type *S = Base; const auto *TD = llvm::dyn_cast<TypedefType>(S);
         S = TD->getUnderlying())
      if (TD->getAlignOverride())
        return ABI;
    const auto *A = Base->getAs<ArrayType>();
    if (!A)
      break;
    Base = A->getElementType();
  }
  const Type *C = Base->getCanonical();
  if (const auto *En = llvm::dyn_cast<EnumType>(C); En && En->getIntegerType())
    C = En->getIntegerType()->getCanonical();
  switch (C->getKind()) {
  case Type::Kind::LongLong:
  case Type::Kind::ULongLong:
  case Type::Kind::Double:
    return std::max<uint64_t>(ABI, C->getSize());
  default:
    return ABI;
  }
}

} // namespace

std::optional<uint64_t> SemaChecker::gnuExprAlign(TypeOrExprTraitExpr *E,
                                                  const Type *T) {
  // gcc's c_alignof_expr, for `__alignof__ expr` and `_Alignof expr` alike:
  // a member answers its own alignment, `*p` the best alignment among the
  // pointee types of p's pointer casts, anything else its type's.
  Expr *X = E->getExprOperand()->ignoreParens();
  if (auto *ME = llvm::dyn_cast<MemberExpr>(X)) {
    const MemberAccess *MA = Info.memberFor(ME, M);
    if (!MA)
      return std::nullopt;
    if (MA->BitWidth) {
      diag(E->getSourceRange(), diag::err_alignof_bitfield);
      return std::nullopt;
    }
    return MA->Align;
  }
  auto *U = llvm::dyn_cast<UnaryOperator>(X);
  if (!U || U->getOpcode() != UnaryOperator::Opcode::Deref)
    return gnuTypeAlign(T);
  uint64_t Best = gnuTypeAlign(T);
  for (Expr *P = U->getSubExpr()->ignoreParens();;) {
    auto *Cast = llvm::dyn_cast<CastExpr>(P);
    if (!Cast)
      break;
    P = Cast->getSubExpr()->ignoreParens();
    const Type *PT = P->getDecayedType(M);
    const auto *Ptr = PT ? PT->getAs<PointerType>() : nullptr;
    if (!Ptr)
      break;
    if (Ptr->getPointee()->isComplete())
      Best = std::max(Best, gnuTypeAlign(Ptr->getPointee()));
  }
  return Best;
}

const Type *SemaChecker::checkSizeofAlignof(TypeOrExprTraitExpr *E,
                                            bool IsSizeof) {
  const Type *T = nullptr;
  SourceRange Where = E->getSourceRange();
  bool GNU = !IsSizeof && llvm::cast<AlignofExpr>(E)->isGNUSpelling();
  bool TypeOperand = E->isTypeOperand();
  if (TypeOperand) {
    T = resolveTypeSpec(E->getTypeOperand());
  } else if (auto *Lit = llvm::dyn_cast<StringLiteral>(
                 E->getExprOperand()->ignoreParens())) {
    // A string literal is a `char[N]` in C: "abc" has 4 bytes, alignment 1.
    check(E->getExprOperand());
    recordConstant(E, IsSizeof ? int64_t(Lit->getBytes().size() + 1) : 1);
    return types().getSizeType();
  } else {
    Expr *Op = E->getExprOperand();
    // `sizeof(pid_t)` parses as an expression when the parser did not know
    // pid_t is a type; a name that is no variable but a typedef is a type.
    auto *DR = llvm::dyn_cast<DeclRefExpr>(Op->ignoreParens());
    const Type *TD = DR && !lookupVar(DR->getName())
                         ? cdecls().lookupTypedef(DR->getName())
                         : nullptr;
    if (TD) {
      T = TD;
      TypeOperand = true;
      Op->setType(M, TD);
      DR->setType(M, TD);
    } else {
      T = check(Op);
    }
  }
  if (!T)
    return nullptr;
  unsigned Bad = 3; // %select{an incomplete|a function|a void}
  if (T->isVoid())
    Bad = 2;
  else if (T->isFunction())
    Bad = 1;
  else if (!T->isComplete())
    Bad = 0;
  if (Bad != 3) {
    diag(Where, diag::err_sizeof_invalid)
        << (IsSizeof ? "sizeof" : "_Alignof") << Bad << T->getName();
    return nullptr;
  }
  uint64_t V = IsSizeof ? T->getSize() : GNU ? gnuTypeAlign(T) : T->getAlign();
  if (!IsSizeof && !TypeOperand) {
    std::optional<uint64_t> A = gnuExprAlign(E, T);
    if (!A)
      return nullptr;
    V = *A;
  }
  recordConstant(E, int64_t(V));
  return types().getSizeType();
}

const Type *SemaChecker::checkOffsetof(OffsetofExpr *E) {
  const Type *T = resolveTypeSpec(E->getTypeSpec());
  if (!T)
    return nullptr;
  if (!T->isRecord()) {
    diag(E->getTypeSpec()->getBeginLoc(), diag::err_offsetof_not_record)
        << T->getName();
    return nullptr;
  }
  // Walk the designator (`m[1].x`) ourselves so that anonymous members and
  // macro member names resolve exactly as in member expressions.
  uint64_t Bits = 0;
  const Type *CurT = T;
  for (const OffsetofComponent &C : E->getComponents()) {
    if (C.K == OffsetofComponent::Kind::Field) {
      const RecordType *R = CurT->getAs<RecordType>();
      if (!R) {
        diag(C.Range.getBegin(), diag::err_member_not_record)
            << CurT->getName();
        return nullptr;
      }
      std::optional<FieldPath> P = cdecls().lookupMember(R, C.FieldName);
      if (!P) {
        diag(C.Range.getBegin(), diag::err_no_member)
            << C.FieldName << R->getName();
        return nullptr;
      }
      if (P->isBitField()) {
        diag(C.Range.getBegin(), diag::err_offsetof_failed)
            << ("cannot compute offset of bit-field '" + C.FieldName + "'")
                   .str();
        return nullptr;
      }
      Bits += P->BitOffset;
      CurT = P->getType();
      continue;
    }
    const Type *IT = C.Index ? check(C.Index) : nullptr;
    std::optional<int64_t> Idx = IT ? evaluate(C.Index) : std::nullopt;
    if (!Idx) {
      if (IT)
        diag(C.Range.getBegin(), diag::err_offsetof_index);
      return nullptr;
    }
    const ArrayType *A = CurT->getAs<ArrayType>();
    if (!A) {
      diag(C.Range.getBegin(), diag::err_subscript_base) << CurT->getName();
      return nullptr;
    }
    CurT = A->getElementType();
    Bits += uint64_t(*Idx) * CurT->getSize() * 8;
  }
  recordConstant(E, int64_t(Bits / 8));
  return types().getSizeType();
}

} // namespace tscc
