//===- FormatTest.cpp - printf per data model vs. the C library -----------===//

#include "tscc/Runtime/Format.h"

#include <gtest/gtest.h>

#include <cstdarg>
#include <cstring>

using namespace tscc::rt;

namespace {

FormatArg num(uint64_t V, uint32_t Kind = TSCC_FIELD_S64) {
  FormatArg A;
  A.Kind = Kind;
  A.Bits = V;
  return A;
}

FormatArg str(const char *S) {
  FormatArg A;
  A.Kind = TSCC_FIELD_STRING;
  A.Str = S;
  return A;
}

FormatArg dbl(double D) {
  FormatArg A;
  A.Kind = TSCC_FIELD_DOUBLE;
  memcpy(&A.Bits, &D, 8);
  return A;
}

std::string c(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));
std::string c(const char *Fmt, ...) {
  char Buf[512];
  va_list Ap;
  va_start(Ap, Fmt);
  vsnprintf(Buf, sizeof(Buf), Fmt, Ap);
  va_end(Ap);
  return Buf;
}

std::string f64(const char *Fmt, std::vector<FormatArg> Args) {
  return formatPrintf(Fmt, Args, DataModel::LP64);
}
std::string f32(const char *Fmt, std::vector<FormatArg> Args) {
  return formatPrintf(Fmt, Args, DataModel::ILP32);
}

const int64_t Values[] = {0,
                          1,
                          -1,
                          42,
                          -42,
                          127,
                          128,
                          255,
                          256,
                          65535,
                          65536,
                          INT32_MAX,
                          INT32_MIN,
                          UINT32_MAX,
                          INT64_MAX,
                          INT64_MIN,
                          0x123456789abcdefLL};

// The LP64 stream is the host's own model: every conversion must match the
// C library byte for byte.
TEST(FormatTest, IntegersMatchTheCLibraryOnLP64) {
  const char *Flags[] = {"", "-", "+", " ", "#", "0", "-+", "#0", "+0", "- "};
  const char *Widths[] = {"", "1", "8", "20"};
  const char *Precs[] = {"", ".0", ".3", ".12"};
  for (int64_t V : Values)
    for (const char *Fl : Flags)
      for (const char *W : Widths)
        for (const char *P : Precs) {
          std::string Spec = std::string("%") + Fl + W + P;
#define CHECK_CONV(LEN, CONV, TYPE)                                            \
  do {                                                                         \
    std::string F = Spec + LEN CONV;                                           \
    EXPECT_EQ(f64(F.c_str(), {num(V)}), c(F.c_str(), (TYPE)V))                 \
        << F << " " << V;                                                      \
  } while (0)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat"
          CHECK_CONV("", "d", int);
          CHECK_CONV("", "i", int);
          CHECK_CONV("", "u", unsigned);
          CHECK_CONV("", "x", unsigned);
          CHECK_CONV("", "X", unsigned);
          CHECK_CONV("", "o", unsigned);
          CHECK_CONV("hh", "d", signed char);
          CHECK_CONV("hh", "u", unsigned char);
          CHECK_CONV("h", "d", short);
          CHECK_CONV("h", "x", unsigned short);
          CHECK_CONV("l", "d", long);
          CHECK_CONV("l", "u", unsigned long);
          CHECK_CONV("ll", "d", long long);
          CHECK_CONV("ll", "x", unsigned long long);
          CHECK_CONV("z", "u", size_t);
          CHECK_CONV("z", "d", ssize_t);
          CHECK_CONV("t", "d", ptrdiff_t);
          CHECK_CONV("j", "d", intmax_t);
          CHECK_CONV("j", "u", uintmax_t);
#pragma GCC diagnostic pop
#undef CHECK_CONV
        }
}

// The ILP32 stream: `long`, size_t and pointers are 32 bits, so the result
// is what the host prints for the 32-bit C types.
TEST(FormatTest, LongIs32BitsOnILP32) {
  for (int64_t V : Values) {
    EXPECT_EQ(f32("%ld", {num(V)}), c("%d", (int32_t)V)) << V;
    EXPECT_EQ(f32("%lu", {num(V)}), c("%u", (uint32_t)V)) << V;
    EXPECT_EQ(f32("%lx", {num(V)}), c("%x", (uint32_t)V)) << V;
    EXPECT_EQ(f32("%zu", {num(V)}), c("%u", (uint32_t)V)) << V;
    EXPECT_EQ(f32("%lld", {num(V)}), c("%lld", (long long)V)) << V;
    EXPECT_EQ(f32("%jd", {num(V)}), c("%lld", (long long)V)) << V;
    EXPECT_EQ(f32("%d", {num(V)}), c("%d", (int)V)) << V;
  }
  EXPECT_EQ(f32("%ld", {num(0xffffffffu)}), "-1");
  EXPECT_EQ(f64("%ld", {num(0xffffffffu)}), "4294967295");
}

TEST(FormatTest, Pointers) {
  EXPECT_EQ(f64("%p", {num(0x7ffd1234abcdULL, TSCC_FIELD_PTR)}),
            c("%p", (void *)0x7ffd1234abcdULL));
  EXPECT_EQ(f32("%p", {num(0xdeadbeef12345678ULL, TSCC_FIELD_PTR)}),
            "0x12345678");
  EXPECT_EQ(f64("%p", {num(0, TSCC_FIELD_PTR)}), "(nil)");
  EXPECT_EQ(f64("[%-20p]", {num(0x1000, TSCC_FIELD_PTR)}),
            c("[%-20p]", (void *)0x1000));
  EXPECT_EQ(f64("[%18p]", {num(0x1000, TSCC_FIELD_PTR)}),
            c("[%18p]", (void *)0x1000));
}

TEST(FormatTest, StringsAndChars) {
  const char *Fmts[] = {"%s",     "[%10s]",   "[%-10s]",
                        "[%.3s]", "[%10.2s]", "[%-8.0s]"};
  for (const char *F : Fmts)
    for (const char *S : {"", "hello", "a longer string than ten"}) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
      EXPECT_EQ(f64(F, {str(S)}), c(F, S)) << F;
#pragma GCC diagnostic pop
    }
  EXPECT_EQ(f64("%c%c%c", {num('a'), num('b'), num(0x163)}), "abc");
  EXPECT_EQ(f64("[%3c|%-3c]", {num('x'), num('y')}), "[  x|y  ]");
  EXPECT_EQ(f64("%s", {num(5)}), "(not a string)");
}

TEST(FormatTest, FloatingPoint) {
  for (double D : {0.0, 1.5, -2.25, 1e10, 3.14159265358979, 1e-5}) {
    EXPECT_EQ(f64("%f", {dbl(D)}), c("%f", D));
    EXPECT_EQ(f64("%.2e", {dbl(D)}), c("%.2e", D));
    EXPECT_EQ(f64("%10.3g", {dbl(D)}), c("%10.3g", D));
    EXPECT_EQ(f64("%a", {dbl(D)}), c("%a", D));
  }
}

TEST(FormatTest, StarWidthAndPrecision) {
  EXPECT_EQ(f64("[%*d]", {num(6), num(42)}), c("[%*d]", 6, 42));
  EXPECT_EQ(f64("[%*d]", {num(-6), num(42)}), c("[%*d]", -6, 42));
  EXPECT_EQ(f64("[%.*s]", {num(2), str("hello")}), c("[%.*s]", 2, "hello"));
  EXPECT_EQ(f64("[%.*d]", {num(-1), num(7)}), c("[%.*d]", -1, 7));
  EXPECT_EQ(f64("[%*.*x]", {num(8), num(4), num(255)}),
            c("[%*.*x]", 8, 4, 255));
}

TEST(FormatTest, PercentMissingAndUnsupported) {
  EXPECT_EQ(f64("100%%", {}), "100%");
  EXPECT_EQ(f64("a %d b %d", {num(1)}), "a 1 b (missing)");
  EXPECT_EQ(f64("%n", {num(1)}), "%n");
  EXPECT_EQ(f64("%y and %d", {num(3)}), "%y and 3");
  EXPECT_EQ(f64("trailing %", {}), "trailing %");
  EXPECT_EQ(f64("%ll", {}), "%ll");
  // Huge widths are clamped rather than allocating gigabytes.
  EXPECT_LE(f64("%999999999d", {num(1)}).size(), 4097u);
  // A NUL after '%' (a format table of a hostile object) is neither a
  // flag nor a conversion: printed as is, no argument taken.
  using namespace std::string_view_literals;
  EXPECT_EQ(
      formatPrintf("%\0d%d"sv, std::vector<FormatArg>{num(7)}, DataModel::LP64),
      "%\0d7"sv);
}

TEST(FormatTest, DecodesRecordArguments) {
  // S64 42, STRING "world" (length 5, padded), PTR.
  std::vector<uint8_t> B(8 + 16 + 8, 0);
  int64_t V = 42;
  memcpy(&B[0], &V, 8);
  uint32_t Len = 5;
  memcpy(&B[8], &Len, 4);
  memcpy(&B[12], "world", 5);
  uint64_t Ptr = 0x1000;
  memcpy(&B[24], &Ptr, 8);
  tscc_field Fields[] = {
      {TSCC_FIELD_S64, 8}, {TSCC_FIELD_STRING, 0}, {TSCC_FIELD_PTR, 8}};
  std::vector<FormatArg> Args;
  ASSERT_TRUE(decodeArgs(Fields, B, Args));
  ASSERT_EQ(Args.size(), 3u);
  EXPECT_EQ(Args[1].Str, "world");
  EXPECT_EQ(formatPrintf("%d %s %p", Args, DataModel::LP64), "42 world 0x1000");

  // Truncated areas decode what they can and report failure.
  Args.clear();
  EXPECT_FALSE(decodeArgs(Fields, std::span(B).first(20), Args));
  EXPECT_EQ(Args.size(), 2u); // the string fits, the pointer does not
  uint32_t Huge = 0xffffffff;
  memcpy(&B[8], &Huge, 4);
  Args.clear();
  EXPECT_FALSE(decodeArgs(Fields, B, Args));
}

} // namespace
