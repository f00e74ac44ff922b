//===- ModuleImageTest.cpp - Modules and the ELF cache both backends use --===//
#include "tscc/Runtime/ModuleImage.h"

#include <gtest/gtest.h>

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
