//===- tscc/AST/Stmt.h - Statements -----------------------------*- C++ -*-===//
//
// The statements of a clause body.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_AST_STMT_H
#define TSCC_AST_STMT_H

#include "tscc/AST/Decl.h"

namespace tscc {

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

} // namespace tscc

#endif // TSCC_AST_STMT_H
