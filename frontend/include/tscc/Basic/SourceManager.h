//===- tscc/Basic/SourceManager.h - Owns source buffers ---------*- C++ -*-===//
//
// The SourceManager owns every buffer the compiler reads (the script, text
// parsed on behalf of sema such as macro expansions) and maps the compact
// SourceLocation encoding back to file, line, column and line text.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_BASIC_SOURCEMANAGER_H
#define TSCC_BASIC_SOURCEMANAGER_H

#include "tscc/Basic/SourceLocation.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>
#include <vector>

namespace tscc {

class SourceManager {
public:
  SourceManager() = default;
  SourceManager(const SourceManager &) = delete;
  SourceManager &operator=(const SourceManager &) = delete;

  /// Takes ownership of \p Buffer. Its identifier (getBufferIdentifier())
  /// is the name diagnostics print.
  FileID createFileID(std::unique_ptr<llvm::MemoryBuffer> Buffer);

  /// Convenience: a buffer holding a copy of \p Text named \p Name.
  FileID createFileID(llvm::StringRef Text, llvm::StringRef Name);

  /// Reads \p Path ("-" means stdin) and registers it.
  llvm::Expected<FileID> loadFile(llvm::StringRef Path);

  /// The main (script) file, if one was set.
  FileID getMainFileID() const { return MainFile; }
  void setMainFileID(FileID F) { MainFile = F; }

  /// The first buffer registered under \p Name, or an invalid FileID. Used to
  /// map "file:line:col" positions that come from outside (Clang) back in.
  FileID findFileByName(llvm::StringRef Name) const;

  llvm::StringRef getBufferData(FileID F) const;
  llvm::StringRef getBufferName(FileID F) const;

  /// The location of byte \p Offset of \p F (Offset may equal the size:
  /// that is the end-of-file location).
  SourceLocation getLocForStartOfFile(FileID F) const;
  SourceLocation getLocForOffset(FileID F, unsigned Offset) const;
  /// The location of 1-based \p Line / \p Column in \p F; clamped to the
  /// line's end and the buffer's end. Invalid if \p F is invalid.
  SourceLocation getLocation(FileID F, unsigned Line, unsigned Column) const;

  /// The buffer containing \p Loc (invalid for an invalid location).
  FileID getFileID(SourceLocation Loc) const;
  /// Byte offset of \p Loc in its buffer.
  unsigned getFileOffset(SourceLocation Loc) const;
  /// Pointer to the character at \p Loc (buffers are NUL-terminated).
  const char *getCharacterData(SourceLocation Loc) const;

  unsigned getLineNumber(SourceLocation Loc) const;
  unsigned getColumnNumber(SourceLocation Loc) const;
  PresumedLoc getPresumedLoc(SourceLocation Loc) const;

  /// The text of 1-based \p Line of \p F without its line terminator.
  llvm::StringRef getLineText(FileID F, unsigned Line) const;
  /// The text of the line containing \p Loc.
  llvm::StringRef getLineText(SourceLocation Loc) const;

  /// Number of lines of \p F (a final line without '\n' counts).
  unsigned getNumLines(FileID F) const;

  /// Length of the token starting at \p Loc, measured with C token rules
  /// (identifier, number, string/char literal, punctuator). Used to extend
  /// a SourceRange's end to the end of its last token.
  unsigned measureTokenLength(SourceLocation Loc) const;

  /// The text covered by token range \p R (End extended by one token).
  llvm::StringRef getText(SourceRange R) const;

private:
  struct Entry {
    std::unique_ptr<llvm::MemoryBuffer> Buffer;
    std::string Name;
    uint32_t StartOffset; ///< First raw encoding of this buffer.
    /// Offsets of the first byte of every line; computed lazily.
    mutable std::vector<unsigned> LineStarts;
  };

  const Entry *getEntry(FileID F) const;
  const std::vector<unsigned> &getLineStarts(const Entry &E) const;

  std::vector<Entry> Entries; ///< FileID N is Entries[N - 1].
  uint32_t NextOffset = 1;    ///< 0 is the invalid location.
  FileID MainFile;
};

} // namespace tscc

#endif // TSCC_BASIC_SOURCEMANAGER_H
