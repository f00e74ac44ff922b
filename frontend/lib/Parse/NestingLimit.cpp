//===- NestingLimit.cpp - Bounded nesting for the ANTLR parser ------------===//

#include "NestingLimit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

using namespace tscc::parse;
using tscc_grammar::TraceScriptParser;

static bool countsAsNesting(antlr4::RuleContext *Ctx) {
  // Type names and initializers nest too: `int (((*)))`, `{{{1}}}`.
  return dynamic_cast<TraceScriptParser::ExpressionContext *>(Ctx) ||
         dynamic_cast<TraceScriptParser::StatementContext *>(Ctx) ||
         dynamic_cast<TraceScriptParser::AbstractDeclaratorContext *>(Ctx) ||
         dynamic_cast<TraceScriptParser::NamedParameterDeclaratorContext *>(
             Ctx) ||
         dynamic_cast<TraceScriptParser::InitializerContext *>(Ctx);
}

unsigned NestingLimitedParser::depthOf(antlr4::RuleContext *Ctx) {
  // Walk up to the nearest context of known depth, then fill in the ones
  // below it. Without the memo every rule entry would walk to the root.
  llvm::SmallVector<antlr4::RuleContext *, 4> Unknown;
  unsigned Depth = 0;
  for (antlr4::RuleContext *C = Ctx; C;
       C = dynamic_cast<antlr4::RuleContext *>(C->parent)) {
    auto It = Depths.find(C);
    if (It != Depths.end()) {
      Depth = It->second;
      break;
    }
    Unknown.push_back(C);
  }
  for (antlr4::RuleContext *C : llvm::reverse(Unknown)) {
    Depth += countsAsNesting(C);
    Depths[C] = Depth;
  }
  return Depth;
}

void NestingLimitedParser::check(antlr4::ParserRuleContext *Ctx,
                                 unsigned Depth) {
  Depths[Ctx] = Depth;
  if (Depth <= Limit)
    return;
  OnTooDeep(getCurrentToken());
  throw NestingTooDeep();
}

void NestingLimitedParser::enterRule(antlr4::ParserRuleContext *Ctx,
                                     size_t State, size_t Rule) {
  TraceScriptParser::enterRule(Ctx, State, Rule);
  auto *Parent = dynamic_cast<antlr4::RuleContext *>(Ctx->parent);
  check(Ctx, (Parent ? depthOf(Parent) : 0) + countsAsNesting(Ctx));
}

void NestingLimitedParser::enterRecursionRule(antlr4::ParserRuleContext *Ctx,
                                              size_t State, size_t Rule,
                                              int Precedence) {
  TraceScriptParser::enterRecursionRule(Ctx, State, Rule, Precedence);
  auto *Parent = dynamic_cast<antlr4::RuleContext *>(Ctx->parent);
  check(Ctx, (Parent ? depthOf(Parent) : 0) + countsAsNesting(Ctx));
}

void NestingLimitedParser::pushNewRecursionContext(
    antlr4::ParserRuleContext *Ctx, size_t State, size_t Rule) {
  // `a+b` becomes a context above the one `a` was parsed in: a left chain
  // is as deep in the tree as it is long.
  antlr4::ParserRuleContext *Previous = getContext();
  unsigned Below = depthOf(Previous);
  TraceScriptParser::pushNewRecursionContext(Ctx, State, Rule);
  check(Ctx, Below + countsAsNesting(Ctx));
}
