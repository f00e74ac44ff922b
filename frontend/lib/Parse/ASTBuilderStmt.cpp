//===- ASTBuilderStmt.cpp - Statements ------------------------------------===//

#include "ASTBuilder.h"

using namespace tscc;
using namespace tscc::parse;

Stmt *ASTBuilder::buildStmt(P::StatementContext *C) {
  if (!C)
    return nullptr;
  return as<Stmt>(visit(C));
}

// compoundStatement : '{' statement* '}'
CompoundStmt *ASTBuilder::buildCompound(P::CompoundStatementContext *C) {
  if (!C || !C->LBrace())
    return nullptr;
  llvm::SmallVector<Stmt *, 8> Body;
  for (P::StatementContext *S : C->statement())
    if (Stmt *X = buildStmt(S))
      Body.push_back(X);
  return Ctx.create<CompoundStmt>(range(C), copy(llvm::ArrayRef<Stmt *>(Body)));
}

antlrcpp::Any ASTBuilder::visitBlockStmt(P::BlockStmtContext *C) {
  return wrap(buildCompound(C->compoundStatement()));
}

// 'if' '(' expression ')' statement ('else' statement)?
antlrcpp::Any ASTBuilder::visitIfStmt(P::IfStmtContext *C) {
  Expr *Cond = buildExpr(C->expression());
  auto Subs = C->statement();
  if (!Cond || Subs.empty())
    return wrap(nullptr);
  Stmt *Then = buildStmt(Subs[0]);
  Stmt *Else = Subs.size() > 1 ? buildStmt(Subs[1]) : nullptr;
  if (!Then || (Subs.size() > 1 && !Else))
    return wrap(nullptr);
  return wrap(Ctx.create<IfStmt>(range(C), Cond, Then, Else, loc(C->Else())));
}

// 'return' expression? ';'
antlrcpp::Any ASTBuilder::visitReturnStmt(P::ReturnStmtContext *C) {
  if (P::ExpressionContext *E = C->expression())
    Diags.report(range(E), diag::err_return_value);
  return wrap(Ctx.create<ReturnStmt>(range(C)));
}

// {isDeclarationStart()}? varDeclaration
antlrcpp::Any ASTBuilder::visitDeclStmt(P::DeclStmtContext *C) {
  auto Decls = buildVarDecls(C->varDeclaration(), /*TopLevel=*/false);
  if (Decls.empty())
    return wrap(nullptr);
  return wrap(
      Ctx.create<DeclStmt>(range(C), copy(llvm::ArrayRef<VarDecl *>(Decls))));
}

// expression ';'
antlrcpp::Any ASTBuilder::visitExprStmt(P::ExprStmtContext *C) {
  Expr *E = buildExpr(C->expression());
  if (!E)
    return wrap(nullptr);
  return wrap(Ctx.create<ExprStmt>(range(C), E));
}

antlrcpp::Any ASTBuilder::visitNullStmt(P::NullStmtContext *C) {
  return wrap(Ctx.create<NullStmt>(range(C)));
}

// Loops and jumps are parsed only to be rejected with one clear message.
antlrcpp::Any ASTBuilder::visitBadStmt(P::BadStmtContext *C) {
  P::UnsupportedStatementContext *U = C->unsupportedStatement();
  if (!U || !U->kw)
    return wrap(nullptr);
  llvm::StringRef KW = Map.spelling(U->kw);
  bool Loop = KW == "while" || KW == "for" || KW == "do";
  Diags.report(loc(U->kw), Loop ? diag::err_loops_unsupported
                                : diag::err_unsupported_statement)
      << KW;
  return wrap(nullptr);
}
