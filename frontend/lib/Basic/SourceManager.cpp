//===- SourceManager.cpp - Owns source buffers ----------------------------===//

#include "tscc/Basic/SourceManager.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cassert>
#include <cstring>

using namespace tscc;

FileID SourceManager::createFileID(std::unique_ptr<llvm::MemoryBuffer> Buffer) {
  assert(Buffer && "null buffer");
  Entry E;
  E.Name = Buffer->getBufferIdentifier().str();
  E.StartOffset = NextOffset;
  // One extra slot so that the end-of-buffer position is a valid location
  // distinct from the next buffer's first one.
  NextOffset += static_cast<uint32_t>(Buffer->getBufferSize()) + 1;
  E.Buffer = std::move(Buffer);
  Entries.push_back(std::move(E));
  FileID F = FileID::get(Entries.size());
  if (MainFile.isInvalid())
    MainFile = F;
  return F;
}

FileID SourceManager::createFileID(llvm::StringRef Text, llvm::StringRef Name) {
  return createFileID(llvm::MemoryBuffer::getMemBufferCopy(Text, Name));
}

llvm::Expected<FileID> SourceManager::loadFile(llvm::StringRef Path) {
  auto BufOrErr = llvm::MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
  if (!BufOrErr)
    return llvm::errorCodeToError(BufOrErr.getError());
  // Keep the name the user typed; getFileOrSTDIN names stdin "<stdin>".
  std::unique_ptr<llvm::MemoryBuffer> Buf = std::move(*BufOrErr);
  if (Buf->getBufferIdentifier() != Path && Path != "-")
    Buf = llvm::MemoryBuffer::getMemBufferCopy(Buf->getBuffer(), Path);
  return createFileID(std::move(Buf));
}

FileID SourceManager::findFileByName(llvm::StringRef Name) const {
  for (size_t I = 0; I < Entries.size(); ++I)
    if (Entries[I].Name == Name)
      return FileID::get(I + 1);
  return {};
}

const SourceManager::Entry *SourceManager::getEntry(FileID F) const {
  if (F.isInvalid() || F.getOpaqueValue() > Entries.size())
    return nullptr;
  return &Entries[F.getOpaqueValue() - 1];
}

llvm::StringRef SourceManager::getBufferData(FileID F) const {
  const Entry *E = getEntry(F);
  return E ? E->Buffer->getBuffer() : llvm::StringRef();
}

llvm::StringRef SourceManager::getBufferName(FileID F) const {
  const Entry *E = getEntry(F);
  return E ? llvm::StringRef(E->Name) : llvm::StringRef();
}

SourceLocation SourceManager::getLocForStartOfFile(FileID F) const {
  return getLocForOffset(F, 0);
}

SourceLocation SourceManager::getLocForOffset(FileID F, unsigned Offset) const {
  const Entry *E = getEntry(F);
  if (!E)
    return {};
  Offset = std::min<unsigned>(Offset, E->Buffer->getBufferSize());
  return SourceLocation::fromRawEncoding(E->StartOffset + Offset);
}

const std::vector<unsigned> &
SourceManager::getLineStarts(const Entry &E) const {
  if (!E.LineStarts.empty())
    return E.LineStarts;
  llvm::StringRef Data = E.Buffer->getBuffer();
  E.LineStarts.push_back(0);
  for (size_t I = 0; I < Data.size(); ++I) {
    // "\r\n" and lone '\r' end lines too, as in Clang.
    if (Data[I] == '\r' && I + 1 < Data.size() && Data[I + 1] == '\n')
      ++I;
    if (Data[I] == '\n' || Data[I] == '\r')
      E.LineStarts.push_back(I + 1);
  }
  return E.LineStarts;
}

SourceLocation SourceManager::getLocation(FileID F, unsigned Line,
                                          unsigned Column) const {
  const Entry *E = getEntry(F);
  if (!E || Line == 0)
    return {};
  const std::vector<unsigned> &Starts = getLineStarts(*E);
  if (Line > Starts.size())
    return getLocForOffset(F, E->Buffer->getBufferSize());
  llvm::StringRef Text = getLineText(F, Line);
  unsigned Col = Column == 0 ? 0 : Column - 1;
  Col = std::min<unsigned>(Col, Text.size());
  return getLocForOffset(F, Starts[Line - 1] + Col);
}

FileID SourceManager::getFileID(SourceLocation Loc) const {
  if (Loc.isInvalid())
    return {};
  uint32_t Raw = Loc.getRawEncoding();
  // Entries are sorted by StartOffset: find the last one starting <= Raw.
  auto It = std::upper_bound(
      Entries.begin(), Entries.end(), Raw,
      [](uint32_t R, const Entry &E) { return R < E.StartOffset; });
  if (It == Entries.begin())
    return {};
  --It;
  if (Raw > It->StartOffset + It->Buffer->getBufferSize())
    return {};
  return FileID::get(static_cast<unsigned>(It - Entries.begin()) + 1);
}

unsigned SourceManager::getFileOffset(SourceLocation Loc) const {
  const Entry *E = getEntry(getFileID(Loc));
  return E ? Loc.getRawEncoding() - E->StartOffset : 0;
}

const char *SourceManager::getCharacterData(SourceLocation Loc) const {
  const Entry *E = getEntry(getFileID(Loc));
  if (!E)
    return nullptr;
  return E->Buffer->getBufferStart() + (Loc.getRawEncoding() - E->StartOffset);
}

unsigned SourceManager::getLineNumber(SourceLocation Loc) const {
  const Entry *E = getEntry(getFileID(Loc));
  if (!E)
    return 0;
  const std::vector<unsigned> &Starts = getLineStarts(*E);
  unsigned Off = Loc.getRawEncoding() - E->StartOffset;
  return std::upper_bound(Starts.begin(), Starts.end(), Off) - Starts.begin();
}

unsigned SourceManager::getColumnNumber(SourceLocation Loc) const {
  const Entry *E = getEntry(getFileID(Loc));
  if (!E)
    return 0;
  unsigned Line = getLineNumber(Loc);
  unsigned Off = Loc.getRawEncoding() - E->StartOffset;
  return Off - getLineStarts(*E)[Line - 1] + 1;
}

PresumedLoc SourceManager::getPresumedLoc(SourceLocation Loc) const {
  PresumedLoc P;
  FileID F = getFileID(Loc);
  const Entry *E = getEntry(F);
  if (!E)
    return P;
  P.Filename = E->Name.c_str();
  P.Line = getLineNumber(Loc);
  P.Column = getColumnNumber(Loc);
  P.File = F;
  return P;
}

llvm::StringRef SourceManager::getLineText(FileID F, unsigned Line) const {
  const Entry *E = getEntry(F);
  if (!E || Line == 0)
    return {};
  const std::vector<unsigned> &Starts = getLineStarts(*E);
  if (Line > Starts.size())
    return {};
  llvm::StringRef Data = E->Buffer->getBuffer();
  llvm::StringRef Rest = Data.substr(Starts[Line - 1]);
  return Rest.take_until([](char C) { return C == '\n' || C == '\r'; });
}

llvm::StringRef SourceManager::getLineText(SourceLocation Loc) const {
  return getLineText(getFileID(Loc), getLineNumber(Loc));
}

unsigned SourceManager::getNumLines(FileID F) const {
  const Entry *E = getEntry(F);
  if (!E)
    return 0;
  const std::vector<unsigned> &Starts = getLineStarts(*E);
  // A buffer ending in a newline has no further (empty) line.
  if (Starts.size() > 1 && Starts.back() == E->Buffer->getBufferSize())
    return Starts.size() - 1;
  return Starts.size();
}

static bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

unsigned SourceManager::measureTokenLength(SourceLocation Loc) const {
  const Entry *E = getEntry(getFileID(Loc));
  if (!E)
    return 0;
  llvm::StringRef Data = E->Buffer->getBuffer();
  unsigned Off = Loc.getRawEncoding() - E->StartOffset;
  if (Off >= Data.size())
    return 0;
  llvm::StringRef S = Data.substr(Off);
  char C = S[0];
  if (C == '@' && S.starts_with("@@")) {
    // A probe specification: up to whitespace, ',' or '{' (regex fields
    // may contain anything but '/' and newlines).
    size_t I = 2;
    while (I < S.size() && !llvm::isSpace(S[I]) && S[I] != ',' && S[I] != '{') {
      if (S[I] == '/') {
        ++I;
        while (I < S.size() && S[I] != '/' && S[I] != '\n')
          I += (S[I] == '\\' && I + 1 < S.size()) ? 2 : 1;
      }
      ++I;
    }
    return std::min<size_t>(I, S.size());
  }
  if (isIdentChar(C) || C == '@' || C == '$') {
    size_t I = 1;
    while (I < S.size() && isIdentChar(S[I]))
      ++I;
    return I;
  }
  if (C == '"' || C == '\'') {
    size_t I = 1;
    while (I < S.size() && S[I] != C && S[I] != '\n')
      I += (S[I] == '\\' && I + 1 < S.size()) ? 2 : 1;
    return std::min<size_t>(I + 1, S.size());
  }
  static const char *const Puncts[] = {
      "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
      "!=",  "&&",  "||",  "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|="};
  for (const char *P : Puncts)
    if (S.starts_with(P))
      return std::strlen(P);
  return 1;
}

llvm::StringRef SourceManager::getText(SourceRange R) const {
  if (R.isInvalid() || getFileID(R.getBegin()) != getFileID(R.getEnd()))
    return {};
  const char *B = getCharacterData(R.getBegin());
  const char *E = getCharacterData(R.getEnd());
  if (!B || !E || E < B)
    return {};
  return llvm::StringRef(B, E - B + measureTokenLength(R.getEnd()));
}
