//===- SourceManagerTest.cpp ----------------------------------------------===//

#include "tscc/Basic/SourceManager.h"

#include "gtest/gtest.h"

using namespace tscc;

namespace {

TEST(SourceManagerTest, LineAndColumnAreOneBased) {
  SourceManager SM;
  FileID F = SM.createFileID("ab\ncde\n\nf", "t.t");
  SourceLocation Start = SM.getLocForStartOfFile(F);
  EXPECT_EQ(SM.getLineNumber(Start), 1u);
  EXPECT_EQ(SM.getColumnNumber(Start), 1u);
  SourceLocation D = Start.getLocWithOffset(4); // 'd'
  EXPECT_EQ(SM.getLineNumber(D), 2u);
  EXPECT_EQ(SM.getColumnNumber(D), 2u);
  SourceLocation FLoc = Start.getLocWithOffset(8); // 'f'
  EXPECT_EQ(SM.getLineNumber(FLoc), 4u);
  EXPECT_EQ(SM.getColumnNumber(FLoc), 1u);
  EXPECT_EQ(SM.getNumLines(F), 4u);
}

TEST(SourceManagerTest, LineTextWithoutTerminator) {
  SourceManager SM;
  FileID F = SM.createFileID("one\r\ntwo\nthree", "t.t");
  EXPECT_EQ(SM.getLineText(F, 1), "one");
  EXPECT_EQ(SM.getLineText(F, 2), "two");
  EXPECT_EQ(SM.getLineText(F, 3), "three");
  EXPECT_EQ(SM.getLineText(F, 4), "");
  EXPECT_EQ(SM.getLineText(F, 0), "");
}

TEST(SourceManagerTest, LocationFromLineAndColumnClamps) {
  SourceManager SM;
  FileID F = SM.createFileID("abc\nde\n", "t.t");
  SourceLocation L = SM.getLocation(F, 2, 2);
  EXPECT_EQ(*SM.getCharacterData(L), 'e');
  // Past the end of the line: the line's end.
  SourceLocation Past = SM.getLocation(F, 2, 40);
  EXPECT_EQ(SM.getColumnNumber(Past), 3u);
  EXPECT_EQ(SM.getLineNumber(Past), 2u);
  EXPECT_TRUE(SM.getLocation(FileID(), 1, 1).isInvalid());
}

TEST(SourceManagerTest, SeveralBuffersHaveDisjointLocations) {
  SourceManager SM;
  FileID A = SM.createFileID("aaaa", "a.t");
  FileID B = SM.createFileID("bb", "b.t");
  EXPECT_NE(A, B);
  EXPECT_EQ(SM.getMainFileID(), A);
  SourceLocation EndA = SM.getLocForOffset(A, 4);
  SourceLocation StartB = SM.getLocForStartOfFile(B);
  EXPECT_NE(EndA, StartB);
  EXPECT_EQ(SM.getFileID(EndA), A);
  EXPECT_EQ(SM.getFileID(StartB), B);
  EXPECT_EQ(SM.findFileByName("b.t"), B);
  EXPECT_TRUE(SM.findFileByName("c.t").isInvalid());
  PresumedLoc P = SM.getPresumedLoc(StartB.getLocWithOffset(1));
  EXPECT_STREQ(P.Filename, "b.t");
  EXPECT_EQ(P.Column, 2u);
}

TEST(SourceManagerTest, InvalidLocationsDecodeToNothing) {
  SourceManager SM;
  SM.createFileID("x", "x.t");
  EXPECT_TRUE(SM.getFileID(SourceLocation()).isInvalid());
  EXPECT_FALSE(SM.getPresumedLoc(SourceLocation()).isValid());
  EXPECT_EQ(SM.getLineNumber(SourceLocation::fromRawEncoding(1u << 30)), 0u);
}

TEST(SourceManagerTest, MeasuresTokens) {
  SourceManager SM;
  FileID F =
      SM.createFileID("abc_1 0x1fUL \"s\\\"t\" <<= @@uft:*:/a b/:x {", "t.t");
  SourceLocation S = SM.getLocForStartOfFile(F);
  EXPECT_EQ(SM.measureTokenLength(S), 5u);
  EXPECT_EQ(SM.measureTokenLength(S.getLocWithOffset(6)), 6u);
  EXPECT_EQ(SM.measureTokenLength(S.getLocWithOffset(13)), 6u);
  EXPECT_EQ(SM.measureTokenLength(S.getLocWithOffset(20)), 3u);
  EXPECT_EQ(SM.measureTokenLength(S.getLocWithOffset(24)), 15u);
  EXPECT_EQ(SM.getText(SourceRange(S, S.getLocWithOffset(6))), "abc_1 0x1fUL");
}

TEST(SourceManagerTest, LoadFileReportsMissingFiles) {
  SourceManager SM;
  auto F = SM.loadFile("/nonexistent/dir/script.t");
  ASSERT_FALSE(static_cast<bool>(F));
  llvm::consumeError(F.takeError());
}

} // namespace
