//===- SpinPolicyTest.cpp - When the ptrace event loop polls --------------===//
#include "SpinWait.h"

#include <gtest/gtest.h>

using tscc::rt::pt::SpinPolicy;

namespace {

constexpr uint64_t Us = 1000;

TEST(SpinPolicyTest, StartsByBlocking) {
  SpinPolicy P(50 * Us);
  EXPECT_EQ(P.budgetNs(), 0u);
}

TEST(SpinPolicyTest, PollsWhileEventsComeClose) {
  SpinPolicy P(50 * Us);
  P.observe(20 * Us);
  EXPECT_EQ(P.budgetNs(), 50 * Us);
  P.observe(50 * Us); // the limit itself still counts as close
  EXPECT_EQ(P.budgetNs(), 50 * Us);
}

TEST(SpinPolicyTest, StopsPollingAfterAQuietGap) {
  SpinPolicy P(50 * Us);
  P.observe(10 * Us);
  P.observe(51 * Us);
  EXPECT_EQ(P.budgetNs(), 0u);
  P.observe(1 * Us); // hot again
  EXPECT_EQ(P.budgetNs(), 50 * Us);
}

TEST(SpinPolicyTest, ZeroLimitNeverPolls) {
  SpinPolicy P(0);
  P.observe(0);
  EXPECT_EQ(P.budgetNs(), 0u);
}

} // namespace
