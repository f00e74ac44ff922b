//===- FakeStubTest.cpp - Protocol corner cases against a scripted stub ---===//
//
// Real stubs rarely send bad checksums, run-length encoded registers or
// escaped binary, and never on demand. This in-process stub does, so the
// client's handling of each is tested; everything else is tested against
// real qemu-i386 and gdbserver in RealStubTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "tscc/Runtime/RspClient.h"
#include "tscc/Runtime/RspPacket.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <functional>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace tscc::rt;

namespace {

/// Accepts one connection and answers each packet with Handler(payload).
/// A reply starting with '\x01' is sent raw (already framed, or broken).
class FakeStub {
public:
  using Handler = std::function<std::vector<std::string>(const std::string &)>;

  explicit FakeStub(Handler H) : H(std::move(H)) {
    Listen = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in A{};
    A.sin_family = AF_INET;
    A.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(Listen, reinterpret_cast<sockaddr *>(&A), sizeof(A));
    socklen_t L = sizeof(A);
    getsockname(Listen, reinterpret_cast<sockaddr *>(&A), &L);
    Port = ntohs(A.sin_port);
    listen(Listen, 1);
    T = std::thread([this] { serve(); });
  }
  ~FakeStub() {
    shutdown(Listen, SHUT_RDWR);
    close(Listen);
    T.join();
  }

  uint16_t Port = 0;
  std::vector<std::string> Received; ///< every payload, in order
  unsigned Naks = 0;                 ///< '-' received

private:
  void serve() {
    int C = accept(Listen, nullptr, nullptr);
    if (C < 0)
      return;
    int One = 1; // ack and reply go out as separate writes
    setsockopt(C, IPPROTO_TCP, TCP_NODELAY, &One, sizeof(One));
    rsp::PacketReader R;
    char Buf[4096];
    for (;;) {
      ssize_t N = read(C, Buf, sizeof(Buf));
      if (N <= 0)
        break;
      R.feed(Buf, static_cast<size_t>(N));
      while (auto In = R.next()) {
        if (In->K == rsp::Incoming::Nak) {
          // Asked again: answer the last packet again (the handler decides
          // whether it is corrupted a second time).
          ++Naks;
          if (!reply(C, Last))
            return;
          continue;
        }
        if (In->K != rsp::Incoming::Packet)
          continue;
        sendAll(C, "+");
        Received.push_back(In->Payload);
        Last = In->Payload;
        if (!reply(C, Last))
          return;
      }
    }
    close(C);
  }
  bool reply(int C, const std::string &Payload) {
    for (const std::string &Reply : H(Payload)) {
      if (Reply == "\x02") {
        close(C);
        return false;
      }
      if (!Reply.empty() && Reply[0] == '\x01')
        sendAll(C, Reply.substr(1));
      else
        sendAll(C, rsp::frame(Reply));
    }
    return true;
  }
  static void sendAll(int C, const std::string &S) {
    [[maybe_unused]] ssize_t N = write(C, S.data(), S.size());
  }

  Handler H;
  int Listen = -1;
  std::string Last;
  std::thread T;
};

const char *TargetXml =
    "<?xml version=\"1.0\"?><target><architecture>i386</architecture>"
    "<!-- # $ } * survive escaping -->"
    "<feature name=\"org.gnu.gdb.i386.core\">"
    "<reg name=\"eax\" bitsize=\"32\"/><reg name=\"ecx\" bitsize=\"32\"/>"
    "<reg name=\"edx\" bitsize=\"32\"/><reg name=\"ebx\" bitsize=\"32\"/>"
    "<reg name=\"esp\" bitsize=\"32\"/><reg name=\"ebp\" bitsize=\"32\"/>"
    "<reg name=\"esi\" bitsize=\"32\"/><reg name=\"edi\" bitsize=\"32\"/>"
    "<reg name=\"eip\" bitsize=\"32\"/><reg name=\"eflags\" bitsize=\"32\"/>"
    "</feature></target>";

/// Encodes runs the way stubs do ("X*N" = X and N - 29 more), avoiding the
/// counts that would put '#' or '$' on the wire.
std::string runLength(const std::string &S) {
  std::string Out;
  for (size_t I = 0; I < S.size();) {
    size_t Run = 1;
    while (I + Run < S.size() && S[I + Run] == S[I] && Run < 98)
      ++Run;
    size_t More = Run - 1;
    if (More == 6 || More == 7)
      More = 5;
    if (More >= 3) {
      Out += S[I];
      Out += '*';
      Out += static_cast<char>(29 + More);
      I += More + 1;
    } else {
      Out += S[I++];
    }
  }
  return Out;
}

/// A small i386 stub: 64-byte packets, ack mode only, no vCont.
std::vector<std::string> tinyStub(const std::string &P, bool &BadSent) {
  if (P.rfind("qSupported", 0) == 0) {
    if (!BadSent) {
      BadSent = true; // a corrupted first reply: the client must NAK it
      return {"\x01$PacketSize=40;qXfer:features:read+#00"};
    }
    return {"PacketSize=40;qXfer:features:read+"};
  }
  if (P == "?")
    return {"T05thread:01;"};
  if (P.rfind("qXfer:features:read:target.xml:", 0) == 0) {
    // Offsets and lengths come from the client: serve the requested window.
    std::string Args = P.substr(P.rfind(':') + 1);
    uint64_t Off = 0, Len = 0;
    rsp::parseHexNumber(Args.substr(0, Args.find(',')), Off);
    rsp::parseHexNumber(Args.substr(Args.find(',') + 1), Len);
    std::string Doc = TargetXml;
    if (Off >= Doc.size())
      return {"l"};
    std::string Part = Doc.substr(Off, Len);
    return {(Off + Len >= Doc.size() ? "l" : "m") + rsp::escape(Part)};
  }
  if (P == "vCont?")
    return {""};
  if (P == "g") {
    // eax = 0, ecx = 0x11111111, edx..edi = 0, eip = 0x08049000, eflags = 0:
    // sent run-length encoded.
    std::string Hex = std::string(8, '0') + std::string(8, '1') +
                      std::string(48, '0') + "00900408" + std::string(8, '0');
    return {runLength(Hex)};
  }
  if (P[0] == 'm') {
    uint64_t Addr = 0, Len = 0;
    std::string Args = P.substr(1);
    rsp::parseHexNumber(Args.substr(0, Args.find(',')), Addr);
    rsp::parseHexNumber(Args.substr(Args.find(',') + 1), Len);
    if (Addr >= 0xdead0000)
      return {"E14"};
    std::string Hex;
    for (uint64_t I = 0; I < Len; ++I) {
      uint8_t B = static_cast<uint8_t>(Addr + I);
      Hex += rsp::toHex(&B, 1);
    }
    return {Hex};
  }
  if (P == "c")
    return {"O" + rsp::toHex("hi\n"), "W03"};
  return {""};
}

TEST(FakeStub, AckModeBadChecksumRleEscapesFaultsChunks) {
  bool BadSent = false;
  FakeStub Stub([&](const std::string &P) { return tinyStub(P, BadSent); });
  std::string Err;
  auto C = RspClient::connect("127.0.0.1", Stub.Port, 5000, Err);
  ASSERT_TRUE(C) << Err;
  ASSERT_TRUE(C->handshake(Err)) << Err;
  EXPECT_EQ(C->features().PacketSize, 0x40u);
  EXPECT_FALSE(C->features().NoAckMode);
  EXPECT_FALSE(C->features().VCont);
  EXPECT_EQ(C->architecture(), "i386");
  ASSERT_EQ(C->registers().size(), 10u);
  EXPECT_EQ(C->findRegister("eip")->Offset, 32u);

  std::string Raw;
  ASSERT_TRUE(C->readRegisterBlock(Raw));
  ASSERT_EQ(Raw.size(), 40u);
  uint32_t Ecx = 0, Eip = 0;
  memcpy(&Ecx, Raw.data() + 4, 4);
  memcpy(&Eip, Raw.data() + 32, 4);
  EXPECT_EQ(Ecx, 0x11111111u);
  EXPECT_EQ(Eip, 0x08049000u);

  // 100 bytes do not fit one 64-byte packet: several reads, one result.
  uint8_t Buf[100];
  ASSERT_TRUE(C->readMemory(0x1000, Buf, sizeof(Buf)));
  for (unsigned I = 0; I < sizeof(Buf); ++I)
    ASSERT_EQ(Buf[I], static_cast<uint8_t>(0x1000 + I));
  unsigned MPackets = 0;
  for (const std::string &P : Stub.Received)
    MPackets += P[0] == 'm';
  EXPECT_GE(MPackets, 4u);

  // A fault is false and zeroes, never garbage.
  uint32_t V = 0xffffffff;
  EXPECT_FALSE(C->readMemory(0xdead0000, &V, 4));
  EXPECT_EQ(V, 0u);

  // No vCont: plain 'c'; console output is collected, then the exit.
  ASSERT_TRUE(C->resumeAll());
  RspStop Stop;
  ASSERT_EQ(C->waitStop(Stop, -1), RspClient::WaitResult::Stopped);
  EXPECT_EQ(Stop.K, RspStop::Exited);
  EXPECT_EQ(Stop.Code, 3);
  EXPECT_EQ(C->takeConsoleOutput(), "hi\n");
  C.reset();
  EXPECT_EQ(Stub.Naks, 1u); // the corrupted reply, asked for once more
}

TEST(FakeStub, ConnectionDropIsAnErrorNotACrash) {
  FakeStub Stub([](const std::string &P) -> std::vector<std::string> {
    if (P.rfind("qSupported", 0) == 0)
      return {"\x01$PacketSize=40#", "\x02"}; // half a packet, then gone
    return {};
  });
  std::string Err;
  auto C = RspClient::connect("127.0.0.1", Stub.Port, 5000, Err);
  ASSERT_TRUE(C) << Err;
  EXPECT_FALSE(C->handshake(Err));
  EXPECT_NE(Err.find("closed"), std::string::npos) << Err;
  EXPECT_FALSE(C->connected());
  uint32_t V = 1;
  EXPECT_FALSE(C->readMemory(0x1000, &V, 4));
  EXPECT_EQ(V, 0u);
}

TEST(FakeStub, WakeFdInterruptsWaiting) {
  FakeStub Stub([](const std::string &P) -> std::vector<std::string> {
    if (P.rfind("qSupported", 0) == 0)
      return {"PacketSize=1000;QStartNoAckMode+"};
    if (P == "QStartNoAckMode")
      return {"OK"};
    if (P == "?")
      return {"S05"};
    if (P == "vCont?")
      return {"vCont;c;C;s;S"};
    return {}; // vCont;c: the target "runs" until interrupted
  });
  std::string Err;
  auto C = RspClient::connect("127.0.0.1", Stub.Port, 5000, Err);
  ASSERT_TRUE(C) << Err;
  ASSERT_TRUE(C->handshake(Err)) << Err;
  EXPECT_TRUE(C->features().NoAckMode);
  EXPECT_TRUE(C->architecture().empty()); // no description: ELF class decides
  int Fds[2];
  ASSERT_EQ(pipe(Fds), 0);
  ASSERT_TRUE(C->resumeAll());
  ASSERT_EQ(write(Fds[1], "x", 1), 1);
  RspStop Stop;
  EXPECT_EQ(C->waitStop(Stop, Fds[0]), RspClient::WaitResult::Woken);
  close(Fds[0]);
  close(Fds[1]);
}

TEST(FakeStub, UnansweredRequestHitsItsDeadline) {
  FakeStub Stub([](const std::string &P) -> std::vector<std::string> {
    if (P.rfind("qSupported", 0) == 0)
      return {"PacketSize=1000"};
    if (P == "?")
      return {"S05"};
    return {}; // acknowledged, never answered
  });
  std::string Err;
  auto C = RspClient::connect("127.0.0.1", Stub.Port, 5000, Err);
  ASSERT_TRUE(C) << Err;
  C->setRequestTimeout(200);
  // vCont? goes unanswered: the handshake fails, naming it.
  EXPECT_FALSE(C->handshake(Err));
  EXPECT_EQ(Err, "the stub did not send a reply to 'vCont?' within 0.2 s");
  EXPECT_FALSE(C->connected());
}

TEST(FakeStub, InterruptEndsAnyWaitWithinTheGrace) {
  FakeStub Stub([](const std::string &P) -> std::vector<std::string> {
    if (P.rfind("qSupported", 0) == 0)
      return {"PacketSize=1000"};
    if (P == "?")
      return {"S05"};
    if (P == "vCont?")
      return {""};
    return {};
  });
  std::string Err;
  auto C = RspClient::connect("127.0.0.1", Stub.Port, 5000, Err);
  ASSERT_TRUE(C) << Err;
  ASSERT_TRUE(C->handshake(Err)) << Err;
  C->setRequestTimeout(3600 * 1000);
  int Fds[2];
  ASSERT_EQ(pipe2(Fds, O_NONBLOCK), 0);
  C->setInterruptFd(Fds[0]);
  ASSERT_EQ(write(Fds[1], "x", 1), 1);
  // Only the interrupt can end this request: its deadline is an hour.
  std::string Raw;
  EXPECT_FALSE(C->readRegisterBlock(Raw));
  EXPECT_EQ(C->lastError(),
            "the session ended while waiting for a reply to 'g'");
  close(Fds[0]);
  close(Fds[1]);
}

} // namespace
