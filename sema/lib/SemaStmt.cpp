//===- SemaStmt.cpp - Statements and local declarations -------------------===//

#include "tscc/Sema/SemaChecker.h"

namespace tscc {

void SemaChecker::checkCompound(CompoundStmt *CS, bool NewScope) {
  if (NewScope)
    Scopes.emplace_back();
  for (Stmt *St : CS->body())
    checkStmt(St);
  if (NewScope)
    Scopes.pop_back();
}

void SemaChecker::checkCondition(Expr *E) {
  const Type *T = check(E);
  if (!T)
    return;
  // An array of the traced process decays to its address, which is never
  // null (`p->arr ? 1 : 2` is 1, as in C).
  if (T->isArray() && !isScriptLValue(E))
    T = rvalue(E, T);
  if (!T)
    return;
  if (T->isArray() || T->isRecord() || T->isString() || T->isVoid()) {
    diag(E->getSourceRange(), diag::err_not_scalar_condition)
        << (Cur && Cur->InPredicate ? "a predicate" : "a condition")
        << T->getName();
    return;
  }
  convertTo(E, types().getBool());
}

void SemaChecker::checkStmt(Stmt *St) {
  if (!St)
    return;
  switch (St->getKind()) {
  case NodeKind::CompoundStmt:
    checkCompound(llvm::cast<CompoundStmt>(St), /*NewScope=*/true);
    return;
  case NodeKind::ExprStmt:
    if (Expr *E = llvm::cast<ExprStmt>(St)->getExpr())
      check(E);
    return;
  case NodeKind::IfStmt: {
    auto *If = llvm::cast<IfStmt>(St);
    checkCondition(If->getCond());
    // Each branch is its own scope, as in C99.
    Scopes.emplace_back();
    checkStmt(If->getThen());
    Scopes.pop_back();
    Scopes.emplace_back();
    checkStmt(If->getElse());
    Scopes.pop_back();
    return;
  }
  case NodeKind::DeclStmt:
    for (VarDecl *D : llvm::cast<DeclStmt>(St)->decls())
      checkLocalDecl(D);
    return;
  case NodeKind::ReturnStmt:
  case NodeKind::NullStmt:
    return;
    // Not statements.
#define STMT_NODE(CLASS)
#define NODE(CLASS, PARENT) case NodeKind::CLASS:
#include "tscc/AST/ASTNodes.def"
    return;
  }
}

void SemaChecker::checkLocalDecl(VarDecl *D) {
  if (D->isAssociativeArray()) {
    diag(D->getNameLoc(), diag::err_map_in_action);
    return;
  }
  if (D->getStorageClass() != StorageClass::Auto) {
    diag(D->getStorageClassLoc().isValid() ? D->getStorageClassLoc()
                                           : D->getBeginLoc(),
         diag::err_storage_in_action)
        << getStorageClassName(D->getStorageClass());
    return;
  }
  declareVar(D, /*TopLevel=*/false);
  const unsigned Id = varInfo(D).Id;
  const Type *T = resolveTypeSpec(D->getTypeSpec());
  if (T && !checkScriptValueType(T, D->getNameLoc(), D->getName()))
    T = nullptr;
  Info.Variables[Id].Types[mi()] = T;
  Expr *Init = D->getInit();
  if (!Init)
    return;
  const Type *RT = rvalue(Init, check(Init));
  if (!T || !RT)
    return;
  if (T->isArray() || T->isRecord()) {
    diag(Init->getBeginLoc(), diag::err_record_value) << T->getName();
    return;
  }
  if (!checkConvertible(Init, RT, T, Init->getBeginLoc(), "initializing"))
    return;
  convertTo(Init, T);
  warnModelDependentStore(Init, Info.Variables[Id].Types, Init->getBeginLoc());
}

} // namespace tscc
