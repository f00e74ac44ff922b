//===- StubProcess.h - Real GDB stubs for unit tests ------------*- C++ -*-===//
//
// Starts a real stub (qemu-i386, gdbserver) on a free port and waits until
// it listens; helpers to run its target to an address. Shared by the
// tests that talk to real stubs.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_TEST_UNIT_REMOTE_STUBPROCESS_H
#define TSCC_TEST_UNIT_REMOTE_STUBPROCESS_H

#include "tscc/Runtime/RspClient.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <set>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace tscc::rt::test {

using tscc::rt::RspClient;
using tscc::rt::RspStop;

inline uint16_t freePort() {
  int S = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in A{};
  A.sin_family = AF_INET;
  A.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(S, reinterpret_cast<sockaddr *>(&A), sizeof(A));
  socklen_t L = sizeof(A);
  getsockname(S, reinterpret_cast<sockaddr *>(&A), &L);
  close(S);
  return ntohs(A.sin_port);
}

/// Whether process Pid has a listening TCP socket on Port: the stub is
/// ready. Found in the kernel's tables, not by connecting (qemu-user serves
/// only its first connection).
inline bool listening(pid_t Pid, uint16_t Port) {
  std::set<std::string> Inodes;
  std::string Dir = "/proc/" + std::to_string(Pid) + "/fd/";
  for (int Fd = 0; Fd < 64; ++Fd) {
    char Buf[64] = {};
    if (readlink((Dir + std::to_string(Fd)).c_str(), Buf, sizeof(Buf) - 1) >
            8 &&
        !strncmp(Buf, "socket:[", 8))
      Inodes.insert(std::string(Buf + 8, strlen(Buf) - 9));
  }
  char Want[8];
  snprintf(Want, sizeof(Want), ":%04X", Port);
  for (const char *Table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream In(Table);
    std::string Line;
    std::getline(In, Line);
    while (std::getline(In, Line)) {
      std::istringstream F(Line);
      std::string Sl, Local, Remote, St, Q, T, R, Uid, Timeout, Inode;
      F >> Sl >> Local >> Remote >> St >> Q >> T >> R >> Uid >> Timeout >>
          Inode;
      if (St == "0A" && Local.size() >= 5 &&
          Local.compare(Local.size() - 5, 5, Want) == 0 && Inodes.count(Inode))
        return true;
    }
  }
  return false;
}

/// A stub process serving one program; killed if the test leaves it.
struct StubProcess {
  pid_t Pid = -1;
  uint16_t Port = 0;

  bool start(std::vector<std::string> ArgvTemplate) {
    for (int Attempt = 0; Attempt < 10; ++Attempt) {
      Port = freePort();
      std::vector<std::string> Args;
      for (std::string A : ArgvTemplate) {
        if (size_t P = A.find("{port}"); P != std::string::npos)
          A.replace(P, 6, std::to_string(Port));
        Args.push_back(A);
      }
      std::vector<char *> Argv;
      for (std::string &A : Args)
        Argv.push_back(A.data());
      Argv.push_back(nullptr);
      posix_spawn_file_actions_t FA;
      posix_spawn_file_actions_init(&FA);
      posix_spawn_file_actions_addopen(&FA, 1, "/dev/null", O_WRONLY, 0);
      posix_spawn_file_actions_addopen(&FA, 2, "/dev/null", O_WRONLY, 0);
      int E = posix_spawnp(&Pid, Argv[0], &FA, nullptr, Argv.data(), environ);
      posix_spawn_file_actions_destroy(&FA);
      if (E)
        return false;
      // Handshake: the stub listens, or dies (port taken): poll both.
      for (;;) {
        int St = 0;
        if (waitpid(Pid, &St, WNOHANG) == Pid) {
          Pid = -1;
          break;
        }
        if (listening(Pid, Port))
          return true;
        usleep(2000);
      }
    }
    return false;
  }
  ~StubProcess() {
    if (Pid > 0) {
      kill(Pid, SIGKILL);
      waitpid(Pid, nullptr, 0);
    }
  }
};

inline bool have(const char *Tool) {
  std::string Cmd = std::string("command -v ") + Tool + " >/dev/null 2>&1";
  return system(Cmd.c_str()) == 0;
}

inline std::string remoteInput(const char *Name) {
  return std::string(TSCC_REMOTE_INPUTS) + "/" + Name;
}

/// Runs the target to Symbol's first instruction with a Z0 breakpoint.
inline void runTo(RspClient &C, uint64_t Addr, RspStop &Stop) {
  bool Unsupported = false;
  ASSERT_TRUE(C.insertBreakpoint(Addr, 1, Unsupported));
  ASSERT_TRUE(C.resumeAll());
  ASSERT_EQ(C.waitStop(Stop, -1), RspClient::WaitResult::Stopped);
  ASSERT_EQ(Stop.K, RspStop::Signal);
  ASSERT_EQ(Stop.Sig, 5);
}

} // namespace tscc::rt::test

#endif // TSCC_TEST_UNIT_REMOTE_STUBPROCESS_H
