//===- RemoteBackend.cpp - Lifecycle of a gdb-remote target ---------------===//
//
// start(): connect, negotiate, work out the data model (target description
// architecture, else the ELF class of EXE) and the process identity, map the
// executable and loader, install probes. run(): resume, wait for a stop,
// handle it, repeat, until the process is gone or the session stops. Stops
// are all-stop: while we handle one, every thread of the target is stopped.
//
//===----------------------------------------------------------------------===//
#include "RemoteImpl.h"
#include "RemoteInject.h"

#include "../InProcess/Installer/Agent.h"

#include "tscc/Runtime/Session.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::remote;

bool tscc::rt::parseRemoteSpec(std::string_view Spec, RemoteOptions &Out,
                               std::string &Error) {
  size_t Eq = Spec.find('=');
  if (Eq == std::string_view::npos || Eq + 1 >= Spec.size()) {
    Error = "expected HOST:PORT=EXE in '" + std::string(Spec) + "'";
    return false;
  }
  std::string_view HostPort = Spec.substr(0, Eq);
  Out.Executable = std::string(Spec.substr(Eq + 1));
  std::string_view Port = HostPort;
  if (!HostPort.empty() && HostPort[0] == '[') {
    size_t Close = HostPort.find("]:");
    if (Close == std::string_view::npos) {
      Error = "expected [ADDR]:PORT in '" + std::string(HostPort) + "'";
      return false;
    }
    Out.Host = std::string(HostPort.substr(1, Close - 1));
    Port = HostPort.substr(Close + 2);
  } else if (size_t Colon = HostPort.rfind(':');
             Colon != std::string_view::npos) {
    if (Colon)
      Out.Host = std::string(HostPort.substr(0, Colon));
    Port = HostPort.substr(Colon + 1);
  }
  char *End = nullptr;
  std::string P(Port);
  unsigned long N = std::strtoul(P.c_str(), &End, 10);
  if (P.empty() || *End || N == 0 || N > 65535) {
    Error = "invalid port '" + P + "'";
    return false;
  }
  Out.Port = P;
  return true;
}

RemoteBackend::RemoteBackend(Session &S, std::string Host, std::string Port,
                             std::string ExePath) {
  RemoteOptions O;
  O.Host = std::move(Host);
  O.Port = std::move(Port);
  O.Executable = std::move(ExePath);
  P = std::make_unique<Impl>(S, std::move(O));
}
RemoteBackend::RemoteBackend(Session &S, RemoteOptions Opts)
    : P(std::make_unique<Impl>(S, std::move(Opts))) {}
RemoteBackend::~RemoteBackend() = default;
bool RemoteBackend::start(std::string &Error) { return P->start(Error); }
void RemoteBackend::run() { P->run(); }
void RemoteBackend::interrupt() { P->interrupt(); }

RemoteBackend::Impl::Impl(Session &S, RemoteOptions Opts)
    : S(S), Opts(std::move(Opts)), Matcher(S.program()) {
  int Fds[2];
  if (pipe2(Fds, O_CLOEXEC | O_NONBLOCK) == 0) {
    WakeRead = Fds[0];
    WakeWrite = Fds[1];
  }
  NoEmulation = getenv("TSCC_REMOTE_NO_EMULATION") != nullptr;
  for (uint32_t I = 0; I < S.program().withinTable().size(); ++I)
    WithinNames.emplace_back(S.program().withinName(I));
}

RemoteBackend::Impl::~Impl() {
  if (WakeRead >= 0)
    close(WakeRead);
  if (WakeWrite >= 0)
    close(WakeWrite);
}

std::string RemoteBackend::Impl::where() const {
  return "gdb-remote " + Opts.Host + ":" + Opts.Port;
}

void RemoteBackend::Impl::interrupt() {
  Interrupted.store(true, std::memory_order_release);
  if (WakeWrite >= 0) {
    char B = 1;
    // Async-signal-safe; a full pipe already means "wake up".
    [[maybe_unused]] ssize_t N = write(WakeWrite, &B, 1);
  }
}

namespace {

/// "10 s", "1.5 s".
std::string seconds(unsigned Ms) {
  char Buf[32];
  snprintf(Buf, sizeof(Buf), "%g s", Ms / 1000.0);
  return Buf;
}

bool isLoopback(const std::string &Host) {
  return Host == "localhost" || Host == "::1" || Host.rfind("127.", 0) == 0;
}

/// ppid and uid from /proc when the stub runs on this machine.
void readProcIdentity(int64_t Pid, int64_t &PPid, int64_t &Uid) {
  std::ifstream In("/proc/" + std::to_string(Pid) + "/status");
  std::string Line;
  while (std::getline(In, Line)) {
    if (Line.rfind("PPid:", 0) == 0)
      PPid = std::strtoll(Line.c_str() + 5, nullptr, 10);
    else if (Line.rfind("Uid:", 0) == 0)
      Uid = std::strtoll(Line.c_str() + 4, nullptr, 10);
  }
}

/// The inode of the socket in /proc/net/tcp{,6} whose local port is Local
/// and remote port Remote (0 if none).
uint64_t socketInode(uint16_t Local, uint16_t Remote, uint64_t Except) {
  for (const char *Table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream In(Table);
    std::string Line;
    std::getline(In, Line); // header
    while (std::getline(In, Line)) {
      // "sl local rem st tx:rx tr:when retrnsmt uid timeout inode ..."
      std::istringstream F(Line);
      std::string Sl, L, R, Skip;
      uint64_t Inode = 0;
      F >> Sl >> L >> R;
      for (int I = 0; I < 6; ++I)
        F >> Skip;
      F >> Inode;
      auto Port = [](const std::string &A) {
        size_t Colon = A.rfind(':');
        return Colon == std::string::npos
                   ? 0ul
                   : std::strtoul(A.c_str() + Colon + 1, nullptr, 16);
      };
      if (F && Inode != Except && Port(L) == Local && Port(R) == Remote)
        return Inode;
    }
  }
  return 0;
}

/// Whether process Pid holds the stub's end of our connection: only then is
/// the pid the stub reports ours to signal (qemu-user is the traced
/// program and its stub in one process). A stub on this machine could
/// otherwise name any process.
bool ownsPeerSocket(int Fd, int64_t Pid) {
  sockaddr_storage L{}, R{};
  socklen_t LL = sizeof(L), RL = sizeof(R);
  struct stat Own;
  if (Fd < 0 || getsockname(Fd, reinterpret_cast<sockaddr *>(&L), &LL) ||
      getpeername(Fd, reinterpret_cast<sockaddr *>(&R), &RL) || fstat(Fd, &Own))
    return false;
  auto Port = [](const sockaddr_storage &A) -> uint16_t {
    if (A.ss_family == AF_INET)
      return ntohs(reinterpret_cast<const sockaddr_in &>(A).sin_port);
    if (A.ss_family == AF_INET6)
      return ntohs(reinterpret_cast<const sockaddr_in6 &>(A).sin6_port);
    return 0;
  };
  uint64_t Peer = socketInode(Port(R), Port(L), Own.st_ino);
  if (!Peer)
    return false;
  std::string Want = "socket:[" + std::to_string(Peer) + "]";
  std::string Dir = "/proc/" + std::to_string(Pid) + "/fd";
  DIR *D = opendir(Dir.c_str());
  if (!D)
    return false;
  bool Found = false;
  while (dirent *E = readdir(D)) {
    char Target[64];
    ssize_t N = readlinkat(dirfd(D), E->d_name, Target, sizeof(Target) - 1);
    if (N > 0 && std::string_view(Target, static_cast<size_t>(N)) == Want) {
      Found = true;
      break;
    }
  }
  closedir(D);
  return Found;
}

} // namespace

bool RemoteBackend::Impl::stubIsLocal() const { return StubVisible; }

bool RemoteBackend::Impl::stubProcessVisible(int64_t Pid) const {
  // A loopback address is not enough: a stub in another PID namespace
  // (qemu started under `unshare -p`) reports pids of its own namespace,
  // which name other processes here (its "1" is our init), and one behind
  // a tunnel (ssh -L) runs on another machine. The process must hold the
  // stub's end of our connection (qemu-user: the program is the stub), or
  // its parent must (gdbserver launched the program).
  if (!isLoopback(Opts.Host) || Pid <= 1)
    return false;
  if (ownsPeerSocket(Client->socketFd(), Pid))
    return true;
  int64_t PPid = -1, Uid = -1;
  readProcIdentity(Pid, PPid, Uid);
  return PPid > 1 && ownsPeerSocket(Client->socketFd(), PPid);
}

bool RemoteBackend::Impl::identify(std::string &Error) {
  DataModel DM = ExeElf->is64() ? DataModel::LP64 : DataModel::ILP32;
  const std::string &Arch = Client->architecture();
  if (Arch == "i386" || Arch == "i386:intel")
    DM = DataModel::ILP32;
  else if (Arch == "i386:x86-64" || Arch == "x86-64")
    DM = DataModel::LP64;
  else if (!Arch.empty())
    warnOnce(where() + ": unknown architecture '" + Arch +
             "'; using the ELF class of " + Opts.Executable);
  std::string Name = Opts.Executable;
  if (size_t Slash = Name.rfind('/'); Slash != std::string::npos)
    Name = Name.substr(Slash + 1);
  Tgt = std::make_unique<RemoteTarget>(*Client, DM, Name);

  // The process id: the multiprocess pid, except that qemu-user calls its
  // one process "1"; there the main thread's id is the real (host) pid.
  const RspStop &First = Client->initialStop();
  int64_t Pid = First.Thread.Pid;
  int64_t MainTid = First.Thread.Tid;
  if (MainTid <= 0) {
    std::vector<RspThreadId> Ts = Client->threads();
    if (!Ts.empty())
      MainTid = Ts.front().Tid, Pid = Pid ? Pid : Ts.front().Pid;
  }
  if (Pid <= 1 && MainTid > 0)
    Pid = MainTid;
  Tgt->Pid = Pid;
  StubVisible = stubProcessVisible(Pid);
  if (StubVisible)
    readProcIdentity(Pid, Tgt->PPid, Tgt->Uid);
  return true;
}

bool RemoteBackend::Impl::connectToStub(std::string &Error) {
  uint16_t Port =
      static_cast<uint16_t>(std::strtoul(Opts.Port.c_str(), nullptr, 10));
  // A shorter --remote-timeout shortens the wait for the stub too.
  unsigned TotalMs =
      std::min(Opts.ConnectTimeoutSec * 1000, Opts.RequestTimeoutMs);
  std::string Total = seconds(TotalMs);
  // The stub may still be starting: try for a second quietly, then say
  // what tsrun waits for, since a stub that was never started is the usual
  // reason.
  unsigned FirstMs = std::min(TotalMs, 1000u);
  std::string ConnError;
  Client = RspClient::connect(Opts.Host, Port, FirstMs, ConnError, WakeRead);
  std::string Hint = "start the stub first, e.g. 'qemu-i386 -g " + Opts.Port +
                     " PROGRAM' or 'gdbserver " + Opts.Host + ":" + Opts.Port +
                     " PROGRAM'";
  if (!Client && TotalMs > FirstMs && ConnError != "interrupted") {
    S.warn(where() + ": nothing accepts connections there yet (" + ConnError +
           "); waiting up to " + Total + " for the stub (" + Hint + ")");
    Client = RspClient::connect(Opts.Host, Port, TotalMs - FirstMs, ConnError,
                                WakeRead);
  }
  if (Client)
    return true;
  Error = where() + ": cannot connect: " + ConnError;
  if (ConnError != "interrupted")
    Error += " (for " + Total + "); " + Hint;
  return false;
}

bool RemoteBackend::Impl::start(std::string &Error) {
  if (Opts.Port.empty()) {
    Error = "no port given";
    return false;
  }
  // Read EXE first: a stub like qemu-user serves one connection only, so
  // do not use it up on a session that cannot start.
  std::string ElfError;
  ExeElf = ElfFile::open(Opts.Executable, ElfError);
  if (!ExeElf) {
    Error = where() + ": " + ElfError;
    return false;
  }
  if (!connectToStub(Error))
    return false;
  Client->setRequestTimeout(Opts.RequestTimeoutMs);
  Client->setInterruptFd(WakeRead);
  std::string E;
  if (!Client->handshake(E) || !identify(E)) {
    Error = where() + ": " + E;
    return false;
  }
  // Queries that may fail quietly (thread lists, auxv, libraries) fail
  // loudly when the stub stopped answering them.
  auto Lost = [&] {
    if (Client->connected())
      return false;
    Error = where() + ": " + Client->lastError();
    return true;
  };
  if (Lost())
    return false;
  // Before anything is attached: symbols of another program (or of the
  // other data model) must never place a breakpoint.
  readAuxv();
  if (Lost() || !checkArchitecture(Error))
    return false;
  for (const std::string &M : Matcher.errors())
    warnOnce(M);
  S.targetAttached(*Tgt, HowRemote);
  prepareAgent();
  if (Lost())
    return false;
  if (!loadInitialModules(E)) {
    Error = where() + ": " + E;
    return false;
  }
  installSyscalls();
  if (Lost())
    return false;
  Started = true;
  return true;
}

bool RemoteBackend::Impl::resume() {
  Tgt->invalidateCache();
  return Client->resumeAll();
}

void RemoteBackend::Impl::run() {
  if (!Started)
    return;
  bool Running = false;
  while (!Gone) {
    if (Interrupted.load(std::memory_order_acquire) || S.stopRequested()) {
      if (Running) {
        // Stop the target first: breakpoints can only be removed, and a
        // detach only makes sense, while it is stopped.
        RspStop Stop;
        if (!stopTarget(Stop)) {
          dropTarget();
          break;
        }
        Running = false;
        LastStopThread = Stop.Thread;
        LastStopPC = 0;
        if (Access && Stop.Thread.Tid > 0)
          Access->useThread(Stop.Thread);
        if (Stop.K == RspStop::Exited || Stop.K == RspStop::Terminated) {
          handleStop(Stop);
          break;
        }
      }
      shutdown(Opts.KillOnStop);
      break;
    }
    if (!Running) {
      if (!resume()) {
        dropTarget();
        break;
      }
      Running = true;
    }
    RspStop Stop;
    switch (Client->waitStop(Stop, WakeRead)) {
    case RspClient::WaitResult::Woken: {
      char Buf[64];
      while (read(WakeRead, Buf, sizeof(Buf)) > 0) {
      }
      continue; // the loop top interrupts the target
    }
    case RspClient::WaitResult::TimedOut: // no limit was given
    case RspClient::WaitResult::Closed:
      dropTarget();
      break;
    case RspClient::WaitResult::Stopped:
      Running = false;
      bool Alive = handleStop(Stop);
      // Whatever request the stop needed, a stub that failed to answer it
      // loses its target here, whichever handler asked.
      if (!Client->connected())
        dropTarget();
      else if (!Alive)
        Gone = true;
      break;
    }
  }
  if (std::string Out = Client ? Client->takeConsoleOutput() : "";
      !Out.empty()) {
    // Cut at the cap, the last line may be partial: end it, so that what
    // follows starts a line of its own.
    if (Out.back() != '\n')
      Out += '\n';
    fwrite(Out.data(), 1, Out.size(), stderr);
  }
  if (Client && Client->consoleDropped())
    S.warn(where() + ": dropped " + std::to_string(Client->consoleDropped()) +
           " bytes of the stub's console output (more than " +
           std::to_string(RspClient::MaxConsoleBytes >> 10) + " KiB)");
  // A process that exited is not kept past run(): once the session has
  // its last records out, its modules, caches and registers go.
  S.deliverExited();
  if (Tgt && Tgt->Exited && Tgt->releasedBySession()) {
    Tgt.reset();
    S.targetFreed();
  }
}

void RemoteBackend::Impl::dropTarget() {
  if (Gone)
    return;
  S.warn(where() + ": " +
         (Client->lastError().empty() ? std::string("lost the connection")
                                      : Client->lastError()) +
         "; the target is dropped");
  finish(0, 0);
}

bool RemoteBackend::Impl::stopTarget(RspStop &Stop) {
  Client->sendBreak();
  BreakSent = true;
  // gdbserver stops the target at once. qemu-user only reads the interrupt
  // byte when the target stops by itself; when the stub runs on this
  // machine, a SIGINT to the process makes qemu stop and report it (the
  // signal is not passed on: see handleStop()).
  RspClient::WaitResult W = Client->waitStop(Stop, -1, 250);
  if (W == RspClient::WaitResult::Stopped)
    return true;
  if (W != RspClient::WaitResult::TimedOut)
    return false;
  if (StubVisible && ownsPeerSocket(Client->socketFd(), Tgt->pid()))
    ::kill(static_cast<pid_t>(Tgt->pid()), SIGINT);
  else
    S.warn(where() + ": waiting for the stub to stop the target");
  // Bounded: by the request timeout, and by the shutdown grace when the
  // session is ending.
  return Client->awaitStop(Stop, "a stop reply to the interrupt");
}

void RemoteBackend::Impl::finish(int Code, int Sig) {
  if (Gone)
    return;
  Gone = true;
  Tgt->Exited = true;
  for (const auto &[Tid, T] : Threads)
    S.threadExited(*Tgt, Tid);
  Threads.clear();
  S.targetExited(*Tgt, Code, Sig);
}

void RemoteBackend::Impl::shutdown(bool Kill) {
  if (!Client->connected()) {
    dropTarget();
    return;
  }
  if (Kill) {
    Client->kill();
    finish(0, SIGKILL);
    return;
  }
  // Leave nothing behind: every breakpoint (probe, return and loader) goes,
  // syscall catching stops, then the target runs on by itself.
  // No thread of the guest may trap to tsrun once it is gone.
  if (!closeGuestTraps(LastStopThread, LastStopPC)) {
    if (Gone)
      return; // the target exited meanwhile
    S.warn(where() + ": a thread of the guest may still trap to tsrun (its "
                     "agent's gate could not be closed)");
  }
  bool Clean = removeAgentSites();
  for (auto &[Addr, B] : Breakpoints)
    Clean &= removeBreakpoint(B);
  for (uint64_t Sem : Semaphores)
    Clean &= adjustSemaphore(Sem, -1);
  Semaphores.clear();
  if (!SysEntry.empty() || !SysExit.empty())
    Client->catchSyscalls(false, {});
  if (!Client->connected()) {
    dropTarget();
    return;
  }
  if (!Clean)
    S.warn(where() + ": some breakpoints could not be removed");
  if (!Client->detach())
    S.warn(where() + ": detach failed: " + Client->lastError());
  Breakpoints.clear();
  // Still running, but no longer ours: report it gone from the session.
  Gone = true;
  Tgt->Exited = true;
  for (const auto &[Tid, T] : Threads)
    S.threadExited(*Tgt, Tid);
  Threads.clear();
}
