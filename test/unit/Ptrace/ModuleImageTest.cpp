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

namespace {

/// A scratch directory for files that change under the cache.
struct ScratchDir {
  std::filesystem::path Dir;
  ScratchDir() {
    Dir = std::filesystem::temp_directory_path() /
          ("tscc-elfcache-change-" + std::to_string(getpid()));
    std::filesystem::create_directories(Dir);
  }
  ~ScratchDir() { std::filesystem::remove_all(Dir); }
  std::string path(const char *Name) const { return (Dir / Name).string(); }
};

void copyOver(const std::string &From, const std::string &To) {
  std::filesystem::copy_file(From, To,
                             std::filesystem::copy_options::overwrite_existing);
}

TEST(ElfCache, ANewFileAtTheSamePathIsReadAgain) {
  ScratchDir D;
  std::string Path = D.path("prog"), Next = D.path("prog.new");
  copyOver(TARGET_PATH, Path);
  ElfCache Cache;
  std::string Error;
  auto Old = Cache.get(Path, Error);
  ASSERT_TRUE(Old) << Error;
  ASSERT_TRUE(Old->findFunction("rip_func"));
  // A rebuilt program put in place as a new file (as `mv`, a linker and a
  // package manager do), while a process still holds the old parse.
  copyOver(TESTLIB_PATH, Next);
  std::filesystem::rename(Next, Path);
  auto New = Cache.get(Path, Error);
  ASSERT_TRUE(New) << Error;
  EXPECT_NE(New.get(), Old.get());
  EXPECT_FALSE(New->findFunction("rip_func"));
  EXPECT_EQ(New->identity(), *FileIdentity::of(Path));
  // The old parse is intact for whoever holds it, and the new one cached.
  EXPECT_TRUE(Old->findFunction("rip_func"));
  EXPECT_EQ(Cache.get(Path, Error).get(), New.get());
}

TEST(ElfCache, AFileRewrittenInPlaceIsReadAgain) {
  ScratchDir D;
  std::string Path = D.path("lib");
  copyOver(TESTLIB_PATH, Path);
  ElfCache Cache;
  std::string Error;
  auto Old = Cache.get(Path, Error);
  ASSERT_TRUE(Old) << Error;
  auto Ino = Old->identity().Ino;
  copyOver(TARGET_PATH, Path); // the same inode, other bytes
  ASSERT_EQ(FileIdentity::of(Path)->Ino, Ino);
  auto New = Cache.get(Path, Error);
  ASSERT_TRUE(New) << Error;
  EXPECT_NE(New.get(), Old.get());
  EXPECT_TRUE(New->findFunction("rip_func"));
}

TEST(ElfCache, APathThatFailedIsTriedAgainOnceItChanges) {
  ScratchDir D;
  std::string Path = D.path("later");
  ElfCache Cache;
  std::string Error;
  EXPECT_FALSE(Cache.get(Path, Error));
  copyOver(TARGET_PATH, Path);
  auto F = Cache.get(Path, Error);
  ASSERT_TRUE(F) << Error;
  EXPECT_TRUE(F->findFunction("rip_func"));
}

} // namespace
