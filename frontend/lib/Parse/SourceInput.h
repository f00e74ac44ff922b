//===- SourceInput.h - ANTLR input over a SourceManager buffer --*- C++ -*-===//
//
// ANTLR indexes characters by code point; tscc locations are byte offsets.
// SourceInput decodes the buffer itself (invalid UTF-8 bytes become U+FFFD
// instead of making the ANTLR runtime throw) and keeps the map back to
// bytes. TokenMap turns tokens and rule contexts into SourceLocations.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_LIB_PARSE_SOURCEINPUT_H
#define TSCC_LIB_PARSE_SOURCEINPUT_H

#include "tscc/Basic/SourceLocation.h"
#include "tscc/Basic/SourceManager.h"

#include "antlr4-runtime.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace tscc::parse {

class SourceInput : public antlr4::ANTLRInputStream {
public:
  SourceInput(llvm::StringRef Bytes, llvm::StringRef Name);

  /// Byte offset of code point \p Index (Index == size() is the end).
  unsigned byteOffset(size_t Index) const {
    if (Identity)
      return static_cast<unsigned>(std::min(Index, NumBytes));
    return Offsets[std::min(Index, Offsets.size() - 1)];
  }

  std::string getSourceName() const override { return Name; }

private:
  std::vector<unsigned> Offsets; ///< Only when the text is not pure ASCII.
  size_t NumBytes = 0;
  bool Identity = true;
  std::string Name;
};

/// Maps ANTLR positions into the SourceManager buffer the input came from.
class TokenMap {
public:
  TokenMap(const SourceManager &SM, FileID File, const SourceInput &In)
      : SM(SM), File(File), In(In) {}

  const SourceManager &getSourceManager() const { return SM; }
  FileID getFileID() const { return File; }

  /// The first character of \p T (for EOF: the end of the buffer).
  SourceLocation loc(const antlr4::Token *T) const;
  /// One past the last character of \p T: where a missing token goes.
  SourceLocation locAfter(const antlr4::Token *T) const;
  /// From the first token of \p Ctx to the start of its last token.
  SourceRange range(const antlr4::ParserRuleContext *Ctx) const;
  SourceRange range(const antlr4::Token *First,
                    const antlr4::Token *Last) const;
  /// The bytes of \p T as written.
  llvm::StringRef spelling(const antlr4::Token *T) const;
  /// The bytes from the start of \p First to the end of \p Last.
  llvm::StringRef text(const antlr4::Token *First,
                       const antlr4::Token *Last) const;

private:
  const SourceManager &SM;
  FileID File;
  const SourceInput &In;
};

} // namespace tscc::parse

#endif // TSCC_LIB_PARSE_SOURCEINPUT_H
