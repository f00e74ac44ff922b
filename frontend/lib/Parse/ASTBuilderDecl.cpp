//===- ASTBuilderDecl.cpp - Script variables and type names ---------------===//

#include "ASTBuilder.h"

#include <type_traits>

using namespace tscc;
using namespace tscc::parse;

//===----------------------------------------------------------------------===//
// varDeclaration : storageClass? declSpecifiers initDeclarator
//                  (',' initDeclarator)* ';'
//===----------------------------------------------------------------------===//

llvm::SmallVector<VarDecl *, 2>
ASTBuilder::buildVarDecls(P::VarDeclarationContext *C, bool TopLevel) {
  llvm::SmallVector<VarDecl *, 2> Out;
  if (!C)
    return Out;
  StorageClass SC = TopLevel ? StorageClass::Global : StorageClass::Auto;
  bool Explicit = false;
  SourceLocation SCLoc;
  for (P::StorageClassContext *S : C->storageClass()) {
    StorageClass This = S->Thread() ? StorageClass::Thread
                        : S->Auto() ? StorageClass::Auto
                                    : StorageClass::Global;
    if (Explicit) {
      Diags.report(loc(S->getStart()), diag::err_multiple_storage_classes)
          << getStorageClassName(This) << getStorageClassName(SC);
      return Out;
    }
    Explicit = true;
    SCLoc = loc(S->getStart());
    SC = This;
  }
  TypeSpec *Base = buildDeclSpecifiers(C->declSpecifiers());
  if (!Base)
    return Out;
  for (P::InitDeclaratorContext *D : C->initDeclarator())
    if (VarDecl *V = buildDeclarator(D, *Base, SC, Explicit, SCLoc,
                                     loc(C->getStart()))) {
      V->setTopLevel(TopLevel);
      Out.push_back(V);
    }
  return Out;
}

TypeSpec *ASTBuilder::cloneTypeSpec(const TypeSpec &T, SourceRange R) {
  TypeSpec *N = Ctx.create<TypeSpec>(R, T.getSpecKind());
  N->setBuiltinKind(T.getBuiltinKind());
  N->setName(T.getName());
  N->setNameLoc(T.getNameLoc());
  N->setConst(T.isConst());
  N->setVolatile(T.isVolatile());
  N->setPointerDepth(T.getPointerDepth());
  N->setArrayDims(T.getArrayDims());
  N->setStringCapacity(T.getStringCapacity());
  return N;
}

// initDeclarator : declarator ('=' expression)?
// declarator : pointer* Identifier declaratorSuffix*
VarDecl *ASTBuilder::buildDeclarator(P::InitDeclaratorContext *C,
                                     const TypeSpec &Base, StorageClass SC,
                                     bool SCExplicit, SourceLocation SCLoc,
                                     SourceLocation DeclBegin) {
  P::DeclaratorContext *D = C ? C->declarator() : nullptr;
  if (!D || !D->Identifier() || D->exception)
    return nullptr;
  TypeSpec *T = cloneTypeSpec(Base, Base.getSourceRange());
  T->setPointerDepth(D->pointer().size());
  if (!D->pointer().empty())
    T->setSourceRange(
        SourceRange(Base.getBeginLoc(), loc(D->pointer().back()->getStart())));

  llvm::SmallVector<Expr *, 2> Dims;
  llvm::SmallVector<TypeSpec *, 1> Keys;
  bool OK = true;
  // declaratorSuffix : '[' (typeName (',' typeName)* | expression?) ']'
  for (P::DeclaratorSuffixContext *S : D->declaratorSuffix()) {
    if (!S->typeName().empty()) {
      if (!Keys.empty() || !Dims.empty()) {
        Diags.report(range(S), diag::err_keys_on_non_array);
        OK = false;
        continue;
      }
      for (P::TypeNameContext *TN : S->typeName())
        if (TypeSpec *KT = buildTypeName(TN))
          Keys.push_back(KT);
        else
          OK = false;
      continue;
    }
    if (!Keys.empty()) {
      Diags.report(range(S), diag::err_keys_on_non_array);
      OK = false;
      continue;
    }
    Expr *E = S->expression() ? buildExpr(S->expression()) : nullptr;
    if (S->expression() && !E) {
      OK = false;
      continue;
    }
    // `String s[256]`: the first bracket is the capacity.
    if (T->isString() && T->getPointerDepth() == 0 && !T->getStringCapacity() &&
        Dims.empty() && E) {
      T->setStringCapacity(E);
      continue;
    }
    Dims.push_back(E);
  }
  if (!OK)
    return nullptr;
  T->setArrayDims(copy(llvm::ArrayRef<Expr *>(Dims)));

  Expr *Init = nullptr;
  if (C->Assign()) {
    Init = buildExpr(C->expression());
    if (!Init)
      return nullptr;
  }
  SourceLocation End = Init ? Init->getEndLoc() : loc(D->getStop());
  auto *V = Ctx.create<VarDecl>(SourceRange(DeclBegin, End),
                                copy(text(D->Identifier())),
                                loc(D->Identifier()), SC, SCExplicit, T);
  V->setStorageClassLoc(SCLoc);
  V->setKeyTypes(copy(llvm::ArrayRef<TypeSpec *>(Keys)));
  V->setInit(Init);
  return V;
}

void ASTBuilder::applyQualifiers(
    TypeSpec *T, const std::vector<P::TypeQualifierContext *> &Qs) {
  for (P::TypeQualifierContext *Q : Qs) {
    if (Q->Const())
      T->setConst(true);
    if (Q->Volatile())
      T->setVolatile(true);
  }
}

//===----------------------------------------------------------------------===//
// declSpecifiers : typeSpecifiers | typeQualifier* Identifier typeQualifier*
//===----------------------------------------------------------------------===//

TypeSpec *ASTBuilder::buildDeclSpecifiers(P::DeclSpecifiersContext *C) {
  if (!C || C->exception)
    return nullptr;
  if (P::TypeSpecifiersContext *TS = C->typeSpecifiers())
    return buildTypeSpecifiers(TS);
  if (!C->Identifier())
    return nullptr;
  // An identifier not known to be a type: sema resolves or rejects it.
  auto *T = Ctx.create<TypeSpec>(range(C), TypeSpec::SpecKind::Typedef);
  T->setName(copy(text(C->Identifier())));
  T->setNameLoc(loc(C->Identifier()));
  applyQualifiers(T, C->typeQualifier());
  return T;
}

//===----------------------------------------------------------------------===//
// typeSpecifiers
//   : typeQualifier* builtinTypeKeyword (builtinTypeKeyword | typeQualifier)*
//   | typeQualifier* namedType typeQualifier*
//===----------------------------------------------------------------------===//

TypeSpec *ASTBuilder::buildTypeSpecifiers(P::TypeSpecifiersContext *C) {
  if (!C || C->exception)
    return nullptr;
  TypeSpec *T = nullptr;
  if (P::NamedTypeContext *N = C->namedType()) {
    if (dynamic_cast<P::StringTypeContext *>(N)) {
      T = Ctx.create<TypeSpec>(range(C), TypeSpec::SpecKind::String);
    } else if (auto *Tag = dynamic_cast<P::TagTypeContext *>(N)) {
      P::TagKeywordContext *KW = Tag->tagKeyword();
      antlr4::tree::TerminalNode *Name =
          Tag->Identifier() ? Tag->Identifier() : Tag->TypeName();
      if (!KW || !Name)
        return nullptr;
      auto K = KW->Struct()  ? TypeSpec::SpecKind::Struct
               : KW->Union() ? TypeSpec::SpecKind::Union
                             : TypeSpec::SpecKind::Enum;
      T = Ctx.create<TypeSpec>(range(C), K);
      T->setName(copy(text(Name)));
      T->setNameLoc(loc(Name));
    } else if (auto *TD = dynamic_cast<P::TypedefTypeContext *>(N)) {
      if (!TD->TypeName())
        return nullptr;
      T = Ctx.create<TypeSpec>(range(C), TypeSpec::SpecKind::Typedef);
      T->setName(copy(text(TD->TypeName())));
      T->setNameLoc(loc(TD->TypeName()));
    } else if (auto *TO = dynamic_cast<P::TypeofTypeContext *>(N)) {
      // Typeof '(' (typeName | expression) ')'
      T = Ctx.create<TypeSpec>(range(C), TypeSpec::SpecKind::Typeof);
      if (TO->typeName()) {
        TypeSpec *Of = buildTypeName(TO->typeName());
        if (!Of)
          return nullptr;
        T->setTypeofType(Of);
      } else {
        Expr *Of = buildExpr(TO->expression());
        if (!Of)
          return nullptr;
        T->setTypeofExpr(Of);
      }
    }
  } else {
    BuiltinTypeKind K;
    if (!resolveBuiltin(C, K))
      return nullptr;
    T = Ctx.create<TypeSpec>(range(C), TypeSpec::SpecKind::Builtin);
    T->setBuiltinKind(K);
  }
  if (!T)
    return nullptr;
  applyQualifiers(T, C->typeQualifier());
  return T;
}

namespace {
/// Clang's DeclSpec in miniature: the keywords of a builtin type fall into
/// a width, a signedness and a base type; each may be set once.
struct BuiltinSpec {
  enum Width { NoWidth, ShortW, LongW, LongLongW } W = NoWidth;
  enum Sign { NoSign, SignedS, UnsignedS } S = NoSign;
  enum Base { NoBase, VoidB, BoolB, CharB, IntB, FloatB, DoubleB } B = NoBase;
  llvm::StringRef WSpelling, SSpelling, BSpelling;
};
} // namespace

bool ASTBuilder::resolveBuiltin(P::TypeSpecifiersContext *C,
                                BuiltinTypeKind &Out) {
  BuiltinSpec D;
  for (P::BuiltinTypeKeywordContext *KW : C->builtinTypeKeyword()) {
    antlr4::Token *Tok = KW->getStart();
    llvm::StringRef Sp = Map.spelling(Tok);
    SourceLocation L = loc(Tok);
    auto Set = [&](auto &Slot, auto Value, llvm::StringRef &Spelling) {
      if (Slot == std::remove_reference_t<decltype(Slot)>{}) {
        Slot = Value;
        Spelling = Sp;
        return true;
      }
      if (Spelling == Sp)
        Diags.report(L, diag::err_duplicate_specifier) << Sp;
      else
        Diags.report(L, diag::err_cannot_combine_specifiers) << Spelling;
      return false;
    };
    bool OK = true;
    switch (Tok->getType()) {
    case P::Short:
      OK = Set(D.W, BuiltinSpec::ShortW, D.WSpelling);
      break;
    case P::Long:
      if (D.W == BuiltinSpec::LongW) {
        D.W = BuiltinSpec::LongLongW;
        D.WSpelling = "long long";
      } else if (D.W == BuiltinSpec::LongLongW) {
        Diags.report(L, diag::err_too_long_long);
        OK = false;
      } else
        OK = Set(D.W, BuiltinSpec::LongW, D.WSpelling);
      break;
    case P::Signed:
      OK = Set(D.S, BuiltinSpec::SignedS, D.SSpelling);
      break;
    case P::Unsigned:
      OK = Set(D.S, BuiltinSpec::UnsignedS, D.SSpelling);
      break;
    case P::Void:
      OK = Set(D.B, BuiltinSpec::VoidB, D.BSpelling);
      break;
    case P::Bool:
      OK = Set(D.B, BuiltinSpec::BoolB, D.BSpelling);
      break;
    case P::Char:
      OK = Set(D.B, BuiltinSpec::CharB, D.BSpelling);
      break;
    case P::Int:
      OK = Set(D.B, BuiltinSpec::IntB, D.BSpelling);
      break;
    case P::Float:
      OK = Set(D.B, BuiltinSpec::FloatB, D.BSpelling);
      break;
    case P::Double:
      OK = Set(D.B, BuiltinSpec::DoubleB, D.BSpelling);
      break;
    default:
      break;
    }
    if (!OK)
      return false;
    // Combinations that are invalid whatever comes next.
    bool BadWidth =
        D.W != BuiltinSpec::NoWidth &&
        (D.B == BuiltinSpec::VoidB || D.B == BuiltinSpec::BoolB ||
         D.B == BuiltinSpec::CharB || D.B == BuiltinSpec::FloatB ||
         (D.B == BuiltinSpec::DoubleB && D.W != BuiltinSpec::LongW));
    bool BadSign = D.S != BuiltinSpec::NoSign &&
                   (D.B == BuiltinSpec::VoidB || D.B == BuiltinSpec::BoolB ||
                    D.B == BuiltinSpec::FloatB || D.B == BuiltinSpec::DoubleB);
    if (BadWidth || BadSign) {
      // Name the keyword seen first of the clashing pair, as Clang does.
      llvm::StringRef Prev = Sp == D.BSpelling
                                 ? (BadWidth ? D.WSpelling : D.SSpelling)
                                 : D.BSpelling;
      Diags.report(L, diag::err_cannot_combine_specifiers) << Prev;
      return false;
    }
  }
  bool U = D.S == BuiltinSpec::UnsignedS;
  switch (D.B) {
  case BuiltinSpec::VoidB:
    Out = BuiltinTypeKind::Void;
    return true;
  case BuiltinSpec::BoolB:
    Out = BuiltinTypeKind::Bool;
    return true;
  case BuiltinSpec::CharB:
    Out = D.S == BuiltinSpec::NoSign ? BuiltinTypeKind::Char
          : U                        ? BuiltinTypeKind::UChar
                                     : BuiltinTypeKind::SChar;
    return true;
  case BuiltinSpec::FloatB:
    Out = BuiltinTypeKind::Float;
    return true;
  case BuiltinSpec::DoubleB:
    Out = D.W == BuiltinSpec::LongW ? BuiltinTypeKind::LongDouble
                                    : BuiltinTypeKind::Double;
    return true;
  case BuiltinSpec::IntB:
  case BuiltinSpec::NoBase:
    break;
  }
  switch (D.W) {
  case BuiltinSpec::ShortW:
    Out = U ? BuiltinTypeKind::UShort : BuiltinTypeKind::Short;
    return true;
  case BuiltinSpec::LongW:
    Out = U ? BuiltinTypeKind::ULong : BuiltinTypeKind::Long;
    return true;
  case BuiltinSpec::LongLongW:
    Out = U ? BuiltinTypeKind::ULongLong : BuiltinTypeKind::LongLong;
    return true;
  case BuiltinSpec::NoWidth:
    break;
  }
  Out = U ? BuiltinTypeKind::UInt : BuiltinTypeKind::Int;
  return true;
}

//===----------------------------------------------------------------------===//
// typeName : typeSpecifiers abstractDeclarator?
// abstractDeclarator : pointer+ ('[' expression? ']')* | ('[' expression? ']')+
//===----------------------------------------------------------------------===//

TypeSpec *ASTBuilder::buildTypeName(P::TypeNameContext *C) {
  if (!C || C->exception)
    return nullptr;
  TypeSpec *Base = buildTypeSpecifiers(C->typeSpecifiers());
  if (!Base)
    return nullptr;
  Base->setSourceRange(range(C));
  P::AbstractDeclaratorContext *A = C->abstractDeclarator();
  if (!A)
    return Base;
  DeclaratorLevel Outer;
  if (!buildAbstractDeclarator(A, Outer, Base))
    return nullptr;
  Base->setPointerDepth(Outer.PointerDepth);
  Base->setArrayDims(Outer.ArrayDims);
  Base->setFunction(Outer.Function);
  Base->setNested(Outer.Nested);
  return Base;
}

// abstractDeclarator : pointer+ directAbstractDeclarator?
//                    | directAbstractDeclarator
// directAbstractDeclarator : '(' abstractDeclarator ')' abstractSuffix*
//                          | abstractSuffix+
bool ASTBuilder::buildAbstractDeclarator(P::AbstractDeclaratorContext *A,
                                         DeclaratorLevel &L, TypeSpec *Base) {
  if (!A || A->exception)
    return false;
  L.Range = range(A);
  L.PointerDepth = A->pointer().size();
  P::DirectAbstractDeclaratorContext *D = A->directAbstractDeclarator();
  if (!D)
    return true;
  if (D->exception)
    return false;
  if (P::AbstractDeclaratorContext *Inner = D->abstractDeclarator()) {
    auto *N = Ctx.create<DeclaratorLevel>();
    if (!buildAbstractDeclarator(Inner, *N, nullptr))
      return false;
    L.Nested = N;
  }
  // `String[256]` names a String of 256 bytes, not an array of Strings.
  bool Capacity = Base && Base->isString() && L.PointerDepth == 0 &&
                  !Base->getStringCapacity() && !L.Nested;
  return buildSuffixes(D->abstractSuffix(), L, Capacity ? Base : nullptr);
}

// abstractSuffix : '[' expression? ']' | '(' parameterList? ')'
bool ASTBuilder::buildSuffixes(const std::vector<P::AbstractSuffixContext *> &S,
                               DeclaratorLevel &L, TypeSpec *StringBase) {
  llvm::SmallVector<Expr *, 2> Dims;
  for (P::AbstractSuffixContext *X : S) {
    if (X->exception)
      return false;
    if (X->LParen()) {
      // C allows neither arrays of functions nor functions returning
      // arrays or functions; sema says so.
      if (L.Function || !Dims.empty()) {
        Diags.report(range(X), diag::err_function_declarator_here);
        return false;
      }
      L.Function = buildParameters(X->parameterList());
      if (!L.Function)
        return false;
      continue;
    }
    if (L.Function) {
      Diags.report(range(X), diag::err_function_declarator_here);
      return false;
    }
    Expr *E = nullptr;
    if (X->expression() && !(E = buildExpr(X->expression())))
      return false;
    if (StringBase && Dims.empty() && E) {
      StringBase->setStringCapacity(E);
      StringBase = nullptr;
      continue;
    }
    Dims.push_back(E);
  }
  L.ArrayDims = copy(llvm::ArrayRef<Expr *>(Dims));
  return true;
}

// parameterList : parameterDeclaration (',' parameterDeclaration)*
//                 (',' '...')?
// parameterDeclaration : typeSpecifiers (abstractDeclarator
//                                        | namedParameterDeclarator)?
const FunctionSuffix *ASTBuilder::buildParameters(P::ParameterListContext *C) {
  auto *F = Ctx.create<FunctionSuffix>();
  if (!C) {
    F->Prototyped = false;
    return F;
  }
  if (C->exception)
    return nullptr;
  llvm::SmallVector<TypeSpec *, 4> Params;
  for (P::ParameterDeclarationContext *PD : C->parameterDeclaration()) {
    TypeSpec *T = buildTypeSpecifiers(PD->typeSpecifiers());
    if (!T || PD->exception)
      return nullptr;
    T->setSourceRange(range(PD));
    DeclaratorLevel Outer;
    if (P::AbstractDeclaratorContext *A = PD->abstractDeclarator()) {
      if (!buildAbstractDeclarator(A, Outer, nullptr))
        return nullptr;
    } else if (auto *N = PD->namedParameterDeclarator()) {
      if (!buildNamedParameter(N, Outer))
        return nullptr;
    }
    T->setPointerDepth(Outer.PointerDepth);
    T->setArrayDims(Outer.ArrayDims);
    T->setFunction(Outer.Function);
    T->setNested(Outer.Nested);
    Params.push_back(T);
  }
  F->Params = copy(llvm::ArrayRef<TypeSpec *>(Params));
  F->Variadic = C->Ellipsis() != nullptr;
  return F;
}

// namedParameterDeclarator : pointer* (Identifier
//                            | '(' namedParameterDeclarator ')')
//                            abstractSuffix*
bool ASTBuilder::buildNamedParameter(P::NamedParameterDeclaratorContext *C,
                                     DeclaratorLevel &L) {
  if (!C || C->exception)
    return false;
  L.Range = range(C);
  L.PointerDepth = C->pointer().size();
  if (auto *Inner = C->namedParameterDeclarator()) {
    auto *N = Ctx.create<DeclaratorLevel>();
    if (!buildNamedParameter(Inner, *N))
      return false;
    L.Nested = N;
  }
  return buildSuffixes(C->abstractSuffix(), L, nullptr);
}
