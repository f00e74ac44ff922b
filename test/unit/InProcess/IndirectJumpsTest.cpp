//===- IndirectJumpsTest.cpp - Where a function's indirect jumps may go ---===//
//
// Each function here is the bytes a compiler emitted (gcc 12 and clang 19,
// position-independent or not, -O0 to -O2) or the shape of a hand-written
// idiom, placed at Fn.
//
//===----------------------------------------------------------------------===//
#include "IndirectJumps.h"
#include "RegisterDefs.h"
#include "TestBytes.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace tscc::rt;
using namespace tscc::rt::ip;
using tscc::test::append;
using tscc::test::hex;

namespace {

constexpr uint64_t Fn = 0x555555554000;

/// The one indirect jump of the function Hex at Fn.
IndirectJump onlyJump(const std::string &Hex) {
  std::vector<uint8_t> B = hex(Hex);
  FunctionCode Code;
  std::string Why;
  EXPECT_TRUE(scanFunctionCode(B, Fn, Code, Why)) << Why;
  EXPECT_EQ(Code.Jumps.size(), 1u);
  return Code.Jumps.empty() ? IndirectJump() : Code.Jumps.front();
}

//===----------------------------------------------------------------------===//
// Switch tables the compilers emit
//===----------------------------------------------------------------------===//

TEST(IndirectJumps, GccPicSwitch) {
  // gcc -O1: cmp $5,%edi; ja; mov %edi,%edi; lea 0xead(%rip),%rdx;
  // movslq (%rdx,%rdi,4),%rax; add %rdx,%rax; jmp *%rax
  IndirectJump J = onlyJump("83 ff 05 77 41 89 ff 48 8d 15 ad 0e 00 00 "
                            "48 63 04 ba 48 01 d0 ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Form, TableForm::Relative);
  EXPECT_EQ(J.Table, Fn + 14 + 0xead);
  EXPECT_EQ(J.Base, J.Table);
  EXPECT_EQ(J.Addr, Fn + 21);
}

TEST(IndirectJumps, NotrackJump) {
  // The same with -fcf-protection: notrack jmp *%rax.
  IndirectJump J = onlyJump("83 ff 05 77 41 89 ff 48 8d 15 ad 0e 00 00 "
                            "48 63 04 ba 48 01 d0 3e ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Table, Fn + 14 + 0xead);
}

TEST(IndirectJumps, GccO0Switch) {
  // gcc -O0: the index scaled apart, the table in the index register:
  // mov -0x8(%rbp),%rax; lea 0(,%rax,4),%rdx; lea T(%rip),%rax;
  // mov (%rdx,%rax,1),%eax; cltq; lea T(%rip),%rdx; add %rdx,%rax; jmp *%rax
  IndirectJump J =
      onlyJump("55 48 89 e5 48 89 7d f8 48 83 7d f8 05 77 7f 48 8b 45 f8 "
               "48 8d 14 85 00 00 00 00 48 8d 05 00 01 00 00 8b 04 02 48 98 "
               "48 8d 15 f4 00 00 00 48 01 d0 ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Form, TableForm::Relative);
  EXPECT_EQ(J.Table, Fn + 0x22 + 0x100);
  EXPECT_EQ(J.Base, Fn + 0x2e + 0xf4);
}

TEST(IndirectJumps, ClangPicSwitch) {
  // clang -O2 -fPIC: lea T(%rip),%rcx; movslq (%rcx,%rdi,4),%rdx;
  // add %rcx,%rdx; jmp *%rdx
  IndirectJump J = onlyJump("48 83 ff 05 77 1f 48 89 f0 48 8d 0d 40 00 00 00 "
                            "48 63 14 b9 48 01 ca ff e2");
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Table, Fn + 0x10 + 0x40);
}

TEST(IndirectJumps, NonPicSwitch) {
  // gcc -O2 -fno-pic: jmp *T(,%rdi,8)
  IndirectJump J =
      onlyJump("48 83 ff 05 0f 87 00 00 00 00 ff 24 fd 40 12 60 00");
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Form, TableForm::Absolute);
  EXPECT_EQ(J.Table, 0x601240u);
}

TEST(IndirectJumps, AbsoluteTableThroughARegister) {
  // mov T(,%rdi,8),%rax; jmp *%rax
  IndirectJump J = onlyJump("48 8b 04 fd 00 30 60 00 ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Form, TableForm::Absolute);
  EXPECT_EQ(J.Table, 0x603000u);
}

TEST(IndirectJumps, ComputedGotoTableInPic) {
  // static void *tbl[] = {&&a, ...}; goto *tbl[i] in PIC code:
  // lea tbl(%rip),%rdx; jmp *(%rdx,%rax,8)
  IndirectJump J = onlyJump("48 8d 15 00 20 00 00 ff 24 c2");
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Form, TableForm::Absolute);
  EXPECT_EQ(J.Table, Fn + 7 + 0x2000);
}

TEST(IndirectJumps, LabelRelativeTable) {
  // glibc's printf: offsets from a code label, in a table elsewhere.
  // lea L(%rip),%rdx; lea T(%rip),%rcx; movslq (%rcx,%rax,4),%rax;
  // add %rdx,%rax; jmp *%rax
  IndirectJump J = onlyJump("48 8d 15 30 00 00 00 48 8d 0d 00 10 00 00 "
                            "48 63 04 81 48 01 d0 ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Form, TableForm::Relative);
  EXPECT_EQ(J.Base, Fn + 7 + 0x30);
  EXPECT_EQ(J.Table, Fn + 14 + 0x1000);
}

//===----------------------------------------------------------------------===//
// Jumps through code pointers
//===----------------------------------------------------------------------===//

TEST(IndirectJumps, TailCallsThroughPointers) {
  // mov 0x8(%rdi),%rax; test %rax,%rax; je 1f; jmp *%rax; 1: ret
  EXPECT_EQ(onlyJump("48 8b 47 08 48 85 c0 74 02 ff e0 c3").Kind,
            IndirectKind::Pointer);
  // jmp *0x10(%rdi)
  EXPECT_EQ(onlyJump("ff 67 10").Kind, IndirectKind::Pointer);
  // jmp *foo@GOTPCREL(%rip)
  EXPECT_EQ(onlyJump("ff 25 00 10 00 00").Kind, IndirectKind::Pointer);
  // call f; jmp *%rax
  EXPECT_EQ(onlyJump("e8 10 00 00 00 ff e0").Kind, IndirectKind::Pointer);
  // An argument: mov %rdi,%r11; jmp *%r11
  EXPECT_EQ(onlyJump("49 89 fb 41 ff e3").Kind, IndirectKind::Pointer);
  // A label's address: lea L(%rip),%rax; jmp *%rax
  EXPECT_EQ(onlyJump("48 8d 05 02 00 00 00 ff e0 c3").Kind,
            IndirectKind::Pointer);
}

//===----------------------------------------------------------------------===//
// i386: GOT-relative tables found through the PC thunk, absolute tables
//===----------------------------------------------------------------------===//

constexpr uint64_t Fn32 = 0x5655619d;

/// The one indirect jump of the i386 function Hex at Fn32, whose PC thunk
/// (`mov (%esp),%eax; ret`) is at Thunk, read through Read if given.
IndirectJump onlyJump32(const std::string &Hex, uint64_t Thunk,
                        bool WithMemory = true) {
  std::vector<uint8_t> B = hex(Hex);
  std::vector<uint8_t> ThunkBytes = hex("8b 04 24 c3");
  ReadMemory Read = [&](uint64_t A, void *Dst, size_t Len) {
    if (A != Thunk || Len > ThunkBytes.size())
      return false;
    std::memcpy(Dst, ThunkBytes.data(), Len);
    return true;
  };
  FunctionCode Code;
  std::string Why;
  EXPECT_TRUE(scanFunctionCode(B, Fn32, Code, Why, X86Mode::Bits32,
                               WithMemory ? &Read : nullptr))
      << Why;
  EXPECT_EQ(Code.Jumps.size(), 1u);
  return Code.Jumps.empty() ? IndirectJump() : Code.Jumps.front();
}

TEST(IndirectJumps, I386GccPicSwitch) {
  // gcc -m32 -O1: push %ebx; call __x86.get_pc_thunk.ax; add $0x2e51,%eax;
  // mov 0xc(%esp),%ecx; mov 0x8(%esp),%edx; and $0xf,%edx; cmp $9,%edx;
  // ja; add -0x1fec(%eax,%edx,4),%eax; jmp *%eax
  const std::string Hex = "53 e8 13 01 00 00 05 51 2e 00 00 8b 4c 24 0c "
                          "8b 54 24 08 83 e2 0f 83 fa 09 77 6f "
                          "03 84 90 14 e0 ff ff ff e0";
  IndirectJump J = onlyJump32(Hex, Fn32 + 0x119);
  uint64_t Got = Fn32 + 6 + 0x2e51;
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Form, TableForm::Relative);
  EXPECT_EQ(J.Base, Got);
  EXPECT_EQ(J.Table, Got - 0x1fec);
  EXPECT_EQ(J.PointerSize, 4u);
  EXPECT_EQ(J.Addr, Fn32 + 34);
  // Without the thunk's bytes, %eax is a call's result: no table.
  IndirectJump Blind = onlyJump32(Hex, Fn32 + 0x119, /*WithMemory=*/false);
  EXPECT_EQ(Blind.Kind, IndirectKind::Unresolved);
  // A call to anything else is not a thunk.
  EXPECT_EQ(onlyJump32(Hex, Fn32 + 0x118).Kind, IndirectKind::Unresolved);
}

TEST(IndirectJumps, I386GccPicSwitchAtO0) {
  // gcc -m32 -O0: ...; call thunk.ax; add $0x2e4e,%eax; mov 0x8(%ebp),%edx;
  // and; cmp; ja; shl $2,%edx; mov -0x1fec(%edx,%eax,1),%edx;
  // add %edx,%eax; jmp *%eax
  IndirectJump J = onlyJump32("55 89 e5 53 e8 36 01 00 00 05 4e 2e 00 00 "
                              "8b 55 08 83 e2 0f 83 fa 09 0f 87 8e 00 00 00 "
                              "c1 e2 02 8b 94 02 14 e0 ff ff 01 d0 ff e0",
                              Fn32 + 0x13f);
  uint64_t Got = Fn32 + 9 + 0x2e4e;
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Form, TableForm::Relative);
  EXPECT_EQ(J.Base, Got);
  EXPECT_EQ(J.Table, Got - 0x1fec);
}

TEST(IndirectJumps, I386AbsoluteTable) {
  // gcc -m32 -O2 -fno-pie: jmp *0x804a008(,%eax,4): 4-byte addresses.
  IndirectJump J = onlyJump32("83 f8 09 77 07 ff 24 85 08 a0 04 88", 0);
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Form, TableForm::Absolute);
  EXPECT_EQ(J.Table, 0x8804a008u); // not sign-extended
  EXPECT_EQ(J.PointerSize, 4u);
}

//===----------------------------------------------------------------------===//
// Jumps whose targets stay unknown
//===----------------------------------------------------------------------===//

TEST(IndirectJumps, ArithmeticOnTheTargetIsUnresolved) {
  // mov (%rdi),%rax; add $8,%rax; jmp *%rax
  IndirectJump J = onlyJump("48 8b 07 48 83 c0 08 ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Unresolved);
  EXPECT_NE(J.Why.find("adds an offset to its target that no table "
                       "constant explains (at 0x555555554003)"),
            std::string::npos)
      << J.Why;
}

TEST(IndirectJumps, MergesTakeEveryWrite) {
  // test %edi,%edi; je 1f; mov (%rsi),%rax; 1: jmp *%rax
  // %rax is what came in or a loaded pointer: a pointer either way.
  EXPECT_EQ(onlyJump("85 ff 74 03 48 8b 06 ff e0").Kind, IndirectKind::Pointer);
  // After a return, only branches (a table's) reach the next block, and
  // nothing writes %rax: ret; jmp *%rax
  EXPECT_EQ(onlyJump("c3 ff e0").Kind, IndirectKind::Pointer);
  // test; je 1f; add $8,%rax; 1: jmp *%rax: one of the writes is unknown.
  IndirectJump J = onlyJump("85 ff 74 04 48 83 c0 08 ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Unresolved);
  EXPECT_NE(J.Why.find("adds an offset to its target that no table "
                       "constant explains (at 0x555555554004)"),
            std::string::npos)
      << J.Why;
}

TEST(IndirectJumps, PathsThatDisagreeAreUnresolved) {
  // test %edi,%edi; je 1f; mov T(,%rdi,8),%rax; jmp 2f;
  // 1: mov (%rsi),%rax; 2: jmp *%rax  -- a table's entry or a pointer.
  IndirectJump J = onlyJump("85 ff 74 0a 48 8b 04 fd 00 30 60 00 eb 03 "
                            "48 8b 06 ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Unresolved);
  EXPECT_NE(J.Why.find("computed differently on different paths (at "
                       "0x555555554004 and 0x55555555400e)"),
            std::string::npos)
      << J.Why;
  // The same with an add on the second path: that path alone is unknown.
  J = onlyJump("85 ff 74 0a 48 8b 04 fd 00 30 60 00 eb 03 48 01 d0 ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Unresolved);
  EXPECT_NE(J.Why.find("it adds an offset to its target that no table "
                       "constant explains (at 0x55555555400e)"),
            std::string::npos)
      << J.Why;
}

TEST(IndirectJumps, TableBaseSetOnEveryPath) {
  // The base comes from two leas of the same table on two paths:
  // test; je 1f; lea T(%rip),%rcx; jmp 2f; 1: lea T(%rip),%rcx;
  // 2: movslq (%rcx,%rdi,4),%rax; add %rcx,%rax; jmp *%rax
  IndirectJump J = onlyJump("85 ff 74 09 48 8d 0d f9 0f 00 00 eb 07 "
                            "48 8d 0d f0 0f 00 00 48 63 04 b9 48 01 c8 ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Table, Fn + 0x1004);
  // Two different tables meeting in one dispatch are not told apart.
  J = onlyJump("85 ff 74 09 48 8d 0d f9 0f 00 00 eb 07 "
               "48 8d 0d 00 20 00 00 48 63 04 b9 48 01 c8 ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Unresolved);
}

TEST(IndirectJumps, TableBaseHoistedOutOfALoop) {
  // gcc puts a switch's lea before the loop around it (glibc's fopen):
  // lea T(%rip),%rcx; 1: movzbl (%rdi),%eax; movslq (%rcx,%rax,4),%rax;
  // add %rcx,%rax; jmp *%rax; inc %rdi; jmp 1b
  IndirectJump J = onlyJump("48 8d 0d 00 10 00 00 0f b6 07 48 63 04 81 "
                            "48 01 c8 ff e0 48 ff c7 eb ef");
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Form, TableForm::Relative);
  EXPECT_EQ(J.Table, Fn + 7 + 0x1000);
  EXPECT_EQ(J.Base, J.Table);
}

TEST(IndirectJumps, OneEntryReadAtAKnownIndex) {
  // gcc reads a known case's offset straight from the table (glibc's
  // res_query): movslq T+16(%rip),%rax; lea T+16(%rip),%rsi;
  // add %rsi,%rax; jmp *%rax
  IndirectJump J = onlyJump("48 63 05 9e 83 06 00 48 8d 35 97 83 06 00 "
                            "48 01 f0 ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Table) << J.Why;
  EXPECT_EQ(J.Form, TableForm::Relative);
  EXPECT_EQ(J.Table, Fn + 7 + 0x6839e);
  EXPECT_EQ(J.Base, J.Table);
  // An 8-byte load from a constant address is a pointer variable.
  EXPECT_EQ(onlyJump("48 8b 05 00 10 00 00 ff e0").Kind, IndirectKind::Pointer);
}

TEST(IndirectJumps, TablesWhoseEntriesAreStoredFirst) {
  // gcc -O0 computed goto through a variable: the address is computed from
  // a table, stored, loaded and jumped through.
  // lea T(%rip),%rdx; movslq (%rdx,%rdi,4),%rax; add %rdx,%rax;
  // mov %rax,-8(%rbp); mov -8(%rbp),%rax; jmp *%rax
  std::vector<uint8_t> B = hex("48 8d 15 00 10 00 00 48 63 04 ba 48 01 d0 "
                               "48 89 45 f8 48 8b 45 f8 ff e0");
  FunctionCode Code;
  std::string Why;
  ASSERT_TRUE(scanFunctionCode(B, Fn, Code, Why)) << Why;
  ASSERT_EQ(Code.Jumps.size(), 1u);
  EXPECT_EQ(Code.Jumps[0].Kind, IndirectKind::Pointer);
  ASSERT_EQ(Code.Tables.size(), 1u);
  EXPECT_EQ(Code.Tables[0].Form, TableForm::Relative);
  EXPECT_EQ(Code.Tables[0].Table, Fn + 7 + 0x1000);
  EXPECT_EQ(Code.Tables[0].Addr, Fn + 11); // the add
}

TEST(IndirectJumps, PointerArraysAtUnknownAddresses) {
  // mov 0x10(%rdi),%rdx; jmp *(%rdx,%rax,8): an array of code pointers
  // somewhere, each an address constant of the module like any pointer.
  EXPECT_EQ(onlyJump("48 8b 57 10 ff 24 c2").Kind, IndirectKind::Pointer);
  // mov 0x10(%rdi),%rdx; mov (%rdx,%rax,8),%rax; jmp *%rax
  EXPECT_EQ(onlyJump("48 8b 57 10 48 8b 04 c2 ff e0").Kind,
            IndirectKind::Pointer);
  // A member at a variable offset (Python's vectorcall):
  // mov (%rdi,%rax,1),%r9; jmp *%r9
  EXPECT_EQ(onlyJump("4c 8b 0c 07 41 ff e1").Kind, IndirectKind::Pointer);
}

TEST(IndirectJumps, OffsetTableAtAnUnknownAddressIsUnresolved) {
  // movslq (%rdx,%rdi,4),%rax; add %rdx,%rax; jmp *%rax, %rdx loaded.
  IndirectJump J = onlyJump("48 8b 57 10 48 63 04 ba 48 01 d0 ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Unresolved);
  EXPECT_NE(J.Why.find("adds an offset"), std::string::npos) << J.Why;
  // The offset alone, jumped to: movslq (%rdx,%rdi,4),%rax; jmp *%rax
  J = onlyJump("48 8b 57 10 48 63 04 ba ff e0");
  EXPECT_EQ(J.Kind, IndirectKind::Unresolved);
  EXPECT_NE(J.Why.find("table of offsets whose address is not a constant"),
            std::string::npos)
      << J.Why;
}

TEST(IndirectJumps, CallsAreNotJumps) {
  std::vector<uint8_t> B = hex("ff d0 ff 17 c3"); // call *%rax; call *(%rdi)
  FunctionCode Code;
  std::string Why;
  ASSERT_TRUE(scanFunctionCode(B, Fn, Code, Why)) << Why;
  EXPECT_TRUE(Code.Jumps.empty());
}

TEST(IndirectJumps, BranchTargetsAreCollected) {
  // 0: test; je 6; jmp 0; 6: ret
  std::vector<uint8_t> B = hex("85 ff 74 02 eb fa c3");
  FunctionCode Code;
  std::string Why;
  ASSERT_TRUE(scanFunctionCode(B, Fn, Code, Why)) << Why;
  EXPECT_EQ(Code.BranchTargets, (std::vector<uint64_t>{Fn, Fn + 6}));
}

//===----------------------------------------------------------------------===//
// What instructions do to registers
//===----------------------------------------------------------------------===//

RegWrite writeOf(const std::string &Hex, unsigned R) {
  std::vector<uint8_t> B = hex(Hex);
  PlacedInsn D;
  D.Addr = Fn;
  D.Bytes = B.data();
  EXPECT_TRUE(decodeX86(B.data(), B.size(), X86Mode::Bits64, D.I));
  return registerWrite(D, R).Kind;
}

TEST(RegisterDefs, ReadsAreNotWrites) {
  EXPECT_EQ(writeOf("48 39 c2", 0), RegWrite::None);    // cmp %rax,%rdx
  EXPECT_EQ(writeOf("48 85 c0", 0), RegWrite::None);    // test %rax,%rax
  EXPECT_EQ(writeOf("48 89 07", 0), RegWrite::None);    // mov %rax,(%rdi)
  EXPECT_EQ(writeOf("0f 28 c8", 1), RegWrite::None);    // movaps %xmm0,%xmm1
  EXPECT_EQ(writeOf("48 83 f8 05", 0), RegWrite::None); // cmp $5,%rax
  EXPECT_EQ(writeOf("50", 0), RegWrite::None);          // push %rax
  EXPECT_EQ(writeOf("48 c1 e2 03", 0), RegWrite::None); // shl $3,%rdx
}

TEST(RegisterDefs, WritesAreSeen) {
  EXPECT_EQ(writeOf("31 c0", 0), RegWrite::Unknown);          // xor %eax,%eax
  EXPECT_EQ(writeOf("48 c1 e0 03", 0), RegWrite::Unknown);    // shl $3,%rax
  EXPECT_EQ(writeOf("58", 0), RegWrite::Load);                // pop %rax
  EXPECT_EQ(writeOf("48 99", 2), RegWrite::Unknown);          // cqo
  EXPECT_EQ(writeOf("48 f7 e1", 2), RegWrite::Unknown);       // mul %rcx
  EXPECT_EQ(writeOf("05 10 00 00 00", 0), RegWrite::Unknown); // add $16,%eax
  EXPECT_EQ(writeOf("0f 05", 11), RegWrite::Unknown);         // syscall
  EXPECT_EQ(writeOf("66 0f 7e c0", 0), RegWrite::Unknown);    // movd %xmm0,%eax
  EXPECT_EQ(writeOf("48 0f 44 c2", 0), RegWrite::Unknown);    // cmove %rdx,%rax
  EXPECT_EQ(writeOf("48 98", 0), RegWrite::Same);             // cltq
  EXPECT_EQ(writeOf("49 89 c3", 11), RegWrite::Copy);         // mov %rax,%r11
  EXPECT_EQ(writeOf("e8 00 00 00 00", 0), RegWrite::CallResult);
  EXPECT_EQ(writeOf("e8 00 00 00 00", 3), RegWrite::None); // %rbx survives
  EXPECT_EQ(writeOf("b8 00 10 40 00", 0), RegWrite::Const);
  EXPECT_EQ(writeOf("48 05 10 00 00 00", 0), RegWrite::AddConst);
  EXPECT_EQ(writeOf("48 83 eb 10", 3), RegWrite::AddConst); // sub $16,%rbx
  EXPECT_EQ(writeOf("83 c3 10", 3), RegWrite::Unknown);     // add $16,%ebx
}

RegDef writeOf32(const std::string &Hex, unsigned R) {
  static std::vector<uint8_t> B;
  B = hex(Hex);
  PlacedInsn D;
  D.Addr = 0x8049000;
  D.Bytes = B.data();
  D.Mode = X86Mode::Bits32;
  EXPECT_TRUE(decodeX86(B.data(), B.size(), X86Mode::Bits32, D.I));
  return registerWrite(D, R);
}

TEST(RegisterDefs, I386) {
  // add $0x2e51,%ebx after the thunk: the GOT.
  RegDef Add = writeOf32("81 c3 51 2e 00 00", 3);
  EXPECT_EQ(Add.Kind, RegWrite::AddConst);
  EXPECT_EQ(Add.Value, 0x2e51u);
  EXPECT_EQ(writeOf32("05 51 2e 00 00", 0).Kind, RegWrite::AddConst);
  // A call leaves %ebx, %esi, %edi, %ebp as they were (cdecl).
  EXPECT_EQ(writeOf32("e8 00 00 00 00", 3).Kind, RegWrite::None);
  EXPECT_EQ(writeOf32("e8 00 00 00 00", 6).Kind, RegWrite::None);
  EXPECT_EQ(writeOf32("e8 00 00 00 00", 1).Kind, RegWrite::CallResult);
  // mov 0x8804a000,%ecx: an absolute address, zero-extended.
  RegDef Load = writeOf32("8b 0d 00 a0 04 88", 1);
  EXPECT_EQ(Load.Kind, RegWrite::Load);
  EXPECT_FALSE(Load.Mem.Rip);
  EXPECT_EQ(Load.Mem.Base, -1);
  EXPECT_EQ(Load.Mem.Disp, 0x8804a000);
  // add -0x1fec(%eax,%edx,4),%eax: a table's entry added to %eax.
  RegDef Entry = writeOf32("03 84 90 14 e0 ff ff", 0);
  EXPECT_EQ(Entry.Kind, RegWrite::AddEntry);
  EXPECT_EQ(Entry.Mem.Disp, -0x1fec);
  EXPECT_EQ(Entry.Mem.Base, 0);
  EXPECT_EQ(Entry.Mem.Index, 2);
}

TEST(RegisterDefs, PcThunks) {
  unsigned R = 99;
  EXPECT_TRUE(pcThunkRegister(hex("8b 1c 24 c3"), R));
  EXPECT_EQ(R, 3u); // __x86.get_pc_thunk.bx
  EXPECT_TRUE(pcThunkRegister(hex("8b 0c 24 c3"), R));
  EXPECT_EQ(R, 1u);
  EXPECT_FALSE(pcThunkRegister(hex("8b 1c 24 90"), R)); // no ret
  EXPECT_FALSE(pcThunkRegister(hex("8b 24 24 c3"), R)); // mov (%esp),%esp
  EXPECT_FALSE(pcThunkRegister(hex("8b 1c 25 c3"), R)); // another SIB
  EXPECT_FALSE(pcThunkRegister(hex("8b 1c 24"), R));
}

//===----------------------------------------------------------------------===//
// Reading the tables
//===----------------------------------------------------------------------===//

/// Memory that holds Bytes at Addr and nothing else.
struct FakeMemory {
  uint64_t Addr;
  std::vector<uint8_t> Bytes;
  bool read(uint64_t A, void *Dst, size_t Len) const {
    if (A < Addr || A + Len > Addr + Bytes.size())
      return false;
    std::memcpy(Dst, Bytes.data() + (A - Addr), Len);
    return true;
  }
};

std::vector<uint64_t>
targets(const IndirectJump &J, const FakeMemory &M,
        const std::vector<std::pair<uint64_t, uint64_t>> &Code) {
  std::vector<uint64_t> T;
  readJumpTable(
      J, Code, [&](uint64_t A, void *D, size_t L) { return M.read(A, D, L); },
      T);
  return T;
}

TEST(JumpTables, RelativeEntriesUntilOneIsNotCode) {
  const uint64_t Table = 0x2004, Text = 0x1000;
  FakeMemory M{Table, {}};
  for (int32_t Off : {-0xea4, -0xe9c, -0xe8c, 0x7fff0000})
    append(M.Bytes, Off);
  IndirectJump J;
  J.Kind = IndirectKind::Table;
  J.Form = TableForm::Relative;
  J.Table = J.Base = Table;
  EXPECT_EQ(targets(J, M, {{Text, Text + 0x1000}}),
            (std::vector<uint64_t>{0x1160, 0x1168, 0x1178}));
}

TEST(JumpTables, AbsoluteEntriesUpToTheEndOfMemory) {
  FakeMemory M{0x603000, {}};
  for (uint64_t A : {0x401010, 0x401020, 0x401030})
    append(M.Bytes, A);
  IndirectJump J;
  J.Kind = IndirectKind::Table;
  J.Form = TableForm::Absolute;
  J.Table = 0x603000;
  // All three are code; reading on fails, which ends the table.
  EXPECT_EQ(targets(J, M, {{0x401000, 0x402000}}),
            (std::vector<uint64_t>{0x401010, 0x401020, 0x401030}));
  // Code in two ranges (.init, .text) counts as code.
  EXPECT_EQ(targets(J, M, {{0x401000, 0x401018}, {0x401018, 0x402000}}).size(),
            3u);
}

TEST(JumpTables, I386EntriesAreFourBytesAndWrap) {
  FakeMemory M{0x8804a008, {}};
  for (uint32_t A : {0x80491a0u, 0x80491b0u, 0xffffffffu})
    append(M.Bytes, A);
  IndirectJump J;
  J.Kind = IndirectKind::Table;
  J.Form = TableForm::Absolute;
  J.PointerSize = 4;
  J.Table = 0x8804a008;
  EXPECT_EQ(targets(J, M, {{0x8049000, 0x804a000}}),
            (std::vector<uint64_t>{0x80491a0, 0x80491b0}));
  // GOT-relative offsets reach below the GOT, within 32 bits.
  FakeMemory R{0x56557014, {}};
  for (int32_t Off : {-0x2e00, -0x2df0})
    append(R.Bytes, Off);
  J.Form = TableForm::Relative;
  J.Table = 0x56557014;
  J.Base = 0x56559000;
  EXPECT_EQ(targets(J, R, {{0x56556000, 0x56557000}}),
            (std::vector<uint64_t>{0x56556200, 0x56556210}));
}

TEST(JumpTables, OnlyTablesAreRead) {
  FakeMemory M{0x603000, {}};
  append(M.Bytes, uint64_t(0x401010));
  IndirectJump J;
  J.Kind = IndirectKind::Pointer;
  J.Table = 0x603000;
  EXPECT_TRUE(targets(J, M, {{0x401000, 0x402000}}).empty());
}

} // namespace
