//===- UnwinderTest.cpp - How an unwind ends, by frame pointers ------------===//
//
// Stacks laid out in a buffer, in no module (so the frame-pointer chain is
// followed), of both data models: the unwind must say whether it reached
// the outermost frame or why it stopped. The .eh_frame side is covered end
// to end by the lit tests (Ptrace/unwind-omit-fp.t, Remote/...).
//
//===----------------------------------------------------------------------===//
#include "tscc/Runtime/Unwinder.h"
#include "tscc/Runtime/StackTable.h"

#include <cstring>
#include <gtest/gtest.h>
#include <map>

using namespace tscc;
using namespace tscc::rt;

namespace {

/// A stack of frame-pointer frames at Base, words of Ptr bytes.
struct FakeStack {
  uint64_t Base;
  unsigned Ptr;
  std::map<uint64_t, uint64_t> Words;

  /// Frame I: [fp] = caller's fp, [fp + ptr] = return address.
  void frame(uint64_t Fp, uint64_t CallerFp, uint64_t Ret) {
    Words[Fp] = CallerFp;
    Words[Fp + Ptr] = Ret;
  }
  UnwindSource source() {
    UnwindSource S;
    S.Read = [this](uint64_t Addr, uint64_t &W) {
      auto It = Words.find(Addr);
      if (It == Words.end())
        return false;
      W = It->second;
      return true;
    };
    S.ModuleAt = [](uint64_t) { return nullptr; };
    return S;
  }
};

/// main -> a -> b, stopped in b; main's frame has fp 0 (the psABI's end).
UnwoundStack unwindChain(DataModel DM, unsigned MaxDepth, uint64_t MainFp = 0) {
  unsigned Ptr = DM == DataModel::ILP32 ? 4 : 8;
  FakeStack S{0x7000, Ptr, {}};
  uint64_t FpB = 0x7000, FpA = 0x7100, FpMain = 0x7200;
  S.frame(FpB, FpA, 0x401100);       // b returns into a
  S.frame(FpA, FpMain, 0x401200);    // a returns into main
  S.frame(FpMain, MainFp, 0x401300); // main returns into _start
  uint64_t Regs[TSCC_REG_COUNT] = {};
  Regs[TSCC_REG_RIP] = 0x401000;
  Regs[TSCC_REG_RSP] = FpB - 2 * Ptr;
  Regs[TSCC_REG_RBP] = FpB;
  return unwindStack(S.source(), DM, Regs, MaxDepth);
}

TEST(UnwinderTest, AChainEndingInAZeroFramePointerIsWhole) {
  for (DataModel DM : AllDataModels) {
    UnwoundStack U = unwindChain(DM, 64);
    EXPECT_EQ(U.PCs,
              (std::vector<uint64_t>{0x401000, 0x401100, 0x401200, 0x401300}));
    EXPECT_EQ(U.End, StackEnd::Complete);
  }
}

TEST(UnwinderTest, ADepthLimitWithMoreFramesIsMarked) {
  for (DataModel DM : AllDataModels) {
    UnwoundStack U = unwindChain(DM, 2);
    EXPECT_EQ(U.PCs.size(), 2u);
    EXPECT_EQ(U.End, StackEnd::DepthLimit);
    // Exactly as deep as the stack: nothing was cut.
    EXPECT_EQ(unwindChain(DM, 4).End, StackEnd::Complete);
  }
}

TEST(UnwinderTest, UnreadableAndMissingFramesAreMarked) {
  for (DataModel DM : AllDataModels) {
    // main's saved fp points where nothing can be read.
    UnwoundStack U = unwindChain(DM, 64, 0x9000);
    EXPECT_EQ(U.PCs.size(), 4u);
    EXPECT_EQ(U.End, StackEnd::Unreadable);
    // ... or below the stack: no frame pointer at all.
    U = unwindChain(DM, 64, 1);
    EXPECT_EQ(U.End, StackEnd::NoUnwindInfo);
  }
}

TEST(UnwinderTest, ThirtyTwoBitWordsAreZeroExtended) {
  FakeStack S{0x7000, 4, {}};
  S.frame(0x7000, 0, 0xf7801234);
  uint64_t Regs[TSCC_REG_COUNT] = {};
  // The upper halves of an i386 thread's slots are not the process's.
  Regs[TSCC_REG_RIP] = 0xdead00000401000ull;
  Regs[TSCC_REG_RSP] = 0xdead000000006ff8ull;
  Regs[TSCC_REG_RBP] = 0xdead000000007000ull;
  UnwoundStack U = unwindStack(S.source(), DataModel::ILP32, Regs, 8);
  EXPECT_EQ(U.PCs, (std::vector<uint64_t>{0x401000, 0xf7801234}));
  EXPECT_EQ(U.End, StackEnd::Complete);
}

TEST(UnwinderTest, MarkersNameTheReason) {
  EXPECT_EQ(stackEndMarker(StackEnd::Complete), "");
  EXPECT_EQ(stackEndMarker(StackEnd::DepthLimit), "[truncated: depth limit]");
  EXPECT_EQ(stackEndMarker(static_cast<StackEnd>(99)), "[truncated]");
  EXPECT_EQ(stackEndReason("[truncated: no unwind info]"), "no unwind info");
  EXPECT_EQ(stackEndReason("[truncated]"), "unknown");
  EXPECT_FALSE(stackEndReason("main+0x10 (app)"));
  EXPECT_EQ(withStackEndMarker({"f"}, StackEnd::Corrupt),
            (std::vector<std::string>{"f", "[truncated: corrupt stack]"}));
}

TEST(UnwinderTest, ACutStackIsAKeyOfItsOwn) {
  StackTable T;
  auto Sym = [](uint64_t PC) { return "f" + std::to_string(PC); };
  std::vector<uint64_t> PCs = {1, 2};
  uint64_t Whole = T.intern(1, PCs, Sym);
  uint64_t Cut = T.intern(1, PCs, Sym, StackEnd::DepthLimit);
  EXPECT_NE(Whole, Cut);
  EXPECT_EQ(*T.frames(Cut),
            (std::vector<std::string>{"f1", "f2", "[truncated: depth limit]"}));
  EXPECT_EQ(T.intern(1, PCs, Sym, StackEnd::DepthLimit), Cut);
}

} // namespace
