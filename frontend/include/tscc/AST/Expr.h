//===- tscc/AST/Expr.h - Expressions ----------------------------*- C++ -*-===//
//
// Expr and its subclasses, with the per-data-model type slots and
// implicit conversions sema fills in.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_AST_EXPR_H
#define TSCC_AST_EXPR_H

#include "tscc/AST/Stmt.h"

namespace tscc {

//===----------------------------------------------------------------------===//

/// The implicit conversions of C that sema applies to a value where its
/// parent uses it: Clang's ImplicitCastExpr kinds, for the scalar types
/// scripts have. Lvalue-to-rvalue is not recorded: codegen loads every
/// place it emits as a value, the same way in both models.
enum class ImplicitCastKind : uint8_t {
  ArrayToPointerDecay,
  FunctionToPointerDecay,
  IntegralCast, ///< promotions, usual arithmetic conversions, stores
  IntegralToBoolean,
  PointerToBoolean,
  IntegralToPointer,
  PointerToIntegral,
  BitCast, ///< a pointer to a pointer of another pointee type
};

/// "IntegralCast", "ArrayToPointerDecay", ...
llvm::StringRef getImplicitCastKindName(ImplicitCastKind K);

/// One implicit conversion: its kind and the type it produces.
struct ImplicitCast {
  ImplicitCastKind Kind;
  const Type *To;
};

class Expr : public Node {
public:
  /// The type sema computed for data model \p M; null before sema or if
  /// checking failed.
  const Type *getType(DataModel M) const { return Types[modelIndex(M)]; }
  void setType(DataModel M, const Type *T) { Types[modelIndex(M)] = T; }

  /// Implicit conversions sema decided for model \p M, applied in this
  /// order: a decay (arrays and functions to pointers), then a conversion
  /// of the value. Null when there is none. They live here, one slot per
  /// model, rather than in ImplicitCast nodes because the two models
  /// convert the same operand differently (`long + unsigned` converts the
  /// right side in LP64 and both sides in ILP32) while the tree is shared.
  const ImplicitCast *getDecay(DataModel M) const {
    const ImplicitCast &C = Decay[static_cast<unsigned>(M)];
    return C.To ? &C : nullptr;
  }
  const ImplicitCast *getConversion(DataModel M) const {
    const ImplicitCast &C = Conversion[static_cast<unsigned>(M)];
    return C.To ? &C : nullptr;
  }
  void setDecay(DataModel M, ImplicitCast C) {
    Decay[static_cast<unsigned>(M)] = C;
  }
  void setConversion(DataModel M, ImplicitCast C) {
    Conversion[static_cast<unsigned>(M)] = C;
  }
  void clearImplicitCasts(DataModel M) {
    Decay[static_cast<unsigned>(M)].To = nullptr;
    Conversion[static_cast<unsigned>(M)].To = nullptr;
  }
  /// The type of the value after the decay, before the conversion.
  const Type *getDecayedType(DataModel M) const {
    const ImplicitCast *D = getDecay(M);
    return D ? D->To : getType(M);
  }
  /// The type the parent works with: after every implicit conversion.
  const Type *getConvertedType(DataModel M) const {
    const ImplicitCast *C = getConversion(M);
    return C ? C->To : getDecayedType(M);
  }

  /// Strips ParenExprs.
  Expr *ignoreParens();
  const Expr *ignoreParens() const;

  static bool classof(const Node *N) { return isExprKind(N->getKind()); }

protected:
  Expr(NodeKind K, SourceRange R) : Node(K, R) {}

private:
  const Type *Types[NumDataModels] = {nullptr, nullptr};
  ImplicitCast Decay[NumDataModels] = {};
  ImplicitCast Conversion[NumDataModels] = {};
};

/// `42`, `0x2aUL`, `017`. The value always fits in 64 bits (the parser
/// diagnoses larger literals).
class IntegerLiteral : public Expr {
public:
  enum class SizeSuffix : uint8_t { None, Long, LongLong };

  IntegerLiteral(SourceRange R, uint64_t Value, unsigned Radix, bool Unsigned,
                 SizeSuffix Size)
      : Expr(NodeKind::IntegerLiteral, R), Value(Value), Radix(Radix),
        Unsigned(Unsigned), Size(Size) {}

  uint64_t getValue() const { return Value; }
  unsigned getRadix() const { return Radix; } ///< 8, 10 or 16.
  bool hasUnsignedSuffix() const { return Unsigned; }
  SizeSuffix getSizeSuffix() const { return Size; }

  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::IntegerLiteral;
  }

private:
  uint64_t Value;
  uint8_t Radix;
  bool Unsigned;
  SizeSuffix Size;
};

/// The prefix of a character constant: none (int), `L` (wchar_t), `u`
/// (char16_t) or `U` (char32_t).
enum class CharLiteralKind : uint8_t { Plain, Wide, UTF16, UTF32 };

/// `'a'`, `'\n'`, `'\x41'`, `L'a'`. Value is the C value of the constant: a
/// plain single char is sign-extended from char as GCC does; a prefixed
/// one is the code unit (its type is the prefix's, per model).
class CharLiteral : public Expr {
public:
  CharLiteral(SourceRange R, int64_t Value,
              CharLiteralKind K = CharLiteralKind::Plain)
      : Expr(NodeKind::CharLiteral, R), Value(Value), K(K) {}
  int64_t getValue() const { return Value; }
  CharLiteralKind getCharKind() const { return K; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::CharLiteral;
  }

private:
  int64_t Value;
  CharLiteralKind K;
};

/// `"text\n"`; adjacent literals are concatenated. getBytes() holds the
/// decoded bytes without the terminating NUL.
class StringLiteral : public Expr {
public:
  StringLiteral(SourceRange R, llvm::StringRef Bytes)
      : Expr(NodeKind::StringLiteral, R), Bytes(Bytes) {}
  llvm::StringRef getBytes() const { return Bytes; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::StringLiteral;
  }

private:
  llvm::StringRef Bytes;
};

/// A plain identifier: a script variable, an enumerator, a macro, or a
/// constant like MICROSECONDS. Sema binds it.
class DeclRefExpr : public Expr {
public:
  DeclRefExpr(SourceRange R, llvm::StringRef Name)
      : Expr(NodeKind::DeclRefExpr, R), Name(Name) {}
  llvm::StringRef getName() const { return Name; }

  /// The script declaration this name refers to; null until sema binds it
  /// or when it names something that is not a script Decl.
  Decl *getDecl() const { return D; }
  void setDecl(Decl *X) { D = X; }

  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::DeclRefExpr;
  }

private:
  llvm::StringRef Name;
  Decl *D = nullptr;
};

/// Any identifier starting with "__": `__pid`, `__arg3`, `__rv`, ... Sema
/// decides which exist.
class BuiltinVarExpr : public Expr {
public:
  BuiltinVarExpr(SourceRange R, llvm::StringRef Name)
      : Expr(NodeKind::BuiltinVarExpr, R), Name(Name) {}
  /// With the leading underscores: "__arg3".
  llvm::StringRef getName() const { return Name; }
  /// N for "__argN" with N a decimal number without leading zero, else
  /// std::nullopt.
  std::optional<unsigned> getArgIndex() const;
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::BuiltinVarExpr;
  }

private:
  llvm::StringRef Name;
};

/// `$N`: script parameter N (1-based) from the runtime command line.
class ParamExpr : public Expr {
public:
  ParamExpr(SourceRange R, unsigned Index)
      : Expr(NodeKind::ParamExpr, R), Index(Index) {}
  unsigned getIndex() const { return Index; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::ParamExpr;
  }

private:
  unsigned Index;
};

/// `@name` or `@name[k1, k2]`.
class AggregationExpr : public Expr {
public:
  AggregationExpr(SourceRange R, llvm::StringRef Name,
                  llvm::ArrayRef<Expr *> Keys, bool HasBrackets)
      : Expr(NodeKind::AggregationExpr, R), Name(Name), Keys(Keys),
        HasBrackets(HasBrackets) {}
  /// Without the '@'.
  llvm::StringRef getName() const { return Name; }
  llvm::ArrayRef<Expr *> getKeys() const { return Keys; }
  void setKeys(llvm::ArrayRef<Expr *> K) { Keys = K; }
  /// Whether `[...]` was written (`@a[]` has brackets and no keys).
  bool hasBrackets() const { return HasBrackets; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::AggregationExpr;
  }

private:
  llvm::StringRef Name;
  llvm::ArrayRef<Expr *> Keys;
  bool HasBrackets;
};

class UnaryOperator : public Expr {
public:
  enum class Opcode : uint8_t {
    Plus,
    Minus,
    LNot,
    Not,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec
  };
  UnaryOperator(SourceRange R, Opcode Op, SourceLocation OpLoc, Expr *Sub)
      : Expr(NodeKind::UnaryOperator, R), Op(Op), OpLoc(OpLoc), Sub(Sub) {}
  Opcode getOpcode() const { return Op; }
  SourceLocation getOperatorLoc() const { return OpLoc; }
  Expr *getSubExpr() const { return Sub; }
  void setSubExpr(Expr *E) { Sub = E; }
  bool isPostfix() const {
    return Op == Opcode::PostInc || Op == Opcode::PostDec;
  }
  bool isIncrementDecrement() const { return Op >= Opcode::PreInc; }
  /// "-", "++", ...
  static llvm::StringRef getOpcodeStr(Opcode Op);
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::UnaryOperator;
  }

private:
  Opcode Op;
  SourceLocation OpLoc;
  Expr *Sub;
};

class BinaryOperator : public Expr {
public:
  enum class Opcode : uint8_t {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    LT,
    GT,
    LE,
    GE,
    EQ,
    NE,
    And,
    Xor,
    Or,
    LAnd,
    LOr
  };
  BinaryOperator(SourceRange R, Opcode Op, SourceLocation OpLoc, Expr *L,
                 Expr *Rhs)
      : Expr(NodeKind::BinaryOperator, R), Op(Op), OpLoc(OpLoc), LHS(L),
        RHS(Rhs) {}
  Opcode getOpcode() const { return Op; }
  SourceLocation getOperatorLoc() const { return OpLoc; }
  Expr *getLHS() const { return LHS; }
  Expr *getRHS() const { return RHS; }
  void setLHS(Expr *E) { LHS = E; }
  void setRHS(Expr *E) { RHS = E; }
  bool isComparisonOp() const { return Op >= Opcode::LT && Op <= Opcode::NE; }
  bool isLogicalOp() const { return Op == Opcode::LAnd || Op == Opcode::LOr; }
  bool isShiftOp() const { return Op == Opcode::Shl || Op == Opcode::Shr; }
  static llvm::StringRef getOpcodeStr(Opcode Op);
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::BinaryOperator;
  }

private:
  Opcode Op;
  SourceLocation OpLoc;
  Expr *LHS;
  Expr *RHS;
};

/// `=` and every compound assignment.
class AssignExpr : public Expr {
public:
  enum class Opcode : uint8_t {
    Assign,
    MulAssign,
    DivAssign,
    RemAssign,
    AddAssign,
    SubAssign,
    ShlAssign,
    ShrAssign,
    AndAssign,
    XorAssign,
    OrAssign
  };
  AssignExpr(SourceRange R, Opcode Op, SourceLocation OpLoc, Expr *L, Expr *Rhs)
      : Expr(NodeKind::AssignExpr, R), Op(Op), OpLoc(OpLoc), LHS(L), RHS(Rhs) {}
  Opcode getOpcode() const { return Op; }
  SourceLocation getOperatorLoc() const { return OpLoc; }
  Expr *getLHS() const { return LHS; }
  Expr *getRHS() const { return RHS; }
  void setLHS(Expr *E) { LHS = E; }
  void setRHS(Expr *E) { RHS = E; }
  bool isCompoundAssign() const { return Op != Opcode::Assign; }
  /// For compound assignments, the binary operation performed (`+=` -> Add).
  BinaryOperator::Opcode getBinaryOpcode() const;
  /// For compound assignments, the type sema computes `LHS op RHS` in for
  /// model \p M (Clang's computation type): the promoted or common
  /// arithmetic type, or the pointer type for `p += n`. The LHS value is
  /// converted to it, the RHS's conversion is recorded on the RHS, and the
  /// result is converted back to the LHS type.
  const Type *getComputationType(DataModel M) const {
    return ComputationTypes[static_cast<unsigned>(M)];
  }
  void setComputationType(DataModel M, const Type *T) {
    ComputationTypes[static_cast<unsigned>(M)] = T;
  }
  static llvm::StringRef getOpcodeStr(Opcode Op);
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::AssignExpr;
  }

private:
  Opcode Op;
  SourceLocation OpLoc;
  Expr *LHS;
  Expr *RHS;
  const Type *ComputationTypes[NumDataModels] = {nullptr, nullptr};
};

/// `c ? a : b`, and GNU's `x ?: y`, whose true expression is an
/// OpaqueValueExpr standing for the condition's value.
class ConditionalOperator : public Expr {
public:
  ConditionalOperator(SourceRange R, Expr *Cond, SourceLocation QLoc, Expr *L,
                      SourceLocation CLoc, Expr *Rhs)
      : Expr(NodeKind::ConditionalOperator, R), Cond(Cond), LHS(L), RHS(Rhs),
        QuestionLoc(QLoc), ColonLoc(CLoc) {}
  Expr *getCond() const { return Cond; }
  Expr *getTrueExpr() const { return LHS; }
  Expr *getFalseExpr() const { return RHS; }
  void setCond(Expr *E) { Cond = E; }
  void setTrueExpr(Expr *E) { LHS = E; }
  void setFalseExpr(Expr *E) { RHS = E; }
  SourceLocation getQuestionLoc() const { return QuestionLoc; }
  SourceLocation getColonLoc() const { return ColonLoc; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::ConditionalOperator;
  }

private:
  Expr *Cond, *LHS, *RHS;
  SourceLocation QuestionLoc, ColonLoc;
};

/// `(type) expr`.
class CastExpr : public Expr {
public:
  CastExpr(SourceRange R, TypeSpec *T, Expr *Sub)
      : Expr(NodeKind::CastExpr, R), Ty(T), Sub(Sub) {}
  TypeSpec *getTypeSpec() const { return Ty; }
  Expr *getSubExpr() const { return Sub; }
  void setSubExpr(Expr *E) { Sub = E; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::CastExpr;
  }

private:
  TypeSpec *Ty;
  Expr *Sub;
};

/// Shared shape of `sizeof` and `_Alignof`: either a type or an expression.
class TypeOrExprTraitExpr : public Expr {
public:
  bool isTypeOperand() const { return Ty != nullptr; }
  TypeSpec *getTypeOperand() const { return Ty; }  ///< Null for expr form.
  Expr *getExprOperand() const { return Operand; } ///< Null for type form.
  void setExprOperand(Expr *E) { Operand = E; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::SizeofExpr ||
           N->getKind() == NodeKind::AlignofExpr;
  }

protected:
  TypeOrExprTraitExpr(NodeKind K, SourceRange R, TypeSpec *T, Expr *E)
      : Expr(K, R), Ty(T), Operand(E) {}

private:
  TypeSpec *Ty;
  Expr *Operand;
};

/// `sizeof(type)` or `sizeof expr`. Note: `sizeof(x)` where x is a plain
/// identifier is parsed as the expression form unless x is known to be a
/// type name; sema may reinterpret a DeclRefExpr operand naming a typedef.
class SizeofExpr : public TypeOrExprTraitExpr {
public:
  SizeofExpr(SourceRange R, TypeSpec *T, Expr *E)
      : TypeOrExprTraitExpr(NodeKind::SizeofExpr, R, T, E) {}
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::SizeofExpr;
  }
};

/// `_Alignof(type)` or `__alignof__(type)`, or either of them applied to an
/// expression (GNU). The spellings differ for types on i386: `_Alignof` is
/// C11's alignment (a `long long` member's, 4), `__alignof__` gcc's
/// preferred alignment (a `long long` variable's, 8).
class AlignofExpr : public TypeOrExprTraitExpr {
public:
  AlignofExpr(SourceRange R, TypeSpec *T, Expr *E, bool GNUSpelling)
      : TypeOrExprTraitExpr(NodeKind::AlignofExpr, R, T, E),
        GNUSpelling(GNUSpelling) {}
  /// Written `__alignof__` rather than `_Alignof`.
  bool isGNUSpelling() const { return GNUSpelling; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::AlignofExpr;
  }

private:
  bool GNUSpelling;
};

/// One step of an offsetof designator: `.field` (the first has no dot) or
/// `[index]`.
struct OffsetofComponent {
  enum class Kind : uint8_t { Field, Index };
  Kind K;
  llvm::StringRef FieldName; ///< For Field.
  Expr *Index = nullptr;     ///< For Index.
  SourceRange Range;
};

/// `offsetof(struct s, m[1].x)`.
class OffsetofExpr : public Expr {
public:
  OffsetofExpr(SourceRange R, TypeSpec *T,
               llvm::ArrayRef<OffsetofComponent> Path)
      : Expr(NodeKind::OffsetofExpr, R), Ty(T), Path(Path) {}
  TypeSpec *getTypeSpec() const { return Ty; }
  llvm::ArrayRef<OffsetofComponent> getComponents() const { return Path; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::OffsetofExpr;
  }

private:
  TypeSpec *Ty;
  llvm::ArrayRef<OffsetofComponent> Path;
};

/// `base.member` / `base->member`.
class MemberExpr : public Expr {
public:
  MemberExpr(SourceRange R, Expr *Base, bool IsArrow, SourceLocation OpLoc,
             llvm::StringRef Member, SourceLocation MemberLoc)
      : Expr(NodeKind::MemberExpr, R), Base(Base), Member(Member), OpLoc(OpLoc),
        MemberLoc(MemberLoc), IsArrow(IsArrow) {}
  Expr *getBase() const { return Base; }
  void setBase(Expr *E) { Base = E; }
  bool isArrow() const { return IsArrow; }
  llvm::StringRef getMemberName() const { return Member; }
  SourceLocation getOperatorLoc() const { return OpLoc; }
  SourceLocation getMemberLoc() const { return MemberLoc; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::MemberExpr;
  }

private:
  Expr *Base;
  llvm::StringRef Member;
  SourceLocation OpLoc, MemberLoc;
  bool IsArrow;
};

/// `base[i]` — a C array/pointer subscript or an associative-array access
/// (then possibly with several keys: `m[a, b]`).
class ArraySubscriptExpr : public Expr {
public:
  ArraySubscriptExpr(SourceRange R, Expr *Base, llvm::ArrayRef<Expr *> Indices)
      : Expr(NodeKind::ArraySubscriptExpr, R), Base(Base), Indices(Indices) {}
  Expr *getBase() const { return Base; }
  void setBase(Expr *E) { Base = E; }
  llvm::ArrayRef<Expr *> getIndices() const { return Indices; }
  void setIndices(llvm::ArrayRef<Expr *> I) { Indices = I; }
  /// The single index of a C subscript (first key otherwise).
  Expr *getIdx() const { return Indices.empty() ? nullptr : Indices.front(); }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::ArraySubscriptExpr;
  }

private:
  Expr *Base;
  llvm::ArrayRef<Expr *> Indices;
};

/// `name(args...)` — every call is to a built-in function.
class CallExpr : public Expr {
public:
  CallExpr(SourceRange R, llvm::StringRef Callee, SourceLocation CalleeLoc,
           llvm::ArrayRef<Expr *> Args)
      : Expr(NodeKind::CallExpr, R), Callee(Callee), CalleeLoc(CalleeLoc),
        Args(Args) {}
  llvm::StringRef getCalleeName() const { return Callee; }
  SourceLocation getCalleeLoc() const { return CalleeLoc; }
  llvm::ArrayRef<Expr *> getArgs() const { return Args; }
  void setArgs(llvm::ArrayRef<Expr *> A) { Args = A; }
  unsigned getNumArgs() const { return Args.size(); }
  Expr *getArg(unsigned I) const { return Args[I]; }
  SourceLocation getRParenLoc() const { return getEndLoc(); }

  /// Free slot for sema: which built-in this resolved to (0 = unresolved).
  unsigned getBuiltinID() const { return BuiltinID; }
  void setBuiltinID(unsigned ID) { BuiltinID = ID; }

  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::CallExpr;
  }

private:
  llvm::StringRef Callee;
  SourceLocation CalleeLoc;
  llvm::ArrayRef<Expr *> Args;
  unsigned BuiltinID = 0;
};

/// The value of another expression that its parent has already evaluated:
/// the condition of GNU `x ?: y` used again as the result. Sema types it as
/// its source's value (decayed, bit-fields promoted as operands are) and
/// records its own conversion to the result type; codegen hands it the
/// value computed for the condition, so `x` is evaluated once.
class OpaqueValueExpr : public Expr {
public:
  OpaqueValueExpr(SourceRange R, Expr *Source)
      : Expr(NodeKind::OpaqueValueExpr, R), Source(Source) {}
  Expr *getSourceExpr() const { return Source; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::OpaqueValueExpr;
  }

private:
  Expr *Source;
};

/// One association of a generic selection: `long: e`, or `default: e`
/// (null type).
struct GenericAssociation {
  TypeSpec *Type = nullptr;
  Expr *Value = nullptr;
};

/// `_Generic(ctrl, type: e, ..., default: e)`. The controlling expression is
/// not evaluated; which association is selected depends on its type, so
/// sema records the choice per model (`_Generic(x, long: ...)` may pick
/// differently in ILP32 and LP64).
class GenericSelectionExpr : public Expr {
public:
  GenericSelectionExpr(SourceRange R, Expr *Controlling,
                       llvm::ArrayRef<GenericAssociation> Assocs)
      : Expr(NodeKind::GenericSelectionExpr, R), Controlling(Controlling),
        Assocs(Assocs) {}
  Expr *getControllingExpr() const { return Controlling; }
  llvm::ArrayRef<GenericAssociation> getAssociations() const { return Assocs; }
  /// The selected association in model \p M, or null before sema.
  Expr *getResultExpr(DataModel M) const {
    int I = Selected[modelIndex(M)];
    return I < 0 ? nullptr : Assocs[unsigned(I)].Value;
  }
  void setSelected(DataModel M, int I) { Selected[modelIndex(M)] = I; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::GenericSelectionExpr;
  }

private:
  Expr *Controlling;
  llvm::ArrayRef<GenericAssociation> Assocs;
  int Selected[NumDataModels] = {-1, -1};
};

/// One step of an initializer's designation: `.field` or `[index]`.
struct Designator {
  enum class Kind : uint8_t { Field, Index };
  Kind K = Kind::Field;
  llvm::StringRef FieldName; ///< For Field.
  Expr *Index = nullptr;     ///< For Index.
  SourceRange Range;
};

/// One element of a braced initializer: designators (possibly none) and a
/// value, which is an expression or a nested InitListExpr.
struct InitItem {
  llvm::ArrayRef<Designator> Designators;
  Expr *Value = nullptr;
};

/// `{ .a = 1, [2] = x, 3 }`: only inside a compound literal. It has no
/// value of its own; sema works out which subobject each item initialises.
class InitListExpr : public Expr {
public:
  InitListExpr(SourceRange R, llvm::ArrayRef<InitItem> Items)
      : Expr(NodeKind::InitListExpr, R), Items(Items) {}
  llvm::ArrayRef<InitItem> getItems() const { return Items; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::InitListExpr;
  }

private:
  llvm::ArrayRef<InitItem> Items;
};

/// `(struct s){ .a = 1 }`, `(int[]){1, 2, 3}`: an unnamed object in the
/// script's own storage for the firing (like an `__auto` variable), not in
/// the traced process.
class CompoundLiteralExpr : public Expr {
public:
  CompoundLiteralExpr(SourceRange R, TypeSpec *T, InitListExpr *Init)
      : Expr(NodeKind::CompoundLiteralExpr, R), Ty(T), Init(Init) {}
  TypeSpec *getTypeSpec() const { return Ty; }
  InitListExpr *getInitializer() const { return Init; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::CompoundLiteralExpr;
  }

private:
  TypeSpec *Ty;
  InitListExpr *Init;
};

class ParenExpr : public Expr {
public:
  ParenExpr(SourceRange R, Expr *Sub)
      : Expr(NodeKind::ParenExpr, R), Sub(Sub) {}
  Expr *getSubExpr() const { return Sub; }
  void setSubExpr(Expr *E) { Sub = E; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::ParenExpr;
  }

private:
  Expr *Sub;
};

} // namespace tscc

#endif // TSCC_AST_EXPR_H
