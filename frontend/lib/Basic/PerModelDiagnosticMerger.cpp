//===- PerModelDiagnosticMerger.cpp - One report per model ----------------===//

#include "tscc/Basic/PerModelDiagnosticMerger.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>

using namespace tscc;

PerModelDiagnosticMerger::PerModelDiagnosticMerger(Sink Emit)
    : Emit(std::move(Emit)) {}

PerModelDiagnosticMerger::~PerModelDiagnosticMerger() {
  // A batch left open (only possible through a bug) still reports.
  if (Depth) {
    Depth = 1;
    flush();
  }
}

std::string PerModelDiagnosticMerger::onlyInModelTag(DataModel M) {
  return M == DataModel::ILP32 ? " [ILP32 only]" : " [LP64 only]";
}

void PerModelDiagnosticMerger::begin() { ++Depth; }

void PerModelDiagnosticMerger::flush() {
  assert(Depth && "flush() without begin()");
  if (!Depth || --Depth)
    return;
  mergeAndEmit();
  for (auto &S : Streams)
    S.clear();
  PassRun = {};
  LastStream.reset();
}

void PerModelDiagnosticMerger::markPassRun(DataModel M) {
  PassRun[static_cast<unsigned>(M)] = true;
}

void PerModelDiagnosticMerger::add(Diagnostic D) {
  if (Discarding)
    return;
  if (!Depth) {
    Emit(D);
    return;
  }
  if (D.Severity == diag::Level::Note && LastStream) {
    Streams[*LastStream].back().Diags.push_back(std::move(D));
    return;
  }
  unsigned S = D.Pass ? static_cast<unsigned>(*D.Pass) : SharedStream;
  Streams[S].emplace_back();
  Streams[S].back().Diags.push_back(std::move(D));
  LastStream = S;
}

static bool sameDiagnostic(const Diagnostic &A, const Diagnostic &B) {
  auto SameRange = [](const SourceRange &X, const SourceRange &Y) {
    return X.getBegin() == Y.getBegin() && X.getEnd() == Y.getEnd();
  };
  auto SameFixIt = [](const FixItHint &X, const FixItHint &Y) {
    return X.Loc == Y.Loc && X.Insertion == Y.Insertion;
  };
  return A.ID == B.ID && A.Severity == B.Severity && A.Loc == B.Loc &&
         A.Message == B.Message && A.RawFile == B.RawFile &&
         A.RawLine == B.RawLine && A.RawColumn == B.RawColumn &&
         std::equal(A.Ranges.begin(), A.Ranges.end(), B.Ranges.begin(),
                    B.Ranges.end(), SameRange) &&
         std::equal(A.FixIts.begin(), A.FixIts.end(), B.FixIts.begin(),
                    B.FixIts.end(), SameFixIt);
}

bool PerModelDiagnosticMerger::Group::sameAs(const Group &O) const {
  return std::equal(Diags.begin(), Diags.end(), O.Diags.begin(), O.Diags.end(),
                    sameDiagnostic);
}

void PerModelDiagnosticMerger::mergeAndEmit() {
  struct Item {
    /// The position the group sorts by (a raw SourceLocation encoding).
    uint32_t Key;
    Group *G;
    std::optional<DataModel> Only;
  };
  std::vector<Item> Items;
  bool BothRan = llvm::all_of(PassRun, [](bool R) { return R; });

  // A group without a position of its own in a buffer we own (Clang's
  // diagnostics inside a header, messages without a position) keeps its
  // place after the group its pass reported before it.
  auto Keys = [](std::vector<Group> &Stream) {
    std::vector<uint32_t> Out;
    uint32_t Prev = 0;
    for (const Group &G : Stream) {
      SourceLocation L = G.Diags.front().Loc;
      if (L.isValid())
        Prev = L.getRawEncoding();
      Out.push_back(Prev);
    }
    return Out;
  };
  // A pass that reported the same thing twice reported it once.
  for (auto &Stream : Streams) {
    std::vector<Group> Unique;
    for (Group &G : Stream)
      if (llvm::none_of(Unique, [&](const Group &U) { return U.sameAs(G); }))
        Unique.push_back(std::move(G));
    Stream = std::move(Unique);
  }

  auto &IL = Streams[static_cast<unsigned>(DataModel::ILP32)];
  auto &LP = Streams[static_cast<unsigned>(DataModel::LP64)];
  std::vector<uint32_t> ILKeys = Keys(IL), LPKeys = Keys(LP);
  std::vector<bool> Matched(LP.size(), false);
  for (size_t I = 0; I < IL.size(); ++I) {
    std::optional<DataModel> Only = DataModel::ILP32;
    for (size_t J = 0; J < LP.size(); ++J)
      if (!Matched[J] && LP[J].sameAs(IL[I])) {
        Matched[J] = true;
        Only.reset();
        break;
      }
    Items.push_back({ILKeys[I], &IL[I], BothRan ? Only : std::nullopt});
  }
  for (size_t J = 0; J < LP.size(); ++J)
    if (!Matched[J])
      Items.push_back(
          {LPKeys[J], &LP[J],
           BothRan ? std::optional(DataModel::LP64) : std::nullopt});
  auto &Shared = Streams[SharedStream];
  std::vector<uint32_t> SharedKeys = Keys(Shared);
  for (size_t I = 0; I < Shared.size(); ++I)
    Items.push_back({SharedKeys[I], &Shared[I], std::nullopt});

  std::stable_sort(Items.begin(), Items.end(),
                   [](const Item &A, const Item &B) { return A.Key < B.Key; });
  for (Item &I : Items)
    emitGroup(std::move(*I.G), I.Only);
}

void PerModelDiagnosticMerger::emitGroup(Group G,
                                         std::optional<DataModel> Only) {
  Diagnostic &Primary = G.Diags.front();
  if (Only && Primary.Severity != diag::Level::Note)
    Primary.Message += onlyInModelTag(*Only);
  Key K{static_cast<uint8_t>(Primary.Severity),
        Primary.Loc.getRawEncoding(),
        Primary.Message,
        Primary.RawFile,
        Primary.RawLine,
        Primary.RawColumn};
  if (!Seen.insert(K).second)
    return;
  for (Diagnostic &D : G.Diags)
    Emit(D);
}
