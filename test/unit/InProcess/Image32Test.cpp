//===- Image32Test.cpp - The i386 loader on the real i386 agent object ----===//
//
// The i386 agent that tsrun relocates into 32-bit processes is an ELF32
// ET_REL, read by the same checked view as the x86-64 loader
// (Loader/RelocatableElf). It arrives from a build step, but the i386
// streams of a probe object take the same path and are untrusted: no
// truncation or corruption may crash the loader, and each must be refused
// with a reason or relocate within bounds.
//
//===----------------------------------------------------------------------===//
#include "AgentObject.h"

#include "../../../runtime/lib/Loader/Image32.h"
#include "../../../runtime/lib/Loader/LoadedImage.h"

#include <gtest/gtest.h>

#include <random>

using namespace tscc::rt;
using tscc::rt::ip::agentObjectI386;

namespace {

constexpr uint64_t Base = 0x10000000;

/// Every name the agent leaves undefined gets an address below 4 GiB.
std::optional<uint64_t> anyAddress(std::string_view) { return 0x1000; }

bool relocate(std::span<const uint8_t> Bytes, RelocatedImage &Out,
              std::string &Error) {
  return relocateImage(Bytes, Base, anyAddress, Out, Error);
}

TEST(Image32Test, RelocatesTheI386Agent) {
  std::span<const uint8_t> Agent = agentObjectI386();
  ASSERT_TRUE(isElf32(Agent));
  uint64_t Size = 0;
  std::string Error;
  ASSERT_TRUE(relocatedImageSize(Agent, Size, Error)) << Error;
  RelocatedImage Out;
  ASSERT_TRUE(relocate(Agent, Out, Error)) << Error;
  EXPECT_EQ(Out.Bytes.size(), Size);
  EXPECT_EQ(Out.Base, Base);
  EXPECT_LE(Out.ExecEnd, Out.RwStart);
  EXPECT_LE(Out.RwStart, Out.ContentEnd);
  ASSERT_FALSE(Out.Symbols.empty());
  for (const auto &[Name, Addr] : Out.Symbols)
    EXPECT_TRUE(Addr >= Base && Addr <= Base + Size) << Name;
}

TEST(Image32Test, RefusesAnImageAbove4GiB) {
  RelocatedImage Out;
  std::string Error;
  EXPECT_FALSE(
      relocateImage(agentObjectI386(), 1ull << 32, anyAddress, Out, Error));
  EXPECT_NE(Error.find("below 4 GiB"), std::string::npos) << Error;
}

TEST(Image32Test, EveryTruncationIsRefused) {
  std::span<const uint8_t> Agent = agentObjectI386();
  // The section header table is at the end, so every proper prefix lacks
  // it; none may crash or relocate.
  for (size_t Len = 0; Len < Agent.size(); Len += (Len < 256 ? 1 : 13)) {
    RelocatedImage Out;
    std::string Error;
    EXPECT_FALSE(relocate(Agent.first(Len), Out, Error)) << "length " << Len;
    EXPECT_FALSE(Error.empty()) << "length " << Len;
  }
}

TEST(Image32Test, SurvivesRandomCorruption) {
  std::span<const uint8_t> Agent = agentObjectI386();
  std::mt19937 Rng(2026);
  unsigned Refused = 0;
  for (int Iter = 0; Iter < 2000; ++Iter) {
    std::vector<uint8_t> B(Agent.begin(), Agent.end());
    for (int I = 0, Flips = 1 + Rng() % 8; I < Flips; ++I)
      B[Rng() % B.size()] ^= static_cast<uint8_t>(1 + Rng() % 255);
    RelocatedImage Out;
    std::string Error;
    if (!relocate(B, Out, Error)) {
      ++Refused;
      EXPECT_FALSE(Error.empty());
      continue;
    }
    // Whatever relocated stays inside the mapping it asked for.
    for (const auto &[Name, Sec] : Out.Sections)
      EXPECT_LE(Sec.first + Sec.second, Base + Out.Bytes.size()) << Name;
  }
  EXPECT_GT(Refused, 0u);
}

} // namespace
