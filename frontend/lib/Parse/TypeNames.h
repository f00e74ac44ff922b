//===- TypeNames.h - The "lexer hack" ---------------------------*- C++ -*-===//
//
// C cannot be parsed without knowing which identifiers name types: `(T)-1`
// is a cast or a subtraction, `T * p;` a declaration or a product. Like a C
// compiler, tscc decides this before parsing: markTypeNames() retypes the
// Identifier tokens that name types to TypeName, and the grammar stays free
// of semantic predicates.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_LIB_PARSE_TYPENAMES_H
#define TSCC_LIB_PARSE_TYPENAMES_H

#include "SourceInput.h"

#include "tscc/Parse/Parser.h"

#include "antlr4-runtime.h"

#include <vector>

namespace tscc::parse {

/// Retypes Identifier tokens in \p Toks (the whole, filled token stream) to
/// TypeName where they name a type:
///  - names declared by the script's own top-level typedefs;
///  - names for which Opts.IsTypeName says so, or, without that hook, names
///    ending in "_t" (the C library's convention: size_t, pid_t, ...);
///  - `x` in `(x) y`, `(x *)`: only a cast can have this shape.
/// Identifiers after '.', '->' and struct/union/enum, and those followed by
/// '(' (calls), are never types.
void markTypeNames(const std::vector<antlr4::Token *> &Toks,
                   const TokenMap &Map, const ParseOptions &Opts);

} // namespace tscc::parse

#endif // TSCC_LIB_PARSE_TYPENAMES_H
