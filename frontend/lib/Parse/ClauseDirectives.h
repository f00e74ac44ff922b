//===- ClauseDirectives.h - Directives inside clauses ------------*- C++ -*-===//
//
// Preprocessor directives are a top-level matter (the C part of a script
// goes to Clang); inside a clause's action they are an error. Left to the
// parser, one `#ifndef` there derails error recovery: the clause ends
// early, and the rest of it is reported as top-level C, out of source
// order. So directives inside actions are reported here, before parsing,
// and then taken off the parser's channel: the clause parses as if they
// were not there, and nothing of them reaches Clang.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_LIB_PARSE_CLAUSEDIRECTIVES_H
#define TSCC_LIB_PARSE_CLAUSEDIRECTIVES_H

#include "SourceInput.h"

#include "tscc/Basic/Diagnostic.h"

#include "antlr4-runtime.h"

#include <vector>

namespace tscc::parse {

/// Reports every Directive token of \p Toks (the whole, filled token
/// stream) that stands inside a clause's braces, and hides it.
void hideDirectivesInClauses(const std::vector<antlr4::Token *> &Toks,
                             const TokenMap &Map, DiagnosticsEngine &Diags);

} // namespace tscc::parse

#endif // TSCC_LIB_PARSE_CLAUSEDIRECTIVES_H
