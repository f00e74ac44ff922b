//===- SyscallPatchTest.cpp - System-call sites and their trampolines -----===//
#include "JumpPatch.h"
#include "SyscallTrampoline.h"
#include "TestBytes.h"

#include "tscc/agent.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace tscc::rt;
using namespace tscc::rt::ip;
using tscc::test::hex;

namespace {

constexpr uint64_t Fn = 0x7f1234560000;

struct Planned {
  bool Ok = false;
  PatchPlan Plan;
  std::string Why;
};

Planned plan(const std::string &Hex, unsigned SyscallOff) {
  std::vector<uint8_t> B = hex(Hex);
  Planned P;
  P.Ok = planSyscallPatch(B, Fn, Fn + SyscallOff, {}, P.Plan, P.Why);
  return P;
}

// glibc's getppid: nothing after the syscall but a ret, so the jump starts
// at the mov before it and displaces both.
TEST(SyscallPatch, StartsBeforeASyscallAtTheEnd) {
  Planned P = plan("b8 6e 00 00 00 0f 05 c3", 5);
  ASSERT_TRUE(P.Ok) << P.Why;
  EXPECT_EQ(P.Plan.Site, Fn);
  EXPECT_EQ(P.Plan.Length, 7u);
  EXPECT_EQ(P.Plan.SyscallIndex, 1);
}

// glibc's read, single-threaded path: the jump starts at the syscall and
// displaces the compare after it.
TEST(SyscallPatch, StartsAtTheSyscallWhenTheFunctionGoesOn) {
  Planned P = plan("31 c0 0f 05 48 3d 00 f0 ff ff 77 01 c3 c3", 2);
  ASSERT_TRUE(P.Ok) << P.Why;
  EXPECT_EQ(P.Plan.Site, Fn + 2);
  EXPECT_EQ(P.Plan.Length, 8u);
  EXPECT_EQ(P.Plan.SyscallIndex, 0);
}

// A jump lands on the syscall: no window around it may start before it,
// and none after it is long enough.
TEST(SyscallPatch, RefusesABranchTargetInside) {
  Planned P = plan("eb 05 b8 6e 00 00 00 0f 05 c3", 7);
  EXPECT_FALSE(P.Ok);
}

TEST(SyscallPatch, RefusesBytesInsideAnotherInstruction) {
  Planned P = plan("b8 0f 05 00 00 c3", 1);
  ASSERT_FALSE(P.Ok);
  EXPECT_NE(P.Why.find("not an instruction boundary"), std::string::npos)
      << P.Why;
}

TEST(SyscallPatch, RefusesANonSyscall) {
  Planned P = plan("b8 6e 00 00 00 90 90 c3", 5);
  EXPECT_FALSE(P.Ok);
}

// The trampoline of getppid's site, byte for byte where tscc/agent.h fixes
// them: the agent's calls, the landing with the relocated mov, the compare
// with the traced number, the untraced syscall and the jump back.
TEST(SyscallPatch, TrampolineLayout) {
  Planned P = plan("b8 6e 00 00 00 0f 05 c3", 5);
  ASSERT_TRUE(P.Ok) << P.Why;
  const uint64_t At = Fn + 0x10000, Enter = 0x7f0000001000,
                 Gadget = 0x2e7300000000;
  std::vector<uint8_t> Out;
  TrampolineInfo Info;
  uint64_t Target = 0;
  std::string Why;
  ASSERT_TRUE(buildSyscallTrampoline(P.Plan, At, Enter, Gadget,
                                     {{110, true}, {39, false}}, At + 4096, 1,
                                     Out, Info, Target, Why))
      << Why;
  ASSERT_EQ(Out.size(), SyscallTrampolineSlot);
  tscc_agent_site Site;
  memcpy(&Site, Out.data(), sizeof(Site));
  EXPECT_EQ(Site.address, Fn);
  EXPECT_EQ(Site.length, 7u);
  EXPECT_EQ(Site.enter, Enter);
  EXPECT_EQ(Site.original[TSCC_SYSCALL_SITE_OFFSET], 5);
  EXPECT_EQ(0, memcmp(Site.original, hex("b8 6e 00 00 00 0f 05").data(), 7));
  const uint8_t *C = Out.data() + TSCC_TRAMPOLINE_CODE;
  EXPECT_EQ(0, memcmp(C, hex("48 8d 64 24 80 50 ff 15").data(), 8));
  // Entry returns to the gadget's call, exit to the lea that ends it all;
  // the entry of a call without exit clauses to a cs-prefixed call.
  EXPECT_EQ(C[TSCC_SYSCALL_TRAMPOLINE_ENTRY_END], 0xff);
  EXPECT_EQ(C[TSCC_SYSCALL_TRAMPOLINE_EXIT_END], 0x48);
  EXPECT_EQ(C[TSCC_SYSCALL_TRAMPOLINE_ENTRY_ONLY_END], 0x2e);
  EXPECT_EQ(Target,
            At + TSCC_TRAMPOLINE_CODE + TSCC_SYSCALL_TRAMPOLINE_LANDING);
  const uint8_t *L = C + TSCC_SYSCALL_TRAMPOLINE_LANDING;
  EXPECT_EQ(0,
            memcmp(L, hex("b8 6e 00 00 00 3d 6e 00 00 00 0f 84").data(), 12));
  int32_t Je;
  memcpy(&Je, L + 12, 4);
  EXPECT_EQ(At + (L + 16 - Out.data()) + Je, At + TSCC_TRAMPOLINE_CODE);
  EXPECT_EQ(0, memcmp(L + 16, hex("3d 27 00 00 00 0f 84").data(), 7));
  memcpy(&Je, L + 23, 4);
  EXPECT_EQ(At + (L + 27 - Out.data()) + Je,
            At + TSCC_TRAMPOLINE_CODE + TSCC_SYSCALL_TRAMPOLINE_ENTRY_ONLY);
  EXPECT_EQ(0, memcmp(L + 27, hex("0f 05 e9").data(), 3));
  int32_t Back;
  memcpy(&Back, L + 30, 4);
  EXPECT_EQ(At + (L + 34 - Out.data()) + Back, Fn + 7);
  uint64_t G;
  memcpy(&G, Out.data() + SyscallTrampolineSlot - 8, 8);
  EXPECT_EQ(G, Gadget);
}

} // namespace
