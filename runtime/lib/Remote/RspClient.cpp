//===- RspClient.cpp - A GDB remote serial protocol client ----------------===//
//
// Connection, packet exchange and negotiation. Register/memory/execution
// commands are in RspCommands.cpp.
//
//===----------------------------------------------------------------------===//
#include "tscc/Runtime/RspClient.h"

#include "TargetXml.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace tscc::rt;

namespace {

int openSocket(const std::string &Host, uint16_t Port, std::string &Error) {
  addrinfo Hints{};
  Hints.ai_family = AF_UNSPEC;
  Hints.ai_socktype = SOCK_STREAM;
  addrinfo *Res = nullptr;
  std::string PortStr = std::to_string(Port);
  if (int E = getaddrinfo(Host.c_str(), PortStr.c_str(), &Hints, &Res)) {
    Error = "cannot resolve '" + Host + "': " + gai_strerror(E);
    return -1;
  }
  int Fd = -1;
  for (addrinfo *A = Res; A; A = A->ai_next) {
    Fd = socket(A->ai_family, A->ai_socktype | SOCK_CLOEXEC, A->ai_protocol);
    if (Fd < 0)
      continue;
    if (::connect(Fd, A->ai_addr, A->ai_addrlen) == 0)
      break;
    Error = std::strerror(errno);
    close(Fd);
    Fd = -1;
  }
  freeaddrinfo(Res);
  if (Fd >= 0) {
    // Every exchange is a small request/reply: Nagle would add delays.
    int One = 1;
    setsockopt(Fd, IPPROTO_TCP, TCP_NODELAY, &One, sizeof(One));
  }
  return Fd;
}

bool startsWith(std::string_view S, std::string_view P) {
  return S.substr(0, P.size()) == P;
}

} // namespace

std::unique_ptr<RspClient> RspClient::connect(const std::string &Host,
                                              uint16_t Port,
                                              unsigned TimeoutMs,
                                              std::string &Error) {
  using Clock = std::chrono::steady_clock;
  auto Deadline = Clock::now() + std::chrono::milliseconds(TimeoutMs);
  for (;;) {
    int Fd = openSocket(Host, Port, Error);
    if (Fd >= 0)
      return std::make_unique<RspClient>(Fd);
    if (Clock::now() >= Deadline)
      return nullptr;
    // The stub may not be listening yet. There is nothing to wait on for
    // "a port starts listening", so poll the clock at a modest rate.
    poll(nullptr, 0, 50);
  }
}

RspClient::RspClient(int Fd) : Fd(Fd) {}

RspClient::~RspClient() {
  if (Fd >= 0)
    close(Fd);
}

void RspClient::fail(std::string Message) {
  if (LastError.empty())
    LastError = std::move(Message);
  if (Fd >= 0) {
    close(Fd);
    Fd = -1;
  }
}

void RspClient::trace(char Dir, std::string_view Bytes) {
  // TSCC_RSP_DEBUG=1 logs the conversation, like gdb's "set debug remote".
  static const bool On = getenv("TSCC_RSP_DEBUG") != nullptr;
  if (!On)
    return;
  std::string Shown;
  for (char C : Bytes.substr(0, 512))
    Shown += (C >= 32 && C < 127) ? C : '.';
  fprintf(stderr, "rsp %c %s%s\n", Dir, Shown.c_str(),
          Bytes.size() > 512 ? "..." : "");
}

bool RspClient::sendRaw(std::string_view Bytes) {
  trace('>', Bytes);
  while (!Bytes.empty()) {
    if (Fd < 0)
      return false;
    ssize_t N = ::send(Fd, Bytes.data(), Bytes.size(), MSG_NOSIGNAL);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      fail(std::string("send: ") + std::strerror(errno));
      return false;
    }
    Bytes.remove_prefix(static_cast<size_t>(N));
  }
  return true;
}

bool RspClient::fillBuffer(int WakeFd, bool *Woken, int TimeoutMs) {
  for (;;) {
    if (Fd < 0)
      return false;
    pollfd P[2] = {{Fd, POLLIN, 0}, {WakeFd, POLLIN, 0}};
    int N = poll(P, WakeFd >= 0 ? 2 : 1, TimeoutMs);
    if (N == 0)
      return false; // timed out: neither closed nor woken
    if (N < 0) {
      if (errno == EINTR)
        continue;
      fail(std::string("poll: ") + std::strerror(errno));
      return false;
    }
    if (P[0].revents) {
      char Buf[16384];
      ssize_t Got = recv(Fd, Buf, sizeof(Buf), 0);
      if (Got < 0 && errno == EINTR)
        continue;
      if (Got <= 0) {
        fail(Got == 0 ? "the stub closed the connection"
                      : std::string("recv: ") + std::strerror(errno));
        return false;
      }
      trace('<', std::string_view(Buf, static_cast<size_t>(Got)));
      Reader.feed(Buf, static_cast<size_t>(Got));
      return true;
    }
    if (WakeFd >= 0 && P[1].revents) {
      if (Woken)
        *Woken = true;
      return false;
    }
  }
}

std::optional<std::string> RspClient::receive(int WakeFd, bool *Woken,
                                             int TimeoutMs) {
  for (;;) {
    while (std::optional<rsp::Incoming> In = Reader.next()) {
      switch (In->K) {
      case rsp::Incoming::Ack:
        break;
      case rsp::Incoming::Nak:
        if (AckMode && !LastSent.empty() && !sendRaw(LastSent))
          return std::nullopt;
        break;
      case rsp::Incoming::BadPacket:
        if (AckMode && !sendRaw("-"))
          return std::nullopt;
        break;
      case rsp::Incoming::Notification:
        break; // non-stop only; we never enable it
      case rsp::Incoming::Packet:
        if (AckMode && !sendRaw("+"))
          return std::nullopt;
        return std::move(In->Payload);
      }
    }
    if (!fillBuffer(WakeFd, Woken, TimeoutMs))
      return std::nullopt;
  }
}

bool RspClient::send(std::string_view Payload) {
  std::string Framed = rsp::frame(Payload);
  if (!sendRaw(Framed))
    return false;
  if (!AckMode)
    return true;
  LastSent = std::move(Framed);
  // Wait for the ack; a '-' makes receive() retransmit, so loop on the
  // reader directly here.
  for (unsigned Tries = 0; Tries < 16;) {
    std::optional<rsp::Incoming> In = Reader.next();
    if (!In) {
      if (!fillBuffer(-1, nullptr, -1))
        return false;
      continue;
    }
    if (In->K == rsp::Incoming::Ack)
      return true;
    if (In->K == rsp::Incoming::Nak) {
      ++Tries;
      if (!sendRaw(LastSent))
        return false;
      continue;
    }
    if (In->K == rsp::Incoming::Packet && DropStrayStops &&
        RspStop::parse(In->Payload)) {
      // qemu-user reads the interrupt byte only once the target stops, and
      // then reports a second stop: drop it.
      if (!sendRaw("+"))
        return false;
      continue;
    }
    fail("protocol error: packet before acknowledgement");
    return false;
  }
  fail("the stub rejected a packet 16 times");
  return false;
}

std::optional<std::string> RspClient::request(std::string_view Payload) {
  if (!send(Payload))
    return std::nullopt;
  for (;;) {
    std::optional<std::string> Reply = receive();
    if (!Reply)
      return std::nullopt;
    // 'O' console output may precede the real reply of a resumption; for
    // other requests it never appears, except "OK".
    if (Reply->size() > 1 && (*Reply)[0] == 'O' && *Reply != "OK") {
      std::string Text;
      Text.resize((Reply->size() - 1) / 2);
      if (rsp::fromHex(std::string_view(*Reply).substr(1), Text.data(),
                       Text.size())) {
        Console += Text;
        continue;
      }
    }
    if (DropStrayStops && !Reply->empty() &&
        ((*Reply)[0] == 'T' || (*Reply)[0] == 'S') && RspStop::parse(*Reply))
      continue; // see send()
    return Reply;
  }
}

std::string RspClient::takeConsoleOutput() {
  std::string Out;
  Out.swap(Console);
  return Out;
}

std::optional<std::string> RspClient::readXfer(std::string_view Object,
                                               std::string_view Annex) {
  std::string Out;
  // Ask for chunks that, hex-free but escaped, always fit one packet.
  size_t Chunk = Features.PacketSize > 64 ? Features.PacketSize - 32 : 32;
  for (unsigned Guard = 0; Guard < 4096; ++Guard) {
    std::string Q = "qXfer:" + std::string(Object) + ":read:" +
                    std::string(Annex) + ":" + rsp::hexNumber(Out.size()) +
                    "," + rsp::hexNumber(Chunk);
    std::optional<std::string> R = request(Q);
    if (!R || R->empty() || (*R)[0] == 'E')
      return std::nullopt;
    if ((*R)[0] != 'm' && (*R)[0] != 'l')
      return std::nullopt;
    Out += rsp::unescape(std::string_view(*R).substr(1));
    if ((*R)[0] == 'l')
      return Out;
    if (R->size() == 1)
      return Out; // 'm' with no data would loop forever
  }
  return std::nullopt;
}

bool RspClient::loadTargetDescription(std::string &Error) {
  if (!Features.XferFeatures)
    return true; // the caller falls back to the executable's ELF class
  std::optional<std::string> Xml = readXfer("features", "target.xml");
  if (!Xml)
    return true;
  rsp::TargetDescription TD;
  auto Fetch = [this](const std::string &Annex) {
    return readXfer("features", Annex);
  };
  if (!rsp::parseTargetDescription(*Xml, Fetch, TD, Error)) {
    Error = "bad target description: " + Error;
    return false;
  }
  Arch = TD.Architecture;
  Regs = std::move(TD.Registers);
  return true;
}

bool RspClient::handshake(std::string &Error) {
  std::optional<std::string> Sup =
      request("qSupported:multiprocess+;swbreak+;hwbreak+;vContSupported+;"
              "no-resumed+;xmlRegisters=i386");
  if (!Sup) {
    Error = "no reply to qSupported: " + LastError;
    return false;
  }
  Features.Raw = *Sup;
  std::string_view Rest = *Sup;
  while (!Rest.empty()) {
    size_t Semi = Rest.find(';');
    std::string_view Item = Rest.substr(0, Semi);
    Rest = Semi == std::string_view::npos ? "" : Rest.substr(Semi + 1);
    uint64_t Size = 0;
    if (startsWith(Item, "PacketSize=") &&
        rsp::parseHexNumber(Item.substr(11), Size) && Size >= 32)
      Features.PacketSize = std::min<uint64_t>(Size, 1 << 20);
    else if (Item == "QStartNoAckMode+")
      Features.NoAckMode = true;
    else if (Item == "qXfer:features:read+")
      Features.XferFeatures = true;
    else if (Item == "qXfer:auxv:read+")
      Features.XferAuxv = true;
    else if (Item == "qXfer:libraries-svr4:read+")
      Features.XferLibrariesSvr4 = true;
    else if (Item == "QCatchSyscalls+")
      Features.CatchSyscalls = true;
    else if (Item == "swbreak+")
      Features.SwBreak = true;
    else if (Item == "vContSupported+")
      Features.VContSupported = true;
    else if (Item == "multiprocess+")
      Features.Multiprocess = true;
  }
  if (Features.NoAckMode) {
    std::optional<std::string> R = request("QStartNoAckMode");
    if (R && *R == "OK")
      AckMode = false;
    else
      Features.NoAckMode = false;
  }
  // gdbserver picks the current process, whose description it then
  // serves, when it answers '?': ask first.
  std::optional<std::string> Q = request("?");
  if (!Q) {
    Error = "no reply to '?': " + LastError;
    return false;
  }
  std::optional<RspStop> Stop = RspStop::parse(*Q);
  if (!Stop) {
    Error = "unexpected reply to '?': '" + Q->substr(0, 64) + "'";
    return false;
  }
  if (Stop->K == RspStop::Exited || Stop->K == RspStop::Terminated) {
    Error = "the target has already exited";
    return false;
  }
  Initial = *Stop;
  ProcessId = Stop->Thread.Pid;
  if (!loadTargetDescription(Error))
    return false;
  if (std::optional<std::string> V = request("vCont?"))
    Features.VCont = startsWith(*V, "vCont") &&
                     V->find(";c") != std::string::npos &&
                     V->find(";s") != std::string::npos;
  return true;
}

const RspRegister *RspClient::findRegister(std::string_view Name) const {
  for (const RspRegister &R : Regs)
    if (R.Name == Name)
      return &R;
  return nullptr;
}
