//===- ElfFileTest.cpp - The ELF reader -----------------------------------===//
#include "tscc/Runtime/ElfFile.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <elf.h>
#include <fstream>
#include <iterator>
#include <random>

using namespace tscc::rt;

namespace {

std::vector<uint8_t> slurp(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(In), {});
}

TEST(ElfFile, ReadsTheTestTarget) {
  std::string Err;
  auto F = ElfFile::open(TARGET_PATH, Err);
  ASSERT_TRUE(F) << Err;
  EXPECT_TRUE(F->is64());
  EXPECT_EQ(F->machine(), EM_X86_64);
  EXPECT_FALSE(F->interpreter().empty());
  const ElfSymbol *Work = F->findFunction("work");
  ASSERT_TRUE(Work);
  EXPECT_GT(Work->Size, 0u);
  const ElfSymbol *Rip = F->findFunction("rip_func");
  ASSERT_TRUE(Rip);
  EXPECT_EQ(F->functionContaining(Rip->Value + 3), Rip);
  EXPECT_EQ(F->functionContaining(Work->Value), Work);
  // The code bytes come from the file: the first byte of rip_func is the
  // RIP-relative mov (8b).
  uint8_t B[2];
  ASSERT_TRUE(F->readVAddr(Rip->Value, B, 2));
  EXPECT_EQ(B[0], 0x8b);
  EXPECT_TRUE(F->ehFrame() || F->ehFrameHdr());
  // Deduplicated: .symtab and .dynsym list some functions twice.
  for (size_t I = 1; I < F->functions().size(); ++I)
    EXPECT_FALSE(F->functions()[I].Name == F->functions()[I - 1].Name &&
                 F->functions()[I].Value == F->functions()[I - 1].Value);
}

TEST(ElfFile, SharedLibrarySoname) {
  std::string Err;
  auto Lib = ElfFile::open(TESTLIB_PATH, Err);
  ASSERT_TRUE(Lib) << Err;
  EXPECT_TRUE(Lib->isRelocatable());
  EXPECT_NE(Lib->findFunction("lib_func"), nullptr);
  auto Libc = ElfFile::open("/lib/x86_64-linux-gnu/libc.so.6", Err);
  ASSERT_TRUE(Libc) << Err;
  EXPECT_EQ(Libc->soname(), "libc.so.6");
  // libc ships without .symtab: its functions come from .dynsym.
  const ElfSymbol *Malloc = Libc->findFunction("malloc");
  ASSERT_TRUE(Malloc);
  EXPECT_TRUE(Malloc->Dynamic);
}

TEST(ElfFile, Elf32) {
  std::string Out = ::testing::TempDir() + "/elf32-testlib.so";
  std::string Cmd = "gcc -m32 -O2 -shared -fPIC -o " + Out + " " +
                    std::string(TESTLIB_SOURCE) + " 2>/dev/null";
  if (std::system(Cmd.c_str()) != 0)
    GTEST_SKIP() << "gcc -m32 is not available";
  std::string Err;
  auto F = ElfFile::open(Out, Err);
  ASSERT_TRUE(F) << Err;
  EXPECT_FALSE(F->is64());
  EXPECT_EQ(F->elfClass(), ElfClass::Elf32);
  EXPECT_EQ(F->machine(), EM_386);
  const ElfSymbol *S = F->findFunction("lib_func");
  ASSERT_TRUE(S);
  EXPECT_GT(S->Size, 0u);
}

TEST(ElfFile, Errors) {
  std::string Err;
  EXPECT_FALSE(ElfFile::open("/nonexistent/file", Err));
  EXPECT_NE(Err.find("/nonexistent/file"), std::string::npos);
  EXPECT_FALSE(ElfFile::open("/proc/self", Err));
  EXPECT_FALSE(ElfFile::fromBuffer({'n', 'o', 'p', 'e'}, "buf", Err));
  EXPECT_NE(Err.find("not an ELF"), std::string::npos);
}

// Truncated and corrupted copies of real files never crash the reader and
// never produce symbols outside the file.
TEST(ElfFile, SurvivesTruncationAndCorruption) {
  std::vector<uint8_t> Orig = slurp(TARGET_PATH);
  ASSERT_GT(Orig.size(), 1000u);
  std::string Err;
  for (size_t Size :
       {size_t(0), size_t(4), size_t(16), size_t(52), size_t(64), size_t(100),
        size_t(500), size_t(4096), Orig.size() / 2, Orig.size() - 1}) {
    std::vector<uint8_t> Cut(Orig.begin(), Orig.begin() + Size);
    auto F = ElfFile::fromBuffer(Cut, "cut", Err);
    if (F) {
      for (const ElfSymbol &S : F->functions())
        EXPECT_FALSE(S.Name.empty());
    }
  }
  std::mt19937 Rng(42);
  for (int Round = 0; Round < 300; ++Round) {
    std::vector<uint8_t> Bad = Orig;
    for (int K = 0; K < 20; ++K) {
      // Hit the headers often: that is where offsets live.
      size_t At = (K % 2) ? Rng() % 256 : Rng() % Bad.size();
      Bad[At] = static_cast<uint8_t>(Rng());
    }
    auto F = ElfFile::fromBuffer(std::move(Bad), "bad", Err);
    if (!F)
      continue;
    for (const ElfSymbol &S : F->functions()) {
      uint8_t B[4];
      (void)F->readVAddr(S.Value, B, sizeof(B));
      (void)F->functionContaining(S.Value + 1);
    }
  }
}

} // namespace
