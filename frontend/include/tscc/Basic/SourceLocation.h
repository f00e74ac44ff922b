//===- tscc/Basic/SourceLocation.h - Compact source positions ---*- C++ -*-===//
//
// A SourceLocation is a 32-bit offset into the SourceManager's global address
// space: every buffer is given a contiguous slice of it, so one integer names
// both the file and the position. Offset 0 is reserved for "invalid". This is
// the same scheme as clang::SourceLocation and keeps AST nodes small.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_BASIC_SOURCELOCATION_H
#define TSCC_BASIC_SOURCELOCATION_H

#include <cstdint>

namespace tscc {

/// Identifies one buffer owned by a SourceManager. 0 is invalid.
class FileID {
public:
  FileID() = default;
  static FileID get(unsigned ID) {
    FileID F;
    F.ID = ID;
    return F;
  }
  bool isValid() const { return ID != 0; }
  bool isInvalid() const { return ID == 0; }
  unsigned getHashValue() const { return ID; }
  unsigned getOpaqueValue() const { return ID; }

  friend bool operator==(FileID A, FileID B) { return A.ID == B.ID; }
  friend bool operator!=(FileID A, FileID B) { return A.ID != B.ID; }
  friend bool operator<(FileID A, FileID B) { return A.ID < B.ID; }

private:
  unsigned ID = 0;
};

/// A position in some buffer of a SourceManager.
class SourceLocation {
public:
  SourceLocation() = default;

  bool isValid() const { return Raw != 0; }
  bool isInvalid() const { return Raw == 0; }

  /// A location \p Offset characters further on (may be negative).
  SourceLocation getLocWithOffset(int Offset) const {
    if (isInvalid())
      return {};
    return fromRawEncoding(static_cast<uint32_t>(Raw + Offset));
  }

  uint32_t getRawEncoding() const { return Raw; }
  static SourceLocation fromRawEncoding(uint32_t R) {
    SourceLocation L;
    L.Raw = R;
    return L;
  }

  friend bool operator==(SourceLocation A, SourceLocation B) {
    return A.Raw == B.Raw;
  }
  friend bool operator!=(SourceLocation A, SourceLocation B) {
    return A.Raw != B.Raw;
  }
  /// Orders locations within one buffer (and buffers by creation order).
  friend bool operator<(SourceLocation A, SourceLocation B) {
    return A.Raw < B.Raw;
  }

private:
  uint32_t Raw = 0;
};

/// A closed range [Begin, End]: End is the location of the *first character
/// of the last token* covered, as in Clang. Renderers extend it to the end of
/// that token.
class SourceRange {
public:
  SourceRange() = default;
  SourceRange(SourceLocation Loc) : Begin(Loc), End(Loc) {}
  SourceRange(SourceLocation B, SourceLocation E) : Begin(B), End(E) {}

  SourceLocation getBegin() const { return Begin; }
  SourceLocation getEnd() const { return End; }
  void setBegin(SourceLocation L) { Begin = L; }
  void setEnd(SourceLocation L) { End = L; }

  bool isValid() const { return Begin.isValid() && End.isValid(); }
  bool isInvalid() const { return !isValid(); }

  friend bool operator==(SourceRange A, SourceRange B) {
    return A.Begin == B.Begin && A.End == B.End;
  }
  friend bool operator!=(SourceRange A, SourceRange B) { return !(A == B); }

private:
  SourceLocation Begin, End;
};

/// A decoded location: what users see. Line and column are 1-based; column
/// counts bytes, like Clang's.
struct PresumedLoc {
  const char *Filename = nullptr; ///< Owned by the SourceManager.
  unsigned Line = 0;
  unsigned Column = 0;
  FileID File;

  bool isValid() const { return Filename != nullptr; }
};

} // namespace tscc

#endif // TSCC_BASIC_SOURCELOCATION_H
