//===- Diagnostic.cpp - Diagnostics engine --------------------------------===//

#include "tscc/Basic/Diagnostic.h"
#include "tscc/Basic/PerModelDiagnosticMerger.h"
#include "tscc/Basic/SourceManager.h"

#include "llvm/ADT/StringExtras.h"

#include <cassert>

using namespace tscc;

namespace {
struct DiagInfo {
  const char *Name;
  diag::Level Level;
  const char *Text;
};
} // namespace

static const DiagInfo DiagTable[] = {
#define DIAG(ENUM, LEVEL, TEXT) {#ENUM, diag::Level::LEVEL, TEXT},
#include "tscc/Basic/DiagnosticCodeGenKinds.def"
#include "tscc/Basic/DiagnosticFrontendKinds.def"
#include "tscc/Basic/DiagnosticSemaKinds.def"
#undef DIAG
};

static_assert(sizeof(DiagTable) / sizeof(DiagTable[0]) ==
              diag::NUM_DIAGNOSTICS);

diag::Level diag::getDefaultLevel(ID D) { return DiagTable[D].Level; }
llvm::StringRef diag::getDescription(ID D) { return DiagTable[D].Text; }
llvm::StringRef diag::getName(ID D) { return DiagTable[D].Name; }

DiagnosticConsumer::~DiagnosticConsumer() = default;

//===----------------------------------------------------------------------===//
// Message formatting
//===----------------------------------------------------------------------===//

/// Splits "a|b|c" at top-level '|'.
static llvm::SmallVector<llvm::StringRef, 4> splitChoices(llvm::StringRef S) {
  llvm::SmallVector<llvm::StringRef, 4> Out;
  unsigned Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '{')
      ++Depth;
    else if (S[I] == '}' && Depth)
      --Depth;
    else if (S[I] == '|' && Depth == 0) {
      Out.push_back(S.slice(Start, I));
      Start = I + 1;
    }
  }
  Out.push_back(S.substr(Start));
  return Out;
}

std::string DiagnosticsEngine::formatMessage(llvm::StringRef T,
                                             llvm::ArrayRef<std::string> Args,
                                             llvm::ArrayRef<int64_t> IntArgs) {
  std::string Out;
  auto ArgText = [&](unsigned N) -> std::string {
    return N < Args.size() ? Args[N] : std::string("<missing argument>");
  };
  auto ArgInt = [&](unsigned N) -> int64_t {
    return N < IntArgs.size() ? IntArgs[N] : 0;
  };
  for (size_t I = 0; I < T.size(); ++I) {
    char C = T[I];
    if (C != '%' || I + 1 == T.size()) {
      Out += C;
      continue;
    }
    llvm::StringRef Rest = T.substr(I + 1);
    if (Rest[0] == '%') {
      Out += '%';
      ++I;
      continue;
    }
    if (llvm::isDigit(Rest[0])) {
      Out += ArgText(Rest[0] - '0');
      ++I;
      continue;
    }
    if (Rest.starts_with("select{")) {
      size_t Depth = 0, J = 6;
      for (; J < Rest.size(); ++J) {
        if (Rest[J] == '{')
          ++Depth;
        else if (Rest[J] == '}' && --Depth == 0)
          break;
      }
      if (J + 1 < Rest.size() && llvm::isDigit(Rest[J + 1])) {
        auto Choices = splitChoices(Rest.slice(7, J));
        int64_t Sel = ArgInt(Rest[J + 1] - '0');
        if (Sel >= 0 && static_cast<size_t>(Sel) < Choices.size())
          Out += formatMessage(Choices[Sel], Args, IntArgs);
        I += J + 2;
        continue;
      }
    }
    if (Rest[0] == 's' && Rest.size() > 1 && llvm::isDigit(Rest[1])) {
      if (ArgInt(Rest[1] - '0') != 1)
        Out += 's';
      I += 2;
      continue;
    }
    Out += C;
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// DiagnosticBuilder
//===----------------------------------------------------------------------===//

DiagnosticBuilder::DiagnosticBuilder(DiagnosticsEngine &E, diag::ID ID,
                                     SourceLocation Loc)
    : Engine(&E), DiagID(ID), Loc(Loc) {}

DiagnosticBuilder::DiagnosticBuilder(DiagnosticBuilder &&O) noexcept
    : Engine(O.Engine), DiagID(O.DiagID), Loc(O.Loc), Args(std::move(O.Args)),
      Ranges(std::move(O.Ranges)), FixIts(std::move(O.FixIts)), Pass(O.Pass) {
  O.Engine = nullptr;
}

DiagnosticBuilder::~DiagnosticBuilder() {
  if (Engine)
    Engine->emit(*this);
}

const DiagnosticBuilder &
DiagnosticBuilder::operator<<(llvm::StringRef S) const {
  Args.push_back({S.str(), 0, false});
  return *this;
}
const DiagnosticBuilder &DiagnosticBuilder::operator<<(const char *S) const {
  return *this << llvm::StringRef(S);
}
const DiagnosticBuilder &
DiagnosticBuilder::operator<<(const std::string &S) const {
  return *this << llvm::StringRef(S);
}
const DiagnosticBuilder &DiagnosticBuilder::operator<<(long long V) const {
  Args.push_back({std::to_string(V), static_cast<int64_t>(V), true});
  return *this;
}
const DiagnosticBuilder &
DiagnosticBuilder::operator<<(unsigned long long V) const {
  Args.push_back({std::to_string(V), static_cast<int64_t>(V), true});
  return *this;
}
const DiagnosticBuilder &DiagnosticBuilder::operator<<(int V) const {
  return *this << static_cast<long long>(V);
}
const DiagnosticBuilder &DiagnosticBuilder::operator<<(unsigned V) const {
  return *this << static_cast<unsigned long long>(V);
}
const DiagnosticBuilder &DiagnosticBuilder::operator<<(long V) const {
  return *this << static_cast<long long>(V);
}
const DiagnosticBuilder &DiagnosticBuilder::operator<<(unsigned long V) const {
  return *this << static_cast<unsigned long long>(V);
}
const DiagnosticBuilder &DiagnosticBuilder::operator<<(SourceRange R) const {
  if (R.isValid())
    Ranges.push_back(R);
  return *this;
}
const DiagnosticBuilder &
DiagnosticBuilder::operator<<(const FixItHint &F) const {
  if (F.Loc.isValid())
    FixIts.push_back(F);
  return *this;
}

//===----------------------------------------------------------------------===//
// DiagnosticsEngine
//===----------------------------------------------------------------------===//

DiagnosticsEngine::DiagnosticsEngine(const SourceManager &SM,
                                     DiagnosticConsumer *C)
    : SM(SM), Consumer(C), Merger(std::make_unique<PerModelDiagnosticMerger>(
                               [this](Diagnostic &D) { deliver(D); })) {
  if (!Consumer) {
    OwnedConsumer = std::make_unique<TextDiagnosticPrinter>(llvm::errs(), &SM);
    Consumer = OwnedConsumer.get();
  }
}

DiagnosticsEngine::~DiagnosticsEngine() {
  // Flushes a batch left open before the consumer can go away.
  Merger.reset();
}

void DiagnosticsEngine::setConsumer(DiagnosticConsumer *C) {
  assert(C && "null consumer");
  Consumer = C;
}

DiagnosticBuilder DiagnosticsEngine::report(SourceLocation Loc, diag::ID ID) {
  return DiagnosticBuilder(*this, ID, Loc);
}

DiagnosticBuilder DiagnosticsEngine::report(SourceRange Range, diag::ID ID) {
  DiagnosticBuilder B(*this, ID, Range.getBegin());
  B << Range;
  return B;
}

DiagnosticBuilder DiagnosticsEngine::report(diag::ID ID) {
  return DiagnosticBuilder(*this, ID, SourceLocation());
}

void DiagnosticsEngine::emit(const DiagnosticBuilder &B) {
  Diagnostic D;
  D.ID = B.DiagID;
  D.Severity = diag::getDefaultLevel(B.DiagID);
  D.Loc = B.Loc;
  D.Ranges = B.Ranges;
  D.FixIts = B.FixIts;
  llvm::SmallVector<std::string, 4> Texts;
  llvm::SmallVector<int64_t, 4> Ints;
  for (const auto &A : B.Args) {
    Texts.push_back(A.Text);
    Ints.push_back(A.Int);
  }
  D.Message = formatMessage(diag::getDescription(B.DiagID), Texts, Ints);
  D.Pass = B.Pass;
  submit(std::move(D));
}

void DiagnosticsEngine::submit(Diagnostic D) {
  if (Merger->isDiscarding())
    return;
  if (D.Severity >= diag::Level::Error)
    ++NumReportedErrors;
  Merger->add(std::move(D));
}

void DiagnosticsEngine::deliver(Diagnostic &D) {
  if (admit(D))
    Consumer->handleDiagnostic(D);
}

void DiagnosticsEngine::reportRaw(diag::Level Severity, llvm::StringRef File,
                                  unsigned Line, unsigned Column,
                                  llvm::StringRef Message,
                                  llvm::StringRef LineText,
                                  std::optional<DataModel> Pass) {
  Diagnostic D;
  D.Severity = Severity;
  D.Message = Message.str();
  // Positions inside a buffer we own render exactly like our own.
  FileID F = File.empty() ? FileID() : SM.findFileByName(File);
  if (F.isValid() && Line != 0) {
    D.Loc = SM.getLocation(F, Line, Column ? Column : 1);
  } else {
    D.RawFile = File.str();
    D.RawLine = Line;
    D.RawColumn = Column;
    D.RawLineText = LineText.str();
  }
  D.Pass = Pass;
  submit(std::move(D));
}

bool DiagnosticsEngine::admit(Diagnostic &D) {
  using diag::Level;
  if (D.Severity == Level::Note) {
    if (LastDropped)
      return false;
    return true;
  }
  LastDropped = true;
  if (D.Severity == Level::Ignored || LimitReached || FatalOccurred)
    return false;
  if (D.Severity == Level::Warning) {
    if (IgnoreAllWarnings)
      return false;
    if (WarningsAsErrors)
      D.Severity = Level::Error;
  }
  if (D.Severity >= Level::Error && ErrorLimit && NumErrors >= ErrorLimit) {
    LimitReached = true;
    Diagnostic Fatal;
    Fatal.ID = diag::err_too_many_errors;
    Fatal.Severity = Level::Fatal;
    Fatal.Message = diag::getDescription(diag::err_too_many_errors).str();
    ++NumErrors;
    FatalOccurred = true;
    Consumer->handleDiagnostic(Fatal);
    return false;
  }
  if (D.Severity == Level::Warning)
    ++NumWarnings;
  if (D.Severity >= Level::Error)
    ++NumErrors;
  if (D.Severity == Level::Fatal)
    FatalOccurred = true;
  LastDropped = false;
  return true;
}

void DiagnosticsEngine::printSummary(llvm::raw_ostream &OS) const {
  if (!NumWarnings && !NumErrors)
    return;
  if (NumWarnings)
    OS << NumWarnings << (NumWarnings == 1 ? " warning" : " warnings");
  if (NumWarnings && NumErrors)
    OS << " and ";
  if (NumErrors)
    OS << NumErrors << (NumErrors == 1 ? " error" : " errors");
  OS << " generated.\n";
}

void DiagnosticsEngine::finish() { Consumer->finish(); }
