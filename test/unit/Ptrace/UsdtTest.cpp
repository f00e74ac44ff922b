//===- UsdtTest.cpp - SDT argument operands --------------------------------===//
#include "tscc/Runtime/Usdt.h"

#include "tscc/Runtime/ElfFile.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <random>

using namespace tscc::rt;

namespace {

UsdtArg parse(const std::string &Text, bool Is64) {
  UsdtArg A;
  std::string Why;
  EXPECT_TRUE(parseUsdtArg(Text, Is64, A, Why)) << Text << ": " << Why;
  return A;
}

bool rejects(const std::string &Text, bool Is64) {
  UsdtArg A;
  std::string Why;
  return !parseUsdtArg(Text, Is64, A, Why) && !Why.empty();
}

TEST(Usdt, ParsesOperandKinds) {
  UsdtArg R = parse("-4@%edx", true);
  EXPECT_EQ(R.Kind, UsdtOperand::Register);
  EXPECT_EQ(R.Reg, TSCC_REG_RDX);
  EXPECT_EQ(R.Size, -4);

  UsdtArg C = parse("-1@$-5", true);
  EXPECT_EQ(C.Kind, UsdtOperand::Constant);
  EXPECT_EQ(C.Value, -5);

  UsdtArg M = parse("8@-24(%rbp)", true);
  EXPECT_EQ(M.Kind, UsdtOperand::Memory);
  EXPECT_EQ(M.Reg, TSCC_REG_RBP);
  EXPECT_EQ(M.Value, -24);
  EXPECT_EQ(M.Size, 8);

  UsdtArg I = parse("4@0x10(%rax,%r12,8)", true);
  EXPECT_EQ(I.Reg, TSCC_REG_RAX);
  EXPECT_EQ(I.Index, TSCC_REG_R12);
  EXPECT_EQ(I.Scale, 8);
  EXPECT_EQ(I.Value, 16);

  UsdtArg Rip = parse("-8@glob+8(%rip)", true);
  EXPECT_TRUE(Rip.SymbolRelative);
  EXPECT_EQ(Rip.Reg, -1);
  EXPECT_EQ(Rip.Value, 8);
  EXPECT_EQ(Rip.Text, "glob");

  UsdtArg Got = parse("-4@glob@GOTOFF(%ebx)", false);
  EXPECT_TRUE(Got.SymbolRelative);
  EXPECT_EQ(Got.Reg, -1);
  EXPECT_EQ(Got.Text, "glob");

  // Old notes have no size: pointer-sized.
  EXPECT_EQ(parse("%esi", false).Size, 4);
  EXPECT_EQ(parse("abc@GOTOFF(%ebx)", false).Size, 4);
  EXPECT_EQ(parse("abc@GOTOFF(%ebx)", false).Text, "abc");
  EXPECT_EQ(parse("%rsi", true).Size, 8);
  // i386 64-bit values live in GCC's register pairs.
  EXPECT_EQ(parse("8@%eax", false).HighReg, TSCC_REG_RDX);
  EXPECT_EQ(parse("-8@%esi", false).HighReg, TSCC_REG_RDI);
  EXPECT_EQ(parse("8@%rax", true).HighReg, -1);
}

TEST(Usdt, RejectsWhatItCannotEvaluate) {
  EXPECT_TRUE(rejects("3@%eax", true));  // no such size
  EXPECT_TRUE(rejects("4@%rax", false)); // no rax in i386
  EXPECT_TRUE(rejects("4@%r8d", false));
  EXPECT_TRUE(rejects("4@%xmm0", true));
  EXPECT_TRUE(rejects("4@$sym", true));
  EXPECT_TRUE(rejects("4@8(%rax", true)); // unterminated
  EXPECT_TRUE(rejects("4@8(%rax,%rbx,3)", true));
  EXPECT_TRUE(rejects("4@", true));
  EXPECT_TRUE(rejects("4@16(%rip)", true)); // numeric rip-relative
  EXPECT_TRUE(rejects("4@sym@PLT(%rip)", true));
}

TEST(Usdt, EvaluatesBySizeAndSign) {
  UsdtProbe P;
  for (const char *T : {"-4@%edx", "4@%edx", "-1@%ah", "1@$-56", "-8@-8(%rbp)",
                        "2@-6(%rbp)", "-8@glob(%rip)"})
    P.Args.push_back(parse(T, true));
  P.Args.back().Value = 0x1000; // the symbol's link-time address
  uint64_t Regs[TSCC_REG_COUNT] = {};
  Regs[TSCC_REG_RDX] = 0x12345678ffffff9cull; // edx = -100
  Regs[TSCC_REG_RAX] = 0x8000;                // ah = 0x80 = -128
  Regs[TSCC_REG_RBP] = 0x7000;
  std::map<uint64_t, uint64_t> Memory = {
      {0x6ff8, 0xfffffffffffffffeull}, {0x6ffa, 0xbeef}, {0x5000 + 0x1000, 42}};
  UsdtMemoryReader Read = [&](uint64_t Addr, void *Dst, size_t Len) {
    auto It = Memory.find(Addr);
    if (It == Memory.end())
      return false;
    std::memcpy(Dst, &It->second, Len);
    return true;
  };
  uint64_t Out[TSCC_USDT_MAX_ARGS];
  bool Faulted = true;
  ASSERT_EQ(evaluateUsdtArgs(P, Regs, 0x5000, true, Read, Out, Faulted), 7u);
  EXPECT_FALSE(Faulted);
  EXPECT_EQ(int64_t(Out[0]), -100);
  EXPECT_EQ(Out[1], 0xffffff9cull);
  EXPECT_EQ(int64_t(Out[2]), -128);
  EXPECT_EQ(Out[3], 200u);
  EXPECT_EQ(int64_t(Out[4]), -2);
  EXPECT_EQ(Out[5], 0xbeefu);
  EXPECT_EQ(Out[6], 42u);
  EXPECT_EQ(Out[7], 0u);

  // An unreadable operand reads as 0 and says so.
  Memory.clear();
  evaluateUsdtArgs(P, Regs, 0x5000, true, Read, Out, Faulted);
  EXPECT_TRUE(Faulted);
  EXPECT_EQ(Out[4], 0u);
}

TEST(Usdt, EvaluatesI386RegisterPairsAndAddresses) {
  UsdtProbe P;
  P.Args.push_back(parse("-8@%eax", false));
  P.Args.push_back(parse("4@8(%esp)", false));
  uint64_t Regs[TSCC_REG_COUNT] = {};
  Regs[TSCC_REG_RAX] = 0xfffffffe;
  Regs[TSCC_REG_RDX] = 0xffffffff;
  Regs[TSCC_REG_RSP] = 0xfffffffc; // esp + 8 wraps in a 32-bit process
  uint64_t Seen = 0;
  UsdtMemoryReader Read = [&](uint64_t Addr, void *Dst, size_t Len) {
    Seen = Addr;
    uint32_t V = 7;
    std::memcpy(Dst, &V, Len);
    return true;
  };
  uint64_t Out[TSCC_USDT_MAX_ARGS];
  bool Faulted = false;
  evaluateUsdtArgs(P, Regs, 0, false, Read, Out, Faulted);
  EXPECT_EQ(int64_t(Out[0]), -2);
  EXPECT_EQ(Seen, 4u);
  EXPECT_EQ(Out[1], 7u);
}

TEST(Usdt, SemaphoreCountsUpAndDown) {
  uint16_t Counter = 1;
  UsdtMemoryReader Read = [&](uint64_t, void *Dst, size_t Len) {
    std::memcpy(Dst, &Counter, Len);
    return true;
  };
  UsdtMemoryWriter Write = [&](uint64_t, const void *Src, size_t Len) {
    std::memcpy(&Counter, Src, Len);
    return true;
  };
  EXPECT_TRUE(adjustUsdtSemaphore(0x10, +1, Read, Write));
  EXPECT_EQ(Counter, 2);
  EXPECT_TRUE(adjustUsdtSemaphore(0x10, -1, Read, Write));
  EXPECT_EQ(Counter, 1);
}

TEST(Usdt, ReadsTheNotesOfAProgram) {
  std::string Err;
  auto F = ElfFile::open(USDT_TARGET_PATH, Err);
  ASSERT_TRUE(F) << Err;
  EXPECT_TRUE(F->usdtProblems().empty());
  const std::vector<UsdtProbe> &Probes = F->usdtProbes();
  std::map<std::string, const UsdtProbe *> ByName;
  for (const UsdtProbe &P : Probes) {
    EXPECT_EQ(P.Provider, "demo");
    ByName[P.Name] = &P;
  }
  ASSERT_EQ(ByName.size(), 4u);
  EXPECT_EQ(ByName["tick"]->Args.size(), 3u);
  EXPECT_EQ(ByName["mem"]->Args.size(), 2u);
  EXPECT_EQ(ByName["wide"]->Args.size(), 2u);
  EXPECT_EQ(ByName["guarded"]->Args.size(), 1u);
  // `glob(%rip)` resolved to the variable's link-time address.
  const UsdtArg &Glob = ByName["mem"]->Args[0];
  EXPECT_TRUE(Glob.SymbolRelative);
  EXPECT_NE(Glob.Value, 0);
  for (const UsdtProbe &P : Probes) {
    // Each site is the `nop` of the probe, inside the program's code, and
    // each semaphore is in .probes.
    uint8_t Nop = 0;
    ASSERT_TRUE(F->readVAddr(P.Address, &Nop, 1)) << P.Name;
    EXPECT_EQ(Nop, 0x90) << P.Name;
    const ElfSection *Sems = F->section(".probes");
    ASSERT_TRUE(Sems);
    EXPECT_GE(P.Semaphore, Sems->Addr);
    EXPECT_LT(P.Semaphore, Sems->Addr + Sems->Size);
  }
}

// Corrupted notes never crash the reader.
TEST(Usdt, SurvivesCorruptNotes) {
  std::ifstream In(USDT_TARGET_PATH, std::ios::binary);
  std::vector<uint8_t> Orig((std::istreambuf_iterator<char>(In)), {});
  std::string Err;
  auto F = ElfFile::fromBuffer(Orig, "orig", Err);
  ASSERT_TRUE(F) << Err;
  const ElfSection *Notes = F->section(".note.stapsdt");
  ASSERT_TRUE(Notes);
  std::mt19937 Rng(7);
  for (int Round = 0; Round < 500; ++Round) {
    std::vector<uint8_t> Bad = Orig;
    for (int K = 0; K < 8; ++K)
      Bad[Notes->Offset + Rng() % Notes->Size] = static_cast<uint8_t>(Rng());
    auto G = ElfFile::fromBuffer(std::move(Bad), "bad", Err);
    ASSERT_TRUE(G) << Err;
    EXPECT_LE(G->usdtProbes().size(), 4u);
    for (const UsdtProbe &P : G->usdtProbes())
      EXPECT_LE(P.Args.size(), size_t(TSCC_USDT_MAX_ARGS));
  }
}

} // namespace
