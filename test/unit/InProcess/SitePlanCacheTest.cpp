//===- SitePlanCacheTest.cpp - Jump-site plans reused across images -------===//
//
// The cache's keying and its checks: a plan comes back only for the same
// file (build-id, or device/inode/size/times), the same site and the same
// bytes, moved to the new load bias; refusals only at their own bias; and
// the code held stays within the budget. Real files for the identities.
//
//===----------------------------------------------------------------------===//
#include "SitePlanCache.h"
#include "TestBytes.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::ip;
using tscc::test::hex;

namespace {

constexpr uint64_t BiasA = 0x7f0000000000, BiasB = 0x7f1000000000;

/// push %rbp; mov %rsp,%rbp; xor %eax,%eax; pop %rbp; ret
const char *FuncHex = "55 48 89 e5 31 c0 5d c3";

SitePlanKey keyFor(const std::string &Module, uint64_t Site = 0x1000) {
  SitePlanKey K;
  K.Module = Module;
  K.FuncStart = 0x1000;
  K.FuncSize = 8;
  K.Site = Site;
  K.Nearby = {Site};
  return K;
}

/// A real plan of the function at Bias (its site at Bias + 0x1000).
SitePlan planAt(uint64_t Bias) {
  std::vector<uint8_t> F = hex(FuncHex);
  SitePlan P;
  P.Ok = planJumpPatch(F, Bias + 0x1000, Bias + 0x1000, {}, P.Plan, P.Why);
  return P;
}

std::string tempFile(const std::string &Text) {
  char Name[] = "/tmp/siteplan-XXXXXX";
  int Fd = mkstemp(Name);
  EXPECT_GE(Fd, 0);
  EXPECT_EQ(write(Fd, Text.data(), Text.size()), ssize_t(Text.size()));
  close(Fd);
  return Name;
}

TEST(SitePlanCache, ModuleKeyIsTheBuildIdWhenThereIsOne) {
  FileIdentity A{1, 2, 3, 4, 5}, B{9, 9, 9, 9, 9};
  EXPECT_EQ(moduleCodeKey("\x12\xab", A), "build-id:12ab");
  // The same build-id in another file (a copy, a stripped twin): the same
  // code, the same key.
  EXPECT_EQ(moduleCodeKey("\x12\xab", A), moduleCodeKey("\x12\xab", B));
  EXPECT_NE(moduleCodeKey("\x12\xab", A), moduleCodeKey("\x12\xac", A));
}

TEST(SitePlanCache, ModuleKeyWithoutBuildIdIsTheFileNotThePath) {
  std::string Path = tempFile("first");
  std::optional<FileIdentity> First = FileIdentity::of(Path);
  ASSERT_TRUE(First);
  std::string Key = moduleCodeKey("", *First);
  EXPECT_EQ(Key.rfind("file:", 0), 0u);
  EXPECT_EQ(Key.find(Path), std::string::npos);
  // The same file again: the same key.
  EXPECT_EQ(moduleCodeKey("", *FileIdentity::of(Path)), Key);
  // A new file put at the same path (a rebuilt program): another inode
  // (the old one is kept alive so that it cannot be reused).
  std::string Old = Path + ".old";
  ASSERT_EQ(rename(Path.c_str(), Old.c_str()), 0);
  {
    std::ofstream(Path) << "first";
  }
  std::optional<FileIdentity> Second = FileIdentity::of(Path);
  ASSERT_TRUE(Second);
  EXPECT_NE(moduleCodeKey("", *Second), Key);
  // Rewritten in place with other contents: another size or times.
  {
    std::ofstream(Path, std::ios::trunc) << "second, longer";
  }
  EXPECT_NE(moduleCodeKey("", *FileIdentity::of(Path)),
            moduleCodeKey("", *Second));
  unlink(Path.c_str());
  unlink(Old.c_str());
}

TEST(SitePlanCache, APlanIsMovedToTheNewBias) {
  SitePlanCache Cache;
  std::vector<uint8_t> F = hex(FuncHex);
  SitePlan Made = planAt(BiasA);
  ASSERT_TRUE(Made.Ok) << Made.Why;
  EXPECT_FALSE(Cache.find(keyFor("build-id:01"), F, {}, BiasA));
  Cache.insert(keyFor("build-id:01"), F, {}, BiasA, Made);
  std::optional<SitePlan> Hit = Cache.find(keyFor("build-id:01"), F, {}, BiasB);
  ASSERT_TRUE(Hit);
  ASSERT_TRUE(Hit->Ok);
  SitePlan Fresh = planAt(BiasB);
  EXPECT_EQ(Hit->Plan.Site, Fresh.Plan.Site);
  EXPECT_EQ(Hit->Plan.Length, Fresh.Plan.Length);
  EXPECT_EQ(Hit->Plan.Insns.size(), Fresh.Plan.Insns.size());
  EXPECT_EQ(0, memcmp(Hit->Plan.Original, Fresh.Plan.Original,
                      sizeof(Fresh.Plan.Original)));
}

TEST(SitePlanCache, EveryPartOfTheKeyMatters) {
  SitePlanCache Cache;
  std::vector<uint8_t> F = hex(FuncHex);
  SitePlanKey K = keyFor("build-id:01");
  Cache.insert(K, F, {}, BiasA, planAt(BiasA));
  EXPECT_FALSE(Cache.find(keyFor("build-id:02"), F, {}, BiasA));
  EXPECT_FALSE(Cache.find(keyFor("build-id:01", 0x1001), F, {}, BiasA));
  SitePlanKey Other = K;
  Other.Mode = X86Mode::Bits32;
  EXPECT_FALSE(Cache.find(Other, F, {}, BiasA));
  Other = K;
  Other.Syscall = true;
  EXPECT_FALSE(Cache.find(Other, F, {}, BiasA));
  Other = K;
  Other.Nearby.push_back(0x1004); // another probe site in the function
  EXPECT_FALSE(Cache.find(Other, F, {}, BiasA));
  Other = K;
  Other.FuncSize = 7;
  EXPECT_FALSE(Cache.find(Other, F, {}, BiasA));
  EXPECT_TRUE(Cache.find(K, F, {}, BiasA));
}

TEST(SitePlanCache, OtherBytesMiss) {
  SitePlanCache Cache;
  std::vector<uint8_t> F = hex(FuncHex);
  std::vector<uint8_t> Pad = hex("cc cc");
  SitePlanKey K = keyFor("build-id:01");
  Cache.insert(K, F, Pad, BiasA, planAt(BiasA));
  EXPECT_TRUE(Cache.find(K, F, Pad, BiasB));
  // Code changed in memory (another tracer's int3 at the entry).
  std::vector<uint8_t> Changed = F;
  Changed[0] = 0xcc;
  EXPECT_FALSE(Cache.find(K, Changed, Pad, BiasB));
  // Other padding after the function.
  EXPECT_FALSE(Cache.find(K, F, hex("90 cc"), BiasB));
  EXPECT_FALSE(Cache.find(K, F, {}, BiasB));
}

TEST(SitePlanCache, ARefusalIsServedOnlyAtItsBias) {
  SitePlanCache Cache;
  std::vector<uint8_t> F = hex(FuncHex);
  SitePlanKey K = keyFor("build-id:01");
  Cache.insert(K, F, {}, BiasA, {false, {}, "a branch target at 0x7f00..."});
  std::optional<SitePlan> Same = Cache.find(K, F, {}, BiasA);
  ASSERT_TRUE(Same);
  EXPECT_FALSE(Same->Ok);
  EXPECT_EQ(Same->Why, "a branch target at 0x7f00...");
  EXPECT_FALSE(Cache.find(K, F, {}, BiasB));
}

TEST(SitePlanCache, TheCodeHeldStaysWithinTheBudget) {
  std::vector<uint8_t> F = hex(FuncHex);
  SitePlanCache Cache(3 * F.size());
  for (uint64_t I = 0; I < 3; ++I)
    Cache.insert(keyFor("build-id:0" + std::to_string(I)), F, {}, BiasA,
                 planAt(BiasA));
  EXPECT_EQ(Cache.size(), 3u);
  // The oldest not used since goes first.
  EXPECT_TRUE(Cache.find(keyFor("build-id:00"), F, {}, BiasA));
  Cache.insert(keyFor("build-id:03"), F, {}, BiasA, planAt(BiasA));
  EXPECT_EQ(Cache.size(), 3u);
  EXPECT_LE(Cache.bytes(), 3 * F.size());
  EXPECT_TRUE(Cache.find(keyFor("build-id:00"), F, {}, BiasA));
  EXPECT_FALSE(Cache.find(keyFor("build-id:01"), F, {}, BiasA));
  // An entry larger than the budget is not kept at all.
  std::vector<uint8_t> Huge(4 * F.size(), 0x90);
  Cache.insert(keyFor("build-id:09"), Huge, {}, BiasA, planAt(BiasA));
  EXPECT_FALSE(Cache.find(keyFor("build-id:09"), Huge, {}, BiasA));
  EXPECT_EQ(Cache.size(), 3u);
}

} // namespace
