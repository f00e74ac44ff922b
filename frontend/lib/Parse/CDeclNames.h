//===- CDeclNames.h - Names declared by verbatim C declarations -*- C++ -*-===//
//
// The frontend passes C declarations to Clang without parsing them, but it
// needs the names they declare: typedef names change how the rest of the
// script parses (`(T)x`), and prototype names tell sema which functions the
// script itself declared. These helpers find the declarator names in a
// token sequence without a C grammar.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_LIB_PARSE_CDECLNAMES_H
#define TSCC_LIB_PARSE_CDECLNAMES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace tscc::parse {

struct CToken {
  enum Kind : uint8_t {
    Identifier,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Other
  };
  Kind K;
  llvm::StringRef Text;
  unsigned Index = 0; ///< Caller's position of this token.
};

/// The names declared by a declaration (without its trailing ';'): for each
/// top-level declarator, the last identifier outside parameter lists,
/// brackets, initialisers and attributes. `typedef int (*fn_t)(int), x_t;`
/// gives fn_t and x_t; `void (*signal(int, void (*)(int)))(int)` gives
/// signal. Returns indices into \p Toks.
llvm::SmallVector<size_t, 2> findDeclaredNames(llvm::ArrayRef<CToken> Toks);

/// The tag of `struct NAME {` (skipping attributes); empty if anonymous.
llvm::StringRef findTagName(llvm::ArrayRef<CToken> Toks);

/// For "#define NAME ..." the macro name, for "#include <x.h>" the header
/// as written ("<x.h>"); otherwise empty.
llvm::StringRef findDirectiveName(llvm::StringRef Directive);

/// GNU/C keywords that look like identifiers but never name anything.
bool isCAttributeKeyword(llvm::StringRef Name);

} // namespace tscc::parse

#endif // TSCC_LIB_PARSE_CDECLNAMES_H
