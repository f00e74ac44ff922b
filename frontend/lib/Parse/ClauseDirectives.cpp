//===- ClauseDirectives.cpp - Directives inside clauses -------------------===//

#include "ClauseDirectives.h"

#include "TraceScriptParser.h"

using namespace tscc;
using namespace tscc::parse;
using P = tscc_grammar::TraceScriptParser;

void tscc::parse::hideDirectivesInClauses(
    const std::vector<antlr4::Token *> &Toks, const TokenMap &Map,
    DiagnosticsEngine &Diags) {
  // A clause is `PROBE [, PROBE]* [when (...)] { ... }` at brace depth 0;
  // its action is the brace block that follows the probes.
  unsigned Depth = 0, ActionDepth = 0;
  bool AfterProbe = false;
  for (antlr4::Token *T : Toks) {
    if (T->getChannel() != antlr4::Token::DEFAULT_CHANNEL)
      continue;
    switch (T->getType()) {
    case P::ProbeSpec:
      AfterProbe = Depth == 0 || AfterProbe;
      break;
    case P::LBrace:
      if (AfterProbe && !ActionDepth)
        ActionDepth = Depth + 1;
      AfterProbe = false;
      ++Depth;
      break;
    case P::RBrace:
      if (Depth && --Depth < ActionDepth)
        ActionDepth = 0;
      break;
    case P::Directive:
      if (!ActionDepth)
        break;
      Diags.report(Map.loc(T), diag::err_directive_in_action);
      if (auto *CT = dynamic_cast<antlr4::CommonToken *>(T))
        CT->setChannel(antlr4::Token::HIDDEN_CHANNEL);
      break;
    default:
      break;
    }
  }
}
