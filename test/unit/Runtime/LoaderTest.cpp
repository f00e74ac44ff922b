//===- LoaderTest.cpp - Loading, relocating and validating probe objects ---===//

#include "TestSupport.h"

#include "tscc/Runtime/ProbeProgram.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <random>

using namespace tscc::rt;
using namespace tscc::rt::test;

namespace {

/// File offset of a section's bytes in an ELF64 object.
size_t sectionOffset(const std::vector<uint8_t> &B, const char *Name) {
  const auto *E = reinterpret_cast<const Elf64_Ehdr *>(B.data());
  const auto *S = reinterpret_cast<const Elf64_Shdr *>(B.data() + E->e_shoff);
  const char *Names =
      reinterpret_cast<const char *>(B.data() + S[E->e_shstrndx].sh_offset);
  for (unsigned I = 0; I < E->e_shnum; ++I)
    if (strcmp(Names + S[I].sh_name, Name) == 0)
      return S[I].sh_offset;
  ADD_FAILURE() << "no section " << Name;
  return 0;
}

std::string loadError(const std::vector<uint8_t> &B) {
  std::string Err;
  auto P = ProbeProgram::loadFromMemory(B, "obj.o", Err);
  if (P)
    return "";
  EXPECT_FALSE(Err.empty());
  return Err;
}

class LoaderTest : public ::testing::Test {
protected:
  void SetUp() override {
    Bytes = readFile(fixture("basic.o"));
    ASSERT_GT(Bytes.size(), 1000u) << "fixture missing";
  }
  std::vector<uint8_t> Bytes;
};

TEST_F(LoaderTest, LoadsTheFixture) {
  std::string Err;
  auto P = ProbeProgram::load(fixture("basic.o"), Err);
  ASSERT_TRUE(P) << Err;
  EXPECT_EQ(P->header().abi_major, TSCC_ABI_MAJOR);
  EXPECT_EQ(P->clauses().size(), 4u);
  EXPECT_EQ(P->probes().size(), 4u);
  EXPECT_EQ(P->sourceName(), "basic.t");
  EXPECT_EQ(P->compilerVersion(), "tscc fixture");
  EXPECT_EQ(P->string(P->probes()[1].function), "foo");
  EXPECT_EQ(P->withinName(0), "foo");
  EXPECT_EQ(P->withinName(7), "");
  EXPECT_TRUE(P->hasCode());
  EXPECT_NE(P->action(0, DataModel::LP64), nullptr);
  EXPECT_EQ(P->predicate(0, DataModel::LP64), nullptr);
  EXPECT_EQ(P->action(0, DataModel::ILP32), nullptr);
  EXPECT_NE(P->predicate(1, DataModel::ILP32), nullptr);
  EXPECT_NE(P->action(1, DataModel::ILP32), P->action(1, DataModel::LP64));
  EXPECT_EQ(P->action(99, DataModel::LP64), nullptr);
  EXPECT_EQ(P->formatFields(1).size(), 2u);
  EXPECT_EQ(P->aggKeyFields(0).size(), 1u);
}

TEST_F(LoaderTest, MissingFileNamesTheFile) {
  std::string Err;
  EXPECT_FALSE(ProbeProgram::load("/nonexistent/probe.o", Err));
  EXPECT_EQ(Err, "/nonexistent/probe.o: No such file or directory");
  EXPECT_FALSE(ProbeProgram::load("/", Err));
  EXPECT_EQ(Err, "/: not a regular file");
}

TEST_F(LoaderTest, RejectsForeignFiles) {
  std::vector<uint8_t> Text(100, 'x');
  EXPECT_EQ(loadError(Text), "obj.o: not an ELF file");
  EXPECT_EQ(loadError({}), "obj.o: not an ELF file");

  auto B = Bytes;
  B[EI_CLASS] = ELFCLASS32;
  EXPECT_NE(loadError(B).find("not a 64-bit ELF object"), std::string::npos);

  B = Bytes;
  reinterpret_cast<Elf64_Ehdr *>(B.data())->e_machine = EM_AARCH64;
  EXPECT_NE(loadError(B).find("wrong architecture"), std::string::npos);

  B = Bytes;
  reinterpret_cast<Elf64_Ehdr *>(B.data())->e_type = ET_EXEC;
  EXPECT_NE(loadError(B).find("not a relocatable object"), std::string::npos);
}

TEST_F(LoaderTest, EveryTruncationIsAnError) {
  // The section header table is at the end, so every proper prefix is
  // invalid; none may crash.
  for (size_t Len = 0; Len < Bytes.size(); Len += (Len < 128 ? 1 : 7)) {
    std::vector<uint8_t> Prefix(Bytes.begin(), Bytes.begin() + Len);
    std::string Err = loadError(Prefix);
    EXPECT_EQ(Err.rfind("obj.o: ", 0), 0u) << "length " << Len;
  }
}

TEST_F(LoaderTest, SurvivesRandomCorruption) {
  std::mt19937 Rng(12345);
  unsigned Loaded = 0;
  for (int Iter = 0; Iter < 3000; ++Iter) {
    auto B = Bytes;
    int Flips = 1 + Rng() % 8;
    for (int I = 0; I < Flips; ++I)
      B[Rng() % B.size()] ^= static_cast<uint8_t>(1 + Rng() % 255);
    std::string Err;
    auto P = ProbeProgram::loadFromMemory(B, "fuzz.o", Err);
    if (P)
      ++Loaded; // a flip in code or padding is harmless to loading
    else
      EXPECT_EQ(Err.rfind("fuzz.o: ", 0), 0u) << Err;
  }
  // Most single flips land in code or padding; some must be caught.
  EXPECT_LT(Loaded, 3000u);
}

TEST_F(LoaderTest, ChecksMagicAndVersion) {
  size_t H = sectionOffset(Bytes, TSCC_SEC_HEADER);
  auto B = Bytes;
  B[H + 1] = 'X';
  EXPECT_EQ(loadError(B), "obj.o: bad magic: not a tscc probe object");

  B = Bytes;
  uint16_t Major = TSCC_ABI_MAJOR + 1;
  memcpy(&B[H + offsetof(tscc_header, abi_major)], &Major, 2);
  std::string MinorText = std::to_string(TSCC_ABI_MINOR);
  EXPECT_EQ(loadError(B), "obj.o: object ABI version 2." + MinorText +
                              " is not supported by this runtime (ABI 1." +
                              MinorText + ")");

  // A newer minor version is accepted.
  B = Bytes;
  uint16_t Minor = TSCC_ABI_MINOR + 7;
  memcpy(&B[H + offsetof(tscc_header, abi_minor)], &Minor, 2);
  EXPECT_EQ(loadError(B), "");
}

TEST_F(LoaderTest, ChecksTableSizes) {
  size_t H = sectionOffset(Bytes, TSCC_SEC_HEADER);
  auto B = Bytes;
  uint32_t Count = 5;
  memcpy(&B[H + offsetof(tscc_header, clause_count)], &Count, 4);
  EXPECT_NE(loadError(B).find("section tscc_clauses holds 224 bytes but the "
                              "header promises 5 entries"),
            std::string::npos);
}

TEST_F(LoaderTest, ChecksCodeRanges) {
  size_t C = sectionOffset(Bytes, TSCC_SEC_CLAUSES);
  auto B = Bytes;
  uint32_t Off = 0x100000;
  memcpy(&B[C + sizeof(tscc_clause) + offsetof(tscc_clause, stream) +
            sizeof(tscc_stream_entry) * TSCC_DM_LP64],
         &Off, 4);
  EXPECT_EQ(loadError(B),
            "obj.o: clause 1 has code outside the LP64 text section");
}

TEST_F(LoaderTest, ChecksStringOffsets) {
  size_t Pr = sectionOffset(Bytes, TSCC_SEC_PROBES);
  auto B = Bytes;
  uint32_t Off = 0xfffff;
  memcpy(&B[Pr + offsetof(tscc_probe, function)], &Off, 4);
  EXPECT_EQ(loadError(B), "obj.o: probe 0 has a string offset outside the "
                          "string table");
}

TEST_F(LoaderTest, ChecksUsdtProviders) {
  size_t Pr = sectionOffset(Bytes, TSCC_SEC_PROBES);
  auto B = Bytes;
  uint32_t Kind = TSCC_PROBE_USDT;
  memcpy(&B[Pr + offsetof(tscc_probe, kind)], &Kind, 4);
  uint64_t Offset = TSCC_USDT_MAKE_OFFSET(0xfffff, TSCC_MATCH_EXACT);
  memcpy(&B[Pr + offsetof(tscc_probe, offset)], &Offset, 8);
  EXPECT_EQ(loadError(B), "obj.o: probe 0 has a string offset outside the "
                          "string table");
  Offset = TSCC_USDT_MAKE_OFFSET(0, 7);
  memcpy(&B[Pr + offsetof(tscc_probe, offset)], &Offset, 8);
  EXPECT_EQ(loadError(B), "obj.o: probe 0 has an unknown pid or match kind");
  Offset = TSCC_USDT_MAKE_OFFSET(0, TSCC_MATCH_GLOB);
  memcpy(&B[Pr + offsetof(tscc_probe, offset)], &Offset, 8);
  EXPECT_EQ(loadError(B), "");
}

TEST_F(LoaderTest, UndefinedSymbolsAreNamed) {
  std::string Err;
  EXPECT_FALSE(ProbeProgram::load(fixture("undef.o"), Err));
  EXPECT_NE(Err.find("undefined symbol 'strlen'"), std::string::npos) << Err;
}

TEST_F(LoaderTest, UnfinalisedObjectHasNoCode) {
  // A valid relocatable object that is not a probe object.
  std::vector<uint8_t> B = readFile(fixture("basic.raw.o"));
  size_t H = sectionOffset(B, TSCC_SEC_HEADER);
  ASSERT_NE(H, 0u);
  std::string Err;
  // The raw object is a probe object whose clause table is still empty:
  // it loads, but no clause has code.
  auto P = ProbeProgram::loadFromMemory(B, "raw.o", Err);
  ASSERT_TRUE(P) << Err;
  EXPECT_EQ(P->action(0, DataModel::LP64), nullptr);
}

TEST_F(LoaderTest, TablesRoundTripWithoutCode) {
  std::string Err;
  auto P = ProbeProgram::load(fixture("basic.o"), Err);
  ASSERT_TRUE(P) << Err;
  auto Q = ProbeProgram::fromTables(P->tables(), "copy", Err);
  ASSERT_TRUE(Q) << Err;
  EXPECT_FALSE(Q->hasCode());
  EXPECT_EQ(Q->action(0, DataModel::LP64), nullptr);
  EXPECT_EQ(Q->string(Q->formats()[0].text), "hello %d %s\n");
}

TEST_F(LoaderTest, LinkedImageAbsentInTheTestBinary) {
  std::string Err;
  EXPECT_FALSE(ProbeProgram::fromLinkedImage(Err));
  EXPECT_NE(Err.find("no linked-in probe object"), std::string::npos);
}

} // namespace
