//===- SharedTablesTest.cpp - The tables compiler and runtime share -------===//
//
// The LLVM-free definitions next to abi.h (runtime/include/tscc/*.h, *.def)
// are the one source of truth for both sides; these tests check their
// invariants: the system call table against the kernel's UAPI headers,
// unique names, the data model numbering against abi.h, and the printf and
// probe-spec rules both sides rely on.
//
//===----------------------------------------------------------------------===//
#include "tscc/AbiNames.h"
#include "tscc/ClosestName.h"
#include "tscc/DataModel.h"
#include "tscc/PrintfLength.h"
#include "tscc/ProbeSpecFields.h"
#include "tscc/SyscallTable.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

using namespace tscc;

namespace {

TEST(SharedDataModel, NumberingIsAbiH) {
  static_assert(modelIndex(DataModel::ILP32) == TSCC_DM_ILP32);
  static_assert(modelIndex(DataModel::LP64) == TSCC_DM_LP64);
  static_assert(NumDataModels == TSCC_DM_COUNT);
  for (unsigned I = 0; I < NumDataModels; ++I) {
    EXPECT_EQ(modelIndex(AllDataModels[I]), I);
    EXPECT_EQ(dataModelFromIndex(I), AllDataModels[I]);
  }
  EXPECT_FALSE(dataModelFromIndex(TSCC_DM_COUNT));
  EXPECT_EQ(dataModelBits(DataModel::ILP32), 32u);
  EXPECT_EQ(dataModelPointerSize(DataModel::LP64), 8u);
  EXPECT_EQ(parseDataModel("lp64"), DataModel::LP64);
  EXPECT_EQ(parseDataModel("ILP32"), DataModel::ILP32);
  EXPECT_FALSE(parseDataModel("LP32"));
  EXPECT_FALSE(parseDataModel(""));
  for (DataModel DM : AllDataModels)
    EXPECT_EQ(parseDataModel(dataModelName(DM)), DM);
}

/// __NR_name -> number from a UAPI header; empty if it cannot be read.
std::map<std::string, int> readUnistd(const char *Name) {
  std::map<std::string, int> Out;
  for (const char *Dir :
       {"/usr/include/x86_64-linux-gnu/asm/", "/usr/include/asm/"}) {
    std::ifstream In(std::string(Dir) + Name);
    if (!In)
      continue;
    std::regex Define(R"(#define __NR_(\w+)\s+(\d+)\s*)");
    std::string Line;
    std::smatch M;
    while (std::getline(In, Line))
      if (std::regex_match(Line, M, Define))
        Out[M[1]] = std::stoi(M[2]);
    break;
  }
  return Out;
}

TEST(SharedSyscallTable, AgreesWithTheKernelHeaders) {
  const std::pair<DataModel, const char *> Headers[] = {
      {DataModel::ILP32, "unistd_32.h"}, {DataModel::LP64, "unistd_64.h"}};
  for (const auto &[DM, Header] : Headers) {
    std::map<std::string, int> Kernel = readUnistd(Header);
    if (Kernel.empty())
      GTEST_SKIP() << "no <asm/" << Header << "> on this machine";
    std::map<std::string, int> Ours;
    for (const SyscallInfo &S : allSyscalls())
      if (std::optional<uint32_t> Nr = S.number(DM))
        Ours[std::string(S.Name)] = static_cast<int>(*Nr);
    // A newer kernel may add calls; every call we know must be the
    // kernel's, with the kernel's number.
    for (const auto &[Name, Nr] : Ours) {
      auto It = Kernel.find(Name);
      ASSERT_NE(It, Kernel.end()) << Name << " is not in " << Header;
      EXPECT_EQ(It->second, Nr) << Name << " in " << Header;
    }
    EXPECT_GE(Ours.size(), Kernel.size() - Kernel.size() / 20)
        << "Syscalls.def lacks many calls of " << Header
        << "; regenerate it with utils/gen-syscalls-def.py";
  }
}

TEST(SharedSyscallTable, SortedUniqueAndNumbersUniquePerModel) {
  std::span<const SyscallInfo> All = allSyscalls();
  ASSERT_GT(All.size(), 300u);
  for (size_t I = 1; I < All.size(); ++I)
    EXPECT_LT(All[I - 1].Name, All[I].Name) << "sorted, no duplicates";
  for (const SyscallInfo &S : All)
    EXPECT_TRUE(S.number(DataModel::ILP32) || S.number(DataModel::LP64))
        << S.Name << " exists in no model";
  for (DataModel DM : AllDataModels) {
    std::set<uint32_t> Seen;
    for (const SyscallInfo &S : All) {
      if (std::optional<uint32_t> Nr = S.number(DM)) {
        EXPECT_TRUE(Seen.insert(*Nr).second)
            << S.Name << ": number " << *Nr << " taken twice in "
            << dataModelName(DM);
      }
    }
  }
  // What tsrun injects into targets, checked when it compiles.
  static_assert(syscallNumberOf(DataModel::LP64, "munmap") == 11);
  static_assert(syscallNumberOf(DataModel::ILP32, "munmap") == 91);
  static_assert(syscallNumberOf(DataModel::ILP32, "mmap2") == 192);
  const SyscallInfo *Open = findSyscall("open");
  ASSERT_TRUE(Open);
  EXPECT_EQ(Open->number(DataModel::ILP32), 5u);
  EXPECT_EQ(Open->number(DataModel::LP64), 2u);
  const SyscallInfo *Nfs = findSyscall("newfstatat");
  ASSERT_TRUE(Nfs);
  EXPECT_FALSE(Nfs->number(DataModel::ILP32));
  EXPECT_EQ(Nfs->number(DataModel::LP64), 262u);
  EXPECT_TRUE(findSyscall("_llseek"));
  EXPECT_TRUE(findSyscall("writev"));
  EXPECT_FALSE(findSyscall("nosuchcall"));
  EXPECT_FALSE(findSyscall(""));
}

TEST(SharedAbiNames, EveryKindHasOneUniqueName) {
  std::set<std::string> Names;
  for (uint32_t K = TSCC_AGG_COUNT; K <= TSCC_AGG_LHIST; ++K) {
    std::string N = aggKindName(K);
    EXPECT_NE(N, "?") << K;
    EXPECT_TRUE(Names.insert(N).second) << N;
    EXPECT_EQ(aggKindFromName(N), static_cast<tscc_agg_kind>(K));
  }
  EXPECT_STREQ(aggKindName(0), "?");
  EXPECT_STREQ(aggKindName(TSCC_AGG_LHIST + 1), "?");
  EXPECT_FALSE(aggKindFromName("?"));
  EXPECT_FALSE(aggKindFromName("quantize"));
  auto Unique = [](uint32_t First, uint32_t Last, auto Name) {
    std::set<std::string> Seen;
    for (uint32_t K = First; K <= Last; ++K) {
      EXPECT_STRNE(Name(K), "?") << K;
      EXPECT_TRUE(Seen.insert(Name(K)).second) << Name(K);
    }
  };
  Unique(TSCC_FIELD_S64, TSCC_FIELD_STACK_ID, fieldKindName);
  Unique(TSCC_PROBE_BEGIN, TSCC_PROBE_USDT, probeKindName);
  Unique(TSCC_MATCH_ANY, TSCC_MATCH_REGEX, matchKindName);
  EXPECT_STREQ(fieldKindName(TSCC_FIELD_STACK), "stack");
  EXPECT_STREQ(fieldKindName(TSCC_FIELD_STACK_ID), "stack-id");
  EXPECT_STREQ(fieldKindName(0), "?");
  EXPECT_STREQ(probeKindName(TSCC_PROBE_BEGIN), "BEGIN");
  EXPECT_STREQ(probeKindName(TSCC_PROBE_USDT), "usdt");
  EXPECT_STREQ(probeKindName(0), "?");
  EXPECT_STREQ(matchKindName(TSCC_MATCH_REGEX), "regex");
  EXPECT_STREQ(matchKindName(9), "?");
}

TEST(SharedPrintfLength, WidthsPerModel) {
  auto Parse = [](std::string_view Fmt, size_t &I) {
    I = 0;
    return parsePrintfLength(Fmt, I);
  };
  size_t I = 0;
  EXPECT_EQ(Parse("hhd", I), PrintfLength::HH);
  EXPECT_EQ(I, 2u);
  EXPECT_EQ(Parse("lld", I), PrintfLength::LL);
  EXPECT_EQ(Parse("qd", I), PrintfLength::LL);
  EXPECT_EQ(I, 1u);
  EXPECT_EQ(Parse("ld", I), PrintfLength::L);
  EXPECT_EQ(Parse("d", I), PrintfLength::None);
  EXPECT_EQ(I, 0u);
  EXPECT_EQ(Parse("", I), PrintfLength::None);
  EXPECT_EQ(Parse("h", I), PrintfLength::H);
  EXPECT_EQ(I, 1u);

  const DataModel IL = DataModel::ILP32, LP = DataModel::LP64;
  EXPECT_EQ(printfLengthBits(PrintfLength::HH, LP), 8u);
  EXPECT_EQ(printfLengthBits(PrintfLength::H, IL), 16u);
  EXPECT_EQ(printfLengthBits(PrintfLength::None, LP), 32u);
  for (PrintfLength L : {PrintfLength::L, PrintfLength::Z, PrintfLength::T}) {
    EXPECT_EQ(printfLengthBits(L, IL), 32u);
    EXPECT_EQ(printfLengthBits(L, LP), 64u);
  }
  for (PrintfLength L : {PrintfLength::LL, PrintfLength::J, PrintfLength::BigL})
    for (DataModel DM : AllDataModels)
      EXPECT_EQ(printfLengthBits(L, DM), 64u);
  // What the checker asks of an argument: promoted to at least an int.
  EXPECT_EQ(printfArgumentBits(PrintfLength::HH, IL), 32u);
  EXPECT_EQ(printfArgumentBits(PrintfLength::L, LP), 64u);
  EXPECT_STREQ(printfLengthSpelling(PrintfLength::BigL), "L");
}

std::vector<std::string> split(std::string_view Body, bool *Closed = nullptr) {
  std::vector<ProbeSpecField> Fields;
  bool Ok = splitProbeSpecFields(Body, Fields);
  if (Closed)
    *Closed = Ok;
  std::vector<std::string> Out;
  for (const ProbeSpecField &F : Fields) {
    EXPECT_EQ(Body.substr(F.Offset, F.Text.size()), F.Text);
    Out.emplace_back(F.Text);
  }
  return Out;
}

TEST(SharedProbeSpecFields, RegexesKeepTheirColons) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split("uft:*:a.out:main:entry"),
            (V{"uft", "*", "a.out", "main", "entry"}));
  EXPECT_EQ(split("uft:*:/lib(c|m):x/:f+0x10"),
            (V{"uft", "*", "/lib(c|m):x/", "f+0x10"}));
  EXPECT_EQ(split(R"(uft:*:a.out:/a\/b:c/:exit)"),
            (V{"uft", "*", "a.out", R"(/a\/b:c/)", "exit"}));
  EXPECT_EQ(split("syscall:*::entry"), (V{"syscall", "*", "", "entry"}));
  EXPECT_EQ(split("BEGIN"), (V{"BEGIN"}));
  EXPECT_EQ(split(""), (V{""}));
  bool Closed = true;
  EXPECT_EQ(split("uft:*:a.out:/mai:entry", &Closed),
            (V{"uft", "*", "a.out", "/mai:entry"}));
  EXPECT_FALSE(Closed);
}

TEST(SharedClosestName, SuggestsPlausibleTyposOnly) {
  std::vector<std::string_view> Names{"malloc",  "calloc",        "free",
                                      "main",    "__libc_malloc", "printf",
                                      "fprintf", "min",           "max"};
  unsigned D = 0;
  EXPECT_EQ(closestName("mallco", Names, &D), "malloc"); // transposition
  EXPECT_EQ(D, 1u);
  EXPECT_EQ(closestName("mni", Names), "min"); // 3 letters: one edit
  EXPECT_EQ(closestName("prinft", Names), "printf");
  EXPECT_EQ(closestName("mxa", Names), "max");
  EXPECT_EQ(closestName("xyzzy", Names), "");
  EXPECT_EQ(closestName("a", Names), "");
  EXPECT_EQ(closestName("free", std::vector<std::string_view>{"free"}), "");
  // Ties: the candidate that comes first.
  EXPECT_EQ(closestName("mbx", std::vector<std::string>{"mcx", "max", "mbxy"}),
            "mcx");
  EXPECT_EQ(closestName("prinf", std::vector<std::string>{"printf", "print"}),
            "printf");
  EXPECT_EQ(editDistance("kitten", "sitting", 5), 3u);
  EXPECT_EQ(editDistance("kitten", "sitting", 1), 2u); // Limit + 1
}

} // namespace
