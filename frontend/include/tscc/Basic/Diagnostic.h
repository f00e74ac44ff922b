//===- tscc/Basic/Diagnostic.h - Diagnostics engine -------------*- C++ -*-===//
//
// One DiagnosticsEngine per compilation. Every message has an id and a text
// in one of the X-macro tables (DiagnosticFrontendKinds.def, ...Sema...,
// ...CodeGen...). Diagnostics are built Clang-style:
//
//   Diags.report(Tok.getLoc(), diag::err_expected_semi_after_expr)
//       << SomeRange << FixItHint::createInsertion(Loc, ";");
//   Diags.report(E->getBeginLoc(), diag::err_unknown_builtin) << Name;
//
// and emitted when the builder goes out of scope. Message texts use %0..%9
// for arguments, %select{a|b|c}N to pick by an integer argument, and %sN
// for an English plural 's' when argument N != 1. Messages are lower-case
// without a trailing period.
//
// A note reported right after an error or warning belongs to it: it is
// printed after it and suppressed with it (duplicate suppression, -w).
//
// Every diagnostic passes through the engine's PerModelDiagnosticMerger
// (PerModelDiagnosticMerger.h) before it is admitted: while a batch is
// open, it holds diagnostics to report those of the two data models'
// passes once, in source order, without repeats.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_BASIC_DIAGNOSTIC_H
#define TSCC_BASIC_DIAGNOSTIC_H

#include "tscc/Basic/SourceLocation.h"
#include "tscc/DataModel.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tscc {

class SourceManager;

namespace diag {

/// Severity as written in the tables; the engine maps it (e.g. -Werror
/// turns Warning into Error).
enum class Level : uint8_t { Ignored, Note, Remark, Warning, Error, Fatal };

enum ID : unsigned {
#define DIAG(ENUM, LEVEL, TEXT) ENUM,
#include "tscc/Basic/DiagnosticCodeGenKinds.def"
#include "tscc/Basic/DiagnosticFrontendKinds.def"
#include "tscc/Basic/DiagnosticSemaKinds.def"
#undef DIAG
  NUM_DIAGNOSTICS
};

/// The table severity and text of \p D.
Level getDefaultLevel(ID D);
llvm::StringRef getDescription(ID D);
/// The enumerator's name, e.g. "err_expected_semi_after_expr".
llvm::StringRef getName(ID D);

} // namespace diag

/// A suggested source edit, rendered under the caret line like Clang's
/// fix-it hints. Only insertions are rendered.
struct FixItHint {
  SourceLocation Loc;
  std::string Insertion;

  static FixItHint createInsertion(SourceLocation Loc, llvm::StringRef Text) {
    return FixItHint{Loc, Text.str()};
  }
};

/// A fully formatted diagnostic, as handed to a DiagnosticConsumer.
struct Diagnostic {
  /// diag::NUM_DIAGNOSTICS for raw diagnostics (see reportRaw).
  unsigned ID = diag::NUM_DIAGNOSTICS;
  diag::Level Severity = diag::Level::Error; ///< After -Werror mapping.
  SourceLocation Loc;
  llvm::SmallVector<SourceRange, 2> Ranges;
  llvm::SmallVector<FixItHint, 1> FixIts;
  std::string Message;

  /// For diagnostics whose position is not in a SourceManager buffer (for
  /// example Clang's diagnostics inside a system header): the file, line
  /// and column to print and optionally the source line for the caret.
  std::string RawFile;
  unsigned RawLine = 0;
  unsigned RawColumn = 0;
  std::string RawLineText;

  /// The data model whose pass reported this diagnostic; none for one that
  /// holds for every model or names its model itself. Only the
  /// PerModelDiagnosticMerger reads it.
  std::optional<DataModel> Pass;
};

/// Receives every diagnostic the engine decides to emit.
class DiagnosticConsumer {
public:
  virtual ~DiagnosticConsumer();
  virtual void handleDiagnostic(const Diagnostic &D) = 0;
  /// Called by DiagnosticsEngine::finish().
  virtual void finish() {}
};

/// Renders diagnostics like Clang 19:
///   file:line:col: error: message
///       3 |   source line
///         |   ~~~~^~~~
///         |       ;
class TextDiagnosticPrinter : public DiagnosticConsumer {
public:
  TextDiagnosticPrinter(llvm::raw_ostream &OS, const SourceManager *SM)
      : OS(OS), SM(SM) {}
  void handleDiagnostic(const Diagnostic &D) override;
  void setShowSourceSnippet(bool V) { ShowSnippet = V; }

private:
  void printSnippet(const Diagnostic &D);
  void printRawSnippet(const Diagnostic &D);

  llvm::raw_ostream &OS;
  const SourceManager *SM;
  bool ShowSnippet = true;
};

class DiagnosticsEngine;
class PerModelDiagnosticMerger;

/// Collects the arguments of one diagnostic; emits it when destroyed.
class DiagnosticBuilder {
public:
  DiagnosticBuilder(DiagnosticsEngine &Engine, diag::ID ID, SourceLocation Loc);
  DiagnosticBuilder(DiagnosticBuilder &&Other) noexcept;
  DiagnosticBuilder(const DiagnosticBuilder &) = delete;
  DiagnosticBuilder &operator=(const DiagnosticBuilder &) = delete;
  DiagnosticBuilder &operator=(DiagnosticBuilder &&) = delete;
  ~DiagnosticBuilder();

  const DiagnosticBuilder &operator<<(llvm::StringRef S) const;
  const DiagnosticBuilder &operator<<(const char *S) const;
  const DiagnosticBuilder &operator<<(const std::string &S) const;
  const DiagnosticBuilder &operator<<(int V) const;
  const DiagnosticBuilder &operator<<(unsigned V) const;
  const DiagnosticBuilder &operator<<(long V) const;
  const DiagnosticBuilder &operator<<(unsigned long V) const;
  const DiagnosticBuilder &operator<<(long long V) const;
  const DiagnosticBuilder &operator<<(unsigned long long V) const;
  /// An extra range to underline with '~'.
  const DiagnosticBuilder &operator<<(SourceRange R) const;
  const DiagnosticBuilder &operator<<(const FixItHint &F) const;

  /// The data model whose pass reports this diagnostic (none: it holds for
  /// every model). Read by the PerModelDiagnosticMerger.
  void setPass(std::optional<DataModel> M) { Pass = M; }

private:
  struct Arg {
    std::string Text;
    int64_t Int = 0;
    bool IsInt = false;
  };

  DiagnosticsEngine *Engine;
  diag::ID DiagID;
  SourceLocation Loc;
  mutable llvm::SmallVector<Arg, 4> Args;
  mutable llvm::SmallVector<SourceRange, 2> Ranges;
  mutable llvm::SmallVector<FixItHint, 1> FixIts;
  std::optional<DataModel> Pass;

  friend class DiagnosticsEngine;
};

class DiagnosticsEngine {
public:
  /// Diagnostics go to \p Consumer (not owned), or to a TextDiagnosticPrinter
  /// on llvm::errs() when it is null.
  explicit DiagnosticsEngine(const SourceManager &SM,
                             DiagnosticConsumer *Consumer = nullptr);
  ~DiagnosticsEngine();
  DiagnosticsEngine(const DiagnosticsEngine &) = delete;
  DiagnosticsEngine &operator=(const DiagnosticsEngine &) = delete;

  const SourceManager &getSourceManager() const { return SM; }
  void setConsumer(DiagnosticConsumer *C);
  DiagnosticConsumer &getConsumer() { return *Consumer; }

  /// Caret at \p Loc.
  DiagnosticBuilder report(SourceLocation Loc, diag::ID ID);
  /// Caret at the range's begin, the range underlined.
  DiagnosticBuilder report(SourceRange Range, diag::ID ID);
  /// A diagnostic without a source position ("error: message").
  DiagnosticBuilder report(diag::ID ID);

  /// A diagnostic produced elsewhere (Clang) at a position given as text.
  /// \p File may name a buffer of the SourceManager (then the source line
  /// is taken from it); otherwise \p LineText, if non-empty, is shown.
  /// \p Column is 1-based; 0 means "no column". \p Pass: the data model
  /// whose pass produced it (Clang's instance for that model), if any.
  void reportRaw(diag::Level Severity, llvm::StringRef File, unsigned Line,
                 unsigned Column, llvm::StringRef Message,
                 llvm::StringRef LineText = {},
                 std::optional<DataModel> Pass = std::nullopt);

  /// -Werror.
  void setWarningsAsErrors(bool V) { WarningsAsErrors = V; }
  bool getWarningsAsErrors() const { return WarningsAsErrors; }
  /// -w.
  void setIgnoreAllWarnings(bool V) { IgnoreAllWarnings = V; }
  bool getIgnoreAllWarnings() const { return IgnoreAllWarnings; }
  /// Holds, merges and de-duplicates diagnostics before they are admitted.
  PerModelDiagnosticMerger &getMerger() { return *Merger; }
  /// Stop emitting (and say so once) after this many errors; 0 = no limit.
  void setErrorLimit(unsigned N) { ErrorLimit = N; }

  /// Errors emitted so far (after merging, -Werror and the error limit).
  unsigned getNumErrors() const { return NumErrors; }
  /// Errors reported so far, including those a merger batch still holds:
  /// whether a step failed, before its diagnostics are merged.
  unsigned getNumReportedErrors() const { return NumReportedErrors; }
  unsigned getNumWarnings() const { return NumWarnings; }
  bool hasErrorOccurred() const { return NumErrors != 0; }
  bool hasFatalErrorOccurred() const { return FatalOccurred; }

  /// Prints "N warnings and M errors generated." (nothing if both are 0).
  void printSummary(llvm::raw_ostream &OS) const;
  /// Tells the consumer that no more diagnostics will come.
  void finish();

  /// Expands a message template with already formatted arguments. Exposed
  /// for tests.
  static std::string formatMessage(llvm::StringRef Template,
                                   llvm::ArrayRef<std::string> Args,
                                   llvm::ArrayRef<int64_t> IntArgs);

private:
  friend class DiagnosticBuilder;
  void emit(const DiagnosticBuilder &B);
  /// Hands \p D to the merger, which passes it on to deliver().
  void submit(Diagnostic D);
  /// Admits \p D and passes it to the consumer.
  void deliver(Diagnostic &D);
  /// Maps severity, counts; false if the diagnostic is dropped.
  bool admit(Diagnostic &D);

  const SourceManager &SM;
  DiagnosticConsumer *Consumer;
  std::unique_ptr<DiagnosticConsumer> OwnedConsumer;

  bool WarningsAsErrors = false;
  bool IgnoreAllWarnings = false;
  unsigned ErrorLimit = 0;

  std::unique_ptr<PerModelDiagnosticMerger> Merger;
  unsigned NumReportedErrors = 0;
  unsigned NumErrors = 0;
  unsigned NumWarnings = 0;
  bool FatalOccurred = false;
  bool LimitReached = false;
  /// Whether the last non-note diagnostic was dropped (its notes follow it).
  bool LastDropped = false;
};

} // namespace tscc

#endif // TSCC_BASIC_DIAGNOSTIC_H
