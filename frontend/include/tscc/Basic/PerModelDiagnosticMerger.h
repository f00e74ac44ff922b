//===- tscc/Basic/PerModelDiagnosticMerger.h - Merge two passes -*- C++ -*-===//
//
// tscc checks a script once per data model (ILP32, LP64): Clang parses the
// C declarations twice and sema types every clause twice. The merger sits
// between the places that report diagnostics and the DiagnosticsEngine's
// admission (severity mapping, -w, the error limit, counting), so that the
// user sees one report:
//
//   - a diagnostic both models' passes produced is emitted once, untagged;
//   - one only one pass produced is emitted once, its message ending in
//     " [ILP32 only]" or " [LP64 only]" (onlyInModelTag());
//   - a note stays with the diagnostic it follows, and a diagnostic with its
//     notes is one unit for matching, ordering and de-duplication;
//   - everything held in a batch comes out in source order;
//   - a diagnostic identical (severity, position, text) to one a batch
//     already emitted is dropped, with its notes: the parser and sema, or
//     two checks of one expression, may find the same thing.
//
// Every DiagnosticsEngine owns one merger and routes every diagnostic
// through it; outside a batch they pass straight on. A batch is opened
// with begin() and closed with flush(); in between, diagnostics are held,
// each filed under the pass that reported it (Diagnostic::Pass, set with
// DiagnosticBuilder::setPass or reportRaw's last argument: a data model, or
// none for one that holds for every model or names its model itself).
// Batches nest; the outermost flush() merges and emits.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_BASIC_PERMODELDIAGNOSTICMERGER_H
#define TSCC_BASIC_PERMODELDIAGNOSTICMERGER_H

#include "tscc/Basic/Diagnostic.h"
#include "tscc/DataModel.h"

#include "llvm/ADT/FunctionExtras.h"

#include <array>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace tscc {

class PerModelDiagnosticMerger {
public:
  /// \p Emit receives every diagnostic that leaves the merger, primary
  /// diagnostics immediately followed by their notes.
  using Sink = llvm::unique_function<void(Diagnostic &)>;
  explicit PerModelDiagnosticMerger(Sink Emit);
  ~PerModelDiagnosticMerger();
  PerModelDiagnosticMerger(const PerModelDiagnosticMerger &) = delete;
  PerModelDiagnosticMerger &
  operator=(const PerModelDiagnosticMerger &) = delete;

  /// Opens a batch, or joins the one already open.
  void begin();
  /// Closes a batch; the outermost one merges what it holds and emits it.
  void flush();
  bool isHolding() const { return Depth != 0; }

  /// begin() for the lifetime of a scope.
  class Batch {
  public:
    explicit Batch(PerModelDiagnosticMerger &M) : M(M) { M.begin(); }
    ~Batch() { M.flush(); }
    Batch(const Batch &) = delete;
    Batch &operator=(const Batch &) = delete;

  private:
    PerModelDiagnosticMerger &M;
  };

  /// Drops every diagnostic reported while it lives: for checks whose
  /// failures the caller sums up in one diagnostic of its own (a macro's
  /// expansion checked as an expression).
  class Discard {
  public:
    explicit Discard(PerModelDiagnosticMerger &M) : M(M) { ++M.Discarding; }
    ~Discard() { --M.Discarding; }
    Discard(const Discard &) = delete;
    Discard &operator=(const Discard &) = delete;

  private:
    PerModelDiagnosticMerger &M;
  };
  bool isDiscarding() const { return Discarding != 0; }

  /// Records that \p M's pass ran in the current batch, whether or not it
  /// reported anything. Only when both passes ran can a diagnostic be
  /// "only" in one of them; otherwise nothing is tagged.
  void markPassRun(DataModel M);

  /// Takes one diagnostic; a note joins the diagnostic added before it.
  /// Dropped while a Discard lives.
  void add(Diagnostic D);

  /// The text appended to a diagnostic that only \p M's pass produced.
  static std::string onlyInModelTag(DataModel M);

private:
  /// A diagnostic and the notes that follow it.
  struct Group {
    std::vector<Diagnostic> Diags;
    bool sameAs(const Group &O) const;
  };
  /// Where a group came from: the shared stream or one model's pass.
  static constexpr unsigned SharedStream = NumDataModels;
  static constexpr unsigned NumStreams = NumDataModels + 1;

  void mergeAndEmit();
  /// De-duplicates and passes \p G on; \p Only tags its primary.
  void emitGroup(Group G, std::optional<DataModel> Only);

  Sink Emit;
  unsigned Depth = 0;
  unsigned Discarding = 0;
  std::array<bool, NumDataModels> PassRun{};
  std::array<std::vector<Group>, NumStreams> Streams;
  /// The stream whose last group the next note joins; none before the
  /// first diagnostic of a batch.
  std::optional<unsigned> LastStream;
  /// Every diagnostic a batch emitted, to drop repeats in later batches.
  using Key = std::tuple<uint8_t, uint32_t, std::string, std::string, unsigned,
                         unsigned>;
  std::set<Key> Seen;
};

} // namespace tscc

#endif // TSCC_BASIC_PERMODELDIAGNOSTICMERGER_H
