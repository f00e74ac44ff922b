//===- ProbeSpecTest.cpp - Probe specification parser units --------------===//

#include "tscc/Sema/SemaProbeSpec.h"

#include "gtest/gtest.h"

using namespace tscc;

namespace {

ProbeInfo parseOk(llvm::StringRef Text) {
  ProbeSpecResult R = parseProbeSpec(Text);
  EXPECT_FALSE(R.hasErrors()) << Text.str();
  return R.Probe;
}

ProbeSpecIssue parseBad(llvm::StringRef Text) {
  ProbeSpecResult R = parseProbeSpec(Text);
  EXPECT_TRUE(R.hasErrors()) << Text.str();
  if (R.Issues.empty())
    return ProbeSpecIssue{ProbeSpecIssueKind::MissingAtAt, false, 0, 0, "", ""};
  return R.Issues.front();
}

TEST(ProbeSpec, BeginEnd) {
  EXPECT_EQ(parseOk("@@BEGIN").Kind, TSCC_PROBE_BEGIN);
  EXPECT_EQ(parseOk("@@END").Kind, TSCC_PROBE_END);
  ProbeSpecIssue I = parseBad("@@BEGIN:x");
  EXPECT_EQ(I.Kind, ProbeSpecIssueKind::FieldCount);
  EXPECT_EQ(I.Offset, 8u);
}

TEST(ProbeSpec, UftEntryExact) {
  ProbeInfo P = parseOk("@@uft:*:a.out:handle:entry");
  EXPECT_EQ(P.Kind, TSCC_PROBE_UFT_ENTRY);
  EXPECT_EQ(P.PidKind, TSCC_PID_ANY);
  EXPECT_EQ(P.Module, "a.out");
  EXPECT_EQ(P.ModuleMatch, TSCC_MATCH_EXACT);
  EXPECT_EQ(P.Function, "handle");
  EXPECT_EQ(P.FunctionMatch, TSCC_MATCH_EXACT);
  EXPECT_EQ(P.Spec, "@@uft:*:a.out:handle:entry");
}

TEST(ProbeSpec, UftExitPidAndGlob) {
  ProbeInfo P = parseOk("@@uft:1234:libc.so.6:str*:exit");
  EXPECT_EQ(P.Kind, TSCC_PROBE_UFT_EXIT);
  EXPECT_EQ(P.PidKind, TSCC_PID_NUMBER);
  EXPECT_EQ(P.PidValue, 1234u);
  EXPECT_EQ(P.Function, "str*");
  EXPECT_EQ(P.FunctionMatch, TSCC_MATCH_GLOB);
}

TEST(ProbeSpec, ParamPid) {
  ProbeInfo P = parseOk("@@uft:$2:*:f:entry");
  EXPECT_EQ(P.PidKind, TSCC_PID_PARAM);
  EXPECT_EQ(P.PidValue, 2u);
  EXPECT_EQ(P.ModuleMatch, TSCC_MATCH_ANY);
  EXPECT_EQ(parseBad("@@uft:$0:*:f:entry").Kind, ProbeSpecIssueKind::BadPid);
  ProbeSpecIssue I = parseBad("@@uft:12x:*:f:entry");
  EXPECT_EQ(I.Kind, ProbeSpecIssueKind::BadPid);
  EXPECT_EQ(I.Offset, 6u);
  EXPECT_EQ(I.Length, 3u);
}

TEST(ProbeSpec, RegexMayContainColonsAndPlus) {
  ProbeInfo P = parseOk("@@uft:*:a.out:/^parse_(req|resp):x+$/:entry");
  EXPECT_EQ(P.FunctionMatch, TSCC_MATCH_REGEX);
  EXPECT_EQ(P.Function, "^parse_(req|resp):x+$");
  EXPECT_EQ(P.Kind, TSCC_PROBE_UFT_ENTRY);
}

TEST(ProbeSpec, BadRegexRejected) {
  ProbeSpecIssue I = parseBad("@@uft:*:a.out:/a(b/:entry");
  EXPECT_EQ(I.Kind, ProbeSpecIssueKind::BadRegex);
  EXPECT_EQ(I.Offset, 14u);
  EXPECT_FALSE(I.Arg1.empty());
  EXPECT_EQ(parseBad("@@uft:*:a.out:/abc:entry").Kind,
            ProbeSpecIssueKind::UnterminatedRegex);
}

TEST(ProbeSpec, Offset) {
  ProbeInfo P = parseOk("@@uft:*:a.out:handle+0x1c");
  EXPECT_EQ(P.Kind, TSCC_PROBE_UFT_OFFSET);
  EXPECT_EQ(P.Offset, 0x1cu);
  EXPECT_EQ(P.Function, "handle");
  EXPECT_EQ(parseOk("@@uft:*:a.out:handle+12").Offset, 12u);
  ProbeSpecIssue I = parseBad("@@uft:*:a.out:handle+zz");
  EXPECT_EQ(I.Kind, ProbeSpecIssueKind::BadOffset);
  EXPECT_EQ(I.Offset, 21u);
  EXPECT_EQ(parseBad("@@uft:*:a.out:handle+4:entry").Kind,
            ProbeSpecIssueKind::OffsetWithLocation);
}

TEST(ProbeSpec, UftShape) {
  EXPECT_EQ(parseBad("@@uft:*:a.out:handle").Kind,
            ProbeSpecIssueKind::FieldCount);
  EXPECT_EQ(parseBad("@@uft:*:a.out:handle:entry:x").Kind,
            ProbeSpecIssueKind::FieldCount);
  ProbeSpecIssue I = parseBad("@@uft:*:a.out:handle:entyr");
  EXPECT_EQ(I.Kind, ProbeSpecIssueKind::BadLocation);
  EXPECT_EQ(I.Offset, 21u);
  EXPECT_EQ(parseBad("@@uft:*::f:entry").Kind, ProbeSpecIssueKind::EmptyField);
}

TEST(ProbeSpec, UnknownProvider) {
  ProbeSpecIssue I = parseBad("@@kprobe:*:f:entry");
  EXPECT_EQ(I.Kind, ProbeSpecIssueKind::UnknownProvider);
  EXPECT_EQ(I.Arg0, "kprobe");
  EXPECT_EQ(I.Offset, 2u);
  EXPECT_EQ(parseBad("BEGIN").Kind, ProbeSpecIssueKind::MissingAtAt);
}

TEST(ProbeSpec, Syscalls) {
  ProbeInfo P = parseOk("@@syscall:*:read:entry");
  EXPECT_EQ(P.Kind, TSCC_PROBE_SYSCALL_ENTRY);
  EXPECT_EQ(P.Function, "read");
  EXPECT_EQ(P.SyscallNumbers[TSCC_DM_ILP32], 3);
  EXPECT_EQ(P.SyscallNumbers[TSCC_DM_LP64], 0);
  EXPECT_EQ(parseOk("@@syscall:*:openat:exit").Kind, TSCC_PROBE_SYSCALL_EXIT);
  ProbeSpecIssue I = parseBad("@@syscall:*:opne:entry");
  EXPECT_EQ(I.Kind, ProbeSpecIssueKind::UnknownSyscall);
  EXPECT_EQ(I.Offset, 12u);
  EXPECT_EQ(I.Arg1, "open");
  EXPECT_EQ(parseOk("@@syscall:*:/^read/:entry").FunctionMatch,
            TSCC_MATCH_REGEX);
  EXPECT_EQ(parseBad("@@syscall:*:nosuch*:entry").Kind,
            ProbeSpecIssueKind::NoSyscallMatches);
}

TEST(ProbeSpec, SyscallInOneModelOnlyWarns) {
  ProbeSpecResult R = parseProbeSpec("@@syscall:*:socketcall:entry");
  EXPECT_FALSE(R.hasErrors());
  ASSERT_EQ(R.Issues.size(), 1u);
  EXPECT_TRUE(R.Issues[0].IsWarning);
  EXPECT_EQ(R.Issues[0].Kind, ProbeSpecIssueKind::SyscallOnlyIn);
  EXPECT_EQ(R.Issues[0].Arg1, "LP64");
}

TEST(ProbeSpec, Interval) {
  ProbeInfo P = parseOk("@@interval:*:clock:500");
  EXPECT_EQ(P.Kind, TSCC_PROBE_INTERVAL);
  EXPECT_EQ(P.Offset, 500u);
  EXPECT_EQ(parseBad("@@interval:*:clock:0").Kind,
            ProbeSpecIssueKind::BadPeriod);
  EXPECT_EQ(parseBad("@@interval:12:clock:5").Kind,
            ProbeSpecIssueKind::IntervalPid);
  EXPECT_EQ(parseBad("@@interval:*:cpu:5").Kind,
            ProbeSpecIssueKind::IntervalClock);
}

} // namespace
