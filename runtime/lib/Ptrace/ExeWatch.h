//===- ExeWatch.h - Processes that run a given file (--exe) -----*- C++ -*-===//
//
// `tsrun PROBE.o --exe PATH` traces every process whose executable, or a
// mapped library, is PATH: those running when tsrun starts (found in
// /proc/*/maps by device and inode) and every one that starts later.
//
// New processes are seen with fanotify where the kernel lets tsrun use it
// (CAP_SYS_ADMIN): a permission event on PATH holds the opener until tsrun
// answers. For a program (FAN_OPEN_EXEC_PERM, the execve() that runs it)
// the backend seizes the exec'ing thread before the answer, so the new
// image is traced from its first instruction; for a library (FAN_OPEN_PERM)
// the opener is attached after the open. Without fanotify, /proc is
// scanned every PollMs for processes that map PATH, which finds them late.
//
// The watcher runs on its own thread; ptrace requests belong to the
// backend's thread, which takes them from the queue (takeRequests()).
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_EXEWATCH_H
#define TSCC_RUNTIME_PTRACE_EXEWATCH_H

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <sys/types.h>
#include <thread>
#include <vector>

namespace tscc::rt::pt {

/// A file to watch, by identity (a rename or a new path to it still counts).
struct WatchedFile {
  std::string Path;
  dev_t Dev = 0;
  ino_t Ino = 0;
  bool IsProgram = false; ///< has PT_INTERP or is ET_EXEC: exec'd, not mapped
};

/// What the backend is asked to do.
struct AdoptRequest {
  pid_t Tid = 0;       ///< the thread (exec: the one calling execve)
  pid_t Pid = 0;       ///< its process
  bool AtExec = false; ///< seize now; set up at its exec stop
  std::string Path;    ///< AtExec: the watched file being exec'd
  uint64_t Serial = 0; ///< for done()
};

class ExeWatch {
public:
  static constexpr unsigned PollMs = 100;

  /// Wake(): makes the backend's thread look at the queue.
  explicit ExeWatch(std::function<void()> Wake) : Wake(std::move(Wake)) {}
  ~ExeWatch();

  /// Resolves every path; false with a message if one is no file.
  bool add(const std::string &Path, std::string &Error);
  /// Processes that run or map a watched file now (not tsrun itself).
  std::vector<pid_t> runningNow() const;
  /// Starts watching for new processes. Says in Mechanism how ("fanotify"
  /// or why not and "polling /proc every 100 ms").
  void start(std::string &Mechanism);
  void stop();

  /// Backend thread: the requests waiting, oldest first.
  std::vector<AdoptRequest> takeRequests();
  /// Backend thread: request Serial was handled (the watcher may answer).
  void done(uint64_t Serial);

private:
  bool watchesFile(dev_t Dev, ino_t Ino) const;
  bool mapsWatchedFile(pid_t Pid) const;
  /// The watched file open as Fd (its Path as given to add()).
  std::string watchedPathOf(int Fd) const;
  void fanotifyLoop();
  void pollLoop();
  void answer(int Fd, int EventFd, bool Allow);
  /// Queues a request and waits (bounded) until the backend handled it.
  void request(const AdoptRequest &R, bool Wait);

  std::function<void()> Wake;
  std::vector<WatchedFile> Files;
  int FanFd = -1;
  int StopPipe[2] = {-1, -1};
  std::thread Thread;

  std::mutex Lock;
  std::condition_variable Handled;
  std::vector<AdoptRequest> Queue;
  std::set<uint64_t> Done;
  uint64_t NextSerial = 1;
  std::set<pid_t> Seen; ///< polling: processes already handed over
};

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_EXEWATCH_H
