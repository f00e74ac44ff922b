//===- RspPacketTest.cpp - Framing, parsing, target descriptions ---------===//
#include "tscc/Runtime/RspPacket.h"
#include "TargetXml.h"
#include "tscc/Runtime/RspClient.h"

#include <gtest/gtest.h>

using namespace tscc::rt;

namespace {

TEST(RspPacket, ChecksumAndFrame) {
  EXPECT_EQ(rsp::checksum(""), 0);
  EXPECT_EQ(rsp::frame("g"), "$g#67");
  EXPECT_EQ(rsp::frame("vCont;c"), "$vCont;c#a8");
  EXPECT_EQ(rsp::frame("QStartNoAckMode"), "$QStartNoAckMode#b0");
}

TEST(RspPacket, EscapeRoundTrip) {
  std::string Bin("a$b#c}d*e\0f", 11);
  std::string E = rsp::escape(Bin);
  EXPECT_EQ(E, std::string("a}\x04"
                           "b}\x03"
                           "c}]d}\x0a"
                           "e\0f",
                           15));
  EXPECT_EQ(rsp::unescape(E), Bin);
  // A lone trailing escape character is dropped, not read past.
  EXPECT_EQ(rsp::unescape("ab}"), "ab");
}

TEST(RspPacket, RunLength) {
  EXPECT_EQ(*rsp::expandRunLength("0* "), "0000");
  EXPECT_EQ(*rsp::expandRunLength("0*,;"), std::string(16, '0') + ";");
  EXPECT_EQ(*rsp::expandRunLength("ab*\"c"), "abbbbbbc");
  EXPECT_FALSE(rsp::expandRunLength("*a"));     // nothing to repeat
  EXPECT_FALSE(rsp::expandRunLength("a*"));     // no count
  EXPECT_FALSE(rsp::expandRunLength("a*\x01")); // count out of range
}

TEST(RspPacket, Hex) {
  uint8_t B[3];
  EXPECT_TRUE(rsp::fromHex("0aFf10", B, 3));
  EXPECT_EQ(B[0], 0x0a);
  EXPECT_EQ(B[1], 0xff);
  EXPECT_EQ(B[2], 0x10);
  EXPECT_FALSE(rsp::fromHex("0a", B, 2));
  EXPECT_FALSE(rsp::fromHex("zz", B, 1));
  EXPECT_EQ(rsp::toHex("\x01\xab", 2), "01ab");
  EXPECT_EQ(rsp::hexNumber(0), "0");
  EXPECT_EQ(rsp::hexNumber(0x40001080), "40001080");
  uint64_t V = 0;
  EXPECT_TRUE(rsp::parseHexNumber("ffffffffffffffff", V));
  EXPECT_EQ(V, ~0ull);
  EXPECT_FALSE(rsp::parseHexNumber("1ffffffffffffffff", V));
  EXPECT_FALSE(rsp::parseHexNumber("", V));
}

TEST(RspPacket, ReaderSplitsNoiseAndBadChecksums) {
  rsp::PacketReader R;
  std::string Wire = "+junk$OK#9a-$T05#00$m1*!#";
  R.feed(Wire.data(), Wire.size());
  auto A = R.next();
  ASSERT_TRUE(A);
  EXPECT_EQ(A->K, rsp::Incoming::Ack);
  auto P = R.next();
  ASSERT_TRUE(P);
  EXPECT_EQ(P->K, rsp::Incoming::Packet);
  EXPECT_EQ(P->Payload, "OK");
  EXPECT_EQ(R.next()->K, rsp::Incoming::Nak);
  EXPECT_EQ(R.next()->K, rsp::Incoming::BadPacket);
  // Incomplete: the checksum has not arrived yet.
  EXPECT_FALSE(R.next());
  std::string Rest = "e9";
  R.feed(Rest.data(), Rest.size());
  auto M = R.next();
  ASSERT_TRUE(M);
  ASSERT_EQ(M->K, rsp::Incoming::Packet);
  EXPECT_EQ(M->Payload, "m11111");
}

TEST(RspPacket, RunLengthIsCapped) {
  // 3 bytes on the wire, 98 expanded: the cap is on the expanded size.
  EXPECT_EQ(rsp::expandRunLength("0*~", 98)->size(), 98u);
  EXPECT_FALSE(rsp::expandRunLength("0*~", 97));
  EXPECT_FALSE(rsp::expandRunLength("abc", 2));
}

TEST(RspPacket, ReaderRefusesOversizedPacketsEarly) {
  rsp::PacketReader R;
  R.setMaxPacket(100);
  // No '#' yet, but already past the limit: refused now, not when (if
  // ever) the packet ends.
  std::string Wire = "$" + std::string(101, 'a');
  R.feed(Wire.data(), Wire.size());
  auto In = R.next();
  ASSERT_TRUE(In);
  EXPECT_EQ(In->K, rsp::Incoming::TooLarge);
  EXPECT_EQ(R.pending(), 0u);

  // Small on the wire, too large expanded: refused without expanding.
  rsp::PacketReader R2;
  R2.setMaxPacket(100);
  std::string F = rsp::frame("0*~0*~");
  R2.feed(F.data(), F.size());
  In = R2.next();
  ASSERT_TRUE(In);
  EXPECT_EQ(In->K, rsp::Incoming::TooLarge);

  // At the limit is fine.
  rsp::PacketReader R3;
  R3.setMaxPacket(98);
  std::string G = rsp::frame("0*~");
  R3.feed(G.data(), G.size());
  In = R3.next();
  ASSERT_TRUE(In);
  ASSERT_EQ(In->K, rsp::Incoming::Packet);
  EXPECT_EQ(In->Payload, std::string(98, '0'));
}

TEST(RspPacket, ReaderIsIncrementalAndCompacts) {
  // A large packet arriving a byte at a time comes out once, intact; each
  // call only looks at the new byte (the old code searched the whole
  // buffer again on every read).
  rsp::PacketReader R;
  std::string Body(60000, 'x');
  std::string F = rsp::frame(Body);
  for (size_t I = 0; I + 1 < F.size(); ++I) {
    R.feed(&F[I], 1);
    ASSERT_FALSE(R.next()) << I;
  }
  R.feed(&F.back(), 1);
  R.feed("+", 1);
  auto In = R.next();
  ASSERT_TRUE(In);
  ASSERT_EQ(In->K, rsp::Incoming::Packet);
  EXPECT_EQ(In->Payload, Body);
  EXPECT_EQ(R.next()->K, rsp::Incoming::Ack);
  EXPECT_EQ(R.pending(), 0u);

  // Many small units: what was consumed does not stay buffered.
  std::string Acks(1 << 20, '+');
  R.feed(Acks.data(), Acks.size());
  for (size_t I = 0; I < Acks.size() - 10; ++I)
    ASSERT_EQ(R.next()->K, rsp::Incoming::Ack);
  EXPECT_EQ(R.pending(), 10u);
}

TEST(RspStop, QemuAndGdbserverReplies) {
  auto Q = RspStop::parse("T05thread:p01.1889;");
  ASSERT_TRUE(Q);
  EXPECT_EQ(Q->K, RspStop::Signal);
  EXPECT_EQ(Q->Sig, 5);
  EXPECT_EQ(Q->Thread.Pid, 1);
  EXPECT_EQ(Q->Thread.Tid, 0x1889);

  auto G = RspStop::parse(*rsp::expandRunLength(
      "T0506:0*,;07:d0e6f*\"7f0* ;10:704bfef7ff7f0* ;thread:p18c8.18c8;"
      "core:1;swbreak:;"));
  ASSERT_TRUE(G);
  EXPECT_TRUE(G->SwBreak);
  EXPECT_EQ(G->Thread.Pid, 0x18c8);
  ASSERT_EQ(G->Expedited.size(), 3u);
  EXPECT_EQ(G->Expedited[2].first, 0x10u);
  uint64_t Rip = 0;
  memcpy(&Rip, G->Expedited[2].second.data(), 8);
  EXPECT_EQ(Rip, 0x7ffff7fe4b70ull);

  auto W = RspStop::parse("W00");
  ASSERT_TRUE(W);
  EXPECT_EQ(W->K, RspStop::Exited);
  auto X = RspStop::parse("X09;process:1f");
  ASSERT_TRUE(X);
  EXPECT_EQ(X->K, RspStop::Terminated);
  EXPECT_EQ(X->Sig, 9);
  EXPECT_EQ(X->Thread.Pid, 0x1f);
  auto Sys = RspStop::parse("T05syscall_return:6e;thread:p2.2;");
  ASSERT_TRUE(Sys);
  EXPECT_EQ(Sys->K, RspStop::SyscallReturn);
  EXPECT_EQ(Sys->SyscallNr, 0x6eu);

  EXPECT_FALSE(RspStop::parse(""));
  EXPECT_FALSE(RspStop::parse("OK"));
  EXPECT_FALSE(RspStop::parse("Tzz"));
}

TEST(RspThreadId, Forms) {
  EXPECT_EQ(RspThreadId::parse("p1.2a")->Tid, 0x2a);
  EXPECT_EQ(RspThreadId::parse("p1")->Tid, -1);
  EXPECT_EQ(RspThreadId::parse("-1")->Tid, -1);
  EXPECT_FALSE(RspThreadId::parse("pz.1"));
  RspThreadId T{1, 0x1889};
  EXPECT_EQ(T.str(true), "p1.1889");
  EXPECT_EQ(T.str(false), "1889");
}

TEST(TargetXml, IncludesAndNumbering) {
  std::string Top =
      "<?xml version=\"1.0\"?><target><architecture>i386</architecture>"
      "<!-- <reg name=\"ignored\" bitsize=\"8\"/> -->"
      "<xi:include href=\"core.xml\"/>"
      "<reg name='orig_eax' bitsize='32' regnum='41'/></target>";
  auto Fetch = [](const std::string &A) -> std::optional<std::string> {
    if (A != "core.xml")
      return std::nullopt;
    return "<feature><reg name=\"eax\" bitsize=\"32\" type=\"int32\"/>"
           "<reg name=\"ecx\" bitsize=\"32\"/>"
           "<reg name=\"st0\" bitsize=\"80\" regnum=\"16\"/>"
           "<reg name=\"st1\" bitsize=\"80\"/></feature>";
  };
  rsp::TargetDescription TD;
  std::string Err;
  ASSERT_TRUE(rsp::parseTargetDescription(Top, Fetch, TD, Err)) << Err;
  EXPECT_EQ(TD.Architecture, "i386");
  ASSERT_EQ(TD.Registers.size(), 5u);
  EXPECT_EQ(TD.Registers[1].Name, "ecx");
  EXPECT_EQ(TD.Registers[1].Offset, 4u);
  EXPECT_EQ(TD.Registers[2].Number, 16u);
  EXPECT_EQ(TD.Registers[3].Number, 17u);
  EXPECT_EQ(TD.Registers[3].Offset, 18u); // 4 + 4 + 10
  EXPECT_EQ(TD.Registers[4].Name, "orig_eax");

  std::string Missing = "<target><xi:include href=\"nope.xml\"/></target>";
  EXPECT_FALSE(rsp::parseTargetDescription(Missing, Fetch, TD, Err));
  EXPECT_NE(Err.find("nope.xml"), std::string::npos);
  std::string Self = "<target><xi:include href=\"self.xml\"/></target>";
  auto Loop = [&](const std::string &) -> std::optional<std::string> {
    return Self;
  };
  EXPECT_FALSE(rsp::parseTargetDescription(Self, Loop, TD, Err));
}

TEST(TargetXml, HostileDescriptionsAreBounded) {
  rsp::TargetDescription TD;
  std::string Err;
  // Each level includes the next one ten times, down to a leaf within the
  // nesting limit: 10^8 fetches, unless the number of parts is limited.
  auto Level = [](int N) {
    if (N == 8)
      return std::string("<feature><reg name='r' bitsize='8'/></feature>");
    std::string Doc = "<feature>";
    for (int I = 0; I < 10; ++I)
      Doc += "<xi:include href='l" + std::to_string(N + 1) + ".xml'/>";
    return Doc + "</feature>";
  };
  unsigned Fetches = 0;
  auto FanOut = [&](const std::string &A) -> std::optional<std::string> {
    ++Fetches;
    return Level(A[1] - '0');
  };
  EXPECT_FALSE(rsp::parseTargetDescription(Level(0), FanOut, TD, Err));
  EXPECT_EQ(Err, "target description has more than 64 parts");
  EXPECT_LE(Fetches, 64u);

  auto None = [](const std::string &) -> std::optional<std::string> {
    return std::nullopt;
  };
  // Register sizes and numbers that would make 'g'/'P' packets huge.
  EXPECT_FALSE(rsp::parseTargetDescription(
      "<target><reg name='x' bitsize='4294967296'/></target>", None, TD, Err));
  EXPECT_EQ(Err, "register 'x' has an invalid bitsize '4294967296'");
  EXPECT_FALSE(rsp::parseTargetDescription(
      "<target><reg name='x' bitsize='0'/></target>", None, TD, Err));
  EXPECT_FALSE(rsp::parseTargetDescription(
      "<target><reg name='x' bitsize='32x'/></target>", None, TD, Err));
  EXPECT_FALSE(rsp::parseTargetDescription(
      "<target><reg name='x' bitsize='32' regnum='99999999999'/></target>",
      None, TD, Err));
  EXPECT_EQ(Err, "register 'x' has an invalid regnum '99999999999'");
  std::string Many = "<target>";
  for (int I = 0; I < 5000; ++I)
    Many += "<reg name='r' bitsize='8'/>";
  Many += "</target>";
  EXPECT_FALSE(rsp::parseTargetDescription(Many, None, TD, Err));
  EXPECT_EQ(Err, "target description has more than 4096 registers");
  // A real one's largest registers still pass.
  EXPECT_TRUE(rsp::parseTargetDescription(
      "<target><reg name='zmm0h' bitsize='512'/></target>", None, TD, Err))
      << Err;
}

} // namespace
