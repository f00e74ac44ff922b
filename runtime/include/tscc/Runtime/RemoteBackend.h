//===- tscc/Runtime/RemoteBackend.h - Processes behind a GDB stub ---------===//
//
// One RemoteBackend serves one process reached through the GDB remote serial
// protocol: `qemu-i386 -g PORT prog` (how 32-bit programs are traced on a
// kernel that cannot exec them), `gdbserver HOST:PORT prog`, or any other
// stub. tsrun creates one per `--remote HOST:PORT=EXE`; EXE is the local copy
// of the program the stub runs, whose symbols resolve the probes.
//
// Every protocol exchange happens on the thread that calls start() and run().
// See docs/runtime.md, "32-bit and remote targets".
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_REMOTEBACKEND_H
#define TSCC_RUNTIME_REMOTEBACKEND_H

#include "tscc/Runtime/Backend.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace tscc::rt {

class Session;

struct RemoteOptions {
  std::string Host = "127.0.0.1";
  /// A port number (or service name), as getaddrinfo() takes it.
  std::string Port;
  /// The executable the stub runs, as a local file (for symbols, and the
  /// data model when the stub does not describe its architecture).
  std::string Executable;
  /// When the session ends before the target does (Ctrl-C, exit()): false
  /// detaches (`D`) with every breakpoint removed and lets it run on; true
  /// kills it (`vKill` / `k`).
  bool KillOnStop = false;
  /// Seconds to keep retrying the TCP connection while the stub starts up.
  unsigned ConnectTimeoutSec = 10;
  /// How long the stub may take to answer one request (a packet and its
  /// reply, a step, the stop after an interrupt) before the target is
  /// dropped (`--remote-timeout`).
  unsigned RequestTimeoutMs = 10000;
};

/// Parses "HOST:PORT=EXE" (HOST may be "[v6addr]"; "PORT=EXE" means
/// 127.0.0.1). False with a message on a malformed spec.
bool parseRemoteSpec(std::string_view Spec, RemoteOptions &Out,
                     std::string &Error);

class RemoteBackend final : public Backend {
public:
  RemoteBackend(Session &S, std::string Host, std::string Port,
                std::string ExePath);
  RemoteBackend(Session &S, RemoteOptions Opts);
  ~RemoteBackend() override;

  bool start(std::string &Error) override;
  void run() override;
  void interrupt() override;

  class Impl;

private:
  std::unique_ptr<Impl> P;
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_REMOTEBACKEND_H
