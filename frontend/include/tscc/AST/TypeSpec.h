//===- tscc/AST/TypeSpec.h - Types as the script writes them ----*- C++ -*-===//
//
// TypeSpec: a type name as written (specifiers, declarator levels,
// function suffixes), independent of any data model; sema resolves it
// once per model.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_AST_TYPESPEC_H
#define TSCC_AST_TYPESPEC_H

#include "tscc/AST/Node.h"

namespace tscc {

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

} // namespace tscc

#endif // TSCC_AST_TYPESPEC_H
