//===- JumpPatchTest.cpp - Displacing instructions with a 5-byte jump -----===//
#include "JumpPatch.h"
#include "TestBytes.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

using namespace tscc::rt;
using namespace tscc::rt::ip;
using tscc::test::hex;

namespace {

/// Where the hand-written functions pretend to live: above 4 GiB, so that
/// both halves of a pushed return address matter.
constexpr uint64_t Fn = 0x7f1234560000;

struct Planned {
  bool Ok = false;
  PatchPlan Plan;
  std::string Why;
};

/// Plans a patch at Fn + SiteOff in the function Hex placed at Fn, knowing
/// of the ways into it what Known says.
Planned plan(const std::string &Hex, unsigned SiteOff = 0,
             const EntryFacts &Known = {}) {
  std::vector<uint8_t> B = hex(Hex);
  Planned P;
  P.Ok = planJumpPatch(B, Fn, Fn + SiteOff, Known, P.Plan, P.Why);
  return P;
}

::testing::AssertionResult accepted(const Planned &P) {
  if (!P.Ok)
    return ::testing::AssertionFailure() << "rejected: " << P.Why;
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult rejected(const Planned &P,
                                    const std::string &Reason) {
  if (P.Ok)
    return ::testing::AssertionFailure() << "accepted";
  if (P.Why.find(Reason) == std::string::npos)
    return ::testing::AssertionFailure() << "rejected with \"" << P.Why
                                         << "\", expected \"" << Reason << "\"";
  return ::testing::AssertionSuccess();
}

std::vector<uint8_t> relocate(const PatchPlan &Plan, uint64_t At,
                              BoundaryMap *Map = nullptr) {
  std::vector<uint8_t> Out;
  BoundaryMap M;
  std::string Why;
  EXPECT_TRUE(relocateDisplaced(Plan, At, Out, M, Why)) << Why;
  if (Map)
    *Map = M;
  return Out;
}

int32_t s32(const std::vector<uint8_t> &B, size_t Off) {
  int32_t V;
  std::memcpy(&V, B.data() + Off, 4);
  return V;
}

uint32_t u32(const std::vector<uint8_t> &B, size_t Off) {
  return static_cast<uint32_t>(s32(B, Off));
}

/// Where the rel32 at Off of a copy placed at At, ending its instruction,
/// points.
uint64_t rel32Target(const std::vector<uint8_t> &B, uint64_t At, size_t Off) {
  return At + Off + 4 + static_cast<int64_t>(s32(B, Off));
}

std::vector<uint8_t> slice(const std::vector<uint8_t> &B, size_t Off,
                           size_t N) {
  return std::vector<uint8_t>(B.begin() + Off, B.begin() + Off + N);
}

/// The copy's `jmp rel32` at Off goes to Target.
void expectJmp(const std::vector<uint8_t> &B, uint64_t At, size_t Off,
               uint64_t Target) {
  ASSERT_GE(B.size(), Off + 5);
  EXPECT_EQ(B[Off], 0xe9);
  EXPECT_EQ(rel32Target(B, At, Off + 1), Target);
}

/// The copy at Off pushes Ret without a call: lea -8(%rsp),%rsp and two
/// 32-bit stores. Returns the offset after the sequence.
size_t expectPushReturn(const std::vector<uint8_t> &B, size_t Off,
                        uint64_t Ret) {
  EXPECT_EQ(slice(B, Off, 5), hex("48 8d 64 24 f8"));
  EXPECT_EQ(slice(B, Off + 5, 3), hex("c7 04 24"));
  EXPECT_EQ(slice(B, Off + 12, 4), hex("c7 44 24 04"));
  uint64_t Pushed = u32(B, Off + 8) | uint64_t(u32(B, Off + 16)) << 32;
  EXPECT_EQ(Pushed, Ret);
  return Off + 20;
}

BoundaryMap boundaries(std::initializer_list<std::pair<int, int>> L) {
  BoundaryMap M;
  for (auto [O, C] : L)
    M.emplace_back(static_cast<uint8_t>(O), static_cast<uint16_t>(C));
  return M;
}

//===----------------------------------------------------------------------===//
// Plans and copies of position-independent instructions
//===----------------------------------------------------------------------===//

TEST(JumpPatchPlan, EndbrPrologue) {
  // endbr64; push %rbp; mov %rsp,%rbp; pop %rbp; ret
  Planned P = plan("f3 0f 1e fa 55 48 89 e5 5d c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Site, Fn);
  EXPECT_EQ(P.Plan.Length, 5u);
  ASSERT_EQ(P.Plan.Insns.size(), 2u);
  EXPECT_EQ(P.Plan.Insns[0].Offset, 0);
  EXPECT_EQ(P.Plan.Insns[1].Offset, 4);
  EXPECT_EQ(std::vector<uint8_t>(P.Plan.Original, P.Plan.Original + 5),
            hex("f3 0f 1e fa 55"));

  BoundaryMap Map;
  uint64_t At = Fn + 0x1000;
  std::vector<uint8_t> Out = relocate(P.Plan, At, &Map);
  ASSERT_EQ(Out.size(), 10u);
  EXPECT_EQ(slice(Out, 0, 5), hex("f3 0f 1e fa 55"));
  expectJmp(Out, At, 5, Fn + 5);
  EXPECT_EQ(Map, boundaries({{0, 0}, {4, 4}, {5, 5}}));
}

// Under IBT the endbr64 must stay at the entry; the site after it covers
// the rest of the prologue.
TEST(JumpPatchPlan, SiteAfterEndbr) {
  Planned P = plan("f3 0f 1e fa 55 48 89 e5 5d c3", 4);
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Site, Fn + 4);
  EXPECT_EQ(P.Plan.Length, 5u); // push, mov, pop
  EXPECT_EQ(P.Plan.Insns.size(), 3u);
  std::vector<uint8_t> Out = relocate(P.Plan, Fn + 0x1000);
  EXPECT_EQ(slice(Out, 0, 5), hex("55 48 89 e5 5d"));
  expectJmp(Out, Fn + 0x1000, 5, Fn + 9);
}

TEST(JumpPatchPlan, FramePointerPrologue) {
  // push %rbp; mov %rsp,%rbp; sub $0x10,%rsp; leave; ret
  Planned P = plan("55 48 89 e5 48 83 ec 10 c9 c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Length, 8u);
  ASSERT_EQ(P.Plan.Insns.size(), 3u);
  EXPECT_EQ(P.Plan.Insns[2].Offset, 4);

  BoundaryMap Map;
  uint64_t At = Fn - 0x5000;
  std::vector<uint8_t> Out = relocate(P.Plan, At, &Map);
  ASSERT_EQ(Out.size(), 13u);
  EXPECT_EQ(slice(Out, 0, 8), hex("55 48 89 e5 48 83 ec 10"));
  expectJmp(Out, At, 8, Fn + 8);
  EXPECT_EQ(Map, boundaries({{0, 0}, {1, 1}, {4, 4}, {8, 8}}));
}

TEST(JumpPatchPlan, RipRelativeLoad) {
  // mov 0x2000(%rip),%rax; add %rdi,%rax; ret
  Planned P = plan("48 8b 05 00 20 00 00 48 01 f8 c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Length, 7u);
  ASSERT_EQ(P.Plan.Insns.size(), 1u);
  EXPECT_TRUE(P.Plan.Insns[0].Insn.RipRelative);

  // The operand is at Fn + 7 + 0x2000 wherever the copy runs.
  std::vector<uint8_t> Out = relocate(P.Plan, Fn + 0x1000);
  EXPECT_EQ(slice(Out, 0, 3), hex("48 8b 05"));
  EXPECT_EQ(s32(Out, 3), 0x1000);
  expectJmp(Out, Fn + 0x1000, 7, Fn + 7);
  Out = relocate(P.Plan, Fn - 0x1000);
  EXPECT_EQ(s32(Out, 3), 0x3000);

  // 3 GiB away the operand is out of reach; nothing is appended.
  std::vector<uint8_t> Far = {0x90};
  BoundaryMap Map = boundaries({{9, 9}});
  std::string Why;
  EXPECT_FALSE(relocateDisplaced(P.Plan, Fn + 0xc0000000ull, Far, Map, Why));
  EXPECT_NE(Why.find("RIP-relative"), std::string::npos) << Why;
  EXPECT_EQ(Far, std::vector<uint8_t>{0x90});
  EXPECT_EQ(Map, boundaries({{9, 9}}));
}

// The displacement counts from the end of the instruction, past any
// immediate after it.
TEST(JumpPatchPlan, RipRelativeWithImmediate) {
  // movl $0x11223344,0x10(%rip); ret
  Planned P = plan("c7 05 10 00 00 00 44 33 22 11 c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Length, 10u);
  std::vector<uint8_t> Out = relocate(P.Plan, Fn + 0x100);
  EXPECT_EQ(s32(Out, 2), -0xf0);
  EXPECT_EQ(slice(Out, 6, 4), hex("44 33 22 11"));
}

TEST(JumpPatchPlan, VexAndEvexRipRelative) {
  // vmovss 0x10(%rip),%xmm0; ret
  Planned P = plan("c5 fa 10 05 10 00 00 00 c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Length, 8u);
  std::vector<uint8_t> Out = relocate(P.Plan, Fn + 0x800);
  EXPECT_EQ(slice(Out, 0, 4), hex("c5 fa 10 05"));
  EXPECT_EQ(s32(Out, 4), 0x10 - 0x800);

  // vmovups 0x10(%rip),%zmm0; ret
  P = plan("62 f1 7c 48 10 05 10 00 00 00 c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Length, 10u);
  Out = relocate(P.Plan, Fn + 0x800);
  EXPECT_EQ(slice(Out, 0, 6), hex("62 f1 7c 48 10 05"));
  EXPECT_EQ(s32(Out, 6), 0x10 - 0x800);
}

// An endbr64 and the longest instruction there is (15 bytes of padding
// nop, as compilers emit it).
TEST(JumpPatchPlan, LongestWindow) {
  Planned P = plan("f3 0f 1e fa 66 66 66 66 66 66 2e 0f 1f 84 00 00 00 00 00 "
                   "c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Length, MaxDisplaced);
  EXPECT_EQ(P.Plan.Length, 19u);
  std::vector<uint8_t> Out = relocate(P.Plan, Fn + 0x1000);
  EXPECT_EQ(Out.size(), 19u + 5u);
}

//===----------------------------------------------------------------------===//
// Control transfers in the window
//===----------------------------------------------------------------------===//

TEST(JumpPatchPlan, ShortJmpReencoded) {
  // xor %eax,%eax; nop; jmp .+0x12; ret
  Planned P = plan("31 c0 90 eb 10 c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Length, 5u);
  BoundaryMap Map;
  uint64_t At = Fn + 0x3000;
  std::vector<uint8_t> Out = relocate(P.Plan, At, &Map);
  EXPECT_EQ(slice(Out, 0, 3), hex("31 c0 90"));
  expectJmp(Out, At, 3, Fn + 5 + 0x10);
  expectJmp(Out, At, 8, Fn + 5);
  EXPECT_EQ(Map, boundaries({{0, 0}, {2, 2}, {3, 3}, {5, 8}}));
}

TEST(JumpPatchPlan, ShortJccReencoded) {
  // cmp $5,%edi; jl 9; lea 100(%rdi),%eax; ret; 9: lea (%rdi,%rdi),%eax;
  // ret
  Planned P = plan("83 ff 05 7c 04 8d 47 64 c3 8d 04 3f c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Length, 5u);
  EXPECT_EQ(P.Plan.Insns[1].Insn.Flow, X86Flow::JccRel);
  BoundaryMap Map;
  uint64_t At = Fn + 0x4000;
  std::vector<uint8_t> Out = relocate(P.Plan, At, &Map);
  EXPECT_EQ(slice(Out, 0, 3), hex("83 ff 05"));
  EXPECT_EQ(slice(Out, 3, 2), hex("0f 8c"));
  EXPECT_EQ(rel32Target(Out, At, 5), Fn + 9);
  expectJmp(Out, At, 9, Fn + 5);
  EXPECT_EQ(Map, boundaries({{0, 0}, {3, 3}, {5, 9}}));
}

TEST(JumpPatchPlan, LongBranchesReencoded) {
  // je .+0x106 (rel32 form): the condition survives, the target moves.
  Planned P = plan("0f 84 00 01 00 00 c3");
  ASSERT_TRUE(accepted(P));
  uint64_t At = Fn - 0x10000;
  std::vector<uint8_t> Out = relocate(P.Plan, At);
  EXPECT_EQ(slice(Out, 0, 2), hex("0f 84"));
  EXPECT_EQ(rel32Target(Out, At, 2), Fn + 6 + 0x100);

  // bnd jmp: the MPX prefix is dropped with the re-encoding.
  P = plan("f2 e9 00 01 00 00");
  ASSERT_TRUE(accepted(P));
  Out = relocate(P.Plan, At);
  expectJmp(Out, At, 0, Fn + 6 + 0x100);
  expectJmp(Out, At, 5, Fn + 6);
}

TEST(JumpPatchPlan, CallRel32Last) {
  // sub $8,%rsp; call .+0x3e; add $8,%rsp; ret
  Planned P = plan("48 83 ec 08 e8 37 00 00 00 48 83 c4 08 c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Length, 9u);
  BoundaryMap Map;
  uint64_t At = Fn + 0x2000;
  std::vector<uint8_t> Out = relocate(P.Plan, At, &Map);
  EXPECT_EQ(slice(Out, 0, 4), hex("48 83 ec 08"));
  // The callee returns to the instruction after the window.
  size_t Off = expectPushReturn(Out, 4, P.Plan.Site + P.Plan.Length);
  expectJmp(Out, At, Off, Fn + 9 + 0x37);
  expectJmp(Out, At, Off + 5, Fn + 9);
  EXPECT_EQ(Map, boundaries({{0, 0}, {4, 4}, {9, 29}}));
}

TEST(JumpPatchPlan, IndirectCallLast) {
  // sub $8,%rsp; call *0x100(%rip); add $8,%rsp; ret
  Planned P = plan("48 83 ec 08 ff 15 00 01 00 00 48 83 c4 08 c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Length, 10u);
  uint64_t At = Fn + 0x2000;
  std::vector<uint8_t> Out = relocate(P.Plan, At);
  size_t Off = expectPushReturn(Out, 4, Fn + 10);
  // jmp *X through the same, re-targeted, slot.
  EXPECT_EQ(slice(Out, Off, 2), hex("ff 25"));
  EXPECT_EQ(rel32Target(Out, At, Off + 2), Fn + 10 + 0x100);
  expectJmp(Out, At, Off + 6, Fn + 10);

  // sub $8,%rsp; call *%rsi
  P = plan("48 83 ec 08 ff d6 48 83 c4 08 c3");
  ASSERT_TRUE(accepted(P));
  Out = relocate(P.Plan, At);
  Off = expectPushReturn(Out, 4, Fn + 6);
  EXPECT_EQ(slice(Out, Off, 2), hex("ff e6"));

  // nop; call *(%r12): a SIB base of r12, not rsp.
  P = plan("90 41 ff 14 24 c3");
  ASSERT_TRUE(accepted(P));
  Out = relocate(P.Plan, At);
  Off = expectPushReturn(Out, 1, Fn + 5);
  EXPECT_EQ(slice(Out, Off, 4), hex("41 ff 24 24"));
}

TEST(JumpPatchPlan, IndirectJmpCopied) {
  // jmp *0x100(%rip)
  Planned P = plan("ff 25 00 01 00 00 cc");
  ASSERT_TRUE(accepted(P));
  uint64_t At = Fn + 0x800;
  std::vector<uint8_t> Out = relocate(P.Plan, At);
  EXPECT_EQ(slice(Out, 0, 2), hex("ff 25"));
  EXPECT_EQ(rel32Target(Out, At, 2), Fn + 6 + 0x100);

  // nop; nop; nop; jmp *%rax
  P = plan("90 90 90 ff e0");
  ASSERT_TRUE(accepted(P));
  Out = relocate(P.Plan, At);
  EXPECT_EQ(slice(Out, 0, 5), hex("90 90 90 ff e0"));
}

TEST(JumpPatchPlan, ReturnLast) {
  // lea (%rdi,%rsi),%rax; ret
  Planned P = plan("48 8d 04 37 c3");
  ASSERT_TRUE(accepted(P));
  std::vector<uint8_t> Out = relocate(P.Plan, Fn + 0x100);
  EXPECT_EQ(slice(Out, 0, 5), hex("48 8d 04 37 c3"));
}

TEST(JumpPatchPlan, SyscallLast) {
  // push $39; pop %rax; syscall; ret
  Planned P = plan("6a 27 58 0f 05 c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Length, 5u);
  std::vector<uint8_t> Out = relocate(P.Plan, Fn + 0x100);
  EXPECT_EQ(slice(Out, 0, 5), hex("6a 27 58 0f 05"));
}

// i386's system call, int $0x80, runs from a copy as syscall does: last in
// the window (a thread in it returns, or restarts, at the window's end);
// not before the end, and not in 64-bit code (where it is rare and means
// the 32-bit system call table).
TEST(JumpPatchPlan, Int80LastIn32BitCode) {
  // push $3; pop %eax; int $0x80; ret   (restart-in-site.c's i386 read_at)
  std::vector<uint8_t> B = hex("6a 03 58 cd 80 c3");
  PatchPlan Plan;
  std::string Why;
  uint64_t At = 0x56550000;
  ASSERT_TRUE(planJumpPatch(B, At, At, {}, Plan, Why, X86Mode::Bits32)) << Why;
  EXPECT_EQ(Plan.Length, 5u);
  std::vector<uint8_t> Out = relocate(Plan, At + 0x100);
  EXPECT_EQ(slice(Out, 0, 5), hex("6a 03 58 cd 80"));
  B = hex("cd 80 83 c4 08 c3");
  EXPECT_FALSE(planJumpPatch(B, At, At, {}, Plan, Why, X86Mode::Bits32));
  EXPECT_NE(Why.find("syscall before"), std::string::npos) << Why;
  B = hex("6a 03 58 cd 81 c3"); // int $0x81: a trap
  EXPECT_FALSE(planJumpPatch(B, At, At, {}, Plan, Why, X86Mode::Bits32));
  EXPECT_NE(Why.find("trap"), std::string::npos) << Why;
  EXPECT_TRUE(rejected(plan("6a 03 58 cd 80 c3"), "trap"));
}

// A call or syscall leaves its return point, and an unconditional transfer
// leaves the bytes after it, inside the window.
TEST(JumpPatchPlan, TransfersBeforeTheEndRejected) {
  EXPECT_TRUE(rejected(plan("ff d0 48 83 c4 08 c3"), "call before the end"));
  EXPECT_TRUE(rejected(plan("0f 05 48 83 c4 08 c3"), "syscall before"));
  EXPECT_TRUE(rejected(plan("c3 90 90 90 90 c3"), "return before"));
  EXPECT_TRUE(rejected(plan("eb 03 90 90 90 c3"), "jump before"));
  EXPECT_TRUE(rejected(plan("ff e0 90 90 90 c3"), "jump before"));
}

//===----------------------------------------------------------------------===//
// Branch targets and the function's shape
//===----------------------------------------------------------------------===//

TEST(JumpPatchPlan, BranchIntoWindowRejected) {
  // xor %eax,%eax; 2: add $1,%eax; cmp $5,%edi; jne 2; ret
  Planned P = plan("31 c0 83 c0 01 83 ff 05 75 f8 c3");
  EXPECT_TRUE(rejected(P, "a branch target inside the patched bytes"));
  EXPECT_NE(P.Why.find("0x7f1234560002"), std::string::npos) << P.Why;
  // A call from later in the function into the window counts too.
  EXPECT_TRUE(rejected(plan("90 90 90 90 90 e8 f7 ff ff ff c3"),
                       "branch target inside"));
}

TEST(JumpPatchPlan, BranchToSiteAccepted) {
  // xor %eax,%eax; add $1,%eax; cmp $5,%edi; jne 0; ret
  EXPECT_TRUE(accepted(plan("31 c0 83 c0 01 83 ff 05 75 f6 c3")));
  // The same branch aimed at the byte after the window.
  EXPECT_TRUE(accepted(plan("31 c0 83 c0 01 83 ff 05 75 fb c3")));
}

TEST(JumpPatchPlan, LoopInsideWindowRejected) {
  // nop; 1: dec %ecx; jne 1; ret
  EXPECT_TRUE(rejected(plan("90 ff c9 75 fc c3"), "branch target inside"));
}

//===----------------------------------------------------------------------===//
// Ways into the function its own direct branches do not show
//===----------------------------------------------------------------------===//

EntryFacts entries(std::initializer_list<std::pair<uint64_t, EntryKind>> L) {
  EntryFacts F;
  for (auto [A, K] : L)
    F.Entries.push_back({A, K});
  return F;
}

EntryFacts unresolvedJumpAt(uint64_t Addr) {
  EntryFacts F;
  IndirectJump J;
  J.Addr = Addr;
  J.Why = "its target is computed by the instruction at 0x1";
  F.Unresolved = J;
  return F;
}

// A case label reached through a table, right after a 2-byte instruction:
// not %esi (the site); lea 1(%rsi,%rsi,4),%eax (the next case); ret
const char *const CaseLabels = "f7 d6 8d 44 b6 01 c3";

TEST(JumpPatchPlan, KnownEntriesInsideTheWindowRejected) {
  EXPECT_TRUE(
      rejected(plan(CaseLabels, 0, entries({{Fn + 2, EntryKind::JumpTable}})),
               "a jump table entry inside the patched bytes (0x7f1234560002)"));
  EXPECT_TRUE(
      rejected(plan(CaseLabels, 0, entries({{Fn + 2, EntryKind::LandingPad}})),
               "an exception landing pad inside the patched bytes"));
  EXPECT_TRUE(rejected(
      plan(CaseLabels, 0, entries({{Fn + 2, EntryKind::AddressTaken}})),
      "a code address constant inside the patched bytes"));
  EXPECT_TRUE(
      rejected(plan(CaseLabels, 0, entries({{Fn + 2, EntryKind::DataPointer}})),
               "a code pointer in data inside the patched bytes"));
  EXPECT_TRUE(
      rejected(plan(CaseLabels, 0, entries({{Fn + 2, EntryKind::Branch}})),
               "a branch target inside the patched bytes"));
  EXPECT_TRUE(
      rejected(plan(CaseLabels, 0, entries({{Fn + 2, EntryKind::ProbeSite}})),
               "another probe site inside the patched bytes"));
  EXPECT_TRUE(rejected(
      plan(CaseLabels, 0, entries({{Fn + 2, EntryKind::FunctionEntry}})),
      "another function's entry inside the patched bytes"));
  // The lowest one is named.
  EXPECT_TRUE(rejected(plan(CaseLabels, 0,
                            entries({{Fn + 4, EntryKind::DataPointer},
                                     {Fn + 2, EntryKind::JumpTable}})),
                       "a jump table entry"));
}

TEST(JumpPatchPlan, KnownEntriesOutsideTheWindowAccepted) {
  // At the site itself (the jump runs the probe, as the instruction would
  // have) and right after the displaced bytes.
  EXPECT_TRUE(accepted(plan(CaseLabels, 0,
                            entries({{Fn, EntryKind::JumpTable},
                                     {Fn + 6, EntryKind::JumpTable},
                                     {Fn - 1, EntryKind::LandingPad}}))));
}

TEST(JumpPatchPlan, UnknownJumpTargetsRefuseSeveralInstructions) {
  Planned P = plan(CaseLabels, 0, unresolvedJumpAt(Fn + 0x40));
  EXPECT_TRUE(rejected(P, "the jump would displace 2 instructions and the "
                          "indirect jump at 0x7f1234560040 may land between "
                          "them: its target is computed by the instruction "
                          "at 0x1"));
}

TEST(JumpPatchPlan, UnknownJumpTargetsAllowOneInstruction) {
  // mov $1,%eax (5 bytes, the whole window); ret: no boundary inside the
  // jump for anything to land on.
  EXPECT_TRUE(
      accepted(plan("b8 01 00 00 00 c3", 0, unresolvedJumpAt(Fn + 0x40))));
  // A 7-byte instruction: the jump and two int3s, one instruction still.
  EXPECT_TRUE(accepted(
      plan("48 8b 05 00 10 00 00 c3", 0, unresolvedJumpAt(Fn + 0x40))));
}

TEST(JumpPatchPlan, ShortFunctionRejected) {
  // ret, and the next function starts right after.
  EXPECT_TRUE(rejected(plan("c3"), "shorter than 5 bytes"));
  // Three bytes left from the site.
  EXPECT_TRUE(rejected(plan("90 90 90 90 90 90 c3", 4), "shorter than 5"));
}

TEST(JumpPatchPlan, TrapsRejected) {
  EXPECT_TRUE(rejected(plan("cc 90 90 90 90 c3"), "int3"));
  EXPECT_TRUE(rejected(plan("0f 0b 90 90 90 c3"), "trap")); // ud2
  EXPECT_TRUE(rejected(plan("cd 80 90 90 90 c3"), "trap")); // int $0x80
  EXPECT_TRUE(rejected(plan("90 90 90 90 f4 c3"), "trap")); // hlt
  EXPECT_TRUE(rejected(plan("90 0f 34 90 90 c3"), "trap")); // sysenter
}

TEST(JumpPatchPlan, UnrelocatableInstructionsRejected) {
  EXPECT_TRUE(rejected(plan("e2 fe 90 90 90 c3"), "loop/jrcxz"));
  EXPECT_TRUE(rejected(plan("90 e3 00 90 90 c3"), "loop/jrcxz"));
  EXPECT_TRUE(rejected(plan("c7 f8 00 00 00 00 c3"), "xbegin"));
  EXPECT_TRUE(rejected(plan("66 e9 00 00 00 00 c3"), "operand-size"));
  EXPECT_TRUE(rejected(plan("ff 1d 10 00 00 00 c3"), "far indirect"));
  EXPECT_TRUE(rejected(plan("ff 2d 10 00 00 00 c3"), "far indirect"));
}

// The copy pushes the return address before jumping through the operand,
// which would then read a moved %rsp.
TEST(JumpPatchPlan, IndirectCallThroughRspRejected) {
  EXPECT_TRUE(rejected(plan("90 90 90 ff d4 c3"), "stack pointer"));
  EXPECT_TRUE(rejected(plan("90 90 ff 14 24 c3"), "stack pointer"));
  EXPECT_TRUE(rejected(plan("90 90 ff 14 c4 c3"), "stack pointer"));
  EXPECT_TRUE(accepted(plan("90 90 90 41 ff d4 c3"))); // call *%r12
}

TEST(JumpPatchPlan, SiteMustBeABoundaryInADecodableFunction) {
  // The site is inside mov 0x2000(%rip),%rax.
  EXPECT_TRUE(rejected(plan("48 8b 05 00 20 00 00 90 90 90 90 90 c3", 1),
                       "not an instruction boundary"));
  // An invalid opcode (push %es) after the window.
  EXPECT_TRUE(
      rejected(plan("55 48 89 e5 90 06 c3"), "cannot decode the function"));
  // The function's bytes end inside an instruction.
  EXPECT_TRUE(
      rejected(plan("55 48 89 e5 90 90 48 8b"), "cannot decode the function"));
  EXPECT_TRUE(rejected(plan("55 48 89 e5 90 c3", 6), "outside the function"));
  std::vector<uint8_t> B = hex("55 48 89 e5 90 c3");
  PatchPlan Plan;
  std::string Why;
  EXPECT_FALSE(planJumpPatch(B, Fn, Fn - 1, {}, Plan, Why));
  EXPECT_EQ(Why, "the site is outside the function");
}

//===----------------------------------------------------------------------===//
// Borrowing the alignment padding after a short function
//===----------------------------------------------------------------------===//

Planned planPadded(const std::string &Hex, const std::string &Pad,
                   const EntryFacts &Known = {},
                   X86Mode Mode = X86Mode::Bits64) {
  std::vector<uint8_t> B = hex(Hex), P8 = hex(Pad);
  Planned P;
  P.Ok = planJumpPatch(B, Fn, Fn, Known, P.Plan, P.Why, Mode, P8);
  return P;
}

TEST(JumpPatchPadding, ShortFunctionBorrowsNopsAndInt3s) {
  // lea (%rdi,%rdi),%eax; ret, then one-byte nops.
  Planned P = planPadded("8d 04 3f c3", "90 90 90 90");
  ASSERT_TRUE(accepted(P));
  EXPECT_EQ(P.Plan.Length, 5u);
  EXPECT_EQ(P.Plan.Padding, 1u);
  EXPECT_EQ(P.Plan.Insns.size(), 2u);
  EXPECT_EQ(std::vector<uint8_t>(P.Plan.Original, P.Plan.Original + 5),
            hex("8d 04 3f c3 90"));
  // A one-byte ret and int3 padding; a long nop is taken whole.
  EXPECT_TRUE(accepted(planPadded("c3", "cc cc cc cc cc")));
  Planned Long = planPadded("c3", "66 0f 1f 44 00 00 90");
  ASSERT_TRUE(accepted(Long));
  EXPECT_EQ(Long.Plan.Length, 7u);
  // A tail jump ends the function as well as a ret does; i386 too.
  EXPECT_TRUE(accepted(planPadded("eb fe", "90 90 90")));
  EXPECT_TRUE(
      accepted(planPadded("31 c0 40 c3", "90 90", {}, X86Mode::Bits32)));
  // The copy runs the function's instructions, never the padding.
  std::vector<uint8_t> Copy = relocate(P.Plan, Fn + 0x1000);
  EXPECT_EQ(slice(Copy, 0, 4), hex("8d 04 3f c3"));
  std::vector<uint8_t> Out;
  ASSERT_TRUE(jumpPatchBytes(P.Plan, Fn + 0x1000, Out));
  EXPECT_EQ(Out.size(), 5u);
}

TEST(JumpPatchPadding, OnlyPaddingNothingRunsOrEnters) {
  // The last instruction falls through into the bytes after the function.
  EXPECT_TRUE(rejected(planPadded("8d 04 3f 90", "90 90 90"), "shorter"));
  // Not padding: the next function's code.
  EXPECT_TRUE(rejected(planPadded("c3", "55 48 89 e5"), "shorter"));
  // Not enough of it, or none at all.
  EXPECT_TRUE(rejected(planPadded("c3", "90 90"), "shorter"));
  EXPECT_TRUE(rejected(planPadded("c3", ""), "shorter"));
  // A symbol starts in the padding.
  EntryFacts Known;
  Known.Entries.push_back({Fn + 3, EntryKind::FunctionEntry});
  EXPECT_TRUE(rejected(planPadded("c3", "90 90 90 90", Known),
                       "another function's entry"));
}

//===----------------------------------------------------------------------===//
// Trap sites: one int3, one displaced instruction
//===----------------------------------------------------------------------===//

Planned planTrap(const std::string &Hex, unsigned SiteOff = 0,
                 X86Mode Mode = X86Mode::Bits64) {
  std::vector<uint8_t> B = hex(Hex);
  Planned P;
  P.Ok = planTrapPatch(B, Fn, Fn + SiteOff, P.Plan, P.Why, Mode);
  return P;
}

TEST(TrapPatchPlan, WhereNoJumpGoes) {
  // lea (%rdi,%rdi),%eax; ret: four bytes, the next function behind them.
  Planned P = planTrap("8d 04 3f c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_TRUE(P.Plan.Trap);
  EXPECT_EQ(P.Plan.Length, 3u);
  ASSERT_EQ(P.Plan.Insns.size(), 1u);
  EXPECT_EQ(std::vector<uint8_t>(P.Plan.Original, P.Plan.Original + 3),
            hex("8d 04 3f"));
  // xor %eax,%eax right before a loop head: the branch target does not
  // matter, the int3 covers only the xor.
  EXPECT_TRUE(accepted(planTrap("31 c0 83 c0 03 ff c9 75 f9 c3")));
  // A one-byte ret.
  EXPECT_TRUE(accepted(planTrap("c3")));
  // The i386 twin of the tiny function: xor %eax,%eax; inc %eax; ret.
  EXPECT_TRUE(accepted(planTrap("31 c0 40 c3", 0, X86Mode::Bits32)));
}

TEST(TrapPatchPlan, TheInstructionMustRunFromTheCopy) {
  EXPECT_TRUE(rejected(planTrap("cc c3"), "int3"));
  EXPECT_TRUE(rejected(planTrap("e2 fe c3"), "loop/jrcxz"));
  EXPECT_TRUE(rejected(planTrap("ff d4 c3"), "stack pointer"));
  EXPECT_TRUE(rejected(planTrap("48 8b 05 00 20 00 00 c3", 1),
                       "not an instruction boundary"));
  EXPECT_TRUE(rejected(planTrap("90 c3", 2), "outside the function"));
}

TEST(TrapPatchPlan, PatchIsOneInt3AndCopyJumpsBack) {
  Planned P = planTrap("8d 04 3f c3");
  ASSERT_TRUE(accepted(P));
  std::vector<uint8_t> Out;
  ASSERT_TRUE(jumpPatchBytes(P.Plan, Fn + 0x10000, Out));
  EXPECT_EQ(Out, hex("cc"));
  BoundaryMap Map;
  std::vector<uint8_t> Copy = relocate(P.Plan, Fn + 0x1000, &Map);
  ASSERT_EQ(Copy.size(), 8u);
  EXPECT_EQ(slice(Copy, 0, 3), hex("8d 04 3f"));
  EXPECT_EQ(Copy[3], 0xe9);
  EXPECT_EQ(s32(Copy, 4), -static_cast<int32_t>(0x1000 + 8 - 3));
}

//===----------------------------------------------------------------------===//
// Reach
//===----------------------------------------------------------------------===//

TEST(JumpPatchBytes, JumpThenInt3s) {
  Planned P = plan("55 48 89 e5 48 83 ec 10 c9 c3");
  ASSERT_TRUE(accepted(P));
  std::vector<uint8_t> Out;
  ASSERT_TRUE(jumpPatchBytes(P.Plan, Fn + 0x10000, Out));
  ASSERT_EQ(Out.size(), 8u);
  EXPECT_EQ(Out[0], 0xe9);
  EXPECT_EQ(s32(Out, 1), 0x10000 - 5);
  EXPECT_EQ(slice(Out, 5, 3), hex("cc cc cc"));

  // Exactly the rel32 range around the end of the jump.
  uint64_t Next = Fn + JumpSize;
  EXPECT_TRUE(jumpPatchBytes(P.Plan, Next + INT32_MAX, Out));
  EXPECT_TRUE(jumpPatchBytes(P.Plan, Next - 0x80000000ull, Out));
  EXPECT_FALSE(jumpPatchBytes(P.Plan, Next + INT32_MAX + 1ull, Out));
  EXPECT_FALSE(jumpPatchBytes(P.Plan, Next - 0x80000001ull, Out));
}

TEST(JumpPatchRelocate, OutOfReachTargets) {
  std::vector<uint8_t> Out;
  BoundaryMap Map;
  std::string Why;
  // Nothing position-dependent but the jump back.
  Planned P = plan("55 48 89 e5 48 83 ec 10 c9 c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_FALSE(relocateDisplaced(P.Plan, Fn + (4ull << 30), Out, Map, Why));
  EXPECT_NE(Why.find("return point"), std::string::npos) << Why;
  EXPECT_TRUE(Out.empty());
  EXPECT_TRUE(Map.empty());
  // A jcc whose target is near the site but far from the copy.
  P = plan("0f 84 00 00 00 80 c3");
  ASSERT_TRUE(accepted(P));
  EXPECT_FALSE(relocateDisplaced(P.Plan, Fn + 0x1000, Out, Map, Why));
  EXPECT_NE(Why.find("branch target"), std::string::npos) << Why;
}

//===----------------------------------------------------------------------===//
// Running relocated code
//===----------------------------------------------------------------------===//

/// Two code mappings five pages apart with guard pages between them: the
/// functions under test in the first, the trampoline and the relocated
/// copy in the second; the trampoline's hit counter in a data page.
class LivePatch : public ::testing::Test {
protected:
  static constexpr size_t SlotSize = 0x100, CopyOffset = 0x40;
  static constexpr size_t Pages = 8;

  void SetUp() override {
    Page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    void *R = mmap(nullptr, Pages * Page, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(R, MAP_FAILED);
    Region = static_cast<uint8_t *>(R);
    Code = mapPage(0);
    Far = mapPage(5);
    Hits = reinterpret_cast<volatile uint64_t *>(mapPage(7));
    ASSERT_TRUE(Code && Far && Hits);
    std::memset(Code, 0xcc, Page);
    std::memset(Far, 0xcc, Page);
  }

  void TearDown() override { munmap(Region, Pages * Page); }

  uint8_t *mapPage(size_t N) {
    void *P = mmap(Region + N * Page, Page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    return P == MAP_FAILED ? nullptr : static_cast<uint8_t *>(P);
  }

  void setCodeProtection(int Prot) {
    ASSERT_EQ(mprotect(Code, Page, Prot), 0);
    ASSERT_EQ(mprotect(Far, Page, Prot), 0);
  }
  void writable() { setCodeProtection(PROT_READ | PROT_WRITE); }
  void executable() { setCodeProtection(PROT_READ | PROT_EXEC); }

  static uint64_t addr(const volatile void *P) {
    return reinterpret_cast<uint64_t>(P);
  }

  void put(size_t Off, const std::string &Hex) {
    std::vector<uint8_t> B = hex(Hex);
    std::memcpy(Code + Off, B.data(), B.size());
  }
  void put64(size_t Off, uint64_t V) { std::memcpy(Code + Off, &V, 8); }
  /// Sets the rel32 at Off (ending its instruction) to reach Target.
  void putRel32(size_t Off, size_t Target) {
    int32_t Rel = static_cast<int32_t>(Target - (Off + 4));
    std::memcpy(Code + Off, &Rel, 4);
  }

  /// Patches the function at Code[Entry, Entry + Size) at Entry + SiteOff:
  /// the site jumps to a trampoline in the next free slot of Far, which
  /// counts the hit and jumps to the relocated copy after it, which jumps
  /// back. Leaves the code executable.
  void patch(size_t Entry, size_t Size, size_t SiteOff = 0) {
    std::span<const uint8_t> Func(Code + Entry, Size);
    uint64_t Site = addr(Code + Entry + SiteOff);
    ASSERT_TRUE(planJumpPatch(Func, addr(Code + Entry), Site, {}, Plan, Why))
        << Why;
    uint8_t *Tramp = Far + SlotSize * SlotsUsed++;
    uint8_t *CopyAt = Tramp + CopyOffset;
    std::vector<uint8_t> T = trampoline(addr(Tramp), addr(CopyAt));
    ASSERT_LE(T.size(), CopyOffset);
    std::vector<uint8_t> Copy, Jump;
    BoundaryMap Map;
    ASSERT_TRUE(relocateDisplaced(Plan, addr(CopyAt), Copy, Map, Why)) << Why;
    ASSERT_LE(CopyOffset + Copy.size(), SlotSize);
    ASSERT_TRUE(jumpPatchBytes(Plan, addr(Tramp), Jump));
    writable();
    std::memcpy(Tramp, T.data(), T.size());
    std::memcpy(CopyAt, Copy.data(), Copy.size());
    std::memcpy(Code + Entry + SiteOff, Jump.data(), Jump.size());
    executable();
  }

  /// What the real trampoline does around the probe call, reduced to a
  /// counter: step over the red zone, keep the flags, count, go to Copy.
  std::vector<uint8_t> trampoline(uint64_t At, uint64_t Copy) {
    std::vector<uint8_t> T = hex("48 8d 64 24 80 9c f0 48 ff 05 0 0 0 0 9d "
                                 "48 8d a4 24 80 00 00 00 e9 0 0 0 0");
    int32_t D = static_cast<int32_t>(addr(Hits) - (At + 14));
    std::memcpy(T.data() + 10, &D, 4);
    int32_t J = static_cast<int32_t>(Copy - (At + T.size()));
    std::memcpy(T.data() + T.size() - 4, &J, 4);
    return T;
  }

  template <typename R, typename... Args> R call(size_t Entry, Args... A) {
    auto *F = reinterpret_cast<R (*)(Args...)>(Code + Entry);
    return F(A...);
  }

  size_t Page = 0;
  uint8_t *Region = nullptr, *Code = nullptr, *Far = nullptr;
  volatile uint64_t *Hits = nullptr;
  size_t SlotsUsed = 0;
  PatchPlan Plan;
  std::string Why;
};

TEST_F(LivePatch, FramePointerPrologue) {
  // push %rbp; mov %rsp,%rbp; sub $0x10,%rsp; mov %rdi,-8(%rbp);
  // mov -8(%rbp),%rax; add %rsi,%rax; leave; ret
  put(0, "55 48 89 e5 48 83 ec 10 48 89 7d f8 48 8b 45 f8 48 01 f0 c9 c3");
  executable();
  long Want = call<long>(0, 30l, 12l);
  ASSERT_EQ(Want, 42);
  patch(0, 21);
  EXPECT_EQ(Plan.Length, 8u);
  EXPECT_EQ(*Hits, 0u);
  EXPECT_EQ(call<long>(0, 30l, 12l), Want);
  EXPECT_EQ(*Hits, 1u);
}

TEST_F(LivePatch, EndbrPrologue) {
  // endbr64; push %rbp; mov %rsp,%rbp; lea 3(%rdi,%rdi),%eax; pop %rbp;
  // ret
  put(0, "f3 0f 1e fa 55 48 89 e5 8d 44 3f 03 5d c3");
  executable();
  int Want = call<int>(0, 20);
  ASSERT_EQ(Want, 43);
  patch(0, 14);
  EXPECT_EQ(call<int>(0, 20), Want);
  EXPECT_EQ(*Hits, 1u);
}

TEST_F(LivePatch, RipRelativeConstant) {
  // mov K(%rip),%rax; add %rdi,%rax; ret   with K at 0x800
  put(0, "48 8b 05 0 0 0 0 48 01 f8 c3");
  putRel32(3, 0x800);
  put64(0x800, 0x1122334455667700);
  executable();
  uint64_t Want = call<uint64_t>(0, 0x88ul);
  ASSERT_EQ(Want, 0x1122334455667788u);
  patch(0, 11);
  EXPECT_EQ(call<uint64_t>(0, 0x88ul), Want);
  EXPECT_EQ(*Hits, 1u);
}

TEST_F(LivePatch, JccInWindowTakenAndNot) {
  // cmp $5,%edi; jl 9; lea 100(%rdi),%eax; ret; 9: lea (%rdi,%rdi),%eax;
  // ret
  put(0, "83 ff 05 7c 04 8d 47 64 c3 8d 04 3f c3");
  executable();
  ASSERT_EQ(call<int>(0, 3), 6);
  ASSERT_EQ(call<int>(0, 7), 107);
  patch(0, 13);
  EXPECT_EQ(call<int>(0, 3), 6);   // taken
  EXPECT_EQ(call<int>(0, 7), 107); // not taken
  EXPECT_EQ(*Hits, 2u);
}

TEST_F(LivePatch, CallRel32Last) {
  // f: sub $8,%rsp; call g; add $8,%rsp; add $1,%eax; ret
  // g (0x40): lea (%rdi,%rdi,4),%eax; ret
  put(0, "48 83 ec 08 e8 0 0 0 0 48 83 c4 08 83 c0 01 c3");
  putRel32(5, 0x40);
  put(0x40, "8d 04 bf c3");
  executable();
  int Want = call<int>(0, 7);
  ASSERT_EQ(Want, 36);
  patch(0, 17);
  EXPECT_EQ(Plan.Length, 9u);
  EXPECT_EQ(call<int>(0, 7), Want);
  EXPECT_EQ(*Hits, 1u);
}

// The callee sees the original return address, not one in the copy.
TEST_F(LivePatch, CallRel32LastReturnAddress) {
  // f: sub $8,%rsp; call g; add $8,%rsp; ret
  // g (0x40): mov (%rsp),%rax; ret
  put(0, "48 83 ec 08 e8 0 0 0 0 48 83 c4 08 c3");
  putRel32(5, 0x40);
  put(0x40, "48 8b 04 24 c3");
  executable();
  uint64_t Want = call<uint64_t>(0);
  ASSERT_EQ(Want, addr(Code + 9));
  patch(0, 14);
  EXPECT_EQ(call<uint64_t>(0), Want);
  EXPECT_EQ(Want, Plan.Site + Plan.Length);
  EXPECT_EQ(*Hits, 1u);
}

TEST_F(LivePatch, IndirectCallLast) {
  // f: sub $8,%rsp; call *slot(%rip); add $8,%rsp; ret   slot at 0x800
  // g (0x40): mov (%rsp),%rax; ret
  put(0, "48 83 ec 08 ff 15 0 0 0 0 48 83 c4 08 c3");
  putRel32(6, 0x800);
  put(0x40, "48 8b 04 24 c3");
  put64(0x800, addr(Code + 0x40));
  // h (0x80): sub $8,%rsp; call *%rsi; add $8,%rsp; ret
  // k (0xc0): lea (%rdi,%rdi,4),%eax; ret
  put(0x80, "48 83 ec 08 ff d6 48 83 c4 08 c3");
  put(0xc0, "8d 04 bf c3");
  executable();
  uint64_t WantF = call<uint64_t>(0);
  ASSERT_EQ(WantF, addr(Code + 10));
  int WantH = call<int>(0x80, 7, Code + 0xc0);
  ASSERT_EQ(WantH, 35);
  patch(0, 15);
  patch(0x80, 11);
  EXPECT_EQ(call<uint64_t>(0), WantF);
  EXPECT_EQ(call<int>(0x80, 7, Code + 0xc0), WantH);
  EXPECT_EQ(*Hits, 2u);
}

TEST_F(LivePatch, SyscallLast) {
  // push $39 (getpid); pop %rax; syscall; ret
  put(0, "6a 27 58 0f 05 c3");
  executable();
  ASSERT_EQ(call<long>(0), static_cast<long>(getpid()));
  patch(0, 6);
  EXPECT_EQ(call<long>(0), static_cast<long>(getpid()));
  EXPECT_EQ(*Hits, 1u);
}

TEST_F(LivePatch, ReturnAndTailJumpLast) {
  // f: lea (%rdi,%rsi),%rax; ret
  put(0, "48 8d 04 37 c3");
  // t (0x20): jmp k;  k (0xc0): lea (%rdi,%rdi,4),%eax; ret
  put(0x20, "e9 0 0 0 0");
  putRel32(0x21, 0xc0);
  put(0xc0, "8d 04 bf c3");
  executable();
  ASSERT_EQ(call<long>(0, 40l, 2l), 42);
  ASSERT_EQ(call<int>(0x20, 9), 45);
  patch(0, 5);
  patch(0x20, 5);
  EXPECT_EQ(call<long>(0, 40l, 2l), 42);
  EXPECT_EQ(call<int>(0x20, 9), 45);
  EXPECT_EQ(*Hits, 2u);
}

} // namespace
