//===- Literals.h - Decoding C literals -------------------------*- C++ -*-===//
//
// The lexer only delimits literals; these functions compute their values
// with C's rules and report what is wrong at the offending character.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_LIB_PARSE_LITERALS_H
#define TSCC_LIB_PARSE_LITERALS_H

#include "tscc/AST/AST.h"
#include "tscc/Basic/Diagnostic.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tscc::parse {

struct IntegerValue {
  uint64_t Value = 0;
  unsigned Radix = 10;
  bool Unsigned = false;
  IntegerLiteral::SizeSuffix Size = IntegerLiteral::SizeSuffix::None;
};

/// Decodes the preprocessing number \p Spelling written at \p Loc. Returns
/// false (after reporting) if it is not a valid integer constant.
bool decodeInteger(llvm::StringRef Spelling, SourceLocation Loc,
                   DiagnosticsEngine &Diags, IntegerValue &Out);

/// Decodes a character constant including its quotes and prefix (the
/// closing quote may be missing; that was reported by the lexer).
bool decodeCharLiteral(llvm::StringRef Spelling, SourceLocation Loc,
                       DiagnosticsEngine &Diags, int64_t &Value,
                       CharLiteralKind &Kind);

/// Decodes the quoted part of `L'...'`, `u'...'` or `U'...'` (\p S starts
/// at the quote, written at \p Loc): one code unit of at most \p Max.
bool decodeWideChar(llvm::StringRef S, SourceLocation Loc,
                    DiagnosticsEngine &Diags, uint32_t Max, int64_t &Value);

/// Decodes a string literal including its quotes and appends its bytes to
/// \p Out.
bool decodeStringLiteral(llvm::StringRef Spelling, SourceLocation Loc,
                         DiagnosticsEngine &Diags, std::string &Out);

} // namespace tscc::parse

#endif // TSCC_LIB_PARSE_LITERALS_H
