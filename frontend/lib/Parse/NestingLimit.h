//===- NestingLimit.h - Bounded nesting for the ANTLR parser ----*- C++ -*-===//
//
// The generated parser is recursive descent: every nested expression or
// statement is a few C++ frames, so a hostile script (a million '(' or unary
// '-') would overflow the stack. And every later walk over the tree (the AST
// builder, sema, the dumper, the constant folder, codegen) recurses as deep
// as the tree is. NestingLimitedParser counts the expression and statement
// contexts from the root to each context it enters, including the ones a
// left-associative chain such as `a+b+c` stacks up, and stops the parse
// with a diagnostic once the count passes the limit, like Clang's
// -fbracket-depth. Bounding the parse tree bounds every later walk.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_LIB_PARSE_NESTINGLIMIT_H
#define TSCC_LIB_PARSE_NESTINGLIMIT_H

#include "TraceScriptParser.h"

#include "llvm/ADT/DenseMap.h"

#include <exception>

namespace tscc::parse {

/// Thrown (inside the ANTLR layer only) to abandon a parse that nests too
/// deeply; parseScript and parseExpressionText catch it. The diagnostic has
/// already been reported.
struct NestingTooDeep : std::exception {
  const char *what() const noexcept override { return "nesting too deep"; }
};

class NestingLimitedParser : public tscc_grammar::TraceScriptParser {
public:
  /// \p OnTooDeep reports the diagnostic at the offending token.
  NestingLimitedParser(antlr4::TokenStream *Input, unsigned Limit,
                       std::function<void(antlr4::Token *)> OnTooDeep)
      : TraceScriptParser(Input), Limit(Limit),
        OnTooDeep(std::move(OnTooDeep)) {}

  void enterRule(antlr4::ParserRuleContext *Ctx, size_t State,
                 size_t Rule) override;
  void enterRecursionRule(antlr4::ParserRuleContext *Ctx, size_t State,
                          size_t Rule, int Precedence) override;
  void pushNewRecursionContext(antlr4::ParserRuleContext *Ctx, size_t State,
                               size_t Rule) override;

private:
  /// Nesting depth of \p Ctx: expression and statement contexts from the
  /// root down to it. Memoised; generated code creates the labelled
  /// contexts (`# unaryExpr`) without telling the parser, so their depth is
  /// derived from the nearest known ancestor.
  unsigned depthOf(antlr4::RuleContext *Ctx);
  void check(antlr4::ParserRuleContext *Ctx, unsigned Depth);

  unsigned Limit;
  std::function<void(antlr4::Token *)> OnTooDeep;
  /// Contexts live until the parser is destroyed (its ParseTreeTracker owns
  /// them), so an address is never reused within one parse.
  llvm::DenseMap<antlr4::RuleContext *, unsigned> Depths;
};

} // namespace tscc::parse

#endif // TSCC_LIB_PARSE_NESTINGLIMIT_H
