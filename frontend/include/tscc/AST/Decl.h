//===- tscc/AST/Decl.h - Declarations ---------------------------*- C++ -*-===//
//
// Decl and VarDecl: the script's variables, with their storage class and,
// for maps and aggregations, their key types.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_AST_DECL_H
#define TSCC_AST_DECL_H

#include "tscc/AST/TypeSpec.h"

namespace tscc {

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

} // namespace tscc

#endif // TSCC_AST_DECL_H
