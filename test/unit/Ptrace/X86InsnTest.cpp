//===- X86InsnTest.cpp - The x86 instruction length decoder ---------------===//
#include "tscc/Runtime/X86Insn.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace tscc::rt;

namespace {

std::vector<uint8_t> hex(const std::string &S) {
  std::vector<uint8_t> Out;
  std::istringstream In(S);
  std::string B;
  while (In >> B)
    Out.push_back(static_cast<uint8_t>(std::stoul(B, nullptr, 16)));
  return Out;
}

X86Insn decode(const std::string &Hex, X86Mode Mode = X86Mode::Bits64) {
  std::vector<uint8_t> B = hex(Hex);
  X86Insn I;
  EXPECT_TRUE(decodeX86(B.data(), B.size(), Mode, I)) << Hex;
  return I;
}

// Every instruction in the fixture (collected from real binaries with
// objdump) must decode to objdump's length, with the RIP-relative flag
// exactly where objdump shows (%rip).
TEST(X86Insn, MatchesObjdumpOnRealCode) {
  std::ifstream In(PROLOGUES_PATH);
  ASSERT_TRUE(In) << PROLOGUES_PATH;
  std::string Line;
  unsigned Count = 0, Bad = 0;
  while (std::getline(In, Line)) {
    if (Line.empty() || Line[0] == '#')
      continue;
    std::istringstream F(Line);
    std::string Bytes, Len, Rip, Asm;
    std::getline(F, Bytes, '|');
    std::getline(F, Len, '|');
    std::getline(F, Rip, '|');
    std::getline(F, Asm);
    std::vector<uint8_t> B = hex(Bytes);
    // Pad like real code would continue, so the decoder cannot rely on
    // running out of bytes.
    B.insert(B.end(), 16, 0x90);
    X86Insn I;
    bool Ok = decodeX86(B.data(), B.size(), X86Mode::Bits64, I);
    ++Count;
    if (!Ok || I.Length != std::stoul(Len) || I.RipRelative != (Rip == "1")) {
      if (++Bad <= 20)
        ADD_FAILURE() << Bytes << " (" << Asm << "): decoded "
                      << (Ok ? std::to_string(I.Length) : "invalid")
                      << " rip=" << I.RipRelative << ", objdump says " << Len
                      << " rip=" << Rip;
    }
  }
  EXPECT_GT(Count, 1000u);
  EXPECT_EQ(Bad, 0u);
}

TEST(X86Insn, ControlFlow) {
  X86Insn I = decode("e8 10 00 00 00");
  EXPECT_EQ(I.Flow, X86Flow::CallRel);
  EXPECT_EQ(I.RelTarget, 0x10);
  I = decode("eb fe");
  EXPECT_EQ(I.Flow, X86Flow::JmpRel);
  EXPECT_EQ(I.RelTarget, -2);
  I = decode("0f 84 00 01 00 00");
  EXPECT_EQ(I.Flow, X86Flow::JccRel);
  EXPECT_EQ(I.Cond, 4);
  EXPECT_EQ(I.RelTarget, 0x100);
  I = decode("75 f0");
  EXPECT_EQ(I.Flow, X86Flow::JccRel);
  EXPECT_EQ(I.Cond, 5);
  EXPECT_EQ(I.RelTarget, -16);
  EXPECT_EQ(decode("c3").Flow, X86Flow::Ret);
  I = decode("c2 08 00");
  EXPECT_EQ(I.Flow, X86Flow::Ret);
  EXPECT_EQ(I.Length, 3);
  EXPECT_EQ(decode("ff d0").Flow, X86Flow::Indirect);             // call *%rax
  EXPECT_EQ(decode("ff 25 00 10 00 00").Flow, X86Flow::Indirect); // jmp *(%rip)
  EXPECT_TRUE(decode("ff 25 00 10 00 00").RipRelative);
  EXPECT_EQ(decode("cc").Flow, X86Flow::Trap);
  EXPECT_EQ(decode("0f 05").Flow, X86Flow::Trap); // syscall
  EXPECT_EQ(decode("e2 fe").Flow, X86Flow::LoopRel);
}

TEST(X86Insn, PrefixesAndImmediates) {
  EXPECT_EQ(decode("f3 0f 1e fa").Length, 4);                    // endbr64
  EXPECT_EQ(decode("48 b8 11 22 33 44 55 66 77 88").Length, 10); // movabs
  EXPECT_EQ(decode("66 b8 34 12").Length, 4);                    // mov $,%ax
  EXPECT_EQ(decode("66 2e 0f 1f 84 00 00 00 00 00").Length, 10);
  EXPECT_EQ(decode("64 48 8b 04 25 28 00 00 00").Length, 9); // %fs:0x28
  EXPECT_EQ(decode("f6 c1 01").Length, 3);                   // test $1,%cl
  EXPECT_EQ(decode("f6 d1").Length, 2);                      // not %cl
  EXPECT_EQ(decode("f7 c7 00 00 01 00").Length, 6);
  EXPECT_EQ(decode("c8 10 00 00").Length, 4);                    // enter
  EXPECT_EQ(decode("48 a1 88 77 66 55 44 33 22 11").Length, 10); // moffs
  EXPECT_EQ(decode("c5 f8 77").Length, 3);                       // vzeroupper
  EXPECT_EQ(decode("c4 e3 7d 18 c1 01").Length, 6);              // vinsertf128
  EXPECT_EQ(decode("62 f1 7c 48 10 44 24 01").Length, 8);        // vmovups zmm
}

TEST(X86Insn, ThirtyTwoBitMode) {
  X86Mode M = X86Mode::Bits32;
  EXPECT_EQ(decode("40", M).Length, 1);    // inc %eax, not REX
  EXPECT_EQ(decode("55", M).Length, 1);    // push %ebp
  EXPECT_EQ(decode("89 e5", M).Length, 2); // mov %esp,%ebp
  EXPECT_EQ(decode("8b 05 00 10 00 00", M).RipRelative, false);
  EXPECT_EQ(decode("66 e8 10 00", M).Length, 4); // call rel16
  EXPECT_EQ(decode("67 8b 46 02", M).Length, 4); // 16-bit addressing
  EXPECT_EQ(decode("c5 f8 77", M).Length, 3);    // VEX (mod == 11)
  EXPECT_EQ(decode("c5 06", M).Length, 2);       // lds (%esi),%eax
  EXPECT_EQ(decode("06", M).Length, 1);          // push %es
}

TEST(X86Insn, RejectsBadInput) {
  X86Insn I;
  const uint8_t Trunc[] = {0x48, 0x8b, 0x05, 0x00};
  EXPECT_FALSE(decodeX86(Trunc, sizeof(Trunc), X86Mode::Bits64, I));
  const uint8_t Invalid64[] = {0x06};
  EXPECT_FALSE(decodeX86(Invalid64, 1, X86Mode::Bits64, I));
  std::vector<uint8_t> Long(20, 0x66);
  Long.push_back(0x90);
  EXPECT_FALSE(decodeX86(Long.data(), Long.size(), X86Mode::Bits64, I));
  EXPECT_FALSE(decodeX86(nullptr, 0, X86Mode::Bits64, I));
}

TEST(X86Insn, Boundaries) {
  // test %edi,%edi; jz +8; mov $7,%eax; ret
  const uint8_t F[] = {0x85, 0xff, 0x74, 0x06, 0xb8, 7, 0, 0, 0, 0xc3};
  EXPECT_TRUE(isX86InsnBoundary(F, sizeof(F), 0, X86Mode::Bits64));
  EXPECT_TRUE(isX86InsnBoundary(F, sizeof(F), 2, X86Mode::Bits64));
  EXPECT_TRUE(isX86InsnBoundary(F, sizeof(F), 4, X86Mode::Bits64));
  EXPECT_FALSE(isX86InsnBoundary(F, sizeof(F), 1, X86Mode::Bits64));
  EXPECT_FALSE(isX86InsnBoundary(F, sizeof(F), 5, X86Mode::Bits64));
  EXPECT_TRUE(isX86InsnBoundary(F, sizeof(F), 9, X86Mode::Bits64));
}

} // namespace
