//===- tscc/Parse/Parser.h - Script and expression parsing ------*- C++ -*-===//
//
// The entry points into the ANTLR-generated parser. Nothing of ANTLR leaks
// out: syntax errors become diagnostics and the result is our own AST.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_PARSE_PARSER_H
#define TSCC_PARSE_PARSER_H

#include "tscc/Basic/SourceLocation.h"

#include "llvm/ADT/StringRef.h"

#include <functional>

namespace tscc {

class ASTContext;
class DiagnosticsEngine;
class Expr;
class Script;
class SourceManager;

struct ParseOptions {
  /// Decides whether an identifier names a C type, which the grammar needs
  /// for `(T)x` casts and `sizeof(T)`. Typedefs declared in the script
  /// itself are always known; this hook can add names from headers. When
  /// unset, identifiers ending in "_t" are taken as type names.
  std::function<bool(llvm::StringRef)> IsTypeName;
  /// Deepest nesting of expressions and statements the parser accepts
  /// (`-fbracket-depth=N`). Every walk over the tree recurses at most this
  /// deep, so hostile nesting is a diagnostic instead of a stack overflow.
  unsigned MaxNestingDepth = DefaultMaxNestingDepth;
  static constexpr unsigned DefaultMaxNestingDepth = 1024;
};

/// Parses the script in buffer \p File. Syntax errors are reported to
/// \p Diags (all of them, not just the first); the returned Script is
/// always non-null and holds whatever could be recovered, so callers check
/// Diags.hasErrorOccurred() before using it for code generation.
Script *parseScript(SourceManager &SM, FileID File, ASTContext &Ctx,
                    DiagnosticsEngine &Diags, const ParseOptions &Opts = {});

/// Parses \p Text as a single expression (e.g. a macro's expansion). The
/// text is registered with \p SM under the name \p BufferName and syntax
/// errors point into it, followed by a note at \p Origin; on success every
/// node of the result gets the source range \p Origin, so that later
/// diagnostics point at the use site. Returns null on error.
Expr *parseExpressionText(llvm::StringRef Text, SourceRange Origin,
                          SourceManager &SM, ASTContext &Ctx,
                          DiagnosticsEngine &Diags,
                          llvm::StringRef BufferName = "<expansion>",
                          const ParseOptions &Opts = {});

} // namespace tscc

#endif // TSCC_PARSE_PARSER_H
