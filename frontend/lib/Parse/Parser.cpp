//===- Parser.cpp - parseScript and parseExpressionText -------------------===//

#include "tscc/Parse/Parser.h"

#include "ASTBuilder.h"
#include "CDeclNames.h"
#include "SourceInput.h"
#include "SyntaxErrors.h"

#include "tscc/AST/ASTContext.h"
#include "tscc/AST/RecursiveASTVisitor.h"
#include "tscc/Basic/Diagnostic.h"
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
        Parser(&Tokens), Listener(Map, Diags), Opts(Opts) {
    Lexer.removeErrorListeners();
    Lexer.addErrorListener(&Listener);
    Parser.removeErrorListeners();
    Parser.addErrorListener(&Listener);
    Parser.setErrorHandler(std::make_shared<SyntaxErrorStrategy>(Map, Diags));
    Parser.TypeNameHook = [this](const std::string &Name) {
      return isTypeName(Name);
    };
    Parser.TypedefHook = [this](antlr4::ParserRuleContext *C) {
      noteTypedef(C);
    };
  }

  SourceInput In;
  TokenMap Map;
  TraceScriptLexer Lexer;
  DiagnosingTokenSource Source;
  antlr4::CommonTokenStream Tokens;
  TraceScriptParser Parser;
  DiagnosticErrorListener Listener;

private:
  bool isTypeName(llvm::StringRef Name) const {
    if (Typedefs.contains(Name))
      return true;
    if (Opts.IsTypeName)
      return Opts.IsTypeName(Name);
    // The C convention for typedef names from headers (size_t, pid_t, ...).
    return Name.size() > 2 && Name.ends_with("_t");
  }

  /// Makes the names a typedef declares parse as types from now on.
  void noteTypedef(antlr4::ParserRuleContext *C) {
    if (!C || !C->getStart() || !C->getStop())
      return;
    std::vector<CToken> Toks;
    size_t B = C->getStart()->getTokenIndex(), E = C->getStop()->getTokenIndex();
    if (B == INVALID_INDEX || E == INVALID_INDEX)
      return;
    for (size_t I = B + 1; I < E && I < Tokens.size(); ++I) { // skip typedef, ';'
      antlr4::Token *T = Tokens.get(I);
      CToken::Kind K;
      switch (T->getType()) {
      case TraceScriptParser::Identifier: K = CToken::Identifier; break;
      case TraceScriptParser::LParen: K = CToken::LParen; break;
      case TraceScriptParser::RParen: K = CToken::RParen; break;
      case TraceScriptParser::LBracket: K = CToken::LBracket; break;
      case TraceScriptParser::RBracket: K = CToken::RBracket; break;
      case TraceScriptParser::LBrace: K = CToken::LBrace; break;
      case TraceScriptParser::RBrace: K = CToken::RBrace; break;
      case TraceScriptParser::Comma: K = CToken::Comma; break;
      default: K = CToken::Other; break;
      }
      Toks.push_back({K, Map.spelling(T), static_cast<unsigned>(I)});
    }
    for (size_t I : findDeclaredNames(Toks))
      Typedefs.insert(Toks[I].Text);
  }

  const ParseOptions &Opts;
  llvm::StringSet<> Typedefs;
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
  // ANTLR reports through exceptions internally; none may escape into
  // callers built without them, and an internal failure is a diagnostic.
  try {
    ParseSession S(SM, File, Diags, Opts);
    TraceScriptParser::ScriptContext *Tree = S.Parser.script();
    ASTBuilder Builder(Ctx, Diags, S.Map, S.Tokens);
    return Builder.buildScript(Tree, File);
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
  unsigned ErrorsBefore = Diags.getNumErrors();
  Expr *Result = nullptr;
  try {
    ParseSession S(SM, File, Diags, Opts);
    TraceScriptParser::ExpressionOnlyContext *Tree = S.Parser.expressionOnly();
    ASTBuilder Builder(Ctx, Diags, S.Map, S.Tokens);
    if (Diags.getNumErrors() == ErrorsBefore)
      Result = Builder.buildExpr(Tree->expression());
  } catch (const std::exception &E) {
    Diags.report(SM.getLocForStartOfFile(File), diag::err_internal_parser)
        << E.what();
  }
  if (Diags.getNumErrors() != ErrorsBefore || !Result) {
    if (Origin.isValid())
      Diags.report(Origin, diag::note_in_expansion) << BufferName;
    return nullptr;
  }
  if (Origin.isValid())
    RangeSetter(Origin).traverse(Result);
  return Result;
}
