//===- SyntaxErrors.h - ANTLR errors as tscc diagnostics --------*- C++ -*-===//
//
// Three pieces keep ANTLR's own error reporting out of sight:
//  - DiagnosingTokenSource reports lexical errors (stray characters,
//    unterminated literals and comments) and hands the parser a cleaned-up
//    token stream, so one bad character is one diagnostic;
//  - SyntaxErrorStrategy phrases parse errors like Clang ("expected ';'
//    after expression", "expected '}'" + "to match this '{'") from the
//    parser's state;
//  - DiagnosticErrorListener routes anything ANTLR reports by itself into
//    the DiagnosticsEngine with 1-based columns. No console output, ever.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_LIB_PARSE_SYNTAXERRORS_H
#define TSCC_LIB_PARSE_SYNTAXERRORS_H

#include "SourceInput.h"

#include "tscc/Basic/Diagnostic.h"

#include "antlr4-runtime.h"

namespace tscc::parse {

class DiagnosingTokenSource : public antlr4::TokenSource {
public:
  DiagnosingTokenSource(antlr4::Lexer &L, const TokenMap &Map,
                        DiagnosticsEngine &Diags)
      : L(L), Map(Map), Diags(Diags) {}

  std::unique_ptr<antlr4::Token> nextToken() override;
  size_t getLine() const override { return L.getLine(); }
  size_t getCharPositionInLine() override { return L.getCharPositionInLine(); }
  antlr4::CharStream *getInputStream() override { return L.getInputStream(); }
  std::string getSourceName() override { return L.getSourceName(); }
  antlr4::TokenFactory<antlr4::CommonToken> *getTokenFactory() override {
    return L.getTokenFactory();
  }

private:
  antlr4::Lexer &L;
  const TokenMap &Map;
  DiagnosticsEngine &Diags;
};

class DiagnosticErrorListener : public antlr4::BaseErrorListener {
public:
  DiagnosticErrorListener(const TokenMap &Map, DiagnosticsEngine &Diags)
      : Map(Map), Diags(Diags) {}

  void syntaxError(antlr4::Recognizer *R, antlr4::Token *Offending, size_t Line,
                   size_t CharPositionInLine, const std::string &Msg,
                   std::exception_ptr E) override;

private:
  const TokenMap &Map;
  DiagnosticsEngine &Diags;
};

class SyntaxErrorStrategy : public antlr4::DefaultErrorStrategy {
public:
  SyntaxErrorStrategy(const TokenMap &Map, DiagnosticsEngine &Diags)
      : Map(Map), Diags(Diags) {}

protected:
  void
  reportNoViableAlternative(antlr4::Parser *P,
                            const antlr4::NoViableAltException &E) override;
  void reportInputMismatch(antlr4::Parser *P,
                           const antlr4::InputMismatchException &E) override;
  void
  reportFailedPredicate(antlr4::Parser *P,
                        const antlr4::FailedPredicateException &E) override;
  void reportUnwantedToken(antlr4::Parser *P) override;
  void reportMissingToken(antlr4::Parser *P) override;

private:
  /// Reports that \p Expected was wanted where \p Offending is.
  void reportExpected(antlr4::Parser *P,
                      const antlr4::misc::IntervalSet &Expected,
                      antlr4::Token *Offending, antlr4::ParserRuleContext *Ctx);
  /// Special offending tokens that have one clear message; true if handled.
  bool reportSpecialToken(antlr4::Parser *P, antlr4::Token *Offending,
                          antlr4::ParserRuleContext *Ctx);
  void reportMissingSemi(antlr4::Parser *P, antlr4::Token *Offending,
                         antlr4::ParserRuleContext *Ctx);
  void reportMissingCloser(antlr4::Parser *P, size_t Closer,
                           antlr4::Token *Offending,
                           antlr4::ParserRuleContext *Ctx);
  /// "'x'" or "end of file".
  std::string describe(antlr4::Token *T) const;
  /// The token before \p T on the default channel, or null.
  antlr4::Token *previousToken(antlr4::Parser *P, antlr4::Token *T) const;
  /// At most one diagnostic per offending token.
  bool alreadyReported(antlr4::Token *T);

  const TokenMap &Map;
  DiagnosticsEngine &Diags;
  size_t LastReportedIndex = static_cast<size_t>(-1);
};

} // namespace tscc::parse

#endif // TSCC_LIB_PARSE_SYNTAXERRORS_H
