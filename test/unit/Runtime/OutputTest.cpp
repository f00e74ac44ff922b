//===- OutputTest.cpp - JSON lines schema and binary trace round trip -----===//

#include "TestSupport.h"

#include "tscc/Runtime/ProbeProgram.h"
#include "tscc/Runtime/Session.h"
#include "tscc/Runtime/TraceFile.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::test;
using nlohmann::json;

namespace {

/// Drives one fixed scenario through any sink: BEGIN, two firings in two
/// data models, an attachment, an exit, END.
void scenario(const ProbeProgram &P, std::unique_ptr<OutputSink> Sink) {
  Session S(P, std::move(Sink));
  FakeTarget T64(100, DataModel::LP64, "p64");
  FakeTarget T32(200, DataModel::ILP32, "p32");
  T32.poke<int32_t>(0x8004, 3);
  S.targetAttached(T64, HowLaunched);
  S.probeAttached(T64, 1, "foo", "a.out", 0x401126);
  S.begin();
  FireEvent E;
  E.Tgt = &T64;
  E.Tid = 101;
  E.Probe = 1;
  E.Regs[TSCC_REG_RDI] = 5;
  S.fire(E);
  E.Tgt = &T32;
  E.Tid = 200;
  E.Regs[TSCC_REG_RSP] = 0x8000;
  S.fire(E);
  S.targetExited(T64, 0, 0);
  S.end();
}

class OutputTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Err;
    P = ProbeProgram::load(fixture("basic.o"), Err);
    ASSERT_TRUE(P) << Err;
  }
  std::unique_ptr<ProbeProgram> P;
};

std::vector<json> lines(const std::string &S) {
  std::vector<json> Out;
  std::istringstream In(S);
  std::string L;
  while (std::getline(In, L))
    Out.push_back(json::parse(L));
  return Out;
}

TEST_F(OutputTest, JsonLinesFollowTheSchema) {
  MemFile F;
  scenario(*P, createJsonSink(*P, F.file(), false));
  std::vector<json> L = lines(F.str());
  ASSERT_GT(L.size(), 5u);
  EXPECT_EQ(L[0]["schema"], "tscc-run/1");
  EXPECT_EQ(L[0]["type"], "header");
  EXPECT_EQ(L[0]["source"], "basic.t");
  EXPECT_EQ(L[0]["abi"], std::to_string(TSCC_ABI_MAJOR) + "." +
                             std::to_string(TSCC_ABI_MINOR));
  EXPECT_EQ(L.back()["type"], "end");

  std::map<std::string, std::vector<json>> ByType;
  for (const json &J : L)
    ByType[J["type"]].push_back(J);
  ASSERT_EQ(ByType["target_attached"].size(), 1u);
  EXPECT_EQ(ByType["target_attached"][0]["how"], "launched");
  EXPECT_EQ(ByType["probe_attached"][0]["address"], "0x401126");
  EXPECT_EQ(ByType["probe_attached"][0]["spec"], "@@uft:*:a.out:foo:entry");
  EXPECT_EQ(ByType["target_exited"][0]["exit_code"], 0);

  const std::vector<json> &Printf = ByType["printf"];
  ASSERT_EQ(Printf.size(), 4u); // hello, foo x2, total
  EXPECT_EQ(Printf[0]["text"], "hello 42 world\n");
  EXPECT_EQ(Printf[0]["pid"], 0);
  EXPECT_EQ(Printf[1]["text"], "foo(5) from 64-bit\n");
  EXPECT_EQ(Printf[1]["pid"], 100);
  EXPECT_EQ(Printf[1]["tid"], 101);
  EXPECT_EQ(Printf[1]["data_model"], "LP64");
  EXPECT_EQ(Printf[1]["args"], json({5, 64}));
  EXPECT_EQ(Printf[2]["data_model"], "ILP32");
  EXPECT_EQ(Printf[2]["clause"], 1);

  ASSERT_EQ(ByType["trace"].size(), 2u);
  EXPECT_EQ(ByType["trace"][0]["hook"], 0x1001);
  EXPECT_EQ(ByType["trace"][0]["args"], json({5, "p64"}));
  ASSERT_EQ(ByType["stack"].size(), 2u);
  EXPECT_EQ(ByType["stack"][0]["frames"].size(), 4u);

  ASSERT_EQ(ByType["aggregation"].size(), 3u);
  const json &Calls = ByType["aggregation"][0];
  EXPECT_EQ(Calls["name"], "calls");
  EXPECT_EQ(Calls["kind"], "count");
  EXPECT_EQ(Calls["entries"].size(), 2u);
  const json &Vals = ByType["aggregation"][1];
  EXPECT_EQ(Vals["kind"], "hist");
  EXPECT_EQ(Vals["entries"][0]["count"], 2);
  EXPECT_EQ(Vals["entries"][0]["buckets"][0]["label"], "[2, 4)");
  EXPECT_EQ(ByType["aggregation"][2]["lhist"]["step"], 10);

  ASSERT_EQ(ByType["clause_stats"].size(), 4u);
  EXPECT_EQ(ByType["clause_stats"][1]["fired"], 2);
  EXPECT_EQ(ByType["clause_stats"][1]["line"], 5);
}

TEST_F(OutputTest, BinaryTraceReplaysToTheSameText) {
  MemFile Direct, DirectDiag;
  scenario(*P, createTextSink(*P, Direct.file(), false,
                              TextOptions{DirectDiag.file(), true}));

  char Path[] = "/tmp/tsrt-trace-XXXXXX";
  int Fd = mkstemp(Path);
  ASSERT_GE(Fd, 0);
  scenario(*P, createBinarySink(*P, fdopen(Fd, "wb"), true));

  std::string Err;
  auto R = TraceReader::open(Path, Err);
  ASSERT_TRUE(R) << Err;
  EXPECT_EQ(R->program().sourceName(), "basic.t");
  MemFile Replayed, ReplayedDiag;
  auto Sink = createTextSink(R->program(), Replayed.file(), false,
                             TextOptions{ReplayedDiag.file(), true});
  ASSERT_TRUE(R->replay(
      *Sink,
      [&](const RecordOrigin &O, const RecordView &V) { Sink->record(O, V); },
      Err))
      << Err;
  EXPECT_EQ(Replayed.str(), Direct.str());
  EXPECT_EQ(ReplayedDiag.str(), DirectDiag.str());

  // Every truncation replays a prefix or fails cleanly.
  std::vector<uint8_t> Bytes = readFile(Path);
  for (size_t Len = 0; Len < Bytes.size(); Len += 13) {
    FILE *F = fopen(Path, "wb");
    fwrite(Bytes.data(), 1, Len, F);
    fclose(F);
    auto T = TraceReader::open(Path, Err);
    if (!T)
      continue;
    MemFile Sink2;
    auto S2 = createTextSink(T->program(), Sink2.file(), false,
                             TextOptions{nullptr, false});
    T->replay(
        *S2,
        [&](const RecordOrigin &O, const RecordView &V) { S2->record(O, V); },
        Err);
  }
  unlink(Path);
}

TEST_F(OutputTest, NotATraceFile) {
  std::string Err;
  EXPECT_FALSE(TraceReader::open(fixture("basic.o"), Err));
  EXPECT_NE(Err.find("not a tsrun binary trace file"), std::string::npos);
}

} // namespace

#include "tscc/Runtime/TraceFormat.h"

namespace {

std::string parseError(const char *Text) {
  std::string Err;
  auto F = tscc::rt::TraceFormatFile::parse(Text, "fmt", Err);
  return F ? "" : Err;
}

TEST(TraceFormatTest, ParsesStanzas) {
  std::string Err;
  auto F = tscc::rt::TraceFormatFile::parse(
      "# hooks\n"
      "\n"
      "0x1001 open \"open %s\\tflags %#x\\n\"  # trailing comment\n"
      "  4098 \"read \\\"%d\\\" \\x41\\101\"\n",
      "fmt", Err);
  ASSERT_TRUE(F) << Err;
  EXPECT_EQ(F->size(), 2u);
  ASSERT_TRUE(F->find(0x1001));
  EXPECT_EQ(F->find(0x1001)->Label, "open");
  EXPECT_EQ(F->find(0x1001)->Format, "open %s\tflags %#x\n");
  EXPECT_EQ(F->find(4098)->Label, "");
  EXPECT_EQ(F->find(4098)->Format, "read \"%d\" AA\n");
  EXPECT_FALSE(F->find(7));
}

TEST(TraceFormatTest, ErrorsPointAtTheProblem) {
  EXPECT_EQ(parseError("zz \"x\""),
            "fmt:1:1: error: expected a hook id (a 32-bit number), found 'zz'");
  EXPECT_EQ(parseError("1 lbl\n2 \"x"),
            "fmt:1:6: error: expected a format string in double quotes");
  EXPECT_EQ(parseError("2 \"x"),
            "fmt:1:3: error: missing terminating '\"' character");
  EXPECT_EQ(parseError("1 \"a\"\n0x1 \"b\""),
            "fmt:2:1: error: duplicate stanza for hook 0x1 (first at line 1)");
  EXPECT_EQ(parseError("1 \"a\" junk"),
            "fmt:1:7: error: unexpected text after the format string");
  EXPECT_EQ(parseError("1 \"\\q\""),
            "fmt:1:4: error: unknown escape sequence '\\q'");
  EXPECT_EQ(parseError("4294967296 \"a\""),
            "fmt:1:1: error: expected a hook id (a 32-bit number), found "
            "'4294967296'");
}

TEST_F(OutputTest, FormatFileRendersTraceRecords) {
  std::string Err;
  auto F = tscc::rt::TraceFormatFile::parse("0x1001 foo \"arg=%lu by %s\"",
                                            "fmt", Err);
  ASSERT_TRUE(F) << Err;
  // trace(0x1001, 5, "p64"), the fixture's format 3.
  std::vector<uint8_t> Args(24, 0);
  uint64_t V = 5;
  memcpy(&Args[0], &V, 8);
  uint32_t Len = 3;
  memcpy(&Args[8], &Len, 4);
  memcpy(&Args[12], "p64", 3);
  RecordView R;
  R.Header = {TSCC_REC_TRACE, 0, 8 + 24, 0x1001, 3};
  R.Args = Args;
  RecordOrigin O;
  EXPECT_EQ(F->render(*P, O, R).value_or("none"), "arg=5 by p64\n");
  EXPECT_EQ(renderRecord(*P, O, R), "trace 0x1001: 5 \"p64\"\n");
  R.Header.id = 0x1002;
  EXPECT_FALSE(F->render(*P, O, R));
}

} // namespace
