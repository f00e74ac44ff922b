//===- ModuleImageTest.cpp - Modules and the ELF cache both backends use --===//
#include "tscc/Runtime/ModuleImage.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

using namespace tscc::rt;

namespace {

TEST(ElfCache, OpensEachFileOnce) {
  ElfCache Cache;
  std::string Error;
  auto A = Cache.get(TARGET_PATH, Error);
  ASSERT_TRUE(A) << Error;
  EXPECT_EQ(Cache.get(TARGET_PATH, Error).get(), A.get());
}

TEST(ElfCache, RemembersFailuresWithTheirReason) {
  ElfCache Cache;
  std::string First, Second;
  EXPECT_FALSE(Cache.get("/nonexistent/libnothing.so", First));
  EXPECT_FALSE(Cache.get("/nonexistent/libnothing.so", Second));
  EXPECT_FALSE(First.empty());
  EXPECT_EQ(First, Second);
}

TEST(ModuleImage, DescribesALoadedModule) {
  ElfCache Cache;
  std::string Error;
  auto Elf = Cache.get(TARGET_PATH, Error);
  ASSERT_TRUE(Elf) << Error;
  auto Range = Elf->loadedRange();
  ASSERT_TRUE(Range);
  ModuleImage M;
  ASSERT_TRUE(M.describe("/some/dir/ptrace-target", Elf, 0x10000, true));
  EXPECT_EQ(M.Name, "ptrace-target");
  EXPECT_EQ(M.Path, "/some/dir/ptrace-target");
  EXPECT_EQ(M.Start, Range->first + 0x10000);
  EXPECT_EQ(M.End, Range->second + 0x10000);
  EXPECT_TRUE(M.IsMain);
  EXPECT_FALSE(M.FromLinkMap);
}

TEST(ModuleImage, WithoutAFileThereIsNoModule) {
  ModuleImage M;
  EXPECT_FALSE(M.describe("/lib/libgone.so", nullptr, 0, false));
}

} // namespace

namespace {

/// A directory of N copies of one ELF file (distinct paths), removed after.
struct ElfCopies {
  std::filesystem::path Dir;
  std::vector<std::string> Paths;
  explicit ElfCopies(unsigned N) {
    Dir = std::filesystem::temp_directory_path() /
          ("tscc-elfcache-" + std::to_string(getpid()));
    std::filesystem::create_directories(Dir);
    for (unsigned I = 0; I < N; ++I) {
      Paths.push_back((Dir / ("copy" + std::to_string(I))).string());
      std::filesystem::copy_file(
          TARGET_PATH, Paths.back(),
          std::filesystem::copy_options::overwrite_existing);
    }
  }
  ~ElfCopies() { std::filesystem::remove_all(Dir); }
};

TEST(ElfCacheTest, UnusedFilesAndFailuresAreBounded) {
  using tscc::rt::ElfCache;
  ElfCopies C(ElfCache::KeepRecent + 40);
  ElfCache Cache;
  std::string Err;
  auto Held = Cache.get(C.Paths[0], Err);
  ASSERT_TRUE(Held) << Err;
  for (const std::string &P : C.Paths)
    ASSERT_TRUE(Cache.get(P, Err)) << Err; // and dropped at once
  // The one still used, and the most recent ones.
  EXPECT_LE(Cache.size(), ElfCache::KeepRecent + 2);
  EXPECT_EQ(Cache.get(C.Paths[0], Err), Held);
  for (size_t I = 0; I < 3 * ElfCache::MaxFailures; ++I)
    EXPECT_FALSE(Cache.get("/nonexistent/" + std::to_string(I), Err));
  EXPECT_NE(Err.find("/nonexistent/"), std::string::npos) << Err;
  EXPECT_LE(Cache.size(), ElfCache::KeepRecent + 2 + ElfCache::MaxFailures);
}

} // namespace
