//===- ExeWatch.cpp - Processes that run a given file (--exe) -------------===//
#include "ExeWatch.h"
#include "ProcMaps.h"

#include "tscc/Runtime/ElfFile.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <sstream>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace tscc::rt;
using namespace tscc::rt::pt;

namespace {

std::vector<pid_t> allPids() {
  std::vector<pid_t> Out;
  if (DIR *D = opendir("/proc")) {
    while (dirent *E = readdir(D))
      if (E->d_name[0] >= '1' && E->d_name[0] <= '9')
        Out.push_back(static_cast<pid_t>(std::atoi(E->d_name)));
    closedir(D);
  }
  return Out;
}

/// The process (thread group) of thread Tid, or 0.
pid_t threadGroupOf(pid_t Tid) {
  std::ifstream In("/proc/" + std::to_string(Tid) + "/status");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.rfind("Tgid:", 0) == 0)
      return static_cast<pid_t>(std::atoi(Line.c_str() + 5));
  return 0;
}

} // namespace

ExeWatch::~ExeWatch() { stop(); }

bool ExeWatch::add(const std::string &Path, std::string &Error) {
  struct stat St;
  if (stat(Path.c_str(), &St) != 0) {
    Error = "--exe " + Path + ": " + std::strerror(errno);
    return false;
  }
  if (!S_ISREG(St.st_mode)) {
    Error = "--exe " + Path + ": not a regular file";
    return false;
  }
  std::string Why;
  auto Elf = ElfFile::open(Path, Why, DebugSymbols::None);
  if (!Elf) {
    Error = "--exe " + Why;
    return false;
  }
  WatchedFile F;
  F.Path = Path;
  F.Dev = St.st_dev;
  F.Ino = St.st_ino;
  F.IsProgram = !Elf->interpreter().empty() || Elf->type() == ET_EXEC;
  Files.push_back(std::move(F));
  return true;
}

bool ExeWatch::watchesFile(dev_t Dev, ino_t Ino) const {
  for (const WatchedFile &F : Files)
    if (F.Dev == Dev && F.Ino == Ino)
      return true;
  return false;
}

std::string ExeWatch::watchedPathOf(int Fd) const {
  struct stat St;
  if (Fd >= 0 && fstat(Fd, &St) == 0)
    for (const WatchedFile &F : Files)
      if (F.Dev == St.st_dev && F.Ino == St.st_ino)
        return F.Path;
  return Files.empty() ? std::string() : Files.front().Path;
}

bool ExeWatch::mapsWatchedFile(pid_t Pid) const {
  return mapsFileWhere(
      Pid, [this](dev_t Dev, ino_t Ino) { return watchesFile(Dev, Ino); });
}

std::vector<pid_t> ExeWatch::runningNow() const {
  std::vector<pid_t> Out;
  pid_t Self = getpid();
  for (pid_t Pid : allPids())
    if (Pid != Self && mapsWatchedFile(Pid))
      Out.push_back(Pid);
  return Out;
}

void ExeWatch::start(std::string &Mechanism) {
  if (pipe2(StopPipe, O_CLOEXEC | O_NONBLOCK) != 0)
    StopPipe[0] = StopPipe[1] = -1;
  // FAN_REPORT_TID: the thread that opens, which is the one to seize.
  FanFd = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC | FAN_REPORT_TID,
                        O_RDONLY | O_CLOEXEC | O_LARGEFILE);
  bool Marked = FanFd >= 0;
  int Err = FanFd < 0 ? errno : 0;
  for (const WatchedFile &F : Files) {
    if (!Marked)
      break;
    uint64_t Mask = F.IsProgram ? FAN_OPEN_EXEC_PERM : FAN_OPEN_PERM;
    if (fanotify_mark(FanFd, FAN_MARK_ADD, Mask, AT_FDCWD, F.Path.c_str()) !=
        0) {
      Err = errno;
      Marked = false;
    }
  }
  if (Marked) {
    Mechanism = "fanotify";
    Thread = std::thread([this] { fanotifyLoop(); });
    return;
  }
  if (FanFd >= 0)
    close(FanFd);
  FanFd = -1;
  Mechanism = std::string("fanotify: ") + std::strerror(Err) +
              "; polling /proc every " + std::to_string(PollMs) +
              " ms instead (new processes are found late)";
  for (pid_t Pid : runningNow())
    Seen.insert(Pid);
  Thread = std::thread([this] { pollLoop(); });
}

void ExeWatch::stop() {
  if (StopPipe[1] >= 0) {
    char B = 1;
    [[maybe_unused]] ssize_t N = write(StopPipe[1], &B, 1);
  }
  {
    // A watcher waiting for the backend gives up at once.
    std::lock_guard<std::mutex> G(Lock);
    Handled.notify_all();
  }
  if (Thread.joinable())
    Thread.join();
  for (int *Fd : {&FanFd, &StopPipe[0], &StopPipe[1]})
    if (*Fd >= 0) {
      close(*Fd);
      *Fd = -1;
    }
}

std::vector<AdoptRequest> ExeWatch::takeRequests() {
  std::lock_guard<std::mutex> G(Lock);
  std::vector<AdoptRequest> Out;
  Out.swap(Queue);
  return Out;
}

void ExeWatch::done(uint64_t Serial) {
  std::lock_guard<std::mutex> G(Lock);
  Done.insert(Serial);
  Handled.notify_all();
}

void ExeWatch::request(const AdoptRequest &R, bool Wait) {
  std::unique_lock<std::mutex> G(Lock);
  AdoptRequest Q = R;
  Q.Serial = NextSerial++;
  Queue.push_back(Q);
  G.unlock();
  Wake();
  if (!Wait)
    return;
  G.lock();
  // Bounded: a backend that is busy (or gone) must not hold up every
  // execve() of the program on the machine.
  auto Until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!Done.count(Q.Serial)) {
    if (Handled.wait_until(G, Until) == std::cv_status::timeout)
      break;
    pollfd P{StopPipe[0], POLLIN, 0};
    if (StopPipe[0] >= 0 && poll(&P, 1, 0) > 0)
      break;
  }
  Done.erase(Q.Serial);
}

void ExeWatch::answer(int Fd, int EventFd, bool Allow) {
  fanotify_response R{};
  R.fd = EventFd;
  R.response = Allow ? FAN_ALLOW : FAN_DENY;
  [[maybe_unused]] ssize_t N = write(Fd, &R, sizeof(R));
}

void ExeWatch::fanotifyLoop() {
  pid_t Self = getpid();
  alignas(fanotify_event_metadata) char Buf[4096];
  for (;;) {
    pollfd P[2] = {{FanFd, POLLIN, 0}, {StopPipe[0], POLLIN, 0}};
    if (poll(P, 2, -1) < 0) {
      if (errno == EINTR)
        continue;
      return;
    }
    if (P[1].revents)
      return;
    ssize_t Len = read(FanFd, Buf, sizeof(Buf));
    if (Len <= 0) {
      if (Len < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      return;
    }
    auto *M = reinterpret_cast<fanotify_event_metadata *>(Buf);
    for (; FAN_EVENT_OK(M, Len); M = FAN_EVENT_NEXT(M, Len)) {
      if (M->vers != FANOTIFY_METADATA_VERSION)
        return;
      auto Tid = static_cast<pid_t>(M->pid);
      pid_t Pid = threadGroupOf(Tid);
      // tsrun's own reads of the file (its symbols) are not a new process.
      if (Pid > 0 && Pid != Self) {
        AdoptRequest R;
        R.Tid = Tid;
        R.Pid = Pid;
        R.AtExec = (M->mask & FAN_OPEN_EXEC_PERM) != 0;
        R.Path = watchedPathOf(M->fd);
        // An exec waits until its thread is seized; a library's opener is
        // attached once the open is done (it must run to be stopped).
        request(R, /*Wait=*/R.AtExec);
      }
      if (M->fd >= 0) {
        answer(FanFd, M->fd, true);
        close(M->fd);
      }
    }
  }
}

void ExeWatch::pollLoop() {
  for (;;) {
    pollfd P{StopPipe[0], POLLIN, 0};
    if (poll(&P, 1, PollMs) != 0)
      return; // stopped (or the pipe failed)
    std::set<pid_t> Now;
    for (pid_t Pid : runningNow()) {
      Now.insert(Pid);
      if (Seen.count(Pid))
        continue;
      AdoptRequest R;
      R.Tid = R.Pid = Pid;
      request(R, /*Wait=*/false);
    }
    Seen = std::move(Now);
  }
}
