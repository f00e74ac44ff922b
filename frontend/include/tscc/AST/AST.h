//===- tscc/AST/AST.h - The trace-script AST --------------------*- C++ -*-===//
//
// The AST records what the user wrote, independent of any data model: type
// names are TypeSpec nodes, names are unresolved identifiers, literals keep
// their spelling details. Sema annotates it in place: every Expr has one
// type slot and one set of implicit conversions per data model, compound
// assignments a computation type per model, and DeclRefExprs get bound to
// declarations.
//
// Nodes are allocated in the arena of an ASTContext and never destroyed
// individually, so every node is trivially destructible: strings are
// StringRefs and child lists are ArrayRefs into the arena (see
// ASTContext::copyString / copyArray). Every node has a kind, LLVM-style
// classof (use llvm::isa/cast/dyn_cast) and a SourceRange whose end is the
// first character of the last token, as in Clang.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_AST_AST_H
#define TSCC_AST_AST_H

#include "tscc/Basic/SourceLocation.h"
#include "tscc/DataModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>

namespace tscc {

class Type; // Defined by sema (tscc/Sema/Type.h).

enum class NodeKind : uint8_t {
#define NODE(CLASS, PARENT) CLASS,
#include "tscc/AST/ASTNodes.def"
};

/// "IntegerLiteral", "IfStmt", ...
llvm::StringRef getNodeKindName(NodeKind K);

class Node {
public:
  NodeKind getKind() const { return Kind; }
  llvm::StringRef getKindName() const { return getNodeKindName(Kind); }

  SourceRange getSourceRange() const { return Range; }
  SourceLocation getBeginLoc() const { return Range.getBegin(); }
  SourceLocation getEndLoc() const { return Range.getEnd(); }
  void setSourceRange(SourceRange R) { Range = R; }

protected:
  Node(NodeKind K, SourceRange R) : Kind(K), Range(R) {}

private:
  NodeKind Kind;
  SourceRange Range;
};

#define NODE_RANGE(CLASS, FIRST, LAST)                                         \
  inline bool is##CLASS##Kind(NodeKind K) {                                    \
    return K >= NodeKind::FIRST && K <= NodeKind::LAST;                        \
  }
#include "tscc/AST/ASTNodes.def"

class Expr;
class CompoundStmt;

//===----------------------------------------------------------------------===//
// Types as written
//===----------------------------------------------------------------------===//

/// The builtin C type named by a combination of type-specifier keywords.
enum class BuiltinTypeKind : uint8_t {
  Void,
  Bool,
  Char,
  SChar,
  UChar,
  Short,
  UShort,
  Int,
  UInt,
  Long,
  ULong,
  LongLong,
  ULongLong,
  Float,
  Double,
  LongDouble,
};

/// "unsigned long", "signed char", "_Bool", ...
llvm::StringRef getBuiltinTypeName(BuiltinTypeKind K);

class TypeSpec;

/// The parameter list of a function declarator in a type name:
/// `(int, char *)` in `void (*)(int, char *)`.
struct FunctionSuffix {
  llvm::ArrayRef<TypeSpec *> Params;
  bool Variadic = false;
  /// False for `()`, whose parameters are unknown in C17.
  bool Prototyped = true;
};

/// A parenthesised part of a type name's abstract declarator: the `(*)` of
/// `int (*)[3]`. Like the outermost level (held by TypeSpec itself) it has
/// pointers, then array dimensions or a function suffix, then possibly a
/// level nested in parentheses, which applies last: `int (*)[3]` is a
/// pointer to an array of 3 ints.
struct DeclaratorLevel {
  unsigned PointerDepth = 0;
  llvm::ArrayRef<Expr *> ArrayDims;
  const FunctionSuffix *Function = nullptr;
  const DeclaratorLevel *Nested = nullptr;
  SourceRange Range;
};

/// A type as the user wrote it: a base (builtin keywords, struct/union/enum
/// tag, typedef name, String or `__typeof__(...)`) plus qualifiers, pointer
/// levels, array dimensions or a function suffix, and possibly a
/// parenthesised declarator level. Model-independent: sema resolves it once
/// per data model.
class TypeSpec : public Node {
public:
  enum class SpecKind : uint8_t {
    Builtin,
    Struct,
    Union,
    Enum,
    Typedef,
    String,
    Typeof, ///< `__typeof__(expr)` or `__typeof__(type)`
  };

  TypeSpec(SourceRange R, SpecKind SK) : Node(NodeKind::TypeSpec, R), SK(SK) {}

  SpecKind getSpecKind() const { return SK; }
  bool isBuiltin() const { return SK == SpecKind::Builtin; }
  bool isTag() const {
    return SK == SpecKind::Struct || SK == SpecKind::Union ||
           SK == SpecKind::Enum;
  }
  bool isTypedefName() const { return SK == SpecKind::Typedef; }
  bool isString() const { return SK == SpecKind::String; }

  /// Only for Builtin.
  BuiltinTypeKind getBuiltinKind() const { return BK; }
  void setBuiltinKind(BuiltinTypeKind K) { BK = K; }

  /// The tag (Struct/Union/Enum) or typedef name.
  llvm::StringRef getName() const { return Name; }
  void setName(llvm::StringRef N) { Name = N; }
  SourceLocation getNameLoc() const { return NameLoc; }
  void setNameLoc(SourceLocation L) { NameLoc = L; }

  bool isConst() const { return Const; }
  bool isVolatile() const { return Volatile; }
  void setConst(bool V) { Const = V; }
  void setVolatile(bool V) { Volatile = V; }

  /// Number of '*' in the declarator (`char **` is 2).
  unsigned getPointerDepth() const { return PointerDepth; }
  void setPointerDepth(unsigned D) { PointerDepth = D; }

  /// C array dimensions in declaration order (`int a[2][3]` is {2, 3}).
  /// Each is a constant expression for sema to evaluate; a bare identifier
  /// may also name a macro.
  llvm::ArrayRef<Expr *> getArrayDims() const { return ArrayDims; }
  void setArrayDims(llvm::ArrayRef<Expr *> D) { ArrayDims = D; }

  /// For String: the capacity written as `String s[256]`; null means the
  /// default (128 bytes).
  Expr *getStringCapacity() const { return StringCapacity; }
  void setStringCapacity(Expr *E) { StringCapacity = E; }

  /// The outermost level's function suffix (`void (int)`), if any.
  const FunctionSuffix *getFunction() const { return Function; }
  void setFunction(const FunctionSuffix *F) { Function = F; }
  /// The declarator level in parentheses (`(*)` in `int (*)[3]`), if any.
  const DeclaratorLevel *getNested() const { return Nested; }
  void setNested(const DeclaratorLevel *L) { Nested = L; }

  /// For Typeof: the expression or the type in the parentheses.
  Expr *getTypeofExpr() const { return TypeofExpr; }
  void setTypeofExpr(Expr *E) { TypeofExpr = E; }
  TypeSpec *getTypeofType() const { return TypeofType; }
  void setTypeofType(TypeSpec *T) { TypeofType = T; }

  /// The base type spelled canonically, e.g. "unsigned long", "struct req",
  /// "size_t", "String". Without pointers or dimensions.
  std::string getBaseAsString() const;
  /// Everything, e.g. "const struct req *", "char [16]", "String[256]".
  /// Dimension and capacity expressions print as written if literal, as
  /// "N" otherwise.
  std::string getAsString() const;

  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::TypeSpec;
  }

private:
  SpecKind SK;
  BuiltinTypeKind BK = BuiltinTypeKind::Int;
  bool Const = false;
  bool Volatile = false;
  unsigned PointerDepth = 0;
  llvm::StringRef Name;
  SourceLocation NameLoc;
  llvm::ArrayRef<Expr *> ArrayDims;
  Expr *StringCapacity = nullptr;
  const FunctionSuffix *Function = nullptr;
  const DeclaratorLevel *Nested = nullptr;
  Expr *TypeofExpr = nullptr;
  TypeSpec *TypeofType = nullptr;
};

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

class Decl : public Node {
public:
  llvm::StringRef getName() const { return Name; }
  SourceLocation getNameLoc() const { return NameLoc; }

  static bool classof(const Node *N) { return isDeclKind(N->getKind()); }

protected:
  Decl(NodeKind K, SourceRange R, llvm::StringRef Name, SourceLocation NameLoc)
      : Node(K, R), Name(Name), NameLoc(NameLoc) {}

private:
  llvm::StringRef Name;
  SourceLocation NameLoc;
};

enum class StorageClass : uint8_t { Global, Thread, Auto };

/// "__global", "__thread", "__auto".
llvm::StringRef getStorageClassName(StorageClass SC);

/// A script variable: `__global long total;`, `__thread long start[long];`,
/// `String name[64] = "x";`, or a local `__auto int n = 0;`.
class VarDecl : public Decl {
public:
  VarDecl(SourceRange R, llvm::StringRef Name, SourceLocation NameLoc,
          StorageClass SC, bool SCExplicit, TypeSpec *T)
      : Decl(NodeKind::VarDecl, R, Name, NameLoc), SC(SC),
        SCExplicit(SCExplicit), Ty(T) {}

  StorageClass getStorageClass() const { return SC; }
  /// False when the storage class is the default for the position
  /// (__global at top level, __auto inside an action).
  bool isStorageClassExplicit() const { return SCExplicit; }
  SourceLocation getStorageClassLoc() const { return SCLoc; }
  void setStorageClassLoc(SourceLocation L) { SCLoc = L; }

  /// The value type (for associative arrays: the element type).
  TypeSpec *getTypeSpec() const { return Ty; }

  /// Key types of an associative array (`bytes[String]` has one).
  llvm::ArrayRef<TypeSpec *> getKeyTypes() const { return Keys; }
  void setKeyTypes(llvm::ArrayRef<TypeSpec *> K) { Keys = K; }
  bool isAssociativeArray() const { return !Keys.empty(); }

  Expr *getInit() const { return Init; }
  void setInit(Expr *E) { Init = E; }

  /// True for declarations in the script's declaration section; false for
  /// declarations inside an action (DeclStmt).
  bool isTopLevel() const { return TopLevel; }
  void setTopLevel(bool V) { TopLevel = V; }

  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::VarDecl;
  }

private:
  StorageClass SC;
  bool SCExplicit;
  bool TopLevel = false;
  SourceLocation SCLoc;
  TypeSpec *Ty;
  llvm::ArrayRef<TypeSpec *> Keys;
  Expr *Init = nullptr;
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

class Stmt : public Node {
public:
  static bool classof(const Node *N) { return isStmtKind(N->getKind()); }

protected:
  Stmt(NodeKind K, SourceRange R) : Node(K, R) {}
};

class CompoundStmt : public Stmt {
public:
  CompoundStmt(SourceRange R, llvm::ArrayRef<Stmt *> Body)
      : Stmt(NodeKind::CompoundStmt, R), Body(Body) {}
  llvm::ArrayRef<Stmt *> body() const { return Body; }
  void setBody(llvm::ArrayRef<Stmt *> B) { Body = B; }
  SourceLocation getLBraceLoc() const { return getBeginLoc(); }
  SourceLocation getRBraceLoc() const { return getEndLoc(); }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::CompoundStmt;
  }

private:
  llvm::ArrayRef<Stmt *> Body;
};

class ExprStmt : public Stmt {
public:
  ExprStmt(SourceRange R, Expr *E) : Stmt(NodeKind::ExprStmt, R), E(E) {}
  Expr *getExpr() const { return E; }
  void setExpr(Expr *X) { E = X; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::ExprStmt;
  }

private:
  Expr *E;
};

class IfStmt : public Stmt {
public:
  IfStmt(SourceRange R, Expr *Cond, Stmt *Then, Stmt *Else,
         SourceLocation ElseLoc)
      : Stmt(NodeKind::IfStmt, R), Cond(Cond), Then(Then), Else(Else),
        ElseLoc(ElseLoc) {}
  Expr *getCond() const { return Cond; }
  void setCond(Expr *E) { Cond = E; }
  Stmt *getThen() const { return Then; }
  Stmt *getElse() const { return Else; } ///< May be null.
  SourceLocation getElseLoc() const { return ElseLoc; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::IfStmt;
  }

private:
  Expr *Cond;
  Stmt *Then;
  Stmt *Else;
  SourceLocation ElseLoc;
};

/// `return;` — leaves the clause's action early.
class ReturnStmt : public Stmt {
public:
  explicit ReturnStmt(SourceRange R) : Stmt(NodeKind::ReturnStmt, R) {}
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::ReturnStmt;
  }
};

/// Local declarations inside an action: `__auto long a = 1, b;`.
class DeclStmt : public Stmt {
public:
  DeclStmt(SourceRange R, llvm::ArrayRef<VarDecl *> Decls)
      : Stmt(NodeKind::DeclStmt, R), Decls(Decls) {}
  llvm::ArrayRef<VarDecl *> decls() const { return Decls; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::DeclStmt;
  }

private:
  llvm::ArrayRef<VarDecl *> Decls;
};

class NullStmt : public Stmt {
public:
  explicit NullStmt(SourceRange R) : Stmt(NodeKind::NullStmt, R) {}
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::NullStmt;
  }
};

//===----------------------------------------------------------------------===//
// Expressions
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

//===----------------------------------------------------------------------===//
// Probes, clauses, the script
//===----------------------------------------------------------------------===//

enum class ProbeProvider : uint8_t {
  Begin,
  End,
  Uft,
  Syscall,
  Interval,
  Unknown
};

/// "BEGIN", "END", "uft", "syscall", "interval", "unknown".
llvm::StringRef getProbeProviderName(ProbeProvider P);

/// One colon-separated field of a probe specification, as written.
struct ProbeField {
  llvm::StringRef Text; ///< For a regex field, including both slashes.
  SourceRange Range;    ///< Begin and End at first/last character.
  bool IsRegex = false; ///< Written as /.../.
};

/// `@@uft:*:a.out:handle:entry` split syntactically. Sema validates.
class ProbeSpec : public Node {
public:
  ProbeSpec(SourceRange R, llvm::StringRef Text,
            llvm::ArrayRef<ProbeField> Fields)
      : Node(NodeKind::ProbeSpec, R), Text(Text), Fields(Fields) {}
  /// The whole specification as written, including "@@".
  llvm::StringRef getText() const { return Text; }
  /// Fields[0] is the provider.
  llvm::ArrayRef<ProbeField> getFields() const { return Fields; }
  ProbeProvider getProvider() const;
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::ProbeSpec;
  }

private:
  llvm::StringRef Text;
  llvm::ArrayRef<ProbeField> Fields;
};

/// `spec [, spec]... [when (pred)] { body }`.
class Clause : public Node {
public:
  Clause(SourceRange R, unsigned Index, llvm::ArrayRef<ProbeSpec *> Probes,
         Expr *Pred, SourceLocation WhenLoc, CompoundStmt *Body)
      : Node(NodeKind::Clause, R), Index(Index), Probes(Probes), Pred(Pred),
        WhenLoc(WhenLoc), Body(Body) {}
  /// 0-based position among the script's clauses (clause N in codegen).
  unsigned getIndex() const { return Index; }
  llvm::ArrayRef<ProbeSpec *> getProbes() const { return Probes; }
  Expr *getPredicate() const { return Pred; } ///< May be null.
  void setPredicate(Expr *E) { Pred = E; }
  SourceLocation getWhenLoc() const { return WhenLoc; }
  CompoundStmt *getBody() const { return Body; }
  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::Clause;
  }

private:
  unsigned Index;
  llvm::ArrayRef<ProbeSpec *> Probes;
  Expr *Pred;
  SourceLocation WhenLoc;
  CompoundStmt *Body;
};

/// One piece of the declaration section that is handed to Clang verbatim.
struct CDeclChunk {
  enum class Kind : uint8_t {
    Directive, ///< `#include ...`, `#define ...`, any `#` line.
    Typedef,   ///< `typedef ...;`
    Tag,       ///< a struct/union/enum definition (with body)
    Prototype, ///< a function declaration
  };
  Kind K;
  SourceRange Range;
  llvm::StringRef Text; ///< Verbatim source text.
  /// The declared name when it is evident (typedef name, tag name, function
  /// name, macro name); may be empty.
  llvm::StringRef Name;
};

/// A function prototype declared in the script.
struct PrototypeName {
  llvm::StringRef Name;
  SourceLocation Loc;
};

class Script : public Node {
public:
  Script(SourceRange R, FileID File) : Node(NodeKind::Script, R), File(File) {}

  FileID getFileID() const { return File; }

  /// Everything for Clang, in source order, each chunk preceded by a
  /// `#line N "file"` marker and indented to its original column so that
  /// Clang's line:column positions are the script's.
  llvm::StringRef getCPrelude() const { return Prelude; }
  void setCPrelude(llvm::StringRef P) { Prelude = P; }
  llvm::ArrayRef<CDeclChunk> getCDecls() const { return CDecls; }
  void setCDecls(llvm::ArrayRef<CDeclChunk> C) { CDecls = C; }

  /// Top-level script variables in source order.
  llvm::ArrayRef<VarDecl *> getVars() const { return Vars; }
  void setVars(llvm::ArrayRef<VarDecl *> V) { Vars = V; }

  llvm::ArrayRef<Clause *> getClauses() const { return Clauses; }
  void setClauses(llvm::ArrayRef<Clause *> C) { Clauses = C; }

  /// Functions whose prototypes the script declares (so sema knows which
  /// names came from the script rather than from headers).
  llvm::ArrayRef<PrototypeName> getPrototypeNames() const { return Protos; }
  void setPrototypeNames(llvm::ArrayRef<PrototypeName> P) { Protos = P; }

  static bool classof(const Node *N) {
    return N->getKind() == NodeKind::Script;
  }

private:
  FileID File;
  llvm::StringRef Prelude;
  llvm::ArrayRef<CDeclChunk> CDecls;
  llvm::ArrayRef<VarDecl *> Vars;
  llvm::ArrayRef<Clause *> Clauses;
  llvm::ArrayRef<PrototypeName> Protos;
};

} // namespace tscc

#endif // TSCC_AST_AST_H
