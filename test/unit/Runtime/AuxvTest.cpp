//===- AuxvTest.cpp - Reading auxiliary vectors of either width -----------===//

#include "tscc/Runtime/Auxv.h"

#include <elf.h>
#include <gtest/gtest.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cstring>
#include <vector>

using namespace tscc::rt;

namespace {

template <typename Word>
std::vector<uint8_t> vectorOf(std::initializer_list<Word> Words) {
  std::vector<uint8_t> Out(Words.size() * sizeof(Word));
  std::memcpy(Out.data(), std::data(Words), Out.size());
  return Out;
}

TEST(Auxv, ThirtyTwoBitWordsAreReadAsSuch) {
  // What a 32-bit process's /proc/PID/auxv holds: read as 64-bit pairs it
  // has no AT_SYSINFO_EHDR (the agent then paid a system call per clock).
  auto Bytes = vectorOf<uint32_t>({AT_SYSINFO_EHDR, 0xf7fc1000u, AT_HWCAP2, 2,
                                   AT_ENTRY, 0x8049000u, AT_NULL, 0});
  auto Aux = parseAuxv(Bytes, 4);
  EXPECT_EQ(Aux.size(), 3u);
  EXPECT_EQ(Aux[AT_SYSINFO_EHDR], 0xf7fc1000u);
  EXPECT_EQ(Aux[AT_HWCAP2], 2u);
  EXPECT_EQ(Aux[AT_ENTRY], 0x8049000u);
  EXPECT_EQ(parseAuxv(Bytes, 8).count(AT_SYSINFO_EHDR), 0u);
}

TEST(Auxv, SixtyFourBitWordsStopAtNullAndAtAHalfPair) {
  auto Bytes = vectorOf<uint64_t>(
      {AT_SYSINFO_EHDR, 0x7ffd12345000ull, AT_NULL, 0, AT_ENTRY, 1});
  auto Aux = parseAuxv(Bytes, 8);
  EXPECT_EQ(Aux.size(), 1u);
  EXPECT_EQ(Aux[AT_SYSINFO_EHDR], 0x7ffd12345000ull);
  auto Cut = vectorOf<uint64_t>({AT_ENTRY, 7, AT_BASE});
  EXPECT_EQ(parseAuxv(Cut, 8).size(), 1u);
  EXPECT_TRUE(parseAuxv(Cut, 3).empty());
}

TEST(Auxv, OwnProcessAgreesWithGetauxval) {
  auto Aux = readProcessAuxv(getpid(), sizeof(long));
  EXPECT_EQ(Aux[AT_SYSINFO_EHDR], getauxval(AT_SYSINFO_EHDR));
  EXPECT_EQ(Aux[AT_PAGESZ], getauxval(AT_PAGESZ));
  EXPECT_TRUE(readProcessAuxv(-1, 8).empty());
}

} // namespace
