//===- DriverTest.cpp - tsrun's -c word splitting -------------------------===//

#include "tscc/Runtime/Driver.h"

#include <gtest/gtest.h>

using namespace tscc::rt;

namespace {

std::vector<std::string> split(const char *S) {
  std::vector<std::string> V;
  std::string Err;
  EXPECT_TRUE(splitCommand(S, V, Err)) << Err;
  return V;
}

TEST(DriverTest, SplitsLikeAShell) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split("ls -l /tmp"), (V{"ls", "-l", "/tmp"}));
  EXPECT_EQ(split("  a   b  "), (V{"a", "b"}));
  EXPECT_EQ(split("echo 'a b' \"c d\""), (V{"echo", "a b", "c d"}));
  EXPECT_EQ(split("x'y z'w"), (V{"xy zw"}));
  EXPECT_EQ(split("a\\ b"), (V{"a b"}));
  EXPECT_EQ(split("\"q\\\"x\""), (V{"q\"x"}));
  EXPECT_EQ(split("''"), (V{""}));
  EXPECT_EQ(split(""), V{});
}

TEST(DriverTest, UnterminatedQuoteIsAnError) {
  std::vector<std::string> V;
  std::string Err;
  EXPECT_FALSE(splitCommand("echo 'oops", V, Err));
  EXPECT_EQ(Err, "unterminated ' in command 'echo 'oops'");
}

} // namespace
