//===- ArgConversionTest.cpp - What each printf argument is ---------------===//

#include "tscc/Runtime/Format.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace tscc::rt;

namespace {

std::string describe(const std::vector<ArgConversion> &Cs) {
  std::string Out;
  for (const ArgConversion &C : Cs) {
    char Buf[32];
    snprintf(Buf, sizeof(Buf), "%c%u/%u ", C.Conv, C.IntBits[0], C.IntBits[1]);
    Out += Buf;
  }
  return Out;
}

TEST(ArgConversion, WidthsPerDataModel) {
  // ILP32 first, then LP64: only long, size_t and ptrdiff_t differ.
  EXPECT_EQ(describe(formatArgConversions(
                "%d %ld %lld %hhu %hd %zu %td %jd %#llx %s %c")),
            "d32/32 d32/64 d64/64 u8/8 d16/16 u32/64 d32/64 d64/64 x64/64 "
            "s32/32 c32/32 ");
}

TEST(ArgConversion, StarsPercentsAndUnknownConversions) {
  // '*' consumes an int; "%%" and an unknown conversion (printed as text by
  // formatPrintf) consume nothing.
  EXPECT_EQ(describe(formatArgConversions("100%% %*.*f %y %-5s")),
            "*32/32 *32/32 f32/32 s32/32 ");
  EXPECT_TRUE(formatArgConversions("").empty());
  EXPECT_TRUE(formatArgConversions("%").empty());
}

TEST(ArgConversion, FormattingUnchanged) {
  // Listing conversions shares the parser with formatting; formatting
  // itself must be as before.
  FormatArg A;
  A.Kind = TSCC_FIELD_S64;
  A.Bits = 0xffffffffull;
  std::vector<FormatArg> Args{A};
  EXPECT_EQ(formatPrintf("%ld", Args, DataModel::ILP32), "-1");
  EXPECT_EQ(formatPrintf("%ld", Args, DataModel::LP64), "4294967295");
}

TEST(ArgConversion, SignExtendAndTruncate) {
  EXPECT_EQ(signExtendBits(0xff, 8), -1);
  EXPECT_EQ(signExtendBits(0x7f, 8), 127);
  EXPECT_EQ(signExtendBits(0x1ffffffffull, 32), -1);
  EXPECT_EQ(signExtendBits(0x8000000000000000ull, 64), INT64_MIN);
  EXPECT_EQ(truncateBits(0x1ffffffffull, 32), 0xffffffffull);
  EXPECT_EQ(truncateBits(~0ull, 64), ~0ull);
}

} // namespace
