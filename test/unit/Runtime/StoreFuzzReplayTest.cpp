//===- StoreFuzzReplayTest.cpp - The store fuzzer's target in every build --===//
//
// The store fuzzer (test/Fuzz/targets/StoreFuzzer.cpp) needs clang and a
// build of its own (utils/fuzz/run-fuzzers.sh store). Its target is also
// linked here, so that every suite run, and the ASan+UBSan job of CI
// (utils/setup/run-sanitized.sh) in particular, feeds it its corpus, the
// inputs it once failed on, and a fixed set of mutations of them.
//
//===----------------------------------------------------------------------===//

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);

namespace {

using Bytes = std::vector<uint8_t>;

std::vector<Bytes> filesIn(const std::filesystem::path &Dir) {
  std::vector<std::filesystem::path> Paths;
  for (const auto &E : std::filesystem::directory_iterator(Dir))
    if (E.is_regular_file())
      Paths.push_back(E.path());
  std::sort(Paths.begin(), Paths.end());
  std::vector<Bytes> Out;
  for (const auto &P : Paths) {
    std::ifstream In(P, std::ios::binary);
    Out.emplace_back(std::istreambuf_iterator<char>(In),
                     std::istreambuf_iterator<char>());
  }
  return Out;
}

std::vector<Bytes> seeds() {
  std::vector<Bytes> All = filesIn(TSCC_STORE_CORPUS_DIR);
  std::vector<Bytes> Old = filesIn(TSCC_STORE_REGRESSIONS_DIR);
  All.insert(All.end(), Old.begin(), Old.end());
  return All;
}

/// Changes a few bytes of In, inserts or cuts some: what libFuzzer's
/// simplest mutators do, from a fixed seed.
Bytes mutate(Bytes In, std::mt19937_64 &Rng) {
  unsigned Edits = 1 + Rng() % 8;
  for (unsigned I = 0; I < Edits; ++I) {
    switch (Rng() % 4) {
    case 0:
    case 1:
      if (!In.empty())
        In[Rng() % In.size()] = static_cast<uint8_t>(Rng());
      break;
    case 2:
      In.insert(In.begin() + static_cast<long>(Rng() % (In.size() + 1)),
                static_cast<uint8_t>(Rng()));
      break;
    default:
      if (!In.empty())
        In.resize(Rng() % In.size());
      break;
    }
  }
  return In;
}

TEST(StoreFuzzReplay, CorpusAndRegressions) {
  std::vector<Bytes> Seeds = seeds();
  ASSERT_GE(Seeds.size(), 6u);
  for (const Bytes &B : Seeds)
    EXPECT_EQ(LLVMFuzzerTestOneInput(B.data(), B.size()), 0);
}

TEST(StoreFuzzReplay, FixedMutations) {
  std::vector<Bytes> Seeds = seeds();
  ASSERT_FALSE(Seeds.empty());
  std::mt19937_64 Rng(20261127);
  for (unsigned I = 0; I < 20000; ++I) {
    Bytes B = mutate(Seeds[I % Seeds.size()], Rng);
    EXPECT_EQ(LLVMFuzzerTestOneInput(B.data(), B.size()), 0);
  }
}

} // namespace
