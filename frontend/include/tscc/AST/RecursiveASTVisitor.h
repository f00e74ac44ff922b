//===- tscc/AST/RecursiveASTVisitor.h - Default AST traversal ---*- C++ -*-===//
//
// CRTP visitor with a default traversal of every node, in source order:
//
//   struct CountCalls : RecursiveASTVisitor<CountCalls> {
//     unsigned N = 0;
//     bool visitCallExpr(CallExpr *) { ++N; return true; }
//   };
//
// For every node the traversal calls the visit hooks from the most general
// to the most specific (visitNode, visitExpr, visitCallExpr) -- before the
// children, or after them when the derived class returns true from
// shouldTraversePostOrder(). A hook or traverse function returning false
// stops the whole traversal. Override traverseX to change how children of X
// are walked (call the base version to keep the default).
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_AST_RECURSIVEASTVISITOR_H
#define TSCC_AST_RECURSIVEASTVISITOR_H

#include "tscc/AST/AST.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"

#include <type_traits>

namespace tscc {

template <typename Derived> class RecursiveASTVisitor {
public:
  Derived &getDerived() { return *static_cast<Derived *>(this); }

  bool shouldTraversePostOrder() const { return false; }

  /// Dispatches on the dynamic kind. Null is allowed and ignored.
  bool traverse(Node *N) {
    if (!N)
      return true;
    switch (N->getKind()) {
#define NODE(CLASS, PARENT)                                                    \
  case NodeKind::CLASS:                                                        \
    return getDerived().traverse##CLASS(llvm::cast<CLASS>(N));
#include "tscc/AST/ASTNodes.def"
    }
    llvm_unreachable("unknown node kind");
  }
  bool traverseExpr(Expr *E) { return getDerived().traverse(E); }
  bool traverseStmt(Stmt *S) { return getDerived().traverse(S); }
  bool traverseDecl(Decl *D) { return getDerived().traverse(D); }

  // Visit hooks; all return true by default.
  bool visitNode(Node *) { return true; }
  bool visitDecl(Decl *) { return true; }
  bool visitStmt(Stmt *) { return true; }
  bool visitExpr(Expr *) { return true; }
#define NODE(CLASS, PARENT)                                                    \
  bool visit##CLASS(CLASS *) { return true; }
#include "tscc/AST/ASTNodes.def"

  // Default traversals.
  bool traverseScript(Script *N) {
    return around(N, [&] {
      for (VarDecl *V : N->getVars())
        if (!getDerived().traverse(V))
          return false;
      for (Clause *C : N->getClauses())
        if (!getDerived().traverse(C))
          return false;
      return true;
    });
  }
  bool traverseClause(Clause *N) {
    return around(N, [&] {
      for (ProbeSpec *P : N->getProbes())
        if (!getDerived().traverse(P))
          return false;
      return getDerived().traverse(N->getPredicate()) &&
             getDerived().traverse(N->getBody());
    });
  }
  bool traverseProbeSpec(ProbeSpec *N) {
    return around(N, [] { return true; });
  }
  bool traverseTypeSpec(TypeSpec *N) {
    return around(N, [&] {
      if (!getDerived().traverse(N->getTypeofType()) ||
          !getDerived().traverse(N->getTypeofExpr()) ||
          !all(N->getArrayDims()) || !traverseFunction(N->getFunction()))
        return false;
      for (const DeclaratorLevel *L = N->getNested(); L; L = L->Nested)
        if (!all(L->ArrayDims) || !traverseFunction(L->Function))
          return false;
      return getDerived().traverse(N->getStringCapacity());
    });
  }
  bool traverseVarDecl(VarDecl *N) {
    return around(N, [&] {
      if (!getDerived().traverse(N->getTypeSpec()))
        return false;
      for (TypeSpec *K : N->getKeyTypes())
        if (!getDerived().traverse(K))
          return false;
      return getDerived().traverse(N->getInit());
    });
  }
  bool traverseCompoundStmt(CompoundStmt *N) {
    return around(N, [&] { return all(N->body()); });
  }
  bool traverseExprStmt(ExprStmt *N) {
    return around(N, [&] { return getDerived().traverse(N->getExpr()); });
  }
  bool traverseIfStmt(IfStmt *N) {
    return around(N, [&] {
      return getDerived().traverse(N->getCond()) &&
             getDerived().traverse(N->getThen()) &&
             getDerived().traverse(N->getElse());
    });
  }
  bool traverseReturnStmt(ReturnStmt *N) {
    return around(N, [] { return true; });
  }
  bool traverseDeclStmt(DeclStmt *N) {
    return around(N, [&] { return all(N->decls()); });
  }
  bool traverseNullStmt(NullStmt *N) {
    return around(N, [] { return true; });
  }
  bool traverseIntegerLiteral(IntegerLiteral *N) { return leaf(N); }
  bool traverseCharLiteral(CharLiteral *N) { return leaf(N); }
  bool traverseStringLiteral(StringLiteral *N) { return leaf(N); }
  bool traverseDeclRefExpr(DeclRefExpr *N) { return leaf(N); }
  bool traverseBuiltinVarExpr(BuiltinVarExpr *N) { return leaf(N); }
  bool traverseParamExpr(ParamExpr *N) { return leaf(N); }
  bool traverseAggregationExpr(AggregationExpr *N) {
    return around(N, [&] { return all(N->getKeys()); });
  }
  bool traverseUnaryOperator(UnaryOperator *N) {
    return around(N, [&] { return getDerived().traverse(N->getSubExpr()); });
  }
  bool traverseBinaryOperator(BinaryOperator *N) {
    return around(N, [&] {
      return getDerived().traverse(N->getLHS()) &&
             getDerived().traverse(N->getRHS());
    });
  }
  bool traverseAssignExpr(AssignExpr *N) {
    return around(N, [&] {
      return getDerived().traverse(N->getLHS()) &&
             getDerived().traverse(N->getRHS());
    });
  }
  bool traverseConditionalOperator(ConditionalOperator *N) {
    return around(N, [&] {
      return getDerived().traverse(N->getCond()) &&
             getDerived().traverse(N->getTrueExpr()) &&
             getDerived().traverse(N->getFalseExpr());
    });
  }
  bool traverseCastExpr(CastExpr *N) {
    return around(N, [&] {
      return getDerived().traverse(N->getTypeSpec()) &&
             getDerived().traverse(N->getSubExpr());
    });
  }
  bool traverseSizeofExpr(SizeofExpr *N) {
    return around(N, [&] {
      return getDerived().traverse(N->getTypeOperand()) &&
             getDerived().traverse(N->getExprOperand());
    });
  }
  bool traverseAlignofExpr(AlignofExpr *N) {
    return around(N, [&] {
      return getDerived().traverse(N->getTypeOperand()) &&
             getDerived().traverse(N->getExprOperand());
    });
  }
  bool traverseOffsetofExpr(OffsetofExpr *N) {
    return around(N, [&] {
      if (!getDerived().traverse(N->getTypeSpec()))
        return false;
      for (const OffsetofComponent &C : N->getComponents())
        if (!getDerived().traverse(C.Index))
          return false;
      return true;
    });
  }
  bool traverseMemberExpr(MemberExpr *N) {
    return around(N, [&] { return getDerived().traverse(N->getBase()); });
  }
  bool traverseArraySubscriptExpr(ArraySubscriptExpr *N) {
    return around(N, [&] {
      return getDerived().traverse(N->getBase()) && all(N->getIndices());
    });
  }
  bool traverseCallExpr(CallExpr *N) {
    return around(N, [&] { return all(N->getArgs()); });
  }
  bool traverseParenExpr(ParenExpr *N) {
    return around(N, [&] { return getDerived().traverse(N->getSubExpr()); });
  }
  /// The source was traversed where it is written (the condition).
  bool traverseOpaqueValueExpr(OpaqueValueExpr *N) { return leaf(N); }
  bool traverseGenericSelectionExpr(GenericSelectionExpr *N) {
    return around(N, [&] {
      if (!getDerived().traverse(N->getControllingExpr()))
        return false;
      for (const GenericAssociation &A : N->getAssociations())
        if (!getDerived().traverse(A.Type) || !getDerived().traverse(A.Value))
          return false;
      return true;
    });
  }
  bool traverseInitListExpr(InitListExpr *N) {
    return around(N, [&] {
      for (const InitItem &I : N->getItems()) {
        for (const Designator &D : I.Designators)
          if (!getDerived().traverse(D.Index))
            return false;
        if (!getDerived().traverse(I.Value))
          return false;
      }
      return true;
    });
  }
  bool traverseCompoundLiteralExpr(CompoundLiteralExpr *N) {
    return around(N, [&] {
      return getDerived().traverse(N->getTypeSpec()) &&
             getDerived().traverse(N->getInitializer());
    });
  }

private:
  bool traverseFunction(const FunctionSuffix *F) {
    return !F || all(F->Params);
  }
  // Calls visitNode, then visitDecl/visitStmt/visitExpr, then visitCLASS.
#define NODE(CLASS, PARENT)                                                    \
  bool walkUp(CLASS *N) {                                                      \
    if (!getDerived().visitNode(N))                                            \
      return false;                                                            \
    if constexpr (std::is_base_of_v<Decl, CLASS>) {                            \
      if (!getDerived().visitDecl(N))                                          \
        return false;                                                          \
    }                                                                          \
    if constexpr (std::is_base_of_v<Stmt, CLASS>) {                            \
      if (!getDerived().visitStmt(N))                                          \
        return false;                                                          \
    }                                                                          \
    if constexpr (std::is_base_of_v<Expr, CLASS>) {                            \
      if (!getDerived().visitExpr(N))                                          \
        return false;                                                          \
    }                                                                          \
    return getDerived().visit##CLASS(N);                                       \
  }
#include "tscc/AST/ASTNodes.def"

  template <typename T, typename Fn> bool around(T *N, Fn Children) {
    bool Post = getDerived().shouldTraversePostOrder();
    if (!Post && !walkUp(N))
      return false;
    if (!Children())
      return false;
    return !Post || walkUp(N);
  }
  template <typename T> bool leaf(T *N) { return walkUp(N); }
  template <typename T> bool all(llvm::ArrayRef<T *> Nodes) {
    for (T *C : Nodes)
      if (!getDerived().traverse(C))
        return false;
    return true;
  }
};

} // namespace tscc

#endif // TSCC_AST_RECURSIVEASTVISITOR_H
