//===- ASTBuilder.h - Parse tree to AST -------------------------*- C++ -*-===//
//
// ASTBuilder walks the ANTLR parse tree once and builds tscc's AST in the
// ASTContext arena. It is tolerant of trees that error recovery left
// incomplete: a construct with a missing part yields null, and its parent
// drops it, so a script with syntax errors still produces a (partial) AST.
//
// Each build method starts with the grammar rule it implements.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_LIB_PARSE_ASTBUILDER_H
#define TSCC_LIB_PARSE_ASTBUILDER_H

#include "CDeclNames.h"
#include "SourceInput.h"

#include "tscc/AST/ASTContext.h"
#include "tscc/Basic/Diagnostic.h"

#include "TraceScriptBaseVisitor.h"
#include "TraceScriptParser.h"

#include <string>
#include <vector>

namespace tscc::parse {

using P = tscc_grammar::TraceScriptParser;

class ASTBuilder : public tscc_grammar::TraceScriptBaseVisitor {
public:
  ASTBuilder(ASTContext &Ctx, DiagnosticsEngine &Diags, const TokenMap &Map,
             antlr4::TokenStream &Tokens)
      : Ctx(Ctx), Diags(Diags), Map(Map), Tokens(Tokens) {}

  Script *buildScript(P::ScriptContext *C, FileID File);
  Expr *buildExpr(P::ExpressionContext *C);

  /// The tokens of \p C in the shape CDeclNames wants.
  std::vector<CToken> cTokens(antlr4::ParserRuleContext *C) const;

  // Expressions (ASTBuilderExpr.cpp).
  antlrcpp::Any visitPrimaryExpr(P::PrimaryExprContext *C) override;
  antlrcpp::Any visitSubscriptExpr(P::SubscriptExprContext *C) override;
  antlrcpp::Any visitMemberExpr(P::MemberExprContext *C) override;
  antlrcpp::Any visitPostfixExpr(P::PostfixExprContext *C) override;
  antlrcpp::Any visitPrefixExpr(P::PrefixExprContext *C) override;
  antlrcpp::Any visitUnaryExpr(P::UnaryExprContext *C) override;
  antlrcpp::Any visitCastExpr(P::CastExprContext *C) override;
  antlrcpp::Any visitTraitTypeExpr(P::TraitTypeExprContext *C) override;
  antlrcpp::Any visitTraitExprExpr(P::TraitExprExprContext *C) override;
  antlrcpp::Any visitBinaryExpr(P::BinaryExprContext *C) override;
  antlrcpp::Any visitConditionalExpr(P::ConditionalExprContext *C) override;
  antlrcpp::Any visitAssignExpr(P::AssignExprContext *C) override;
  antlrcpp::Any visitCallExpr(P::CallExprContext *C) override;
  antlrcpp::Any visitIdentifierExpr(P::IdentifierExprContext *C) override;
  antlrcpp::Any visitNumberExpr(P::NumberExprContext *C) override;
  antlrcpp::Any visitCharExpr(P::CharExprContext *C) override;
  antlrcpp::Any visitStringExpr(P::StringExprContext *C) override;
  antlrcpp::Any visitParamExpr(P::ParamExprContext *C) override;
  antlrcpp::Any visitAggregationExpr(P::AggregationExprContext *C) override;
  antlrcpp::Any visitOffsetofExpr(P::OffsetofExprContext *C) override;
  antlrcpp::Any visitParenExpr(P::ParenExprContext *C) override;
  antlrcpp::Any visitGenericExpr(P::GenericExprContext *C) override;
  antlrcpp::Any
  visitCompoundLiteralExpr(P::CompoundLiteralExprContext *C) override;

  // Statements (ASTBuilderStmt.cpp).
  antlrcpp::Any visitBlockStmt(P::BlockStmtContext *C) override;
  antlrcpp::Any visitIfStmt(P::IfStmtContext *C) override;
  antlrcpp::Any visitReturnStmt(P::ReturnStmtContext *C) override;
  antlrcpp::Any visitDeclStmt(P::DeclStmtContext *C) override;
  antlrcpp::Any visitExprStmt(P::ExprStmtContext *C) override;
  antlrcpp::Any visitNullStmt(P::NullStmtContext *C) override;
  antlrcpp::Any visitBadStmt(P::BadStmtContext *C) override;

private:
  // Top level (ASTBuilder.cpp).
  void addCDecl(CDeclChunk::Kind K, antlr4::ParserRuleContext *C);
  void addDirective(antlr4::Token *T);
  Clause *buildClause(P::ClauseContext *C);
  ProbeSpec *buildProbeSpec(antlr4::Token *T);
  std::string buildPrelude(FileID File) const;

  // Declarations and types (ASTBuilderDecl.cpp).
  llvm::SmallVector<VarDecl *, 2> buildVarDecls(P::VarDeclarationContext *C,
                                                bool TopLevel);
  VarDecl *buildDeclarator(P::InitDeclaratorContext *C, const TypeSpec &Base,
                           StorageClass SC, bool SCExplicit,
                           SourceLocation SCLoc, SourceLocation DeclBegin);
  /// The base type of `const unsigned long`, `struct s`, `String`, `foo_t`;
  /// null (after a diagnostic) for an invalid combination.
  TypeSpec *buildDeclSpecifiers(P::DeclSpecifiersContext *C);
  TypeSpec *buildTypeSpecifiers(P::TypeSpecifiersContext *C);
  bool resolveBuiltin(P::TypeSpecifiersContext *C, BuiltinTypeKind &Out);
  void applyQualifiers(TypeSpec *T,
                       const std::vector<P::TypeQualifierContext *> &Qs);
  TypeSpec *buildTypeName(P::TypeNameContext *C);
  bool buildAbstractDeclarator(P::AbstractDeclaratorContext *A,
                               DeclaratorLevel &L, TypeSpec *Base);
  bool buildSuffixes(const std::vector<P::AbstractSuffixContext *> &S,
                     DeclaratorLevel &L, TypeSpec *StringBase);
  const FunctionSuffix *buildParameters(P::ParameterListContext *C);
  bool buildNamedParameter(P::NamedParameterDeclaratorContext *C,
                           DeclaratorLevel &L);
  InitListExpr *buildInitList(antlr4::ParserRuleContext *Braced,
                              P::InitializerListContext *C);
  TypeSpec *cloneTypeSpec(const TypeSpec &T, SourceRange R);

  // Statements.
  Stmt *buildStmt(P::StatementContext *C);
  CompoundStmt *buildCompound(P::CompoundStatementContext *C);

  // Expressions.
  llvm::SmallVector<Expr *, 4> buildArgs(P::ArgumentListContext *C, bool &OK);
  Expr *buildBinary(Expr *L, antlr4::Token *Op, Expr *R, SourceRange Range);

  SourceRange range(antlr4::ParserRuleContext *C) const { return Map.range(C); }
  SourceLocation loc(antlr4::Token *T) const { return Map.loc(T); }
  SourceLocation loc(antlr4::tree::TerminalNode *N) const {
    return N ? Map.loc(N->getSymbol()) : SourceLocation();
  }
  llvm::StringRef text(antlr4::tree::TerminalNode *N) const {
    return N ? Map.spelling(N->getSymbol()) : llvm::StringRef();
  }
  llvm::StringRef copy(llvm::StringRef S) { return Ctx.copyString(S); }
  template <typename T> llvm::ArrayRef<T> copy(llvm::ArrayRef<T> A) {
    return Ctx.copyArray(A);
  }

  /// Unwraps a visitor result.
  template <typename T> static T *as(const antlrcpp::Any &A) {
    if (A.isNull() || !A.is<Node *>())
      return nullptr;
    Node *N = A.as<Node *>();
    return N ? llvm::dyn_cast<T>(N) : nullptr;
  }
  static antlrcpp::Any wrap(Node *N) { return antlrcpp::Any(N); }

  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  const TokenMap &Map;
  antlr4::TokenStream &Tokens;

  std::vector<CDeclChunk> CDecls;
  std::vector<VarDecl *> Vars;
  std::vector<Clause *> Clauses;
  std::vector<PrototypeName> Protos;
};

} // namespace tscc::parse

#endif // TSCC_LIB_PARSE_ASTBUILDER_H
