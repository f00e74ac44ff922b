//===- SemaExpr.cpp - Expressions: names, operators, conversions ----------===//
//
// C's typing rules with the widths of the model being checked: integer
// literals, promotions and the usual arithmetic conversions, pointer
// arithmetic, assignments into script storage, casts. An erroneous
// expression gets a null type and is not diagnosed again by its parents.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/SemaChecker.h"

#include "tscc/Parse/Parser.h"

namespace tscc {

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

const Type *SemaChecker::check(Expr *E) {
  const Type *T = nullptr;
  E->clearImplicitCasts(M);
  switch (E->getKind()) {
  case NodeKind::IntegerLiteral:
    T = checkIntegerLiteral(llvm::cast<IntegerLiteral>(E));
    break;
  case NodeKind::CharLiteral:
    T = checkCharLiteral(llvm::cast<CharLiteral>(E));
    break;
  case NodeKind::StringLiteral: {
    uint64_t Len = llvm::cast<StringLiteral>(E)->getBytes().size() + 1;
    T = types().getString(std::max<uint64_t>(Len, StringType::DefaultCapacity));
    break;
  }
  case NodeKind::DeclRefExpr:
    T = checkDeclRef(llvm::cast<DeclRefExpr>(E));
    break;
  case NodeKind::BuiltinVarExpr:
    T = checkBuiltinVar(llvm::cast<BuiltinVarExpr>(E));
    break;
  case NodeKind::ParamExpr:
    T = types().getLongLong();
    break;
  case NodeKind::AggregationExpr:
    T = checkAggregationRef(llvm::cast<AggregationExpr>(E));
    break;
  case NodeKind::UnaryOperator:
    T = checkUnary(llvm::cast<UnaryOperator>(E));
    break;
  case NodeKind::BinaryOperator:
    T = checkBinary(llvm::cast<BinaryOperator>(E));
    break;
  case NodeKind::AssignExpr:
    T = checkAssign(llvm::cast<AssignExpr>(E));
    break;
  case NodeKind::ConditionalOperator:
    T = checkConditional(llvm::cast<ConditionalOperator>(E));
    break;
  case NodeKind::CastExpr:
    T = checkCast(llvm::cast<CastExpr>(E));
    break;
  case NodeKind::SizeofExpr:
    T = checkSizeofAlignof(llvm::cast<SizeofExpr>(E), /*IsSizeof=*/true);
    break;
  case NodeKind::AlignofExpr:
    T = checkSizeofAlignof(llvm::cast<AlignofExpr>(E), /*IsSizeof=*/false);
    break;
  case NodeKind::OffsetofExpr:
    T = checkOffsetof(llvm::cast<OffsetofExpr>(E));
    break;
  case NodeKind::MemberExpr:
    T = checkMember(llvm::cast<MemberExpr>(E));
    break;
  case NodeKind::ArraySubscriptExpr:
    T = checkSubscript(llvm::cast<ArraySubscriptExpr>(E));
    break;
  case NodeKind::CallExpr:
    T = checkCall(llvm::cast<CallExpr>(E));
    break;
  case NodeKind::ParenExpr:
    T = check(llvm::cast<ParenExpr>(E)->getSubExpr());
    break;
  case NodeKind::OpaqueValueExpr:
    T = checkOpaqueValue(llvm::cast<OpaqueValueExpr>(E));
    break;
  case NodeKind::GenericSelectionExpr:
    T = checkGenericSelection(llvm::cast<GenericSelectionExpr>(E));
    break;
  case NodeKind::CompoundLiteralExpr:
    T = checkCompoundLiteral(llvm::cast<CompoundLiteralExpr>(E));
    break;
  case NodeKind::InitListExpr:
    // Only inside a compound literal, which checks its items itself.
    diag(E->getSourceRange(), diag::err_init_list_here);
    break;
    // Not expressions.
#define EXPR_NODE(CLASS)
#define NODE(CLASS, PARENT) case NodeKind::CLASS:
#include "tscc/AST/ASTNodes.def"
    llvm_unreachable("not an expression");
  }
  if (T && T->isFloating()) {
    diag(E->getSourceRange(), diag::err_floating_value) << T->getName();
    T = nullptr;
  }
  E->setType(M, T);
  foldConstant(E);
  return T;
}

void SemaChecker::foldConstant(Expr *E) {
  // Leaves record their own values (sizeof, enumerators, macros); literals
  // are their value. Operators over constants are folded here, once, so
  // that codegen and the rest of sema read one answer.
  if (!llvm::isa<UnaryOperator, BinaryOperator, ConditionalOperator, CastExpr>(
          E))
    return;
  if (Info.constantFor(E, M))
    return;
  if (std::optional<int64_t> V = evaluate(E))
    recordConstant(E, *V);
  else
    NotConstant[mi()].insert(E);
}

const Type *SemaChecker::paramAsString(Expr *E) {
  if (!E || !llvm::isa<ParamExpr>(E->ignoreParens()))
    return nullptr;
  const Type *S = types().getString(StringType::DefaultCapacity);
  for (Expr *X = E;; X = llvm::cast<ParenExpr>(X)->getSubExpr()) {
    X->setType(M, S);
    if (!llvm::isa<ParenExpr>(X))
      break;
  }
  return S;
}

const Type *SemaChecker::rvalue(Expr *E, const Type *T) {
  if (!T)
    return nullptr;
  if (T->isVoid()) {
    const Expr *Inner = E->ignoreParens();
    if (const auto *Call = llvm::dyn_cast<CallExpr>(Inner))
      diag(E->getSourceRange(), diag::err_void_value) << Call->getCalleeName();
    else
      diag(E->getSourceRange(), diag::err_void_value) << "expression";
    return nullptr;
  }
  if (const auto *A = T->getAs<ArrayType>()) {
    if (isScriptLValue(E)) {
      const Expr *Root = E->ignoreParens();
      llvm::StringRef Name = "array";
      if (const auto *DR = llvm::dyn_cast<DeclRefExpr>(Root))
        Name = DR->getName();
      diag(E->getSourceRange(), diag::err_script_array_value) << Name;
      return nullptr;
    }
    const Type *P = types().getPointer(A->getElementType());
    E->setDecay(M, {ImplicitCastKind::ArrayToPointerDecay, P});
    return P;
  }
  if (T->isFunction()) {
    const Type *P = types().getPointer(T);
    E->setDecay(M, {ImplicitCastKind::FunctionToPointerDecay, P});
    return P;
  }
  if (T->isRecord()) {
    diag(E->getSourceRange(), diag::err_record_value) << T->getName();
    return nullptr;
  }
  return T;
}

//===----------------------------------------------------------------------===//
// Literals and names
//===----------------------------------------------------------------------===//

const Type *SemaChecker::checkIntegerLiteral(IntegerLiteral *E) {
  using K = Type::Kind;
  uint64_t V = E->getValue();
  bool Decimal = E->getRadix() == 10;
  bool U = E->hasUnsignedSuffix();
  llvm::SmallVector<K, 6> Candidates;
  switch (E->getSizeSuffix()) {
  case IntegerLiteral::SizeSuffix::None:
    if (U)
      Candidates = {K::UInt, K::ULong, K::ULongLong};
    else if (Decimal)
      Candidates = {K::Int, K::Long, K::LongLong};
    else
      Candidates = {K::Int,   K::UInt,     K::Long,
                    K::ULong, K::LongLong, K::ULongLong};
    break;
  case IntegerLiteral::SizeSuffix::Long:
    if (U)
      Candidates = {K::ULong, K::ULongLong};
    else if (Decimal)
      Candidates = {K::Long, K::LongLong};
    else
      Candidates = {K::Long, K::ULong, K::LongLong, K::ULongLong};
    break;
  case IntegerLiteral::SizeSuffix::LongLong:
    if (U || !Decimal)
      Candidates = U ? llvm::SmallVector<K, 6>{K::ULongLong}
                     : llvm::SmallVector<K, 6>{K::LongLong, K::ULongLong};
    else
      Candidates = {K::LongLong};
    break;
  }
  // C's rule: the first type of the list the value fits in, with this
  // model's widths (3000000000 is `long long` in ILP32, `long` in LP64).
  for (K Kind : Candidates) {
    const Type *T = types().getBuiltin(Kind);
    unsigned Bits = T->getSize() * 8;
    uint64_t Max = T->isSigned()
                       ? (uint64_t(1) << (Bits - 1)) - 1
                       : (Bits == 64 ? UINT64_MAX : (uint64_t(1) << Bits) - 1);
    if (V <= Max)
      return T;
  }
  // Too large for a signed type: clang interprets it as unsigned.
  return types().getULongLong();
}

const Type *SemaChecker::checkCharLiteral(CharLiteral *E) {
  // wchar_t is `long` in i386 Linux and `int` in x86-64 Linux; char16_t and
  // char32_t are uint_least16_t and uint_least32_t.
  switch (E->getCharKind()) {
  case CharLiteralKind::Plain:
    return types().getInt();
  case CharLiteralKind::Wide:
    return M == DataModel::ILP32 ? types().getLong() : types().getInt();
  case CharLiteralKind::UTF16:
    return types().getBuiltin(Type::Kind::UShort);
  case CharLiteralKind::UTF32:
    return types().getUInt();
  }
  llvm_unreachable("unknown character constant kind");
}

const Type *SemaChecker::checkDeclRef(DeclRefExpr *E) {
  if (VarDecl *D = lookupVar(E->getName())) {
    E->setDecl(D);
    const VariableInfo &VI = varInfo(D);
    if (VI.MapId >= 0) {
      diag(E->getSourceRange(), diag::err_map_as_value) << E->getName();
      return nullptr;
    }
    return VI.Types[mi()];
  }
  return checkIdentifierConstant(E);
}

const Type *SemaChecker::checkIdentifierConstant(DeclRefExpr *E) {
  llvm::StringRef Name = E->getName();
  if (std::optional<int64_t> Unit = lookupTimeUnit(Name)) {
    recordConstant(E, *Unit);
    return types().getInt();
  }
  if (std::optional<EnumeratorValue> EV = cdecls().lookupEnumerator(Name)) {
    recordConstant(E, EV->Value);
    return EV->Ty ? EV->Ty : types().getInt();
  }
  if (std::optional<std::string> Exp = cdecls().lookupMacro(Name))
    return checkMacro(E, *Exp);
  if (cdecls().isOversizedMacro(Name)) {
    diag(E->getSourceRange(), diag::err_macro_too_large)
        << Name << CDeclarations::MaxMacroExpansionTokens;
    return nullptr;
  }
  if (cdecls().isFunctionLikeMacro(Name)) {
    diag(E->getSourceRange(), diag::err_function_like_macro) << Name;
    return nullptr;
  }
  diag(E->getSourceRange(), diag::err_undeclared_identifier) << Name;
  return nullptr;
}

const Type *SemaChecker::checkMacro(DeclRefExpr *E,
                                    const std::string &Expansion) {
  // Object-like macros such as SIGINT or O_CREAT are constants: parse the
  // expansion as an expression, type it here and fold it. Whatever goes
  // wrong inside the expansion is summed up by one diagnostic at the use.
  if (MacroDepth > 16) {
    diag(E->getSourceRange(), diag::err_macro_not_constant)
        << E->getName() << Expansion;
    return nullptr;
  }
  std::string BufName = ("<macro " + E->getName() + ">").str();
  // Syntax errors inside an expansion are not the user's: parse with a
  // private engine and report one diagnostic at the use instead.
  struct Silence : DiagnosticConsumer {
    void handleDiagnostic(const Diagnostic &) override {}
  } Quiet;
  DiagnosticsEngine Scratch(SM, &Quiet);
  Expr *Parsed = parseExpressionText(Expansion, E->getSourceRange(), SM, AST,
                                     Scratch, BufName);
  const Type *T = nullptr;
  if (Parsed) {
    PerModelDiagnosticMerger::Discard SummedUpBelow(Diags.getMerger());
    ++MacroDepth;
    T = rvalue(Parsed, check(Parsed));
    --MacroDepth;
  }
  std::optional<int64_t> V;
  if (T && (T->isInteger() || T->isPointer()))
    V = evaluate(Parsed);
  if (!V) {
    diag(E->getSourceRange(), diag::err_macro_not_constant)
        << E->getName() << Expansion;
    return nullptr;
  }
  recordConstant(E, normalize(*V, T));
  MacroExprs[E] = Parsed;
  return T;
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

const Type *SemaChecker::promote(const Type *T) {
  if (!T || !T->isInteger())
    return T;
  const Type *C = T->getCanonical();
  if (const auto *En = llvm::dyn_cast<EnumType>(C))
    C = En->getIntegerType() ? En->getIntegerType()->getCanonical()
                             : types().getUInt();
  if (C->getIntegerRank() < types().getInt()->getIntegerRank())
    return types().getInt(); // every narrower type fits in int on x86
  return C;
}

const Type *SemaChecker::promoteBitField(const Expr *E, const Type *T) {
  if (const auto *O = llvm::dyn_cast<OpaqueValueExpr>(E->ignoreParens()))
    E = O->getSourceExpr();
  const auto *ME = llvm::dyn_cast<MemberExpr>(E->ignoreParens());
  const MemberAccess *MA = ME ? Info.memberFor(ME, M) : nullptr;
  if (!T || !T->isInteger() || !MA || !MA->BitWidth)
    return T;
  // As gcc does, whatever the declared type: a bit-field narrower than int
  // promotes to int (all its values fit), an unsigned one exactly as wide
  // to unsigned int. A wider one narrower than its declared type has gcc's
  // N-bit type (`unsigned long long b : 48` computes modulo 2^48); one as
  // wide as its type keeps it.
  uint64_t IntBits = types().getInt()->getIntegerWidth();
  if (*MA->BitWidth < IntBits)
    return types().getInt();
  if (*MA->BitWidth == IntBits)
    return T->isSigned() ? types().getInt() : types().getUInt();
  if (*MA->BitWidth < T->getIntegerWidth())
    return types().getBitFieldInt(*MA->BitWidth, T->isSigned());
  return T;
}

const Type *SemaChecker::usualArithmetic(const Type *A, const Type *B) {
  A = promote(A);
  B = promote(B);
  if (A == B)
    return A;
  if (llvm::isa<BitFieldIntType>(A) || llvm::isa<BitFieldIntType>(B)) {
    // gcc's c_common_type: the wider type wins; no standard type has the
    // width of a bit-field type, so at equal width both are bit-field
    // types and the unsigned one wins.
    unsigned WA = A->getIntegerWidth(), WB = B->getIntegerWidth();
    if (WA != WB)
      return WA > WB ? A : B;
    return A->isSigned() ? B : A;
  }
  bool SA = A->isSigned(), SB = B->isSigned();
  unsigned RA = A->getIntegerRank(), RB = B->getIntegerRank();
  if (SA == SB)
    return RA >= RB ? A : B;
  const Type *U = SA ? B : A, *Sg = SA ? A : B;
  if (U->getIntegerRank() >= Sg->getIntegerRank())
    return U;
  if (Sg->getSize() > U->getSize())
    return Sg;
  return types().getCorrespondingUnsigned(Sg);
}

void SemaChecker::convertTo(Expr *E, const Type *To) {
  const Type *From = E->getDecayedType(M);
  if (!From || !To)
    return;
  const Type *F = From->getCanonical(), *T = To->getCanonical();
  if (F == T)
    return;
  bool FI = F->isInteger(), FP = F->isPointer();
  if (!FI && !FP)
    return; // Strings and aggregates are buffers, never converted
  using K = ImplicitCastKind;
  std::optional<K> Kind;
  if (T->isBool())
    Kind = FP ? K::PointerToBoolean : K::IntegralToBoolean;
  else if (T->isInteger())
    Kind = FP ? K::PointerToIntegral : K::IntegralCast;
  else if (T->isPointer())
    Kind = FP ? K::BitCast : K::IntegralToPointer;
  if (Kind)
    E->setConversion(M, {*Kind, To});
}

void SemaChecker::convertOperands(BinaryOperator::Opcode O, Expr *L, Expr *R,
                                  const Type *LT, const Type *RT,
                                  bool LHSIsPlace) {
  using Op = BinaryOperator::Opcode;
  bool LI = LT->isInteger(), RI = RT->isInteger();
  auto Both = [&](const Type *T) {
    if (!LHSIsPlace)
      convertTo(L, T);
    convertTo(R, T);
  };
  switch (O) {
  case Op::LAnd:
  case Op::LOr:
    Both(types().getBool());
    return;
  case Op::Shl:
  case Op::Shr:
    // Each operand is promoted on its own (C 6.5.7).
    if (!LHSIsPlace)
      convertTo(L, promote(LT));
    convertTo(R, promote(RT));
    return;
  case Op::LT:
  case Op::GT:
  case Op::LE:
  case Op::GE:
  case Op::EQ:
  case Op::NE:
    if (LI && RI)
      Both(usualArithmetic(LT, RT));
    else if (LT->isPointer() && RI)
      convertTo(R, LT);
    else if (LI && RT->isPointer() && !LHSIsPlace)
      convertTo(L, RT);
    return; // two pointers compare as addresses
  case Op::Mul:
  case Op::Div:
  case Op::Rem:
  case Op::Add:
  case Op::Sub:
  case Op::And:
  case Op::Xor:
  case Op::Or:
    // Pointer arithmetic scales the integer operand; it is not converted.
    if (LI && RI)
      Both(usualArithmetic(LT, RT));
    return;
  }
}

bool SemaChecker::checkConvertible(Expr *E, const Type *From, const Type *To,
                                   SourceLocation Loc,
                                   llvm::StringRef Context) {
  if (!From || !To)
    return false;
  if (To->isString()) {
    if (From->isString() || paramAsString(E))
      return true;
    diag(E->getSourceRange(), diag::err_string_from_pointer) << From->getName();
    return false;
  }
  if (From->isString()) {
    diag(E->getSourceRange(), diag::err_incompatible_types)
        << Context << To->getName() << "String";
    return false;
  }
  if (To->isRecord() || To->isArray()) {
    diag(E->getSourceRange(), diag::err_record_value) << To->getName();
    return false;
  }
  if (To->isInteger())
    return From->isInteger() || From->isPointer();
  if (To->isPointer()) {
    if (From->isPointer()) {
      const Type *PF = From->getAs<PointerType>()->getPointee()->getCanonical();
      const Type *PT = To->getAs<PointerType>()->getPointee()->getCanonical();
      if (PF != PT && !PF->isVoid() && !PT->isVoid())
        diag(Loc, diag::warn_incompatible_pointers)
            << Context << To->getName() << From->getName();
      return true;
    }
    if (From->isInteger()) {
      std::optional<int64_t> V = evaluate(E);
      if (!V || *V != 0)
        diag(Loc, diag::warn_int_to_pointer)
            << Context << To->getName() << From->getName();
      return true;
    }
  }
  diag(E->getSourceRange(), diag::err_cast_invalid)
      << From->getName() << To->getName();
  return false;
}

void SemaChecker::warnModelDependentStore(Expr *E,
                                          const PerModel<const Type *> &Dest,
                                          SourceLocation Loc) {
  if (!LastPass || !HaveOtherModel)
    return;
  uint8_t Truncates = 0;
  bool FromPointer = false;
  PerModel<const Type *> From{};
  for (DataModel X : AllDataModels) {
    unsigned I = modelIndex(X);
    const Type *F = E->getType(X);
    const Type *D = Dest[I];
    if (!F || !D || !D->isInteger())
      return;
    if (F->isArray())
      F = types(X).getPointer(F->getAs<ArrayType>()->getElementType());
    if (!F->isInteger() && !F->isPointer())
      return;
    From[I] = F;
    FromPointer |= F->isPointer();
    if (F->getSize() <= D->getSize())
      continue;
    // A constant that fits is not truncated (`int n = sizeof(long);`).
    if (std::optional<int64_t> V = evaluateIn(E, X))
      if (normalize(*V, D) == *V)
        continue;
    Truncates |= 1u << I;
  }
  if (Truncates != FMM_ILP32 && Truncates != FMM_LP64)
    return; // same behaviour in both models
  unsigned Model = Truncates == FMM_ILP32 ? 0 : 1;
  diagNeutral(Loc, FromPointer ? diag::warn_store_pointer_truncates
                               : diag::warn_store_truncates)
      << From[Model]->getName() << Dest[Model]->getName() << Model;
}

//===----------------------------------------------------------------------===//
// Lvalues
//===----------------------------------------------------------------------===//

bool SemaChecker::isScriptLValue(Expr *E, std::string *Why) {
  E = E->ignoreParens();
  if (llvm::isa<CompoundLiteralExpr>(E)) {
    if (Why)
      *Why = "compound literal";
    return true;
  }
  if (auto *DR = llvm::dyn_cast<DeclRefExpr>(E)) {
    if (Why)
      *Why = DR->getName().str();
    return DR->getDecl() != nullptr;
  }
  if (auto *AS = llvm::dyn_cast<ArraySubscriptExpr>(E)) {
    Expr *Base = AS->getBase()->ignoreParens();
    if (auto *DR = llvm::dyn_cast<DeclRefExpr>(Base))
      if (VarDecl *D = llvm::dyn_cast_or_null<VarDecl>(DR->getDecl()))
        if (D->isAssociativeArray() ||
            (Base->getType(M) && Base->getType(M)->isArray()))
          return isScriptLValue(Base, Why);
    return false;
  }
  if (auto *ME = llvm::dyn_cast<MemberExpr>(E))
    return !ME->isArrow() && isScriptLValue(ME->getBase(), Why);
  return false;
}

bool SemaChecker::isTargetLValue(Expr *E) {
  E = E->ignoreParens();
  if (auto *U = llvm::dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UnaryOperator::Opcode::Deref;
  if (auto *ME = llvm::dyn_cast<MemberExpr>(E))
    return ME->isArrow() || isTargetLValue(ME->getBase());
  if (auto *AS = llvm::dyn_cast<ArraySubscriptExpr>(E)) {
    const Type *BT = AS->getBase()->getType(M);
    if (!BT)
      return false;
    if (BT->isPointer())
      return true;
    return BT->isArray() && isTargetLValue(AS->getBase());
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

const Type *SemaChecker::checkUnary(UnaryOperator *E) {
  using Op = UnaryOperator::Opcode;
  Expr *Sub = E->getSubExpr();
  const Type *Raw = check(Sub);
  if (!Raw)
    return nullptr;
  switch (E->getOpcode()) {
  case Op::AddrOf: {
    std::string Name;
    if (isScriptLValue(Sub, &Name)) {
      diag(E->getSourceRange(), diag::err_addr_of_script_var) << Name;
      return nullptr;
    }
    if (!isTargetLValue(Sub)) {
      diag(E->getSourceRange(), diag::err_addr_of_rvalue) << Raw->getName();
      return nullptr;
    }
    if (auto *ME = llvm::dyn_cast<MemberExpr>(Sub->ignoreParens()))
      if (const MemberAccess *MA = Info.memberFor(ME, M); MA && MA->BitWidth) {
        diag(E->getSourceRange(), diag::err_addr_of_bitfield);
        return nullptr;
      }
    return types().getPointer(Raw);
  }
  case Op::Deref: {
    const Type *T = rvalue(Sub, Raw);
    if (!T)
      return nullptr;
    const auto *P = T->getAs<PointerType>();
    if (!P) {
      diag(E->getSourceRange(), diag::err_deref_non_pointer) << T->getName();
      return nullptr;
    }
    const Type *Pointee = P->getPointee();
    if (Pointee->isVoid()) {
      diag(E->getSourceRange(), diag::err_deref_void) << T->getName();
      return nullptr;
    }
    if (!Pointee->isComplete() && !Pointee->isFunction()) {
      diag(E->getSourceRange(), diag::err_deref_incomplete)
          << Pointee->getName();
      return nullptr;
    }
    return Pointee;
  }
  case Op::PreInc:
  case Op::PreDec:
  case Op::PostInc:
  case Op::PostDec: {
    if (Cur && Cur->InPredicate) {
      diag(E->getSourceRange(), diag::err_side_effect_in_predicate)
          << ("'" + UnaryOperator::getOpcodeStr(E->getOpcode()) + "'").str();
      return nullptr;
    }
    if (!isScriptLValue(Sub)) {
      diag(E->getSourceRange(), isTargetLValue(Sub)
                                    ? diag::err_assign_target_memory
                                    : diag::err_not_assignable);
      return nullptr;
    }
    if (!Raw->isInteger() && !Raw->isPointer()) {
      diag(E->getSourceRange(), diag::err_typecheck_unary) << Raw->getName();
      return nullptr;
    }
    return Raw;
  }
  case Op::Plus:
  case Op::Minus:
  case Op::LNot:
  case Op::Not:
    break; // operators on the value, below
  }
  const Type *T = promoteBitField(Sub, rvalue(Sub, Raw));
  if (!T)
    return nullptr;
  switch (E->getOpcode()) {
  case Op::LNot:
    if (T->isInteger() || T->isPointer()) {
      convertTo(Sub, types().getBool());
      return types().getInt();
    }
    break;
  case Op::Plus:
  case Op::Minus:
  case Op::Not:
    if (T->isInteger()) {
      convertTo(Sub, promote(T));
      return promote(T);
    }
    break;
  case Op::AddrOf:
  case Op::Deref:
  case Op::PreInc:
  case Op::PreDec:
  case Op::PostInc:
  case Op::PostDec:
    llvm_unreachable("handled above");
  }
  diag(E->getSourceRange(), diag::err_typecheck_unary) << T->getName();
  return nullptr;
}

const Type *SemaChecker::checkBinary(BinaryOperator *E) {
  using Op = BinaryOperator::Opcode;
  Expr *L = E->getLHS(), *R = E->getRHS();
  const Type *LT = promoteBitField(L, rvalue(L, check(L)));
  const Type *RT = promoteBitField(R, rvalue(R, check(R)));
  if (!LT || !RT)
    return nullptr;
  Op O = E->getOpcode();
  if (LT->isString() && !RT->isString())
    if (const Type *S = paramAsString(R))
      RT = S;
  if (RT->isString() && !LT->isString())
    if (const Type *S = paramAsString(L))
      LT = S;
  if (LT->isString() || RT->isString()) {
    // Equality and (byte-wise, strcmp's) ordering.
    if (LT->isString() && RT->isString() && E->isComparisonOp())
      return types().getInt();
    if (LT->isString() && RT->isString() && !E->isLogicalOp()) {
      diag(E->getOperatorLoc(), diag::err_string_concat)
          << BinaryOperator::getOpcodeStr(O);
      return nullptr;
    }
    diag(E->getOperatorLoc(), diag::err_typecheck_binary)
        << LT->getName() << RT->getName();
    return nullptr;
  }
  const Type *T = checkArithmetic(O, L, R, LT, RT, E->getOperatorLoc(),
                                  E->getSourceRange());
  if (T)
    convertOperands(O, L, R, LT, RT, /*LHSIsPlace=*/false);
  if (T && E->isComparisonOp() && LastPass && HaveOtherModel) {
    // The same comparison of constants answering differently per model is
    // almost always `sizeof(long) == 8`-style code that forgot ILP32.
    E->setType(M, T);
    std::optional<int64_t> A = evaluateIn(E, DataModel::ILP32);
    std::optional<int64_t> B = evaluateIn(E, DataModel::LP64);
    if (A && B && *A != *B)
      diagNeutral(E->getOperatorLoc(), diag::warn_comparison_differs)
          << int(*A != 0) << int(*B != 0);
  }
  return T;
}

const Type *SemaChecker::checkArithmetic(BinaryOperator::Opcode O, Expr *L,
                                         Expr *R, const Type *LT,
                                         const Type *RT, SourceLocation OpLoc,
                                         SourceRange Range) {
  using Op = BinaryOperator::Opcode;
  bool LI = LT->isInteger(), RI = RT->isInteger();
  bool LP = LT->isPointer(), RP = RT->isPointer();
  auto Invalid = [&]() -> const Type * {
    diag(OpLoc, diag::err_typecheck_binary) << LT->getName() << RT->getName();
    return nullptr;
  };
  auto ArithPointee = [&](const Type *P) {
    const Type *Pt = P->getAs<PointerType>()->getPointee();
    // void * arithmetic counts bytes (GNU C); functions and incomplete
    // types have no size to scale by.
    return Pt->isVoid() || (Pt->isComplete() && !Pt->isFunction());
  };
  if ((O == Op::Div || O == Op::Rem) && LI && RI)
    if (std::optional<int64_t> V = evaluate(R); V && *V == 0)
      diag(OpLoc, diag::warn_division_by_zero) << (O == Op::Rem ? 1 : 0);
  switch (O) {
  case Op::Mul:
  case Op::Div:
  case Op::Rem:
  case Op::And:
  case Op::Xor:
  case Op::Or:
    return LI && RI ? usualArithmetic(LT, RT) : Invalid();
  case Op::Shl:
  case Op::Shr:
    return LI && RI ? promote(LT) : Invalid();
  case Op::Add:
    if (LI && RI)
      return usualArithmetic(LT, RT);
    if (LP && RI && ArithPointee(LT))
      return LT;
    if (LI && RP && ArithPointee(RT))
      return RT;
    return Invalid();
  case Op::Sub:
    if (LI && RI)
      return usualArithmetic(LT, RT);
    if (LP && RI && ArithPointee(LT))
      return LT;
    if (LP && RP && ArithPointee(LT) &&
        LT->getAs<PointerType>()->getPointee()->getCanonical() ==
            RT->getAs<PointerType>()->getPointee()->getCanonical())
      return types().getPtrDiffType();
    return Invalid();
  case Op::LT:
  case Op::GT:
  case Op::LE:
  case Op::GE:
  case Op::EQ:
  case Op::NE:
    if ((LI || LP) && (RI || RP))
      return types().getInt();
    return Invalid();
  case Op::LAnd:
  case Op::LOr:
    if ((LI || LP) && (RI || RP))
      return types().getInt();
    return Invalid();
  }
  return Invalid();
}

const Type *SemaChecker::checkAssign(AssignExpr *E) {
  Expr *L = E->getLHS()->ignoreParens();
  if (auto *A = llvm::dyn_cast<AggregationExpr>(L))
    return checkAggregationAssign(E, A);
  if (Cur && Cur->InPredicate) {
    diag(E->getOperatorLoc(), diag::err_side_effect_in_predicate)
        << "assignment";
    check(E->getLHS());
    check(E->getRHS());
    return nullptr;
  }
  const Type *LT = check(E->getLHS());
  const Type *RT =
      promoteBitField(E->getRHS(), rvalue(E->getRHS(), check(E->getRHS())));
  if (!LT)
    return nullptr;
  if (!isScriptLValue(E->getLHS())) {
    if (llvm::isa<BuiltinVarExpr>(L) || llvm::isa<ParamExpr>(L))
      diag(E->getLHS()->getSourceRange(), diag::err_assign_builtin)
          << SM.getText(L->getSourceRange());
    else if (isTargetLValue(E->getLHS()))
      diag(E->getOperatorLoc(), diag::err_assign_target_memory)
          << E->getLHS()->getSourceRange();
    else
      diag(E->getLHS()->getSourceRange(), diag::err_not_assignable);
    return nullptr;
  }
  if (LT->isArray() || LT->isRecord()) {
    diag(E->getOperatorLoc(), diag::err_record_value) << LT->getName();
    return nullptr;
  }
  if (!RT)
    return nullptr;
  const Type *Value = RT;
  if (E->isCompoundAssign()) {
    if (LT->isString() || RT->isString()) {
      diag(E->getOperatorLoc(), diag::err_string_concat)
          << AssignExpr::getOpcodeStr(E->getOpcode());
      return nullptr;
    }
    Value = checkArithmetic(E->getBinaryOpcode(), E->getLHS(), E->getRHS(), LT,
                            RT, E->getOperatorLoc(), E->getSourceRange());
    if (!Value)
      return nullptr;
    convertOperands(E->getBinaryOpcode(), E->getLHS(), E->getRHS(), LT, RT,
                    /*LHSIsPlace=*/true);
    E->setComputationType(M, Value);
  }
  if (!checkConvertible(E->getRHS(), Value, LT, E->getOperatorLoc(),
                        "assigning to"))
    return nullptr;
  if (!E->isCompoundAssign())
    convertTo(E->getRHS(), LT);
  if (!E->isCompoundAssign() && LastPass && HaveOtherModel) {
    PerModel<const Type *> Dest{E->getLHS()->getType(DataModel::ILP32),
                                E->getLHS()->getType(DataModel::LP64)};
    Dest[mi()] = LT;
    warnModelDependentStore(E->getRHS(), Dest, E->getOperatorLoc());
  }
  return LT;
}

const Type *SemaChecker::checkConditional(ConditionalOperator *E) {
  checkCondition(E->getCond());
  const Type *LT = promoteBitField(
      E->getTrueExpr(), rvalue(E->getTrueExpr(), check(E->getTrueExpr())));
  const Type *RT = promoteBitField(
      E->getFalseExpr(), rvalue(E->getFalseExpr(), check(E->getFalseExpr())));
  if (!LT || !RT || !E->getCond()->getType(M))
    return nullptr;
  if (LT->isString() && RT->isString())
    return types().getString(
        std::max(llvm::cast<StringType>(LT->getCanonical())->getCapacity(),
                 llvm::cast<StringType>(RT->getCanonical())->getCapacity()));
  const Type *T = nullptr;
  if (LT->isInteger() && RT->isInteger())
    T = usualArithmetic(LT, RT);
  else if (LT->isPointer() && (RT->isPointer() || RT->isInteger()))
    T = LT;
  else if (LT->isInteger() && RT->isPointer())
    T = RT;
  if (T) {
    convertTo(E->getTrueExpr(), T);
    convertTo(E->getFalseExpr(), T);
    return T;
  }
  diag(E->getQuestionLoc(), diag::err_typecheck_binary)
      << LT->getName() << RT->getName();
  return nullptr;
}

const Type *SemaChecker::checkCast(CastExpr *E) {
  const Type *To = resolveTypeSpec(E->getTypeSpec());
  const Type *From = rvalue(E->getSubExpr(), check(E->getSubExpr()));
  if (!To || !From)
    return nullptr;
  if (To->isString()) {
    diag(E->getBeginLoc(), diag::err_cast_to_string);
    return nullptr;
  }
  if (To->isVoid())
    return To;
  bool ToScalar = To->isInteger() || To->isPointer();
  bool FromScalar = From->isInteger() || From->isPointer();
  if (To->isFloating()) {
    diag(E->getBeginLoc(), diag::err_floating_value) << To->getName();
    return nullptr;
  }
  if (!ToScalar || !FromScalar) {
    diag(E->getSourceRange(), diag::err_cast_invalid)
        << From->getName() << To->getName();
    return nullptr;
  }
  if (LastPass && From->isPointer() && To->isInteger() && !To->isBool()) {
    // Which models lose address bits in this cast?
    unsigned Mask = 0;
    for (DataModel X : AllDataModels) {
      if (X == DataModel::ILP32 && !HaveOtherModel)
        continue;
      const Type *F = E->getSubExpr()->getType(X);
      const Type *T = X == M ? To : E->getType(X);
      if (F && T && F->isArray())
        F = types(X).getPointer(F->getAs<ArrayType>()->getElementType());
      if (F && T && F->isPointer() && F->getSize() > T->getSize())
        Mask |= 1u << modelIndex(X);
    }
    if (Mask)
      diagNeutral(E->getBeginLoc(), diag::warn_cast_pointer_truncates)
          << From->getName() << To->getName()
          << (Mask == FMM_Both    ? 2
              : Mask == FMM_ILP32 ? 0
                                  : 1);
  }
  return To;
}

} // namespace tscc
