//===- ProbeMatcherTest.cpp - Which probes apply where --------------------===//
#include "tscc/Runtime/ProbeMatcher.h"
#include "tscc/Runtime/ProbeCoverage.h"

#include "BackendHarness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdlib>

using namespace tscc::rt;
using namespace tscc::rt::test;

namespace {

struct Fixture {
  explicit Fixture(std::vector<ProbeDesc> Probes) : TB(Probes) {
    Prog = TB.program(Err);
    EXPECT_TRUE(Prog) << Err;
    M = std::make_unique<ProbeMatcher>(*Prog);
  }
  std::string Err;
  TableBuilder TB;
  std::unique_ptr<ProbeProgram> Prog;
  std::unique_ptr<ProbeMatcher> M;
};

std::unique_ptr<ElfFile> target() {
  std::string Err;
  auto F = ElfFile::open(TARGET_PATH, Err);
  EXPECT_TRUE(F) << Err;
  return F;
}

std::vector<std::string> names(const std::vector<ProbeSite> &Sites) {
  std::vector<std::string> N;
  for (const ProbeSite &S : Sites)
    N.push_back(std::to_string(S.Probe) + ":" + S.Symbol->Name);
  std::sort(N.begin(), N.end());
  return N;
}

TEST(ProbeMatcher, ExactGlobRegex) {
  Fixture F(
      {{TSCC_PROBE_UFT_ENTRY, "a.out", TSCC_MATCH_EXACT, "work"},
       {TSCC_PROBE_UFT_EXIT, "*", TSCC_MATCH_ANY, "*_func", TSCC_MATCH_GLOB},
       {TSCC_PROBE_UFT_ENTRY, "a.out", TSCC_MATCH_EXACT, "^(call|jmp)_func$",
        TSCC_MATCH_REGEX}});
  auto Elf = target();
  std::vector<std::string> Problems;
  auto Sites = F.M->matchModule(*Elf, {TARGET_PATH, "", true}, Problems);
  EXPECT_TRUE(Problems.empty());
  EXPECT_EQ(names(Sites), (std::vector<std::string>{
                              "0:work", "1:call_func", "1:icall_func",
                              "1:jcc_func", "1:jmp_func", "1:rip_func",
                              "1:sub_func", "2:call_func", "2:jmp_func"}));
  // a.out never matches a library.
  Sites = F.M->matchModule(*Elf, {TARGET_PATH, "", false}, Problems);
  EXPECT_EQ(names(Sites).size(), 6u);
}

TEST(ProbeMatcher, ModuleNames) {
  Fixture F({{TSCC_PROBE_UFT_ENTRY, "libc.so.6", TSCC_MATCH_EXACT, "malloc"},
             {TSCC_PROBE_UFT_ENTRY, "libc.so", TSCC_MATCH_EXACT, "malloc"},
             {TSCC_PROBE_UFT_ENTRY, "libc*", TSCC_MATCH_GLOB, "malloc"},
             {TSCC_PROBE_UFT_ENTRY, "/lib/x86_64-linux-gnu/libc.so.6",
              TSCC_MATCH_EXACT, "malloc"},
             {TSCC_PROBE_UFT_ENTRY, "libm.so.6", TSCC_MATCH_EXACT, "malloc"},
             {TSCC_PROBE_UFT_ENTRY, "libc.so.6x", TSCC_MATCH_EXACT, "malloc"}});
  char Real[PATH_MAX];
  ASSERT_TRUE(realpath("/lib/x86_64-linux-gnu/libc.so.6", Real));
  ModuleRef Libc{Real, "libc.so.6", false};
  EXPECT_TRUE(F.M->moduleMatches(0, Libc));
  EXPECT_TRUE(F.M->moduleMatches(1, Libc));
  EXPECT_TRUE(F.M->moduleMatches(2, Libc));
  EXPECT_TRUE(F.M->moduleMatches(3, Libc)); // through the /lib symlink
  EXPECT_FALSE(F.M->moduleMatches(4, Libc));
  EXPECT_FALSE(F.M->moduleMatches(5, Libc));
}

TEST(ProbeMatcher, FunctionPlusOffset) {
  Fixture F({{TSCC_PROBE_UFT_OFFSET, "a.out", TSCC_MATCH_EXACT, "jcc_func",
              TSCC_MATCH_EXACT, 2},
             {TSCC_PROBE_UFT_OFFSET, "a.out", TSCC_MATCH_EXACT, "jcc_func",
              TSCC_MATCH_EXACT, 1},
             {TSCC_PROBE_UFT_OFFSET, "a.out", TSCC_MATCH_EXACT, "jcc_func",
              TSCC_MATCH_EXACT, 1000}});
  auto Elf = target();
  std::vector<std::string> Problems;
  auto Sites = F.M->matchModule(*Elf, {TARGET_PATH, "", true}, Problems);
  ASSERT_EQ(Sites.size(), 1u);
  EXPECT_EQ(Sites[0].Probe, 0u);
  EXPECT_EQ(Sites[0].Address, Elf->findFunction("jcc_func")->Value + 2);
  ASSERT_EQ(Problems.size(), 2u);
  EXPECT_NE(Problems[0].find("not an instruction boundary"), std::string::npos);
  EXPECT_NE(Problems[1].find("past the end"), std::string::npos);
}

TEST(ProbeMatcher, BadRegexIsReported) {
  Fixture F({{TSCC_PROBE_UFT_ENTRY, "a.out", TSCC_MATCH_EXACT, "(unclosed",
              TSCC_MATCH_REGEX}});
  ASSERT_EQ(F.M->errors().size(), 1u);
  EXPECT_NE(F.M->errors()[0].find("invalid regular expression"),
            std::string::npos);
  auto Elf = target();
  std::vector<std::string> Problems;
  EXPECT_TRUE(
      F.M->matchModule(*Elf, {TARGET_PATH, "", true}, Problems).empty());
}

TEST(ProbeMatcher, Syscalls) {
  Fixture F(
      {{TSCC_PROBE_SYSCALL_ENTRY, "*", TSCC_MATCH_ANY, "getppid"},
       {TSCC_PROBE_SYSCALL_EXIT, "*", TSCC_MATCH_ANY, "getp*", TSCC_MATCH_GLOB},
       {TSCC_PROBE_SYSCALL_ENTRY, "*", TSCC_MATCH_ANY, "nosuchcall"}});
  std::vector<std::string> Problems;
  auto S64 = F.M->matchSyscalls(DataModel::LP64, Problems);
  ASSERT_EQ(Problems.size(), 1u);
  EXPECT_NE(Problems[0].find("nosuchcall"), std::string::npos);
  bool SawEntry = false, SawExitGetpid = false;
  for (const SyscallSite &S : S64) {
    if (S.Probe == 0) {
      EXPECT_EQ(S.Number, 110u);
      EXPECT_FALSE(S.Exit);
      SawEntry = true;
    }
    if (S.Probe == 1 && S.Name == "getpid") {
      EXPECT_EQ(S.Number, 39u);
      EXPECT_TRUE(S.Exit);
      SawExitGetpid = true;
    }
  }
  EXPECT_TRUE(SawEntry && SawExitGetpid);
  EXPECT_EQ(syscallNumber(DataModel::ILP32, "getppid"), 64u);
  EXPECT_EQ(syscallName(DataModel::LP64, 0), "read");
  EXPECT_EQ(syscallName(DataModel::LP64, 99999), "");
}

} // namespace
