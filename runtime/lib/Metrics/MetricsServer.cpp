//===- MetricsServer.cpp - A small HTTP/1.1 server for /metrics -----------===//
//
// One thread, one connection at a time: a scrape every few seconds needs no
// more. A request must arrive whole within RequestTime and fit in
// MaxRequest bytes, the response be taken within ResponseTime, and the
// connection closes after each response: no client holds the thread for
// long, however slowly it sends or reads. Every wait also ends when the
// server stops, so tsrun never waits for a client at exit. The store lock is
// taken (with a timeout) only while the aggregations are copied out; formatting
// and writing happen without it.
//
//===----------------------------------------------------------------------===//

#include "tscc/Runtime/Metrics.h"
#include "tscc/Runtime/StackTable.h"

#include "tscc/Runtime/Aggregation.h"
#include "tscc/Runtime/ProbeProgram.h"
#include "tscc/Runtime/Session.h"
#include "tscc/Runtime/SharedStore.h"

#include <arpa/inet.h>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

using namespace tscc::rt;

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t MaxRequest = 8192;
/// The whole request must arrive within this time of the connection...
constexpr auto RequestTime = std::chrono::seconds(2);
/// ...and the response be taken, and the client close, within this time.
constexpr auto ResponseTime = std::chrono::seconds(10);
constexpr uint64_t StoreLockTimeoutNs = 200'000'000;

bool splitHostPort(std::string_view HP, std::string &Host, std::string &Port) {
  size_t Colon = HP.rfind(':');
  if (Colon == std::string_view::npos || Colon + 1 == HP.size())
    return false;
  Host = std::string(HP.substr(0, Colon));
  Port = std::string(HP.substr(Colon + 1));
  if (Host.size() >= 2 && Host.front() == '[' && Host.back() == ']')
    Host = Host.substr(1, Host.size() - 2);
  return !Host.empty() &&
         Port.find_first_not_of("0123456789") == std::string::npos &&
         Port.size() <= 5 && std::stoul(Port) <= 65535;
}

std::string boundAddress(int Fd) {
  sockaddr_storage A{};
  socklen_t Len = sizeof(A);
  if (getsockname(Fd, reinterpret_cast<sockaddr *>(&A), &Len) != 0)
    return "?";
  char Host[INET6_ADDRSTRLEN] = "?";
  char Out[INET6_ADDRSTRLEN + 16];
  if (A.ss_family == AF_INET6) {
    auto *In = reinterpret_cast<sockaddr_in6 *>(&A);
    inet_ntop(AF_INET6, &In->sin6_addr, Host, sizeof(Host));
    snprintf(Out, sizeof(Out), "[%s]:%u", Host, ntohs(In->sin6_port));
    return Out;
  }
  auto *In = reinterpret_cast<sockaddr_in *>(&A);
  inet_ntop(AF_INET, &In->sin_addr, Host, sizeof(Host));
  snprintf(Out, sizeof(Out), "%s:%u", Host, ntohs(In->sin_port));
  return Out;
}

std::string response(int Code, const char *Reason, const char *Type,
                     const std::string &Body, bool Head = false) {
  return "HTTP/1.1 " + std::to_string(Code) + " " + Reason +
         "\r\nContent-Type: " + Type +
         "\r\nContent-Length: " + std::to_string(Body.size()) +
         "\r\nConnection: close\r\n\r\n" + (Head ? std::string() : Body);
}

} // namespace

struct MetricsServer::Impl {
  Session &S;
  int Listen = -1;
  int Wake[2] = {-1, -1};
  std::string Address;
  std::thread Thread;

  explicit Impl(Session &S) : S(S) {}
  ~Impl() {
    if (Thread.joinable()) {
      char C = 0;
      (void)!write(Wake[1], &C, 1);
      Thread.join();
    }
    for (int Fd : {Listen, Wake[0], Wake[1]})
      if (Fd >= 0)
        close(Fd);
  }

  std::string metricsText(bool &Busy);
  /// Waits until Fd is ready for Events; false once Deadline has passed or
  /// the server is stopping.
  bool ready(int Fd, short Events, Clock::time_point Deadline);
  /// Reads what is there (up to Size bytes) once Fd is readable; 0 at the
  /// end of input, -1 on an error or when ready() gave up.
  ssize_t receive(int Fd, char *Buf, size_t Size, Clock::time_point Deadline);
  void sendAll(int Fd, const std::string &S, Clock::time_point Deadline);
  void serve(int Fd);
  void lingeringClose(int Fd);
  void loop();
};

std::string MetricsServer::Impl::metricsText(bool &Busy) {
  const ProbeProgram &P = S.program();
  std::vector<AggDump> Aggs;
  Busy = false;
  if (!P.aggs().empty()) {
    // Every trust domain's copy, merged, with all their locks held (taken
    // in the domains' order; nobody else holds two at once).
    std::vector<tscc_store *> Views;
    int32_t Tid = static_cast<int32_t>(syscall(SYS_gettid));
    for (SharedStore *Store : S.stores()) {
      tscc_store *V = Store->view();
      // A clause that holds a lock for long (a stopped target is given up
      // on by the store) makes this scrape fail, never the tracing wait.
      if (tscc_store_lock(V, Tid, StoreLockTimeoutNs) != TSCC_LOCK_OK) {
        Busy = true;
        break;
      }
      Views.push_back(V);
    }
    for (uint32_t I = 0; I < P.aggs().size() && !Busy; ++I) {
      Aggs.push_back(S.snapshotAggregation(I));
    }
    for (tscc_store *V : Views)
      tscc_store_unlock(V, Tid);
    if (Busy)
      return {};
  }
  return renderMetrics(P, Aggs, S.counters());
}

bool MetricsServer::Impl::ready(int Fd, short Events,
                                Clock::time_point Deadline) {
  for (;;) {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    Deadline - Clock::now())
                    .count();
    if (Left <= 0)
      return false;
    pollfd P[2] = {{Fd, Events, 0}, {Wake[0], POLLIN, 0}};
    int N = poll(P, 2, static_cast<int>(Left));
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0 || P[1].revents)
      return false;
    if (N > 0)
      return true;
  }
}

ssize_t MetricsServer::Impl::receive(int Fd, char *Buf, size_t Size,
                                     Clock::time_point Deadline) {
  for (;;) {
    if (!ready(Fd, POLLIN, Deadline))
      return -1;
    ssize_t N = recv(Fd, Buf, Size, MSG_DONTWAIT);
    if (N < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    return N;
  }
}

void MetricsServer::Impl::sendAll(int Fd, const std::string &S,
                                  Clock::time_point Deadline) {
  size_t Off = 0;
  while (Off < S.size() && ready(Fd, POLLOUT, Deadline)) {
    ssize_t N =
        send(Fd, S.data() + Off, S.size() - Off, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (N < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (N <= 0)
      return; // a closed peer: give up on this client
    Off += static_cast<size_t>(N);
  }
}

void MetricsServer::Impl::serve(int Fd) {
  Clock::time_point Deadline = Clock::now() + RequestTime;
  auto reply = [&](const std::string &Response) {
    sendAll(Fd, Response, Clock::now() + ResponseTime);
  };
  std::string Req;
  char Buf[1024];
  while (Req.find("\r\n\r\n") == std::string::npos &&
         Req.find("\n\n") == std::string::npos) {
    if (Req.size() >= MaxRequest) {
      reply(response(431, "Request Header Fields Too Large", "text/plain",
                     "request too large\n"));
      return;
    }
    ssize_t N = receive(Fd, Buf, sizeof(Buf), Deadline);
    if (N <= 0)
      return; // too slow, or closed before a whole request
    Req.append(Buf, static_cast<size_t>(N));
  }
  std::string Line = Req.substr(0, Req.find_first_of("\r\n"));
  size_t Sp1 = Line.find(' '), Sp2 = Line.rfind(' ');
  if (Sp1 == std::string::npos || Sp2 == Sp1 ||
      Line.compare(Sp2 + 1, 5, "HTTP/") != 0) {
    reply(response(400, "Bad Request", "text/plain", "bad request\n"));
    return;
  }
  std::string Method = Line.substr(0, Sp1);
  std::string Target = Line.substr(Sp1 + 1, Sp2 - Sp1 - 1);
  Target = Target.substr(0, Target.find('?'));
  if (Method != "GET" && Method != "HEAD") {
    reply(response(405, "Method Not Allowed", "text/plain",
                   "only GET and HEAD\n"));
    return;
  }
  if (Target != "/metrics") {
    reply(response(404, "Not Found", "text/plain",
                   "tsrun serves /metrics only\n", Method == "HEAD"));
    return;
  }
  bool Busy;
  std::string Body = metricsText(Busy);
  if (Busy) {
    reply(response(503, "Service Unavailable", "text/plain",
                   "the session's store is busy; try again\n",
                   Method == "HEAD"));
    return;
  }
  reply(response(200, "OK", "text/plain; version=0.0.4; charset=utf-8", Body,
                 Method == "HEAD"));
}

void MetricsServer::Impl::lingeringClose(int Fd) {
  // Closing with unread input makes the kernel reset the connection, which
  // can destroy the response before the client reads it (a 431 to a huge
  // request). So: no more output, then read what the client still sends,
  // bounded in bytes and in time, then close.
  shutdown(Fd, SHUT_WR);
  Clock::time_point Deadline = Clock::now() + RequestTime;
  char Buf[4096];
  for (size_t Total = 0; Total < 16 * MaxRequest;) {
    ssize_t N = receive(Fd, Buf, sizeof(Buf), Deadline);
    if (N <= 0)
      break;
    Total += static_cast<size_t>(N);
  }
  close(Fd);
}

void MetricsServer::Impl::loop() {
  for (;;) {
    pollfd P[2] = {{Listen, POLLIN, 0}, {Wake[0], POLLIN, 0}};
    if (poll(P, 2, -1) < 0) {
      if (errno == EINTR)
        continue;
      return;
    }
    if (P[1].revents)
      return;
    // The connection itself blocks, within the send/receive timeouts.
    int Fd = accept4(Listen, nullptr, nullptr, SOCK_CLOEXEC);
    if (Fd < 0)
      continue;
    serve(Fd);
    lingeringClose(Fd);
  }
}

MetricsServer::MetricsServer(std::unique_ptr<Impl> I) : I(std::move(I)) {}
MetricsServer::~MetricsServer() = default;
const std::string &MetricsServer::address() const { return I->Address; }

std::unique_ptr<MetricsServer> MetricsServer::start(Session &S,
                                                    std::string_view HostPort,
                                                    std::string &Error) {
  std::string Host, Port;
  if (!splitHostPort(HostPort, Host, Port)) {
    Error = "invalid --metrics address '" + std::string(HostPort) +
            "' (expected HOST:PORT, e.g. 127.0.0.1:9464 or [::1]:0)";
    return nullptr;
  }
  addrinfo Hints{};
  Hints.ai_family = AF_UNSPEC;
  Hints.ai_socktype = SOCK_STREAM;
  Hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo *Res = nullptr;
  if (int E = getaddrinfo(Host.c_str(), Port.c_str(), &Hints, &Res)) {
    Error = "--metrics " + std::string(HostPort) + ": " + gai_strerror(E);
    return nullptr;
  }
  auto I = std::make_unique<Impl>(S);
  int LastErr = 0;
  for (addrinfo *A = Res; A && I->Listen < 0; A = A->ai_next) {
    // Non-blocking: a client that gives up between poll() and accept()
    // must not leave the thread stuck in accept().
    int Fd =
        socket(A->ai_family, A->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (Fd < 0) {
      LastErr = errno;
      continue;
    }
    int One = 1;
    setsockopt(Fd, SOL_SOCKET, SO_REUSEADDR, &One, sizeof(One));
    if (bind(Fd, A->ai_addr, A->ai_addrlen) != 0 || listen(Fd, 8) != 0) {
      LastErr = errno;
      close(Fd);
      continue;
    }
    I->Listen = Fd;
  }
  freeaddrinfo(Res);
  if (I->Listen < 0) {
    Error = "--metrics " + std::string(HostPort) + ": " + strerror(LastErr);
    return nullptr;
  }
  if (pipe2(I->Wake, O_CLOEXEC) != 0) {
    Error = std::string("pipe: ") + strerror(errno);
    return nullptr;
  }
  I->Address = boundAddress(I->Listen);
  Impl *Raw = I.get();
  I->Thread = std::thread([Raw] { Raw->loop(); });
  return std::unique_ptr<MetricsServer>(new MetricsServer(std::move(I)));
}
