//===- PerModelDiagnosticMergerTest.cpp -----------------------------------===//

#include "tscc/Basic/PerModelDiagnosticMerger.h"
#include "tscc/Basic/Diagnostic.h"
#include "tscc/Basic/SourceManager.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tscc;

namespace {

/// The merger alone: what leaves it, as "line:col: level: message".
struct MergerFixture : ::testing::Test {
  MergerFixture()
      : Merger([this](Diagnostic &D) { Out.push_back(render(D)); }) {}

  SourceLocation at(unsigned Line, unsigned Col) {
    return SM.getLocation(File, Line, Col);
  }

  Diagnostic make(diag::Level L, SourceLocation Loc, std::string Message,
                  std::optional<DataModel> Pass) {
    Diagnostic D;
    D.Severity = L;
    D.Loc = Loc;
    D.Message = std::move(Message);
    D.Pass = Pass;
    return D;
  }
  void error(SourceLocation Loc, std::string Message,
             std::optional<DataModel> Pass) {
    Merger.add(make(diag::Level::Error, Loc, std::move(Message), Pass));
  }
  void note(SourceLocation Loc, std::string Message,
            std::optional<DataModel> Pass) {
    Merger.add(make(diag::Level::Note, Loc, std::move(Message), Pass));
  }

  std::string render(const Diagnostic &D) {
    std::string Pos = D.Loc.isValid()
                          ? std::to_string(SM.getLineNumber(D.Loc)) + ":" +
                                std::to_string(SM.getColumnNumber(D.Loc))
                          : D.RawFile + ":" + std::to_string(D.RawLine);
    return Pos + ": " + (D.Severity == diag::Level::Note ? "note" : "error") +
           ": " + D.Message;
  }

  static constexpr DataModel IL = DataModel::ILP32;
  static constexpr DataModel LP = DataModel::LP64;

  SourceManager SM;
  FileID File = SM.createFileID("line 1\nline 2\nline 3\nline 4\n", "s.t");
  std::vector<std::string> Out;
  PerModelDiagnosticMerger Merger;
};

using Lines = std::vector<std::string>;

TEST_F(MergerFixture, BothModelsReportedOnceUntagged) {
  Merger.begin();
  Merger.markPassRun(IL);
  error(at(2, 3), "bad", IL);
  Merger.markPassRun(LP);
  error(at(2, 3), "bad", LP);
  EXPECT_TRUE(Out.empty()) << "held until the batch ends";
  Merger.flush();
  EXPECT_EQ(Out, Lines({"2:3: error: bad"}));
}

TEST_F(MergerFixture, OneModelTagged) {
  Merger.begin();
  Merger.markPassRun(IL);
  error(at(1, 1), "only narrow", IL);
  error(at(3, 1), "both", IL);
  Merger.markPassRun(LP);
  error(at(2, 1), "only wide", LP);
  error(at(3, 1), "both", LP);
  Merger.flush();
  EXPECT_EQ(Out,
            Lines({"1:1: error: only narrow [ILP32 only]",
                   "2:1: error: only wide [LP64 only]", "3:1: error: both"}));
}

TEST_F(MergerFixture, NothingIsOnlyInOneModelUnlessBothPassesRan) {
  // A clause without a process is only checked for LP64.
  Merger.begin();
  Merger.markPassRun(LP);
  error(at(1, 1), "wide", LP);
  Merger.flush();
  EXPECT_EQ(Out, Lines({"1:1: error: wide"}));
}

TEST_F(MergerFixture, APassThatRanSilentlyStillCounts) {
  Merger.begin();
  Merger.markPassRun(IL);
  Merger.markPassRun(LP);
  error(at(1, 1), "wide", LP);
  Merger.flush();
  EXPECT_EQ(Out, Lines({"1:1: error: wide [LP64 only]"}));
}

TEST_F(MergerFixture, NotesStayWithTheirDiagnosticAndAreNotTagged) {
  Merger.begin();
  Merger.markPassRun(IL);
  error(at(4, 1), "late", IL);
  note(at(1, 1), "see here", IL);
  error(at(2, 1), "early", IL);
  Merger.markPassRun(LP);
  error(at(2, 1), "early", LP);
  Merger.flush();
  // Sorted by the diagnostic's position; the note travels with it.
  EXPECT_EQ(Out, Lines({"2:1: error: early", "4:1: error: late [ILP32 only]",
                        "1:1: note: see here"}));
}

TEST_F(MergerFixture, DifferentNotesMakeDifferentDiagnostics) {
  Merger.begin();
  Merger.markPassRun(IL);
  error(at(2, 1), "mismatch", IL);
  note(at(1, 1), "'long' is 4 bytes", IL);
  Merger.markPassRun(LP);
  error(at(2, 1), "mismatch", LP);
  note(at(1, 1), "'long' is 8 bytes", LP);
  Merger.flush();
  EXPECT_EQ(Out, Lines({"2:1: error: mismatch [ILP32 only]",
                        "1:1: note: 'long' is 4 bytes",
                        "2:1: error: mismatch [LP64 only]",
                        "1:1: note: 'long' is 8 bytes"}));
}

TEST_F(MergerFixture, SharedDiagnosticsJoinInSourceOrder) {
  Merger.begin();
  Merger.markPassRun(IL);
  error(at(3, 1), "three", IL);
  Merger.markPassRun(LP);
  error(at(3, 1), "three", LP);
  // Reported during the LP64 pass, but the same for every model.
  error(at(1, 1), "one, about both models", std::nullopt);
  error(at(4, 1), "four", LP);
  Merger.flush();
  EXPECT_EQ(Out, Lines({"1:1: error: one, about both models",
                        "3:1: error: three", "4:1: error: four [LP64 only]"}));
}

TEST_F(MergerFixture, PositionlessDiagnosticsKeepTheirPlaceInTheirPass) {
  // Clang's diagnostics in a header have no position in our buffers: they
  // stay after what their pass reported before them.
  Merger.begin();
  for (DataModel M : AllDataModels) {
    Merger.markPassRun(M);
    error(at(2, 1), "in the script", M);
    Diagnostic H = make(diag::Level::Error, {}, "in a header", M);
    H.RawFile = "h.h";
    H.RawLine = 7;
    Merger.add(H);
    error(at(3, 1), "later in the script", M);
  }
  error(at(1, 1), "first", std::nullopt);
  Merger.flush();
  EXPECT_EQ(Out, Lines({"1:1: error: first", "2:1: error: in the script",
                        "h.h:7: error: in a header",
                        "3:1: error: later in the script"}));
}

TEST_F(MergerFixture, RepeatsWithinOnePassCountOnce) {
  // An expression checked twice in one pass reports twice: that is neither
  // two diagnostics nor one that only this model has.
  Merger.begin();
  Merger.markPassRun(IL);
  error(at(1, 1), "twice", IL);
  error(at(1, 1), "twice", IL);
  Merger.markPassRun(LP);
  error(at(1, 1), "twice", LP);
  Merger.flush();
  EXPECT_EQ(Out, Lines({"1:1: error: twice"}));
}

TEST_F(MergerFixture, DuplicatesAreDroppedWithTheirNotes) {
  // The lexer and sema report an empty probe field with the same words.
  for (int Batch = 0; Batch < 2; ++Batch) {
    Merger.begin();
    error(at(1, 1), "found twice", std::nullopt);
    note(at(2, 1), "its note", std::nullopt);
    Merger.flush();
  }
  Merger.begin();
  error(at(1, 1), "found twice", std::nullopt);
  error(at(1, 1), "something else", std::nullopt);
  Merger.flush();
  EXPECT_EQ(Out, Lines({"1:1: error: found twice", "2:1: note: its note",
                        "1:1: error: something else"}));
}

TEST_F(MergerFixture, OutsideABatchEverythingPassesStraightOn) {
  error(at(2, 1), "two", std::nullopt);
  note(at(2, 1), "its note", std::nullopt);
  error(at(1, 1), "one", LP);
  error(at(1, 1), "one", LP);
  EXPECT_EQ(Out, Lines({"2:1: error: two", "2:1: note: its note",
                        "1:1: error: one", "1:1: error: one"}));
}

TEST_F(MergerFixture, NestedBatchesEmitOnceAtTheOutermostFlush) {
  Merger.begin();
  Merger.begin();
  error(at(2, 1), "two", std::nullopt);
  Merger.flush();
  EXPECT_TRUE(Out.empty());
  error(at(1, 1), "one", std::nullopt);
  Merger.flush();
  EXPECT_EQ(Out, Lines({"1:1: error: one", "2:1: error: two"}));
  EXPECT_FALSE(Merger.isHolding());
}

TEST_F(MergerFixture, ABatchForgetsWhichPassesRan) {
  Merger.begin();
  Merger.markPassRun(IL);
  Merger.markPassRun(LP);
  Merger.flush();
  Merger.begin();
  error(at(1, 1), "wide", LP);
  Merger.flush();
  EXPECT_EQ(Out, Lines({"1:1: error: wide"}));
}

TEST_F(MergerFixture, DiscardDropsWhatIsReportedWhileItLives) {
  Merger.begin();
  error(at(1, 1), "kept", IL);
  {
    PerModelDiagnosticMerger::Discard Quiet(Merger);
    error(at(2, 1), "dropped", IL);
    note(at(2, 1), "dropped too", IL);
  }
  note(at(1, 1), "kept note", IL);
  Merger.flush();
  EXPECT_EQ(Out, Lines({"1:1: error: kept", "1:1: note: kept note"}));
}

/// Through a DiagnosticsEngine, as the compiler uses it.
struct EngineFixture : ::testing::Test {
  EngineFixture() : Printer(OS, &SM), Diags(SM, &Printer) {
    Printer.setShowSourceSnippet(false);
  }
  SourceLocation at(unsigned Line, unsigned Col) {
    return SM.getLocation(File, Line, Col);
  }
  /// Reports the same in both passes, and \p Extra in ILP32 only.
  void bothPasses(diag::ID Extra) {
    for (DataModel M : AllDataModels) {
      Diags.getMerger().markPassRun(M);
      inPass(Diags.report(at(1, 1), diag::err_undeclared_identifier), M) << "x";
      Diags.report(at(1, 5), diag::note_declared_here);
      if (M == DataModel::ILP32)
        inPass(Diags.report(at(2, 1), Extra), M) << "y";
    }
  }
  static DiagnosticBuilder inPass(DiagnosticBuilder B, DataModel M) {
    B.setPass(M);
    return B;
  }

  SourceManager SM;
  FileID File = SM.createFileID("x = 1;\ny = 2;\n", "s.t");
  std::string Text;
  llvm::raw_string_ostream OS{Text};
  TextDiagnosticPrinter Printer;
  DiagnosticsEngine Diags;
};

TEST_F(EngineFixture, CountsWhatIsPrinted) {
  {
    PerModelDiagnosticMerger::Batch B(Diags.getMerger());
    bothPasses(diag::err_undeclared_identifier);
    EXPECT_EQ(Diags.getNumErrors(), 0u);
    EXPECT_EQ(Diags.getNumReportedErrors(), 3u);
  }
  EXPECT_EQ(Text, "s.t:1:1: error: use of undeclared identifier 'x'\n"
                  "s.t:1:5: note: declared here\n"
                  "s.t:2:1: error: use of undeclared identifier 'y' "
                  "[ILP32 only]\n");
  EXPECT_EQ(Diags.getNumErrors(), 2u);
}

TEST_F(EngineFixture, DiscardedErrorsAreNotCounted) {
  {
    PerModelDiagnosticMerger::Discard Quiet(Diags.getMerger());
    Diags.report(at(1, 1), diag::err_undeclared_identifier) << "x";
  }
  EXPECT_EQ(Diags.getNumReportedErrors(), 0u);
  EXPECT_EQ(Diags.getNumErrors(), 0u);
  EXPECT_EQ(Text, "");
}

TEST_F(EngineFixture, ErrorLimitAppliesAfterMerging) {
  Diags.setErrorLimit(2);
  {
    PerModelDiagnosticMerger::Batch B(Diags.getMerger());
    bothPasses(diag::err_undeclared_identifier);
  }
  EXPECT_FALSE(Diags.hasFatalErrorOccurred()) << Text;
  EXPECT_EQ(Diags.getNumErrors(), 2u);
}

TEST_F(EngineFixture, WarningsAsErrorsCountOncePerMergedWarning) {
  Diags.setWarningsAsErrors(true);
  {
    PerModelDiagnosticMerger::Batch B(Diags.getMerger());
    for (DataModel M : AllDataModels) {
      Diags.getMerger().markPassRun(M);
      inPass(Diags.report(at(1, 1), diag::warn_multichar_character), M);
    }
  }
  EXPECT_EQ(Diags.getNumErrors(), 1u);
  EXPECT_EQ(Text, "s.t:1:1: error: multi-character character constant\n");
}

TEST_F(EngineFixture, IgnoredWarningsTakeTheirNotesAlong) {
  Diags.setIgnoreAllWarnings(true);
  {
    PerModelDiagnosticMerger::Batch B(Diags.getMerger());
    inPass(Diags.report(at(1, 1), diag::warn_multichar_character),
           DataModel::LP64);
    Diags.report(at(1, 5), diag::note_declared_here);
  }
  EXPECT_EQ(Text, "");
}

TEST_F(EngineFixture, ADiagnosticWithoutAPassHoldsForEveryModel) {
  {
    PerModelDiagnosticMerger::Batch B(Diags.getMerger());
    Diags.getMerger().markPassRun(DataModel::ILP32);
    Diags.getMerger().markPassRun(DataModel::LP64);
    Diags.report(at(2, 1), diag::err_undeclared_identifier) << "y";
  }
  EXPECT_EQ(Text, "s.t:2:1: error: use of undeclared identifier 'y'\n");
}

TEST_F(EngineFixture, RawDiagnosticsNameTheirPass) {
  {
    PerModelDiagnosticMerger::Batch B(Diags.getMerger());
    for (DataModel M : AllDataModels) {
      Diags.getMerger().markPassRun(M);
      Diags.reportRaw(diag::Level::Error, "s.t", 2, 1, "from clang", {}, M);
      if (M == DataModel::LP64)
        Diags.reportRaw(diag::Level::Error, "/usr/include/h.h", 9, 2,
                        "in a header", "int x;", M);
    }
  }
  EXPECT_EQ(Text, "s.t:2:1: error: from clang\n"
                  "/usr/include/h.h:9:2: error: in a header [LP64 only]\n");
}

} // namespace
