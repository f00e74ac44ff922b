//===- Parser.cpp - parseScript and parseExpressionText -------------------===//

#include "tscc/Parse/Parser.h"

#include "ASTBuilder.h"
#include "ClauseDirectives.h"
#include "NestingLimit.h"
#include "SourceInput.h"
#include "SyntaxErrors.h"
#include "TypeNames.h"

#include "tscc/AST/ASTContext.h"
#include "tscc/AST/RecursiveASTVisitor.h"
#include "tscc/Basic/Diagnostic.h"
#include "tscc/Basic/PerModelDiagnosticMerger.h"
#include "tscc/Basic/SourceManager.h"

#include "TraceScriptLexer.h"
#include "TraceScriptParser.h"

#include "llvm/ADT/StringSet.h"

using namespace tscc;
using namespace tscc::parse;
using tscc_grammar::TraceScriptLexer;
using tscc_grammar::TraceScriptParser;

namespace {

/// Everything ANTLR needs for one buffer, wired to our diagnostics.
class ParseSession {
public:
  ParseSession(SourceManager &SM, FileID File, DiagnosticsEngine &Diags,
               const ParseOptions &Opts)
      : In(SM.getBufferData(File), SM.getBufferName(File)), Map(SM, File, In),
        Lexer(&In), Source(Lexer, Map, Diags), Tokens(&Source),
        Parser(&Tokens, Opts.MaxNestingDepth,
               [this, &Diags, &Opts](antlr4::Token *T) {
                 SourceLocation L = Map.loc(T);
                 Diags.report(L, diag::err_nesting_too_deep)
                     << Opts.MaxNestingDepth;
                 Diags.report(L, diag::note_nesting_limit);
               }),
        Listener(Map, Diags), Diags(Diags), Opts(Opts) {
    Lexer.removeErrorListeners();
    Lexer.addErrorListener(&Listener);
    Parser.removeErrorListeners();
    Parser.addErrorListener(&Listener);
    Parser.setErrorHandler(std::make_shared<SyntaxErrorStrategy>(Map, Diags));
  }

  /// Lexes everything, then applies the lexer hack (TypeNames.h).
  void prepareTokens() {
    Tokens.fill();
    hideDirectivesInClauses(Tokens.getTokens(), Map, Diags);
    markTypeNames(Tokens.getTokens(), Map, Opts);
  }

  SourceInput In;
  TokenMap Map;
  TraceScriptLexer Lexer;
  DiagnosingTokenSource Source;
  antlr4::CommonTokenStream Tokens;
  NestingLimitedParser Parser;
  DiagnosticErrorListener Listener;

private:
  DiagnosticsEngine &Diags;
  const ParseOptions &Opts;
};

/// Gives every node of a tree one source range.
class RangeSetter : public RecursiveASTVisitor<RangeSetter> {
public:
  explicit RangeSetter(SourceRange R) : R(R) {}
  bool visitNode(Node *N) {
    N->setSourceRange(R);
    return true;
  }

private:
  SourceRange R;
};

} // namespace

Script *tscc::parseScript(SourceManager &SM, FileID File, ASTContext &Ctx,
                          DiagnosticsEngine &Diags, const ParseOptions &Opts) {
  // The lexer runs ahead of the parser: without holding the diagnostics a
  // stray character could be reported before an earlier syntax error.
  PerModelDiagnosticMerger::Batch InSourceOrder(Diags.getMerger());
  // ANTLR reports through exceptions internally; none may escape into
  // callers built without them, and an internal failure is a diagnostic.
  try {
    ParseSession S(SM, File, Diags, Opts);
    S.prepareTokens();
    TraceScriptParser::ScriptContext *Tree = S.Parser.script();
    ASTBuilder Builder(Ctx, Diags, S.Map, S.Tokens);
    return Builder.buildScript(Tree, File);
  } catch (const NestingTooDeep &) {
    // Reported; nothing of the tree is worth checking further.
  } catch (const std::exception &E) {
    Diags.report(SM.getLocForStartOfFile(File), diag::err_internal_parser)
        << E.what();
  } catch (...) {
    Diags.report(SM.getLocForStartOfFile(File), diag::err_internal_parser)
        << "unknown exception";
  }
  SourceRange R(SM.getLocForStartOfFile(File), SM.getLocForStartOfFile(File));
  return Ctx.create<Script>(R, File);
}

Expr *tscc::parseExpressionText(llvm::StringRef Text, SourceRange Origin,
                                SourceManager &SM, ASTContext &Ctx,
                                DiagnosticsEngine &Diags,
                                llvm::StringRef BufferName,
                                const ParseOptions &Opts) {
  FileID File = SM.createFileID(Text, BufferName);
  // Sema may hold its diagnostics in a batch: count what was reported.
  unsigned ErrorsBefore = Diags.getNumReportedErrors();
  Expr *Result = nullptr;
  try {
    ParseSession S(SM, File, Diags, Opts);
    S.prepareTokens();
    TraceScriptParser::ExpressionOnlyContext *Tree = S.Parser.expressionOnly();
    ASTBuilder Builder(Ctx, Diags, S.Map, S.Tokens);
    if (Diags.getNumReportedErrors() == ErrorsBefore)
      Result = Builder.buildExpr(Tree->expression());
  } catch (const NestingTooDeep &) {
  } catch (const std::exception &E) {
    Diags.report(SM.getLocForStartOfFile(File), diag::err_internal_parser)
        << E.what();
  }
  if (Diags.getNumReportedErrors() != ErrorsBefore || !Result) {
    if (Origin.isValid())
      Diags.report(Origin, diag::note_in_expansion) << BufferName;
    return nullptr;
  }
  if (Origin.isValid())
    RangeSetter(Origin).traverse(Result);
  return Result;
}
