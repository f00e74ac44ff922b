//===- ModuleEntriesTest.cpp - Where a module's code may be entered -------===//
#include "ModuleEntries.h"
#include "LandingPads.h"
#include "TestBytes.h"

#include "tscc/Runtime/ElfFile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <elf.h>
#include <link.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace tscc::rt;
using namespace tscc::rt::ip;
using tscc::test::append;
using tscc::test::hex;

// A function that catches: its landing pad is where the unwinder resumes
// it. Plain C names, to find them in the test's own symbol table.
extern "C" __attribute__((noinline)) void tsccTestThrowIf(int X) {
  if (X)
    throw std::runtime_error("thrown");
}

extern "C" __attribute__((noinline)) int tsccTestCatcher(int X) {
  try {
    tsccTestThrowIf(X);
  } catch (const std::exception &) {
    return 1;
  }
  return 0;
}

namespace {

bool has(const std::vector<KnownEntry> &Es, uint64_t A, EntryKind K) {
  return std::any_of(Es.begin(), Es.end(), [&](const KnownEntry &E) {
    return E.Addr == A && E.Kind == K;
  });
}

constexpr uint64_t Text = 0x401000;
const AddressRanges Code = {{Text, Text + 0x1000}};

TEST(ModuleEntries, SweepFindsBranchesAndAddressConstants) {
  // jmp +0x20 (into the code); lea 0x100(%rip),%rax (code);
  // lea 0x4000(%rip),%rax (data); mov $0x401234,%eax
  std::vector<uint8_t> B = hex("e9 20 00 00 00 48 8d 05 00 01 00 00 "
                               "48 8d 05 00 40 00 00 b8 34 12 40 00");
  std::vector<KnownEntry> Out;
  sweepCode(B, Text, /*Absolute=*/false, Code, Out);
  EXPECT_TRUE(has(Out, Text + 5 + 0x20, EntryKind::Branch));
  EXPECT_TRUE(has(Out, Text + 12 + 0x100, EntryKind::AddressTaken));
  EXPECT_EQ(Out.size(), 2u); // neither data nor a position-dependent imm
  Out.clear();
  sweepCode(B, Text, /*Absolute=*/true, Code, Out);
  EXPECT_TRUE(has(Out, 0x401234, EntryKind::AddressTaken));
  EXPECT_EQ(Out.size(), 3u);
}

TEST(ModuleEntries, SweepSkipsWhatDoesNotDecode) {
  // 0x06 is invalid in 64-bit mode; decoding goes on after it.
  std::vector<uint8_t> B = hex("06 eb 10");
  std::vector<KnownEntry> Out;
  sweepCode(B, Text, false, Code, Out);
  EXPECT_TRUE(has(Out, Text + 3 + 0x10, EntryKind::Branch));
}

TEST(ModuleEntries, RelativeRelocationsToCode) {
  std::vector<uint8_t> B;
  auto Rela = [&](uint64_t Type, uint64_t Addend) {
    append(B, uint64_t(0x403000));
    append(B, Type);
    append(B, Addend);
  };
  Rela(R_X86_64_RELATIVE, Text + 0x40);         // a code pointer
  Rela(R_X86_64_RELATIVE, 0x405000);            // a data pointer
  Rela(R_X86_64_GLOB_DAT | (3ull << 32), 0x10); // a symbol's
  Rela(R_X86_64_IRELATIVE, Text + 0x80);        // an IFUNC resolver
  std::vector<KnownEntry> Out;
  relaCodePointers(B, Code, Out);
  ASSERT_EQ(Out.size(), 2u);
  EXPECT_TRUE(has(Out, Text + 0x40, EntryKind::DataPointer));
  EXPECT_TRUE(has(Out, Text + 0x80, EntryKind::DataPointer));
}

TEST(ModuleEntries, RelrPlaces) {
  // An address, then a bitmap of the words after it (bits 0 and 2).
  std::vector<uint8_t> B;
  append(B, uint64_t(0x10000));
  append(B, uint64_t(1 | (1 << 1) | (1 << 3)));
  EXPECT_EQ(relrPlaces(B), (std::vector<uint64_t>{0x10000, 0x10008, 0x10018}));
  // A bitmap covers 63 words; the next one goes on from there.
  append(B, uint64_t(1 | (1 << 1)));
  EXPECT_EQ(relrPlaces(B).back(), 0x10008u + 63 * 8);
}

TEST(ModuleEntries, CodePointersInData) {
  // At 0x603004: a code address at the first aligned word (0x603008),
  // data, another code address, and one misaligned at the end.
  std::vector<uint8_t> B(4, 0);
  append(B, uint64_t(Text + 0x10));
  append(B, uint64_t(0x12345678));
  append(B, uint64_t(Text + 0x20));
  B.resize(B.size() + 4, 0);
  append(B, uint64_t(Text + 0x30));
  std::vector<KnownEntry> Out;
  dataCodePointers(B, 0x603004, Code, Out);
  ASSERT_EQ(Out.size(), 2u);
  EXPECT_TRUE(has(Out, Text + 0x10, EntryKind::DataPointer));
  EXPECT_TRUE(has(Out, Text + 0x20, EntryKind::DataPointer));
}

TEST(LandingPads, CallSiteTable) {
  // No LPStart (the function's start), no type table, ULEB128 call sites:
  // [0x10, +5) lands at 0x30; [0x20, +5) has no landing pad.
  std::vector<uint8_t> B = hex("ff ff 01 08 10 05 30 00 20 05 00 00");
  std::vector<uint64_t> Pads;
  EXPECT_TRUE(lsdaLandingPads(B, 0x500000, Text, Pads));
  EXPECT_EQ(Pads, (std::vector<uint64_t>{Text + 0x30}));
  // A table longer than the bytes is malformed.
  B[3] = 0x40;
  Pads.clear();
  EXPECT_FALSE(lsdaLandingPads(B, 0x500000, Text, Pads));
}

/// Link-time address of Fn, and the test's ELF file.
struct SelfImage {
  std::unique_ptr<ElfFile> Elf;
  uint64_t Bias = 0;
};

SelfImage openSelf() {
  SelfImage S;
  std::string Error;
  S.Elf = ElfFile::open("/proc/self/exe", Error);
  EXPECT_TRUE(S.Elf) << Error;
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Out) {
        *static_cast<uint64_t *>(Out) = Info->dlpi_addr;
        return 1; // the first is the program
      },
      &S.Bias);
  return S;
}

TEST(LandingPads, FoundInTheTestItself) {
  ASSERT_EQ(tsccTestCatcher(1), 1);
  SelfImage S = openSelf();
  ASSERT_TRUE(S.Elf);
  const ElfSymbol *F = S.Elf->findFunction("tsccTestCatcher");
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Value + S.Bias, reinterpret_cast<uint64_t>(&tsccTestCatcher));
  // The catch block may be in the function or in its .cold part.
  const ElfSymbol *Cold = S.Elf->findFunction("tsccTestCatcher.cold");
  std::vector<uint64_t> Pads = moduleLandingPads(*S.Elf);
  auto Within = [](const ElfSymbol *Sym, uint64_t A) {
    return Sym && A >= Sym->Value && A < Sym->Value + Sym->Size;
  };
  EXPECT_TRUE(std::any_of(Pads.begin(), Pads.end(), [&](uint64_t A) {
    return Within(F, A) || Within(Cold, A);
  }));
  // No pad in a function that cannot throw.
  const ElfSymbol *Thrower = S.Elf->findFunction("tsccTestThrowIf");
  ASSERT_TRUE(Thrower);
  EXPECT_FALSE(std::any_of(Pads.begin(), Pads.end(),
                           [&](uint64_t A) { return Within(Thrower, A); }));
}

//===----------------------------------------------------------------------===//
// i386 modules: REL, 4-byte RELR and data words, GOT-relative constants
//===----------------------------------------------------------------------===//

constexpr uint64_t Text32 = 0x1000;
const AddressRanges Code32 = {{Text32, Text32 + 0x1000}};

TEST(ModuleEntries, I386RelativeRelocations) {
  std::vector<uint8_t> B;
  auto Rel = [&](uint32_t Place, uint32_t Info) {
    append(B, Place);
    append(B, Info);
  };
  Rel(0x3f00, R_386_RELATIVE);
  Rel(0x3f04, R_386_GLOB_DAT | (5u << 8));
  Rel(0x3f08, R_386_IRELATIVE);
  Rel(0x3f0c, R_386_32 | (2u << 8));
  EXPECT_EQ(relRelativePlaces32(B), (std::vector<uint64_t>{0x3f00, 0x3f08}));
}

TEST(ModuleEntries, I386RelrPlaces) {
  // 4-byte entries: a bitmap covers 31 words.
  std::vector<uint8_t> B;
  append(B, uint32_t(0x20000));
  append(B, uint32_t(1 | (1 << 1) | (1 << 3)));
  append(B, uint32_t(1 | (1 << 1)));
  EXPECT_EQ(relrPlaces(B, 4), (std::vector<uint64_t>{0x20000, 0x20004, 0x2000c,
                                                     0x20004 + 31 * 4}));
}

TEST(ModuleEntries, I386CodePointersInData) {
  std::vector<uint8_t> B(2, 0); // from 0x3002: the first word is at 0x3004
  append(B, uint32_t(Text32 + 0x10));
  append(B, uint32_t(0x12345678));
  append(B, uint32_t(Text32 + 0x20));
  std::vector<KnownEntry> Out;
  dataCodePointers(B, 0x3002, Code32, Out, 4);
  ASSERT_EQ(Out.size(), 2u);
  EXPECT_TRUE(has(Out, Text32 + 0x10, EntryKind::DataPointer));
  EXPECT_TRUE(has(Out, Text32 + 0x20, EntryKind::DataPointer));
}

TEST(ModuleEntries, I386GotRelativeConstants) {
  // lea -0x2dec(%ebx),%eax with the GOT at 0x3ff4: label 0x1208 (code);
  // lea -0x1c(%ebp),%eax: GOT-0x1c is not code; call +0x10.
  std::vector<uint8_t> B = hex("8d 83 14 d2 ff ff 8d 45 e4 e8 10 00 00 00");
  std::vector<KnownEntry> Out;
  sweepCode(B, Text32, /*Absolute=*/false, Code32, Out, X86Mode::Bits32,
            /*Got=*/0x3ff4);
  EXPECT_TRUE(has(Out, 0x1208, EntryKind::AddressTaken));
  EXPECT_TRUE(has(Out, Text32 + 14 + 0x10, EntryKind::Branch));
  EXPECT_EQ(Out.size(), 2u);
  // Without the GOT's address, nothing says what the lea makes.
  Out.clear();
  sweepCode(B, Text32, false, Code32, Out, X86Mode::Bits32);
  EXPECT_EQ(Out.size(), 1u);
}

TEST(ModuleEntries, OfTheTestItself) {
  SelfImage S = openSelf();
  ASSERT_TRUE(S.Elf);
  ModuleEntries ME(*S.Elf);
  const ElfSymbol *F = S.Elf->findFunction("tsccTestCatcher");
  ASSERT_TRUE(F);
  EXPECT_TRUE(std::any_of(ME.code().begin(), ME.code().end(),
                          [&](const std::pair<uint64_t, uint64_t> &R) {
                            return F->Value >= R.first && F->Value < R.second;
                          }));
  // Every function's start is an entry, whoever calls it: main() from
  // libc, through a pointer.
  const ElfSymbol *Main = S.Elf->findFunction("main");
  ASSERT_TRUE(Main);
  std::vector<KnownEntry> Out;
  ME.within(Main->Value, Main->Value + 1, S.Bias, Out);
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_EQ(Out[0].Addr, Main->Value + S.Bias);
}

} // namespace
