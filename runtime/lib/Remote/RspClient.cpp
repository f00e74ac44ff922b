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

using Clock = std::chrono::steady_clock;

/// Milliseconds from now until T, for poll(): at least 0, -1 for "never".
int msUntil(Clock::time_point T) {
  if (T == Clock::time_point::max())
    return -1;
  auto Ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(T - Clock::now())
          .count();
  // Round up: poll() returning a millisecond early would spin once more.
  return Ms <= 0 ? 0 : static_cast<int>(std::min<int64_t>(Ms + 1, INT32_MAX));
}

/// Drains a non-blocking pipe; true if anything was in it.
bool drain(int Fd) {
  bool Any = false;
  char Buf[64];
  while (read(Fd, Buf, sizeof(Buf)) > 0)
    Any = true;
  return Any;
}

/// Connects one non-blocking socket, waiting until Deadline or until
/// InterruptFd fires (Interrupted set).
int connectOne(const addrinfo &A, Clock::time_point Deadline, int InterruptFd,
               bool &Interrupted, std::string &Error) {
  int Fd = socket(A.ai_family, A.ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
                  A.ai_protocol);
  if (Fd < 0) {
    Error = std::strerror(errno);
    return -1;
  }
  if (::connect(Fd, A.ai_addr, A.ai_addrlen) == 0)
    return Fd;
  if (errno != EINPROGRESS) {
    Error = std::strerror(errno);
    close(Fd);
    return -1;
  }
  // A host that drops SYNs would otherwise block connect() for minutes.
  for (;;) {
    pollfd P[2] = {{Fd, POLLOUT, 0}, {InterruptFd, POLLIN, 0}};
    int N = poll(P, InterruptFd >= 0 ? 2 : 1, msUntil(Deadline));
    if (N < 0 && errno == EINTR)
      continue;
    if (N > 0 && InterruptFd >= 0 && P[1].revents) {
      Interrupted = true;
      Error = "interrupted";
      close(Fd);
      return -1;
    }
    if (N <= 0) {
      Error = N == 0 ? "timed out" : std::strerror(errno);
      close(Fd);
      return -1;
    }
    int E = 0;
    socklen_t L = sizeof(E);
    getsockopt(Fd, SOL_SOCKET, SO_ERROR, &E, &L);
    if (E) {
      Error = std::strerror(E);
      close(Fd);
      return -1;
    }
    return Fd;
  }
}

int openSocket(const std::string &Host, uint16_t Port,
               Clock::time_point Deadline, int InterruptFd, bool &Interrupted,
               std::string &Error) {
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
  for (addrinfo *A = Res; A && Fd < 0 && !Interrupted; A = A->ai_next)
    Fd = connectOne(*A, Deadline, InterruptFd, Interrupted, Error);
  freeaddrinfo(Res);
  if (Fd >= 0) {
    // Every exchange is a small request/reply: Nagle would add delays.
    int One = 1;
    setsockopt(Fd, IPPROTO_TCP, TCP_NODELAY, &One, sizeof(One));
  }
  return Fd;
}

/// A packet as shown in messages: its command, printable, not too long.
std::string describePacket(std::string_view P) {
  std::string Out;
  for (char C : P.substr(0, 40))
    Out += (C >= 32 && C < 127) ? C : '.';
  if (P.size() > 40)
    Out += "...";
  return "'" + Out + "'";
}

/// "10 s", "1.5 s", "0.25 s".
std::string seconds(unsigned Ms) {
  char Buf[32];
  snprintf(Buf, sizeof(Buf), "%g s", Ms / 1000.0);
  return Buf;
}

bool startsWith(std::string_view S, std::string_view P) {
  return S.substr(0, P.size()) == P;
}

} // namespace

std::unique_ptr<RspClient> RspClient::connect(const std::string &Host,
                                              uint16_t Port, unsigned TimeoutMs,
                                              std::string &Error,
                                              int InterruptFd) {
  auto Deadline = Clock::now() + std::chrono::milliseconds(TimeoutMs);
  for (;;) {
    bool Interrupted = false;
    int Fd = openSocket(Host, Port, Deadline, InterruptFd, Interrupted, Error);
    if (Fd >= 0)
      return std::make_unique<RspClient>(Fd);
    if (Interrupted || Clock::now() >= Deadline)
      return nullptr;
    // The stub may not be listening yet. There is nothing to wait on for
    // "a port starts listening", so poll the clock at a modest rate (and
    // the interrupt descriptor, so that Ctrl-C is not held up).
    pollfd P = {InterruptFd, POLLIN, 0};
    if (poll(&P, InterruptFd >= 0 ? 1 : 0, 50) > 0) {
      Error = "interrupted";
      return nullptr;
    }
  }
}

RspClient::RspClient(int Fd) : Fd(Fd) {}

RspClient::~RspClient() {
  if (Fd >= 0)
    close(Fd);
}

void RspClient::fail(std::string Message, bool LinkUp) {
  if (LastError.empty())
    LastError = std::move(Message);
  if (Fd < 0)
    return;
  if (LinkUp && !Abandoning)
    detachBeforeClosing();
  if (Fd >= 0) {
    close(Fd);
    Fd = -1;
  }
}

void RspClient::detachBeforeClosing() {
  // The stub still reads, but the conversation is lost. Closing alone
  // would leave its breakpoints in, and qemu-user delivers SIGTRAP to each
  // thread waiting in its stub when the connection drops (and at every
  // breakpoint hit after): ask it to detach, which takes the breakpoints
  // out, then let go every thread still waiting there, one "c" each
  // (a qemu-user thread leaves the stub once it has read one), until no
  // thread acknowledges one. A '+' goes in front of each packet, for a
  // thread that waits in the stub for the ack of a packet it sent.
  Abandoning = true;
  disarmDeadline();
  std::string D = "D";
  if (Features.Multiprocess && ProcessId > 0)
    D += ";" + rsp::hexNumber(static_cast<uint64_t>(ProcessId));
  std::string Prefix(AckMode ? DetachAckPrefix : 0, '+');
  if (!sendRaw(Prefix + rsp::frame(D)) || !awaitAckBriefly() || !AckMode)
    return;
  for (size_t I = 0; I < MaxThreads && sendRaw("+" + rsp::frame("c")); ++I)
    if (!awaitAckBriefly())
      return;
}

bool RspClient::awaitAckBriefly() {
  auto Until = Clock::now() + std::chrono::milliseconds(DetachAckMs);
  while (Fd >= 0) {
    while (std::optional<rsp::Incoming> In = Reader.next()) {
      if (In->K == rsp::Incoming::Ack)
        return true;
      // Replies and stops are acknowledged, so that no thread of the
      // stub is left waiting for it.
      if (In->K == rsp::Incoming::Packet && AckMode && !sendRaw("+"))
        return false;
    }
    if (!fillBuffer(-1, nullptr, Until))
      return false;
  }
  return false;
}

void RspClient::trace(char Dir, std::string_view Bytes) {
  // TSCC_RSP_DEBUG=1 logs the conversation, like gdb's "set debug remote".
  static const bool On = getenv("TSCC_RSP_DEBUG") != nullptr;
  if (!On)
    return;
  // Long ones keep their ends: what follows a reply in the same read
  // (another thread's stop, an ack, a reply sent again) matters as much as
  // how it starts.
  std::string Shown;
  auto Show = [&Shown](std::string_view Part) {
    for (char C : Part)
      Shown += (C >= 32 && C < 127) ? C : '.';
  };
  if (Bytes.size() <= 512) {
    Show(Bytes);
  } else {
    Show(Bytes.substr(0, 256));
    Shown += "...";
    Show(Bytes.substr(Bytes.size() - 128));
  }
  fprintf(stderr, "rsp %c %s\n", Dir, Shown.c_str());
}

void RspClient::armDeadline(std::string_view What) {
  Deadline = Clock::now() + std::chrono::milliseconds(RequestTimeoutMs);
  Awaiting = std::string(What);
}

void RspClient::failTooLarge() {
  fail("the stub sent a packet larger than " +
       std::to_string(Reader.maxPacket()) + " bytes" +
       (Awaiting.empty() ? std::string() : " (waiting for " + Awaiting + ")"));
}

void RspClient::beginEnding() {
  if (Ending)
    return;
  Ending = true;
  EndBy = Clock::now() + std::chrono::milliseconds(ShutdownGraceMs);
}

bool RspClient::sendRaw(std::string_view Bytes) {
  trace('>', Bytes);
  // A stub that stops reading must not block us in send() either: the
  // socket is non-blocking, and waiting for room counts against the same
  // deadline as waiting for a reply.
  Clock::time_point Until =
      std::min(Deadline != Clock::time_point::max()
                   ? Deadline
                   : Clock::now() + std::chrono::milliseconds(RequestTimeoutMs),
               EndBy);
  while (!Bytes.empty()) {
    if (Fd < 0)
      return false;
    ssize_t N = ::send(Fd, Bytes.data(), Bytes.size(), MSG_NOSIGNAL);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd P = {Fd, POLLOUT, 0};
      int R = poll(&P, 1, msUntil(Until));
      if (R == 0) {
        fail(
            "the stub stopped reading" +
            (Awaiting.empty() ? std::string() : " (sending " + Awaiting + ")"));
        return false;
      }
      continue;
    }
    if (N < 0) {
      fail(std::string("send: ") + std::strerror(errno));
      return false;
    }
    Bytes.remove_prefix(static_cast<size_t>(N));
  }
  return true;
}

bool RspClient::fillBuffer(int WakeFd, bool *Woken, Clock::time_point Caller) {
  for (;;) {
    if (Fd < 0)
      return false;
    if (WakeFd >= 0 && Ending) {
      // The session ended while the wake-up was being handled elsewhere.
      if (Woken)
        *Woken = true;
      return false;
    }
    // Checked before every read, not only when the line is quiet: a stub
    // that streams '+' or noise must not keep a request alive either.
    Clock::time_point Now = Clock::now();
    if (Now >= EndBy) {
      fail("the session ended while waiting for " +
           (Awaiting.empty() ? std::string("the stub") : Awaiting));
      return false;
    }
    if (Now >= Deadline) {
      fail("the stub did not send " + Awaiting + " within " +
               seconds(RequestTimeoutMs),
           /*LinkUp=*/true);
      return false;
    }
    if (Now >= Caller)
      return false; // the caller's own timeout: nothing is wrong yet
    // The wake-up descriptors first: a stub that floods us must not hide
    // Ctrl-C behind always-readable data.
    pollfd P[3] = {{WakeFd, POLLIN, 0},
                   {WakeFd == InterruptFd ? -1 : InterruptFd, POLLIN, 0},
                   {Fd, POLLIN, 0}};
    int N = poll(P, 3, msUntil(std::min({Caller, Deadline, EndBy})));
    if (N < 0) {
      if (errno == EINTR)
        continue;
      fail(std::string("poll: ") + std::strerror(errno));
      return false;
    }
    if (WakeFd >= 0 && P[0].revents) {
      beginEnding();
      if (Woken)
        *Woken = true;
      return false;
    }
    if (P[1].fd >= 0 && P[1].revents) {
      drain(P[1].fd);
      beginEnding();
      continue;
    }
    if (!P[2].revents)
      continue; // timed out: the checks above say which deadline
    char Buf[16384];
    ssize_t Got = recv(Fd, Buf, sizeof(Buf), 0);
    if (Got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
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
}

std::optional<std::string> RspClient::receive(int WakeFd, bool *Woken,
                                              Clock::time_point Until) {
  unsigned Bad = 0;
  for (;;) {
    while (std::optional<rsp::Incoming> In = Reader.next()) {
      switch (In->K) {
      case rsp::Incoming::Ack:
        break;
      case rsp::Incoming::Nak:
        if (++Bad > MaxRetries) {
          fail("the stub rejected a packet " + std::to_string(MaxRetries) +
                   " times",
               /*LinkUp=*/true);
          return std::nullopt;
        }
        if (AckMode && !LastSent.empty() && !sendRaw(LastSent))
          return std::nullopt;
        break;
      case rsp::Incoming::BadPacket:
        if (++Bad > MaxRetries) {
          fail("the stub sent " + std::to_string(MaxRetries) +
                   " corrupted packets in a row" +
                   (Awaiting.empty() ? std::string()
                                     : " (waiting for " + Awaiting + ")"),
               /*LinkUp=*/true);
          return std::nullopt;
        }
        if (AckMode && !sendRaw("-"))
          return std::nullopt;
        break;
      case rsp::Incoming::TooLarge:
        failTooLarge();
        return std::nullopt;
      case rsp::Incoming::Notification:
        break; // non-stop only; we never enable it
      case rsp::Incoming::Packet:
        if (AckMode && !sendRaw("+"))
          return std::nullopt;
        return std::move(In->Payload);
      }
    }
    if (!fillBuffer(WakeFd, Woken, Until))
      return std::nullopt;
  }
}

bool RspClient::send(std::string_view Payload) {
  armDeadline("the acknowledgement of " + describePacket(Payload));
  std::string Framed = rsp::frame(Payload);
  if (!sendRaw(Framed))
    return false;
  if (!AckMode)
    return true;
  LastSent = std::move(Framed);
  // Wait for the ack; a '-' makes receive() retransmit, so loop on the
  // reader directly here.
  for (unsigned Tries = 0; Tries < MaxRetries;) {
    std::optional<rsp::Incoming> In = Reader.next();
    if (!In) {
      if (!fillBuffer(-1, nullptr, Clock::time_point::max()))
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
    if (In->K == rsp::Incoming::TooLarge) {
      failTooLarge();
      return false;
    }
    if (In->K == rsp::Incoming::Packet && DropStrayStops &&
        RspStop::parse(In->Payload)) {
      // qemu-user reads the interrupt byte only once the target stops, and
      // then reports a second stop: drop it.
      if (!sendRaw("+"))
        return false;
      continue;
    }
    if (std::optional<RspStop> Other = RspStop::parse(In->Payload);
        Other && In->Payload[0] == 'T')
      fail("protocol error: thread " +
               Other->Thread.str(Features.Multiprocess) +
               " reported a stop before the acknowledgement (two threads "
               "stopped in the stub at once, which qemu-user's stub cannot "
               "serve)",
           /*LinkUp=*/true);
    else
      fail("protocol error: packet before acknowledgement", /*LinkUp=*/true);
    return false;
  }
  fail("the stub rejected a packet " + std::to_string(MaxRetries) + " times",
       /*LinkUp=*/true);
  return false;
}

bool RspClient::takeConsolePacket(const std::string &Payload) {
  // 'O' console output may precede the real reply of a resumption; "OK" is
  // not console output.
  if (Payload.size() < 2 || Payload[0] != 'O' || Payload == "OK")
    return false;
  std::string Text((Payload.size() - 1) / 2, '\0');
  if (!rsp::fromHex(std::string_view(Payload).substr(1), Text.data(),
                    Text.size()))
    return false;
  size_t Room = MaxConsoleBytes - std::min(Console.size(), MaxConsoleBytes);
  Console.append(Text, 0, std::min(Room, Text.size()));
  ConsoleDropped += Text.size() - std::min(Room, Text.size());
  return true;
}

std::optional<std::string> RspClient::request(std::string_view Payload) {
  if (!send(Payload))
    return std::nullopt;
  armDeadline("a reply to " + describePacket(Payload));
  for (;;) {
    std::optional<std::string> Reply = receive();
    if (!Reply)
      return std::nullopt;
    if (takeConsolePacket(*Reply))
      continue; // the deadline still runs: a flood of them is no reply
    if (DropStrayStops && !Reply->empty() &&
        ((*Reply)[0] == 'T' || (*Reply)[0] == 'S') && RspStop::parse(*Reply))
      continue; // see send()
    disarmDeadline();
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
  // The whole object gets one request's time: a stub answering 'm' (more)
  // forever, or a byte at a time, is cut off like a silent one.
  auto Until = Clock::now() + std::chrono::milliseconds(RequestTimeoutMs);
  std::string What = "qXfer:" + std::string(Object) + ":read";
  for (;;) {
    if (Out.size() > MaxXferBytes) {
      fail("the stub's " + What + " reply is larger than " +
           std::to_string(MaxXferBytes >> 20) + " MiB");
      return std::nullopt;
    }
    if (Clock::now() >= Until) {
      fail("no end to " + What + " (replies kept saying 'more') within " +
           seconds(RequestTimeoutMs));
      return std::nullopt;
    }
    std::string Q = "qXfer:" + std::string(Object) +
                    ":read:" + std::string(Annex) + ":" +
                    rsp::hexNumber(Out.size()) + "," + rsp::hexNumber(Chunk);
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
    Error = LastError;
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
    else if (Item == "qXfer:exec-file:read+")
      Features.XferExecFile = true;
    else if (Item == "QCatchSyscalls+")
      Features.CatchSyscalls = true;
    else if (Item == "swbreak+")
      Features.SwBreak = true;
    else if (Item == "vContSupported+")
      Features.VContSupported = true;
    else if (Item == "multiprocess+")
      Features.Multiprocess = true;
  }
  // Replies may be as large as the stub's own packets, with a margin for
  // stubs that count differently (escapes, hex): anything larger is
  // refused before it is buffered.
  Reader.setMaxPacket(std::max<size_t>(4 * Features.PacketSize,
                                       rsp::PacketReader::DefaultMaxPacket));
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
    Error = LastError;
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
  // Optional queries that failed fall back quietly, unless the failure
  // was the connection's.
  if (!connected()) {
    Error = LastError;
    return false;
  }
  return true;
}

const RspRegister *RspClient::findRegister(std::string_view Name) const {
  for (const RspRegister &R : Regs)
    if (R.Name == Name)
      return &R;
  return nullptr;
}
