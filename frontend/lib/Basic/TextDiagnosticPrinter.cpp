//===- TextDiagnosticPrinter.cpp - Clang-style diagnostic text ------------===//

#include "tscc/Basic/Diagnostic.h"
#include "tscc/Basic/SourceManager.h"

#include "llvm/Support/Format.h"

#include <algorithm>

using namespace tscc;

static llvm::StringRef severityName(diag::Level L) {
  switch (L) {
  case diag::Level::Ignored:
    return "ignored";
  case diag::Level::Note:
    return "note";
  case diag::Level::Remark:
    return "remark";
  case diag::Level::Warning:
    return "warning";
  case diag::Level::Error:
    return "error";
  case diag::Level::Fatal:
    return "fatal error";
  }
  return "error";
}

void TextDiagnosticPrinter::handleDiagnostic(const Diagnostic &D) {
  if (D.Loc.isValid() && SM) {
    PresumedLoc P = SM->getPresumedLoc(D.Loc);
    if (P.isValid())
      OS << P.Filename << ':' << P.Line << ':' << P.Column << ": ";
  } else if (!D.RawFile.empty()) {
    OS << D.RawFile << ':';
    if (D.RawLine) {
      OS << D.RawLine << ':';
      if (D.RawColumn)
        OS << D.RawColumn << ':';
    }
    OS << ' ';
  }
  OS << severityName(D.Severity) << ": " << D.Message << '\n';
  if (ShowSnippet) {
    if (D.Loc.isValid() && SM)
      printSnippet(D);
    else if (!D.RawLineText.empty())
      printRawSnippet(D);
  }
  OS.flush();
}

namespace {
/// One source line with tabs expanded, and the display column of each byte.
struct ExpandedLine {
  std::string Text;
  std::vector<unsigned> ColOfByte; ///< Size = bytes + 1.

  explicit ExpandedLine(llvm::StringRef Line) {
    for (char C : Line) {
      ColOfByte.push_back(Text.size());
      if (C == '\t') {
        do
          Text += ' ';
        while (Text.size() % 8);
        continue;
      }
      // Keep the caret line aligned: show control bytes as '?'.
      Text += (static_cast<unsigned char>(C) < 0x20 || C == 0x7f) ? '?' : C;
    }
    ColOfByte.push_back(Text.size());
  }
  unsigned col(unsigned Byte) const {
    return ColOfByte[std::min<size_t>(Byte, ColOfByte.size() - 1)];
  }
};
} // namespace

static void printGutter(llvm::raw_ostream &OS, unsigned Line) {
  if (Line)
    OS << llvm::format("%5u", Line) << " | ";
  else
    OS << "      | ";
}

void TextDiagnosticPrinter::printSnippet(const Diagnostic &D) {
  FileID F = SM->getFileID(D.Loc);
  unsigned Line = SM->getLineNumber(D.Loc);
  llvm::StringRef Text = SM->getLineText(F, Line);
  ExpandedLine L(Text);
  std::string Marks(L.Text.size() + 1, ' ');

  SourceLocation LineStart = SM->getLocation(F, Line, 1);
  unsigned LineBegin = SM->getFileOffset(LineStart);
  unsigned LineEnd = LineBegin + Text.size();
  for (SourceRange R : D.Ranges) {
    if (SM->getFileID(R.getBegin()) != F || SM->getFileID(R.getEnd()) != F)
      continue;
    unsigned B = SM->getFileOffset(R.getBegin());
    unsigned E =
        SM->getFileOffset(R.getEnd()) + SM->measureTokenLength(R.getEnd());
    if (E <= LineBegin || B > LineEnd)
      continue;
    B = std::max(B, LineBegin) - LineBegin;
    E = std::min(E, LineEnd) - LineBegin;
    for (unsigned C = L.col(B); C < L.col(E) && C < Marks.size(); ++C)
      Marks[C] = '~';
  }
  unsigned CaretCol = L.col(SM->getFileOffset(D.Loc) - LineBegin);
  if (CaretCol < Marks.size())
    Marks[CaretCol] = '^';
  Marks.erase(Marks.find_last_not_of(' ') + 1);

  printGutter(OS, Line);
  OS << L.Text << '\n';
  printGutter(OS, 0);
  OS << Marks << '\n';

  // Insertion fix-its on this line go on a line of their own, like Clang.
  std::string FixLine;
  for (const FixItHint &H : D.FixIts) {
    if (SM->getFileID(H.Loc) != F || SM->getLineNumber(H.Loc) != Line)
      continue;
    unsigned Col = L.col(SM->getFileOffset(H.Loc) - LineBegin);
    if (FixLine.size() < Col)
      FixLine.resize(Col, ' ');
    FixLine.replace(Col, std::min(H.Insertion.size(), FixLine.size() - Col),
                    H.Insertion);
  }
  if (!FixLine.empty()) {
    printGutter(OS, 0);
    OS << FixLine << '\n';
  }
}

void TextDiagnosticPrinter::printRawSnippet(const Diagnostic &D) {
  ExpandedLine L(D.RawLineText);
  printGutter(OS, D.RawLine);
  OS << L.Text << '\n';
  if (D.RawColumn == 0)
    return;
  printGutter(OS, 0);
  OS << std::string(L.col(D.RawColumn - 1), ' ') << "^\n";
}
