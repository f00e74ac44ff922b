//===- StackTableTest.cpp - Stacks used as aggregation keys ----------------===//

#include "tscc/Runtime/StackTable.h"

#include <gtest/gtest.h>

using namespace tscc::rt;

namespace {

/// Symbolises as "f<PC - Base>": the same code at two load addresses.
struct FakeModule {
  uint64_t Base;
  unsigned Calls = 0;
  std::string operator()(uint64_t PC) {
    ++Calls;
    return "f" + std::to_string(PC - Base);
  }
};

TEST(StackTableTest, EqualSymbolisedStacksShareAnId) {
  StackTable T;
  FakeModule A{0x1000}, B{0x9000};
  std::vector<uint64_t> InA = {0x1010, 0x1020}, InB = {0x9010, 0x9020};
  uint64_t IdA = T.intern(1, InA, std::ref(A));
  uint64_t IdB = T.intern(2, InB, std::ref(B));
  EXPECT_NE(IdA, 0u);
  EXPECT_EQ(IdA, IdB) << "same frames in two processes: one key";
  EXPECT_EQ(T.size(), 1u);
  auto Frames = T.frames(IdA);
  ASSERT_TRUE(Frames);
  EXPECT_EQ(*Frames, (std::vector<std::string>{"f16", "f32"}));
}

TEST(StackTableTest, DifferentStacksAndDepthsDiffer) {
  StackTable T;
  FakeModule M{0};
  std::vector<uint64_t> S1 = {1, 2, 3}, S2 = {1, 2}, S3 = {1, 4, 3};
  uint64_t A = T.intern(1, S1, std::ref(M)), B = T.intern(1, S2, std::ref(M)),
           C = T.intern(1, S3, std::ref(M));
  EXPECT_NE(A, B);
  EXPECT_NE(A, C);
  EXPECT_NE(B, C);
  EXPECT_EQ(T.size(), 3u);
}

TEST(StackTableTest, SymbolisesEachProcessStackOnce) {
  StackTable T;
  FakeModule M{0};
  std::vector<uint64_t> S = {5, 6, 7};
  uint64_t First = T.intern(3, S, std::ref(M));
  unsigned After = M.Calls;
  EXPECT_EQ(After, 3u);
  for (int I = 0; I < 100; ++I)
    EXPECT_EQ(T.intern(3, S, std::ref(M)), First);
  EXPECT_EQ(M.Calls, After) << "the hit path must not symbolise again";
}

TEST(StackTableTest, FullTableGivesZeroButKeepsKnownStacks) {
  StackTable T(2);
  FakeModule M{0};
  std::vector<uint64_t> S1 = {1}, S2 = {2}, S3 = {3};
  uint64_t A = T.intern(1, S1, std::ref(M));
  uint64_t B = T.intern(1, S2, std::ref(M));
  EXPECT_EQ(T.intern(1, S3, std::ref(M)), 0u);
  // Known stacks still resolve, also from a process not seen before.
  EXPECT_EQ(T.intern(7, S1, std::ref(M)), A);
  EXPECT_EQ(T.intern(1, S2, std::ref(M)), B);
  EXPECT_FALSE(T.frames(0));
  EXPECT_FALSE(T.frames(3));
}

TEST(StackTableTest, KeyTextIsBpftraceLayout) {
  EXPECT_EQ(stackKeyText({"leaf+0x0 (app)", "main+0x4d (app)"}),
            "\n        leaf+0x0 (app)\n        main+0x4d (app)\n");
}

} // namespace
