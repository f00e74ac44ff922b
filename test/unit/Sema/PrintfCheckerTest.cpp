//===- PrintfCheckerTest.cpp - printf format checker units ---------------===//

#include "tscc/Sema/SemaPrintf.h"

#include "gtest/gtest.h"

using namespace tscc;

namespace {

FormatArg sameInBoth(FormatArgType T) { return FormatArg{{T, T}}; }
FormatArg intArg() {
  return sameInBoth(FormatArgType::integer(32, true, "int"));
}
FormatArg longArg() {
  return FormatArg{{FormatArgType::integer(32, true, "long"),
                    FormatArgType::integer(64, true, "long")}};
}
FormatArg longLongArg() {
  return sameInBoth(FormatArgType::integer(64, true, "long long"));
}
FormatArg ptrArg(bool Char = false) {
  return FormatArg{{FormatArgType::pointer(32, "char *", Char),
                    FormatArgType::pointer(64, "char *", Char)}};
}
FormatArg strArg() { return sameInBoth(FormatArgType::string(128)); }

TEST(PrintfChecker, CleanFormatGivesFields) {
  FormatCheckResult R =
      checkFormat("%d %s %p %c %lu %%\n",
                  {intArg(), strArg(), ptrArg(), intArg(), longArg()});
  EXPECT_TRUE(R.Issues.empty());
  ASSERT_EQ(R.Fields.size(), 5u);
  EXPECT_EQ(R.Fields[0].Kind, TSCC_FIELD_S64);
  EXPECT_EQ(R.Fields[1].Kind, TSCC_FIELD_STRING);
  EXPECT_EQ(R.Fields[1].Size, 128u);
  EXPECT_EQ(R.Fields[2].Kind, TSCC_FIELD_PTR);
  EXPECT_EQ(R.Fields[3].Kind, TSCC_FIELD_CHAR);
  EXPECT_EQ(R.Fields[4].Kind, TSCC_FIELD_U64);
}

TEST(PrintfChecker, PercentDWithLongBitesInLP64Only) {
  FormatCheckResult R = checkFormat("x=%d\n", {longArg()});
  ASSERT_EQ(R.Issues.size(), 1u);
  const FormatIssue &I = R.Issues[0];
  EXPECT_EQ(I.Kind, FormatIssueKind::TypeMismatch);
  EXPECT_TRUE(I.IsWarning);
  EXPECT_EQ(I.Models, FMM_LP64);
  EXPECT_EQ(I.Offset, 2u);
  EXPECT_EQ(I.Length, 2u);
  EXPECT_EQ(I.Arg0, "int");
  EXPECT_EQ(I.Arg1, "long");
}

TEST(PrintfChecker, PercentLdWithLongLongBitesInILP32Only) {
  FormatCheckResult R = checkFormat("%ld", {longLongArg()});
  ASSERT_EQ(R.Issues.size(), 1u);
  EXPECT_EQ(R.Issues[0].Models, FMM_ILP32);
  EXPECT_EQ(R.Issues[0].Arg0, "long");
}

TEST(PrintfChecker, PercentDWithLongLongBitesInBoth) {
  FormatCheckResult R = checkFormat("%d", {longLongArg()});
  ASSERT_EQ(R.Issues.size(), 1u);
  EXPECT_EQ(R.Issues[0].Models, FMM_Both);
}

TEST(PrintfChecker, ConstantsThatFitAreFine) {
  // printf("%d", sizeof(struct req)): unsigned long, but 24 prints right.
  FormatArg Size{{FormatArgType::integer(32, false, "unsigned long"),
                  FormatArgType::integer(64, false, "unsigned long")}};
  Size.Types[0].Const = 12;
  Size.Types[1].Const = 24;
  EXPECT_TRUE(checkFormat("%d", {Size}).Issues.empty());
  Size.Types[1].Const = int64_t(1) << 40;
  FormatCheckResult R = checkFormat("%d", {Size});
  ASSERT_EQ(R.Issues.size(), 1u);
  EXPECT_EQ(R.Issues[0].Models, FMM_LP64);
}

TEST(PrintfChecker, LP64OnlyClauseIgnoresILP32) {
  FormatCheckResult R = checkFormat("%ld", {longLongArg()}, FMM_LP64);
  EXPECT_TRUE(R.Issues.empty());
}

TEST(PrintfChecker, SmallIntegersArePromoted) {
  FormatArg Char = sameInBoth(FormatArgType::integer(8, true, "char"));
  FormatArg Short = sameInBoth(FormatArgType::integer(16, true, "short"));
  EXPECT_TRUE(
      checkFormat("%d %d %c %hhd", {Char, Short, Char, Char}).Issues.empty());
}

TEST(PrintfChecker, StringErrors) {
  FormatCheckResult R = checkFormat("%s", {ptrArg(/*Char=*/true)});
  ASSERT_EQ(R.Issues.size(), 1u);
  EXPECT_EQ(R.Issues[0].Kind, FormatIssueKind::NeedString);
  EXPECT_FALSE(R.Issues[0].IsWarning);
  EXPECT_TRUE(R.Issues[0].CharPointer);
  R = checkFormat("%d", {strArg()});
  ASSERT_EQ(R.Issues.size(), 1u);
  EXPECT_EQ(R.Issues[0].Kind, FormatIssueKind::StringForInteger);
}

TEST(PrintfChecker, ArgumentCount) {
  FormatCheckResult R = checkFormat("%d %d", {intArg()});
  ASSERT_EQ(R.Issues.size(), 1u);
  EXPECT_EQ(R.Issues[0].Kind, FormatIssueKind::TooFewArgs);
  EXPECT_EQ(R.Issues[0].Offset, 3u);
  R = checkFormat("%d", {intArg(), intArg()});
  ASSERT_EQ(R.Issues.size(), 1u);
  EXPECT_EQ(R.Issues[0].Kind, FormatIssueKind::TooManyArgs);
  EXPECT_EQ(R.Issues[0].ArgIndex, 1);
  EXPECT_TRUE(R.Issues[0].IsWarning);
}

TEST(PrintfChecker, PointerConversion) {
  FormatCheckResult R = checkFormat("%p", {intArg()});
  ASSERT_EQ(R.Issues.size(), 1u);
  EXPECT_EQ(R.Issues[0].Kind, FormatIssueKind::PointerNotPointer);
  EXPECT_TRUE(R.Issues[0].IsWarning);
  // %lx of a pointer has the right width in both models.
  EXPECT_TRUE(checkFormat("%lx", {ptrArg()}).Issues.empty());
}

TEST(PrintfChecker, InvalidAndUnsupported) {
  FormatCheckResult R = checkFormat("%y %d", {intArg()});
  ASSERT_EQ(R.Issues.size(), 1u); // nothing after an invalid specifier
  EXPECT_EQ(R.Issues[0].Kind, FormatIssueKind::InvalidConversion);
  EXPECT_EQ(R.Issues[0].Arg0, "y");
  R = checkFormat("%f", {intArg()});
  ASSERT_EQ(R.Issues.size(), 1u);
  EXPECT_EQ(R.Issues[0].Kind, FormatIssueKind::FloatConversion);
  EXPECT_EQ(R.Issues[0].Arg0, "%f");
  R = checkFormat("50%", {});
  ASSERT_EQ(R.Issues.size(), 1u);
  EXPECT_EQ(R.Issues[0].Kind, FormatIssueKind::Incomplete);
  EXPECT_EQ(R.Issues[0].Offset, 2u);
  R = checkFormat("%n", {intArg()});
  EXPECT_EQ(R.Issues[0].Kind, FormatIssueKind::NConversion);
}

TEST(PrintfChecker, StarWidth) {
  FormatCheckResult R = checkFormat(
      "%*d|%-*.*s", {intArg(), intArg(), intArg(), intArg(), strArg()});
  EXPECT_TRUE(R.Issues.empty());
  EXPECT_EQ(R.Fields.size(), 5u);
  R = checkFormat("%*d", {longArg(), intArg()});
  ASSERT_EQ(R.Issues.size(), 1u);
  EXPECT_EQ(R.Issues[0].Kind, FormatIssueKind::StarNotInt);
}

TEST(PrintfChecker, ErrorArgumentsAreQuiet) {
  FormatArg Err = sameInBoth(FormatArgType{});
  EXPECT_TRUE(checkFormat("%d %s %p", {Err, Err, Err}).Issues.empty());
}

TEST(PrintfChecker, LengthWithoutEffect) {
  FormatCheckResult R = checkFormat("%ls", {strArg()});
  ASSERT_EQ(R.Issues.size(), 1u);
  EXPECT_EQ(R.Issues[0].Kind, FormatIssueKind::LengthNoEffect);
  EXPECT_EQ(R.Issues[0].Arg0, "l");
}

TEST(FieldForValue, Kinds) {
  EXPECT_EQ(fieldForValue(FormatArgType::integer(32, false, "unsigned")).Kind,
            TSCC_FIELD_U64);
  EXPECT_EQ(fieldForValue(FormatArgType::string(64)).Size, 64u);
  EXPECT_EQ(fieldForValue(FormatArgType::pointer(32, "void *")).Kind,
            TSCC_FIELD_PTR);
}

} // namespace
