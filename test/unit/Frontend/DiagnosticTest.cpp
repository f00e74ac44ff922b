//===- DiagnosticTest.cpp -------------------------------------------------===//

#include "tscc/Basic/Diagnostic.h"
#include "tscc/Basic/PerModelDiagnosticMerger.h"
#include "tscc/Basic/SourceManager.h"

#include "gtest/gtest.h"

using namespace tscc;

namespace {

struct DiagFixture : ::testing::Test {
  DiagFixture() : Printer(OS, &SM), Diags(SM, &Printer) {}

  SourceLocation at(unsigned Line, unsigned Col) {
    return SM.getLocation(File, Line, Col);
  }

  SourceManager SM;
  std::string Out;
  llvm::raw_string_ostream OS{Out};
  TextDiagnosticPrinter Printer;
  DiagnosticsEngine Diags;
  FileID File = SM.createFileID("@@BEGIN {\n  x = a + \"b\";\n\tq\n}\n", "s.t");
};

TEST_F(DiagFixture, RendersLikeClang) {
  Diags.report(at(2, 9), diag::err_expected_semi_after_expr)
      << SourceRange(at(2, 7), at(2, 7)) << SourceRange(at(2, 11), at(2, 11))
      << FixItHint::createInsertion(at(2, 14), ";");
  EXPECT_EQ(OS.str(), "s.t:2:9: error: expected ';' after expression\n"
                      "    2 |   x = a + \"b\";\n"
                      "      |       ~ ^ ~~~\n"
                      "      |              ;\n");
  EXPECT_EQ(Diags.getNumErrors(), 1u);
}

TEST_F(DiagFixture, ExpandsTabsInSnippets) {
  Diags.report(at(3, 2), diag::err_expected_expression);
  EXPECT_EQ(OS.str(), "s.t:3:2: error: expected expression\n"
                      "    3 |         q\n"
                      "      |         ^\n");
}

TEST_F(DiagFixture, FormatsArguments) {
  Diags.report(at(1, 1), diag::err_invalid_digit) << "9" << 0;
  Diags.report(at(1, 1), diag::err_probe_empty_field) << 3u;
  EXPECT_NE(OS.str().find("invalid digit '9' in octal constant"),
            std::string::npos);
  EXPECT_NE(OS.str().find("empty field 3 in probe specification"),
            std::string::npos);
  EXPECT_EQ(DiagnosticsEngine::formatMessage("%0 arg%s1, %select{a|b|c}1 %%",
                                             {"x", "2"}, {0, 2}),
            "x args, c %");
  EXPECT_EQ(DiagnosticsEngine::formatMessage("%0 arg%s1", {"x", "1"}, {0, 1}),
            "x arg");
}

TEST_F(DiagFixture, NoLocationNoSnippet) {
  Diags.report(diag::err_stage_unavailable) << "object emission";
  EXPECT_EQ(OS.str(),
            "error: object emission is not available in this build\n");
}

TEST_F(DiagFixture, WerrorAndIgnoreWarnings) {
  Diags.report(at(1, 1), diag::warn_multichar_character);
  EXPECT_EQ(Diags.getNumWarnings(), 1u);
  EXPECT_FALSE(Diags.hasErrorOccurred());
  Diags.setWarningsAsErrors(true);
  Diags.report(at(1, 1), diag::warn_multichar_character);
  EXPECT_EQ(Diags.getNumErrors(), 1u);
  EXPECT_NE(OS.str().find("error: multi-character"), std::string::npos);
  Diags.setIgnoreAllWarnings(true);
  std::string Before = OS.str();
  Diags.report(at(1, 1), diag::warn_multichar_character);
  EXPECT_EQ(OS.str(), Before);
}

TEST_F(DiagFixture, NotesFollowTheirDiagnostic) {
  Diags.setIgnoreAllWarnings(true);
  Diags.report(at(1, 1), diag::warn_multichar_character);
  Diags.report(at(1, 1), diag::note_declared_here);
  EXPECT_EQ(OS.str(), "");
  Diags.report(at(1, 1), diag::err_expected_rparen);
  Diags.report(at(1, 9), diag::note_to_match_this) << "'('";
  EXPECT_NE(OS.str().find("s.t:1:9: note: to match this '('"),
            std::string::npos);
}

TEST_F(DiagFixture, SuppressesDuplicatesInMergerBatches) {
  {
    PerModelDiagnosticMerger::Batch B(Diags.getMerger());
    Diags.report(at(2, 3), diag::err_undeclared_identifier) << "x";
    Diags.report(at(2, 3), diag::err_undeclared_identifier) << "x";
    Diags.report(at(2, 3), diag::err_undeclared_identifier) << "y";
    EXPECT_EQ(Diags.getNumErrors(), 0u) << "held until the batch ends";
  }
  EXPECT_EQ(Diags.getNumErrors(), 2u);
}

TEST_F(DiagFixture, ErrorLimit) {
  Diags.setErrorLimit(2);
  for (int I = 0; I < 5; ++I)
    Diags.report(at(2, 3), diag::err_expected_expression);
  EXPECT_TRUE(Diags.hasFatalErrorOccurred());
  EXPECT_NE(OS.str().find("fatal error: too many errors emitted, stopping now"),
            std::string::npos);
  size_t N = 0;
  for (size_t P = OS.str().find("error: expected expression");
       P != std::string::npos;
       P = OS.str().find("error: expected expression", P + 1))
    ++N;
  EXPECT_EQ(N, 2u);
}

TEST_F(DiagFixture, RawDiagnostics) {
  // A position in a buffer we own renders with its source line.
  Diags.reportRaw(diag::Level::Error, "s.t", 2, 3, "unknown type name 'foo'");
  EXPECT_NE(OS.str().find("s.t:2:3: error: unknown type name 'foo'\n"
                          "    2 |   x = a + \"b\";\n"
                          "      |   ^\n"),
            std::string::npos);
  Out.clear();
  Diags.reportRaw(diag::Level::Warning, "/usr/include/x.h", 10, 5, "something",
                  "int  y;");
  EXPECT_EQ(OS.str(), "/usr/include/x.h:10:5: warning: something\n"
                      "   10 | int  y;\n"
                      "      |     ^\n");
  Out.clear();
  Diags.reportRaw(diag::Level::Note, "", 0, 0, "in file included here");
  EXPECT_EQ(OS.str(), "note: in file included here\n");
}

TEST_F(DiagFixture, Summary) {
  std::string S;
  llvm::raw_string_ostream SS(S);
  Diags.printSummary(SS);
  EXPECT_EQ(SS.str(), "");
  Diags.report(at(1, 1), diag::warn_multichar_character);
  Diags.report(at(1, 1), diag::err_expected_expression);
  Diags.report(at(1, 1), diag::err_expected_expression);
  Diags.printSummary(SS);
  EXPECT_EQ(SS.str(), "1 warning and 2 errors generated.\n");
}

TEST(DiagnosticTableTest, MessagesAreLowerCaseWithoutPeriod) {
  for (unsigned I = 0; I < diag::NUM_DIAGNOSTICS; ++I) {
    llvm::StringRef Text = diag::getDescription(static_cast<diag::ID>(I));
    ASSERT_FALSE(Text.empty()) << diag::getName(static_cast<diag::ID>(I)).str();
    EXPECT_FALSE(Text.ends_with(".")) << Text.str();
    // Proper names such as the String type may start a message.
    if (!Text.starts_with("String")) {
      EXPECT_FALSE(Text[0] >= 'A' && Text[0] <= 'Z') << Text.str();
    }
  }
}

} // namespace
