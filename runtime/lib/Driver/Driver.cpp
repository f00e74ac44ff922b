//===- Driver.cpp - tsrun: options, backends, signals, exit status --------===//
//
// Order of events: load and validate the object, open the output, start every
// backend on its own thread (launch / attach / connect, install probes), run
// BEGIN, let the backends run, and when they are all done -- targets gone,
// exit() called, or Ctrl-C / SIGTERM / SIGHUP -- run END, print the
// aggregations and the per-clause counters.
//
//===----------------------------------------------------------------------===//

#include "tscc/Runtime/Driver.h"

#include "ListProbes.h"
#include "ObjectTrust.h"

#include "tscc/ClosestName.h"
#include "tscc/Runtime/Backend.h"
#include "tscc/Runtime/CallerSignals.h"
#include "tscc/Runtime/Metrics.h"
#include "tscc/Runtime/ProbeProgram.h"
#include "tscc/Runtime/PtraceBackend.h"
#include "tscc/Runtime/RemoteBackend.h"
#include "tscc/Runtime/Session.h"
#include "tscc/Runtime/SharedStore.h"

// A development build may leave runtime/lib/Remote out (TSRT_EXCLUDE_DIRS);
// tsrun then says --remote is unavailable instead of failing to link.
#ifdef TSCC_WITHOUT_REMOTE
#define TSCC_HAVE_REMOTE 0
#else
#define TSCC_HAVE_REMOTE 1
#endif

#include <atomic>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <future>
#include <optional>
#include <thread>
#include <unistd.h>

using namespace tscc::rt;

#ifndef TSCC_VERSION
#define TSCC_VERSION "0.1.0"
#endif

namespace {

/// The deepest --max-stack-depth: a stack record of 1024 frames is 8 KiB.
constexpr unsigned long MaxStackDepthLimit = 1024;

struct DriverOptions {
  std::string Tool = "tsrun";
  std::string Object;
  std::string OutputFile;
  OutputFormat Format = OutputFormat::Text;
  std::vector<std::vector<std::string>> Commands;
  std::vector<int64_t> Pids;
  std::vector<std::string> Executables; ///< --exe PATH
  std::vector<RemoteOptions> Remotes;
  std::vector<std::string> RemoteSpecs;
  unsigned RemoteTimeoutMs = 10000; ///< --remote-timeout
  std::vector<std::string> Params;
  bool Verbose = false;
  bool KeepLaunched = false;
  bool PtraceOnly = false;
  /// Let go of processes whose clauses all run inside them (--detach).
  /// Not yet the default: the detached path still miscounts some legal
  /// programs (docs/runtime.md, *Detached processes*).
  bool Detach = false;
  bool SyscallDispatch = false;
  bool AllowUntrustedObject = false;
  size_t MapCapacity = 1u << 16;
  unsigned MaxStackDepth = 64;
  /// Each thread's own buffer: 1M, mapped as its thread writes. A burst
  /// goes on in a burst buffer (below) instead of a 64M buffer for every
  /// thread: the shard a process can fill is --max-threads buffers plus
  /// the burst buffers (1 GiB + 256 MiB at the defaults), not 64 GiB.
  size_t ThreadBuffer = 1u << 20;
  /// Burst extents of one process (--burst-buffers) and their size
  /// (--burst-buffer): a thread whose buffer is full goes on in one, so
  /// that a burst of a million records is not lost, while what a process
  /// can fill of the session's memory stays --max-threads buffers plus
  /// these.
  uint32_t BurstBuffers = 4;
  size_t BurstBuffer = 64u << 20;
  uint32_t MaxThreads = StoreShape().ThreadCapacity;
  unsigned SpinMicros = PtraceOptions().SpinMicros;
  BinaryOptions Binary;
  BufferMode Buffer = BufferMode::Continuous;
  size_t BufferSize = 0;      ///< --buffer-size; 0: the mode's default
  bool CollectOff = false;    ///< --collect=off
  bool BlockWhenFull = false; ///< --on-full=block
  std::string Metrics;        ///< --metrics HOST:PORT
  /// -l SPEC: list what SPEC matches instead of tracing.
  std::optional<std::string> ListSpec;
  /// Started by `tscc --run` (TSCC_RUN_BY_TSCC), whose object is a private
  /// temporary file: hints show the tscc command, not the object.
  bool ByTsccRun = false;
};

enum class ParseResult { Run, List, Help, Version, Error };

void usage(FILE *F, const std::string &Tool, bool Linked) {
  fprintf(
      F,
      "usage: %s%s [options] [PARAM...] [-- COMMAND [ARG...]]\n"
      "       %s -l SPEC [BINARY | -p PID | -- COMMAND]\n"
      "\n"
      "Runs a tscc probe object against processes.\n"
      "\n"
      "targets:\n"
      "  -c 'CMD ARGS'          launch CMD (split like a shell would); "
      "repeatable\n"
      "  -- CMD ARGS...         launch CMD with the remaining arguments as is\n"
      "  -p PID                 attach to a running process; repeatable\n"
      "  --exe PATH             trace every process running PATH (or mapping\n"
      "                         it), now and started later; repeatable\n"
      "  --remote HOST:PORT=EXE trace EXE behind a GDB remote stub\n"
      "                         (qemu-i386 -g PORT, gdbserver); repeatable\n"
      "  --remote-timeout SEC   drop a remote target whose stub takes longer\n"
      "                         than SEC seconds to answer (default 10)\n"
      "output:\n"
      "  -o FILE                write output to FILE instead of stdout\n"
      "  -f text|json|binary    output format (default text); binary needs -o\n"
      "  -v, --verbose          report attachments, exits and clause counters\n"
      "  --buffer-mode MODE     continuous (default): write everything, drop\n"
      "                         and count what tsrun cannot keep up with;\n"
      "                         circular: keep the newest records, write them\n"
      "                         at the end and on SIGHUP (to FILE.1, "
      "FILE.2...);\n"
      "                         single: keep the oldest, stop collecting when "
      "full\n"
      "  --ring                 same as --buffer-mode circular\n"
      "  --buffer-size N[K|M|G] circular/single: bytes of records kept "
      "(default\n"
      "                         8M); continuous: the write buffer (default "
      "1M)\n"
      "  --collect=on|off       start with collection on (default) or off;\n"
      "                         SIGUSR1 stops it, SIGUSR2 starts it again\n"
      "  --on-full=drop|block   a thread whose record buffer is full drops\n"
      "                         the record (default, counted and marked) or\n"
      "                         waits for tsrun to make room\n"
      "  --metrics HOST:PORT    serve aggregations and clause counters at\n"
      "                         http://HOST:PORT/metrics for Prometheus while\n"
      "                         tracing (port 0: any free port; -v says "
      "which)\n"
      "session:\n"
      "  PARAM...               values of $1, $2, ... (integers in any C "
      "base,\n"
      "                         or text); a PARAM may not start with '-' "
      "unless\n"
      "                         it is a negative number\n"
      "  --thread-buffer N[K|M|G] records a traced thread may have waiting\n"
      "                         for tsrun before new ones are dropped\n"
      "                         (default 1M, a power of two; mapped as\n"
      "                         the thread needs it)\n"
      "  --burst-buffers N      buffers of one traced process that a thread\n"
      "                         whose own buffer is full goes on in\n"
      "                         (default 4, 0 for none; at most 64)\n"
      "  --burst-buffer N[K|M|G] bytes of each (default 64M, a power of two\n"
      "                         from 2M to 1G)\n"
      "  --max-threads N        threads of one traced process that can have\n"
      "                         state (thread-locals, a record buffer) at\n"
      "                         once (default 1024; at most 256G divided by\n"
      "                         --thread-buffer)\n"
      "  --map-capacity N       entries per associative array / aggregation\n"
      "                         before new keys are dropped (default 65536)\n"
      "  --max-stack-depth N    frames of a stktrace() that asks for no "
      "depth,\n"
      "                         and the most any may have (default 64; a\n"
      "                         stack cut there ends in [truncated: depth\n"
      "                         limit])\n"
      "  --spin USEC            native targets: poll up to USEC microseconds "
      "for\n"
      "                         the next hit before sleeping, while hits come\n"
      "                         that close together (default 50; 0: never)\n"
      "  --ptrace               native targets: run every clause in tsrun, at "
      "a\n"
      "                         ptrace stop per hit, instead of in the "
      "process\n"
      "  --detach               native targets: let go of each process once\n"
      "                         all of its sites run in it, attaching again\n"
      "                         only for an exec, a dlopen() and to end the\n"
      "                         session\n"
      "  --no-detach            stay attached to every traced process for\n"
      "                         the whole session (the default)\n"
      "  --syscall-dispatch     attached 64-bit targets: system calls no\n"
      "                         patched site catches are caught in the\n"
      "                         process (Syscall User Dispatch) instead of\n"
      "                         PTRACE_SYSCALL (experimental)\n"
      "  --keep-launched        when the session ends first, detach launched\n"
      "                         commands and let them run (default: kill "
      "them)\n"
      "  --allow-untrusted-object  as root, run an object file that others\n"
      "                         could have written (refused by default)\n"
      "listing:\n"
      "  -l, --list SPEC        list the functions or USDT probes (module,\n"
      "                         address) or system calls (per data model) "
      "SPEC\n"
      "                         matches, e.g. 'uft:*:libc.so.6:mall*',\n"
      "                         'usdt:*:*:python:*' or 'syscall:*:open*';\n"
      "                         nothing is traced\n"
      "  -h, --help             this help\n"
      "  --version              version information\n",
      Tool.c_str(), Linked ? "" : " PROBE.o", Tool.c_str());
}

bool isNegativeNumber(const char *A) {
  return A[0] == '-' &&
         (isdigit(static_cast<unsigned char>(A[1])) ||
          (A[1] == '.' && isdigit(static_cast<unsigned char>(A[2]))));
}

bool parsePid(const char *S, int64_t &Pid) {
  char *End = nullptr;
  errno = 0;
  long long V = strtoll(S, &End, 10);
  if (errno || !*S || *End || V <= 0 || V > INT32_MAX)
    return false;
  Pid = V;
  return true;
}

/// "65536", "64K", "8M", "1G".
bool parseSize(const std::string &S, size_t &Out) {
  char *End = nullptr;
  errno = 0;
  unsigned long long V = strtoull(S.c_str(), &End, 10);
  if (S.empty() || !isdigit(static_cast<unsigned char>(S[0])) || errno)
    return false;
  std::string Unit(End);
  unsigned Shift = Unit.empty()                 ? 0
                   : Unit == "K" || Unit == "k" ? 10
                   : Unit == "M" || Unit == "m" ? 20
                   : Unit == "G" || Unit == "g" ? 30
                                                : 99;
  if (Shift == 99 || V > (1ull << 40) >> Shift)
    return false;
  Out = static_cast<size_t>(V << Shift);
  return Out >= 4096;
}

/// The long option \p A (without its "=VALUE") was probably meant to be.
std::string_view closestOption(const std::string &A) {
  static constexpr std::string_view Long[] = {"--exe",
                                              "--help",
                                              "--version",
                                              "--list",
                                              "--verbose",
                                              "--keep-launched",
                                              "--ptrace",
                                              "--allow-untrusted-object",
                                              "--detach",
                                              "--no-detach",
                                              "--syscall-dispatch",
                                              "--ring",
                                              "--buffer-mode",
                                              "--collect",
                                              "--on-full",
                                              "--thread-buffer",
                                              "--burst-buffers",
                                              "--burst-buffer",
                                              "--buffer-size",
                                              "--metrics",
                                              "--remote",
                                              "--remote-timeout",
                                              "--map-capacity",
                                              "--max-stack-depth",
                                              "--max-threads",
                                              "--spin"};
  if (A.rfind("--", 0) != 0)
    return {};
  return closestName(std::string_view(A).substr(0, A.find('=')), Long);
}

ParseResult parseArgs(int Argc, char **Argv, bool Linked, DriverOptions &O,
                      std::string &Error) {
  auto Value = [&](int &I, const char *Opt, std::string &Into) {
    std::string A = Argv[I];
    // --opt=value and -oFILE forms.
    if (A.size() > strlen(Opt) && A.compare(0, strlen(Opt), Opt) == 0) {
      size_t Skip = strlen(Opt) + (A[strlen(Opt)] == '=' ? 1 : 0);
      Into = A.substr(Skip);
      return true;
    }
    if (I + 1 >= Argc) {
      Error = std::string("option '") + Opt + "' needs a value";
      return false;
    }
    Into = Argv[++I];
    return true;
  };
  auto Is = [](const std::string &A, const char *Opt) {
    size_t N = strlen(Opt);
    return A == Opt ||
           (A.compare(0, N, Opt) == 0 && (Opt[1] != '-' ? true : A[N] == '='));
  };
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    std::string V;
    if (A == "--") {
      std::vector<std::string> Cmd(Argv + I + 1, Argv + Argc);
      if (Cmd.empty())
        return (Error = "'--' must be followed by a command"),
               ParseResult::Error;
      O.Commands.push_back(std::move(Cmd));
      break;
    }
    if (A == "-h" || A == "--help")
      return ParseResult::Help;
    if (A == "--version")
      return ParseResult::Version;
    // -l comes before any object or parameter, so that `tsrun probe.o ls
    // -l` (a forgotten `--`) is not taken for a listing.
    if ((Is(A, "-l") || Is(A, "--list")) && O.Object.empty() &&
        O.Params.empty()) {
      if (!Value(I, A.rfind("--list", 0) == 0 ? "--list" : "-l", V))
        return ParseResult::Error;
      O.ListSpec = V;
    } else if (A == "-v" || A == "--verbose") {
      O.Verbose = true;
    } else if (A == "--keep-launched") {
      O.KeepLaunched = true;
    } else if (A == "--ptrace") {
      O.PtraceOnly = true;
    } else if (A == "--syscall-dispatch") {
      O.SyscallDispatch = true;
    } else if (A == "--detach") {
      O.Detach = true;
    } else if (A == "--no-detach") {
      O.Detach = false;
    } else if (A == "--allow-untrusted-object") {
      O.AllowUntrustedObject = true;
    } else if (A == "--ring") {
      O.Buffer = BufferMode::Circular;
    } else if (Is(A, "--buffer-mode")) {
      if (!Value(I, "--buffer-mode", V))
        return ParseResult::Error;
      if (V == "continuous")
        O.Buffer = BufferMode::Continuous;
      else if (V == "circular")
        O.Buffer = BufferMode::Circular;
      else if (V == "single")
        O.Buffer = BufferMode::Single;
      else
        return (Error = "unknown --buffer-mode '" + V +
                        "' (expected continuous, circular or single)"),
               ParseResult::Error;
    } else if (Is(A, "--collect")) {
      if (!Value(I, "--collect", V))
        return ParseResult::Error;
      if (V != "on" && V != "off")
        return (Error = "invalid --collect '" + V + "' (expected on or off)"),
               ParseResult::Error;
      O.CollectOff = V == "off";
    } else if (Is(A, "--on-full")) {
      if (!Value(I, "--on-full", V))
        return ParseResult::Error;
      if (V != "drop" && V != "block")
        return (Error =
                    "invalid --on-full '" + V + "' (expected drop or block)"),
               ParseResult::Error;
      O.BlockWhenFull = V == "block";
    } else if (Is(A, "--thread-buffer")) {
      if (!Value(I, "--thread-buffer", V))
        return ParseResult::Error;
      // At least room for two stack snapshots (8 KiB of stack each).
      if (!parseSize(V, O.ThreadBuffer) || O.ThreadBuffer < (64u << 10) ||
          O.ThreadBuffer > (1ull << 30) ||
          (O.ThreadBuffer & (O.ThreadBuffer - 1)))
        return (Error = "invalid --thread-buffer '" + V +
                        "' (expected a power of two from 64K to 1G)"),
               ParseResult::Error;
    } else if (Is(A, "--burst-buffer")) {
      if (!Value(I, "--burst-buffer", V))
        return ParseResult::Error;
      if (!parseSize(V, O.BurstBuffer) || O.BurstBuffer < (2u << 20) ||
          O.BurstBuffer > (1ull << 30) || (O.BurstBuffer & (O.BurstBuffer - 1)))
        return (Error = "invalid --burst-buffer '" + V +
                        "' (expected a power of two from 2M to 1G)"),
               ParseResult::Error;
    } else if (Is(A, "--burst-buffers")) {
      if (!Value(I, "--burst-buffers", V))
        return ParseResult::Error;
      char *End = nullptr;
      errno = 0;
      unsigned long long N = strtoull(V.c_str(), &End, 10);
      if (V.empty() || !isdigit(static_cast<unsigned char>(V[0])) || *End ||
          errno || N > 64)
        return (Error = "invalid --burst-buffers '" + V +
                        "' (expected a count from 0 to 64)"),
               ParseResult::Error;
      O.BurstBuffers = static_cast<uint32_t>(N);
    } else if (Is(A, "--max-threads")) {
      if (!Value(I, "--max-threads", V))
        return ParseResult::Error;
      char *End = nullptr;
      errno = 0;
      unsigned long long N = strtoull(V.c_str(), &End, 10);
      if (V.empty() || !isdigit(static_cast<unsigned char>(V[0])) || *End ||
          errno || N < 1 || N > (1u << 20))
        return (Error = "invalid --max-threads '" + V +
                        "' (expected a count from 1 to 1048576)"),
               ParseResult::Error;
      O.MaxThreads = static_cast<uint32_t>(N);
    } else if (Is(A, "--buffer-size")) {
      if (!Value(I, "--buffer-size", V))
        return ParseResult::Error;
      if (!parseSize(V, O.BufferSize))
        return (Error = "invalid --buffer-size '" + V +
                        "' (expected bytes, optionally with K, M or G, "
                        "at least 4K)"),
               ParseResult::Error;
    } else if (Is(A, "--metrics")) {
      if (!Value(I, "--metrics", O.Metrics))
        return ParseResult::Error;
    } else if (Is(A, "-o")) {
      if (!Value(I, "-o", O.OutputFile))
        return ParseResult::Error;
    } else if (Is(A, "-f")) {
      if (!Value(I, "-f", V))
        return ParseResult::Error;
      if (V == "text")
        O.Format = OutputFormat::Text;
      else if (V == "json")
        O.Format = OutputFormat::Json;
      else if (V == "binary")
        O.Format = OutputFormat::Binary;
      else
        return (Error = "unknown output format '" + V +
                        "' (expected text, json or binary)"),
               ParseResult::Error;
    } else if (Is(A, "-c")) {
      std::vector<std::string> Cmd;
      if (!Value(I, "-c", V) || !splitCommand(V, Cmd, Error))
        return ParseResult::Error;
      if (Cmd.empty())
        return (Error = "empty command for -c"), ParseResult::Error;
      O.Commands.push_back(std::move(Cmd));
    } else if (Is(A, "-p")) {
      int64_t Pid;
      if (!Value(I, "-p", V))
        return ParseResult::Error;
      if (!parsePid(V.c_str(), Pid))
        return (Error = "invalid pid '" + V + "'"), ParseResult::Error;
      O.Pids.push_back(Pid);
    } else if (Is(A, "--exe")) {
      if (!Value(I, "--exe", V))
        return ParseResult::Error;
      O.Executables.push_back(V);
    } else if (Is(A, "--remote")) {
      RemoteOptions R;
      if (!Value(I, "--remote", V))
        return ParseResult::Error;
#if TSCC_HAVE_REMOTE
      std::string Why;
      if (!parseRemoteSpec(V, R, Why))
        return (Error = "invalid --remote '" + V + "': " + Why),
               ParseResult::Error;
#endif
      O.Remotes.push_back(std::move(R));
      O.RemoteSpecs.push_back(V);
    } else if (Is(A, "--remote-timeout")) {
      if (!Value(I, "--remote-timeout", V))
        return ParseResult::Error;
      char *End = nullptr;
      double Sec = strtod(V.c_str(), &End);
      if (V.empty() || *End || !(Sec >= 0.001 && Sec <= 86400))
        return (Error = "invalid --remote-timeout '" + V + "'"),
               ParseResult::Error;
      O.RemoteTimeoutMs = static_cast<unsigned>(Sec * 1000 + 0.5);
    } else if (Is(A, "--map-capacity")) {
      if (!Value(I, "--map-capacity", V))
        return ParseResult::Error;
      char *End = nullptr;
      unsigned long long N = strtoull(V.c_str(), &End, 0);
      if (V.empty() || *End || N == 0 || N > (1ull << 32))
        return (Error = "invalid --map-capacity '" + V + "'"),
               ParseResult::Error;
      O.MapCapacity = N;
    } else if (Is(A, "--max-stack-depth")) {
      if (!Value(I, "--max-stack-depth", V))
        return ParseResult::Error;
      char *End = nullptr;
      errno = 0;
      unsigned long N = strtoul(V.c_str(), &End, 10);
      if (V.empty() || !isdigit(static_cast<unsigned char>(V[0])) || *End ||
          errno || N == 0 || N > MaxStackDepthLimit)
        return (Error = "invalid --max-stack-depth '" + V + "' (expected " +
                        "1 to " + std::to_string(MaxStackDepthLimit) + ")"),
               ParseResult::Error;
      O.MaxStackDepth = static_cast<unsigned>(N);
    } else if (Is(A, "--spin")) {
      if (!Value(I, "--spin", V))
        return ParseResult::Error;
      char *End = nullptr;
      errno = 0;
      unsigned long N = strtoul(V.c_str(), &End, 10);
      if (V.empty() || !isdigit(static_cast<unsigned char>(V[0])) || *End ||
          errno || N > 1000000)
        return (Error = "invalid --spin '" + V +
                        "' (expected microseconds, 0 to 1000000)"),
               ParseResult::Error;
      O.SpinMicros = static_cast<unsigned>(N);
    } else if (A.size() > 1 && A[0] == '-' && !isNegativeNumber(A.c_str())) {
      Error = "unknown option '" + A + "'";
      // `tsrun probe.o ls -l`: the command's options meet tsrun's parser.
      if (std::string_view Best = closestOption(A); !Best.empty())
        Error += "; did you mean '" + std::string(Best) + "'?";
      else if (!O.Params.empty())
        Error += "; to trace '" + O.Params.front() + " " + A +
                 " ...', put the command after '--'";
      return ParseResult::Error;
    } else if (!Linked && O.Object.empty()) {
      O.Object = A;
    } else {
      O.Params.push_back(A);
    }
  }
  if (O.ListSpec) {
    // `tsrun -l SPEC [BINARY | -p PID | -- CMD]`: no object.
    if (!O.Object.empty())
      O.Params.insert(O.Params.begin(), O.Object);
    O.Object.clear();
    size_t Targets = O.Params.size() + O.Pids.size() + O.Commands.size();
    if (Targets > 1 || !O.Remotes.empty())
      return (Error = "-l lists the matches in one program: give one "
                      "BINARY, -p PID or -- CMD"),
             ParseResult::Error;
    return ParseResult::List;
  }
  if (!Linked && O.Object.empty())
    return (Error = "no probe object given"), ParseResult::Error;
  if (O.BufferSize && O.Buffer == BufferMode::Continuous)
    O.Binary.BufferSize = O.BufferSize;
  if (O.Format == OutputFormat::Binary && O.OutputFile.empty())
    return (Error = "-f binary needs an output file (-o FILE)"),
           ParseResult::Error;
  return ParseResult::Run;
}

//===----------------------------------------------------------------------===//
// Signals
//===----------------------------------------------------------------------===//

// What the signal handler may touch: only atomics and async-signal-safe
// calls (Session::requestStop, Session::setCollecting, Backend::interrupt,
// write).
std::atomic<Session *> SignalSession{nullptr};
constexpr size_t MaxBackends = 64;
std::atomic<Backend *> SignalBackends[MaxBackends];
int WakePipe[2] = {-1, -1};
/// Requests for the control thread (Control), which says what happened and
/// writes snapshots: the handler itself only flips the switches.
int ControlPipe[2] = {-1, -1};
/// Circular buffer mode: SIGHUP writes a snapshot instead of ending.
std::atomic<bool> SnapshotOnHangup{false};

enum class Control : char {
  Off = 'o',      // SIGUSR1
  On = 'O',       // SIGUSR2
  Snapshot = 's', // SIGHUP in circular mode
  Full = 'f',     // the single buffer filled
  Quit = 'q',
};

void requestControl(Control C) {
  if (ControlPipe[1] >= 0) {
    char Byte = static_cast<char>(C);
    [[maybe_unused]] ssize_t N = write(ControlPipe[1], &Byte, 1);
  }
}

void stopEverything() {
  if (Session *S = SignalSession.load())
    S->requestStop();
  for (auto &B : SignalBackends)
    if (Backend *P = B.load())
      P->interrupt();
  if (WakePipe[1] >= 0) {
    char C = 1;
    [[maybe_unused]] ssize_t N = write(WakePipe[1], &C, 1);
  }
}

void onSignal(int Sig) {
  int Saved = errno;
  Session *S = SignalSession.load();
  if (Sig == SIGUSR1 || Sig == SIGUSR2) {
    // Switched here, at once: a program that signals tsrun and waits for
    // the announcement knows its next call sees the new state.
    if (S)
      S->setCollecting(Sig == SIGUSR2);
    requestControl(Sig == SIGUSR2 ? Control::On : Control::Off);
  } else if (Sig == SIGHUP && SnapshotOnHangup.load()) {
    requestControl(Control::Snapshot);
  } else {
    stopEverything();
  }
  errno = Saved;
}

void installSignals() {
  struct sigaction SA{};
  SA.sa_handler = onSignal;
  sigemptyset(&SA.sa_mask);
  SA.sa_flags = SA_RESTART;
  for (int Sig : {SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGUSR2})
    sigaction(Sig, &SA, nullptr);
  // A closed output pipe is an output error (reported), not a silent death.
  signal(SIGPIPE, SIG_IGN);
}

/// Announces collection switches and writes snapshots, off the signal
/// handler: both take the session's locks and write output.
class ControlThread {
public:
  explicit ControlThread(Session &S) : T([&S] { loop(S); }) {}
  ~ControlThread() { stop(); }
  void stop() {
    if (!T.joinable())
      return;
    requestControl(Control::Quit);
    T.join();
  }

private:
  static void loop(Session &S) {
    for (;;) {
      char C;
      ssize_t N = read(ControlPipe[0], &C, 1);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0 || C == static_cast<char>(Control::Quit))
        return;
      std::string Err;
      switch (static_cast<Control>(C)) {
      case Control::Off:
        S.announceCollection(false, "SIGUSR1");
        break;
      case Control::On:
        S.announceCollection(true, "SIGUSR2");
        break;
      case Control::Full:
        S.announceCollection(false, "single buffer full");
        break;
      case Control::Snapshot:
        if (!S.snapshot(Err))
          S.warn("SIGHUP: no snapshot written: " + Err);
        break;
      case Control::Quit:
        return;
      }
    }
  }
  std::thread T;
};

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

struct BackendRun {
  std::unique_ptr<Backend> B;
  std::string Name;
  std::thread Thread;
  std::promise<std::string> Started; ///< "" on success, else the error
  std::promise<bool> Go;             ///< true: run; false: clean up only
};

void error(const DriverOptions &O, const std::string &Msg) {
  fprintf(stderr, "%s: error: %s\n", O.Tool.c_str(), Msg.c_str());
}

std::unique_ptr<OutputSink> formatSink(const DriverOptions &O,
                                       const ProbeProgram &P, FILE *Out,
                                       bool Owns) {
  switch (O.Format) {
  case OutputFormat::Json:
    return createJsonSink(P, Out, Owns);
  case OutputFormat::Binary:
    return createBinarySink(P, Out, Owns, O.Binary);
  case OutputFormat::Text:
    break;
  }
  TextOptions T;
  T.Verbose = O.Verbose;
  return createTextSink(P, Out, Owns, T);
}

std::unique_ptr<OutputSink> openSink(const DriverOptions &O,
                                     const ProbeProgram &P, std::string &Err) {
  FILE *Out = stdout;
  bool Owns = false;
  if (!O.OutputFile.empty() && O.OutputFile != "-") {
    Out = fopen(O.OutputFile.c_str(),
                O.Format == OutputFormat::Binary ? "wbe" : "we");
    if (!Out) {
      Err = O.OutputFile + ": " + strerror(errno);
      return nullptr;
    }
    Owns = true;
  }
  if (O.Buffer == BufferMode::Continuous) {
    if (O.BufferSize && O.Format != OutputFormat::Binary)
      setvbuf(Out, nullptr, _IOFBF, O.BufferSize);
    return formatSink(O, P, Out, Owns);
  }
  BufferOptions B;
  B.Mode = O.Buffer;
  B.Size = O.BufferSize ? O.BufferSize : 8u << 20;
  B.OnFull = [] {
    if (Session *S = SignalSession.load())
      S->setCollecting(false);
    requestControl(Control::Full);
  };
  // Without -o, snapshots go to the current directory.
  B.SnapshotBase = O.OutputFile.empty() || O.OutputFile == "-"
                       ? std::string("tsrun-snapshot")
                       : O.OutputFile;
  B.MakeSink = [&O, &P](FILE *F) {
    DriverOptions Quiet = O;
    Quiet.Verbose = false; // a snapshot holds the script's output only
    return formatSink(Quiet, P, F, true);
  };
  SnapshotOnHangup = O.Buffer == BufferMode::Circular;
  return createBufferedSink(P, formatSink(O, P, Out, Owns), std::move(B));
}

bool createBackends(const DriverOptions &O, Session &S,
                    std::vector<std::unique_ptr<BackendRun>> &Runs,
                    std::string &Err) {
  if (!O.Commands.empty() || !O.Pids.empty() || !O.Executables.empty()) {
    PtraceOptions PO;
    PO.Commands = O.Commands;
    PO.Pids = O.Pids;
    PO.Executables = O.Executables;
    PO.KillLaunchedOnStop = !O.KeepLaunched;
    PO.SpinMicros = O.SpinMicros;
    PO.InProcess = !O.PtraceOnly;
    PO.Detach = O.Detach && !O.PtraceOnly;
    PO.SyscallDispatch = O.SyscallDispatch && !O.PtraceOnly;
    auto R = std::make_unique<BackendRun>();
    R->B = std::make_unique<PtraceBackend>(S, std::move(PO));
    R->Name = "ptrace";
    Runs.push_back(std::move(R));
  }
  for (size_t I = 0; I < O.Remotes.size(); ++I) {
#if TSCC_HAVE_REMOTE
    auto R = std::make_unique<BackendRun>();
    RemoteOptions RO = O.Remotes[I];
    RO.RequestTimeoutMs = O.RemoteTimeoutMs;
    R->B = std::make_unique<RemoteBackend>(S, std::move(RO));
    R->Name = "gdb-remote " + O.RemoteSpecs[I];
    Runs.push_back(std::move(R));
#else
    Err = "--remote " + O.RemoteSpecs[I] +
          ": the gdb-remote backend is not available in this build";
    return false;
#endif
  }
  if (Runs.size() > MaxBackends) {
    Err = "too many backends";
    return false;
  }
  return true;
}

/// Waits for a stop when no backend is running: exit() from BEGIN or an
/// interval clause, or a signal.
void waitForStop(Session &S) {
  while (!S.stopRequested()) {
    char C;
    ssize_t N = read(WakePipe[0], &C, 1);
    if (N < 0 && errno != EINTR)
      break;
  }
}

bool hasProbeOf(const ProbeProgram &P,
                std::initializer_list<tscc_probe_kind> Kinds) {
  for (const tscc_probe &Pr : P.probes())
    if (std::find(Kinds.begin(), Kinds.end(), Pr.kind) != Kinds.end())
      return true;
  return false;
}

bool hasProcessProbes(const ProbeProgram &P) {
  return hasProbeOf(P, {TSCC_PROBE_UFT_ENTRY, TSCC_PROBE_UFT_EXIT,
                        TSCC_PROBE_UFT_OFFSET, TSCC_PROBE_USDT,
                        TSCC_PROBE_SYSCALL_ENTRY, TSCC_PROBE_SYSCALL_EXIT});
}

/// No target given: an error when nothing could ever run but @@END at
/// Ctrl-C, else a warning that the process probes will not fire.
bool checkNoTarget(const DriverOptions &O, const ProbeProgram &P,
                   std::string &Err) {
  if (!O.Commands.empty() || !O.Pids.empty() || !O.Remotes.empty() ||
      !O.Executables.empty() || !hasProcessProbes(P))
    return true;
  static const char *Give = "give a command after '--', -c 'CMD', -p PID "
                            "or --remote";
  if (!hasProbeOf(P, {TSCC_PROBE_BEGIN, TSCC_PROBE_INTERVAL})) {
    Err = std::string("nothing to trace: the script's probes need a "
                      "process") +
          (hasProbeOf(P, {TSCC_PROBE_END})
               ? " (without one, only @@END would run, at Ctrl-C)"
               : "") +
          "; " + Give;
    return false;
  }
  fprintf(stderr,
          "%s: warning: no process to trace: the script's @@uft, @@usdt "
          "and @@syscall probes will not fire, only @@BEGIN and @@interval "
          "(%s)\n",
          O.Tool.c_str(), Give);
  return true;
}

/// `--keep-launched` cannot keep a command that has tsrun's seccomp filter.
void checkKeepLaunched(const DriverOptions &O, const ProbeProgram &P) {
  if (!O.KeepLaunched || O.Commands.empty() ||
      !hasProbeOf(P, {TSCC_PROBE_SYSCALL_ENTRY, TSCC_PROBE_SYSCALL_EXIT}))
    return;
  fprintf(stderr,
          "%s: warning: --keep-launched: the launched commands will be "
          "killed all the same when the session ends: for the script's "
          "@@syscall probes they run under a seccomp filter that makes "
          "those system calls fail once nobody traces them; start the "
          "program yourself and attach with -p PID to leave it running\n",
          O.Tool.c_str());
}

/// Mistakes that would otherwise leave tsrun waiting for nothing: a command
/// given without `--` (taken as parameters), a second object, no target.
bool checkInvocation(const DriverOptions &O, const ProbeProgram &P,
                     uint32_t ParamsUsed, std::string &Err) {
  if (O.Params.size() > ParamsUsed) {
    const std::string &Extra = O.Params[ParamsUsed];
    std::string Ignored;
    if (ProbeProgram::load(Extra, Ignored)) {
      Err = "'" + Extra +
            "' is a second probe object; tsrun runs one object "
            "per session (compile the scripts into one, or run one tsrun for "
            "each)";
      return false;
    }
    Err = "'" + Extra + "' is not a parameter of the script (it uses " +
          (ParamsUsed == 0   ? std::string("no parameters")
           : ParamsUsed == 1 ? std::string("$1")
                             : "$1 to $" + std::to_string(ParamsUsed)) +
          ")";
    if (O.Commands.empty()) {
      std::string Cmd;
      for (size_t I = ParamsUsed; I < O.Params.size(); ++I)
        Cmd += " " + O.Params[I];
      Err += "; to trace a command, put it after '--': " +
             (O.ByTsccRun ? std::string("tscc ... --run")
                          : O.Tool + (O.Object.empty() ? std::string()
                                                       : " " + O.Object)) +
             " --" + Cmd;
    }
    return false;
  }
  if (!checkNoTarget(O, P, Err))
    return false;
  checkKeepLaunched(O, P);
  return true;
}

int runSession(const DriverOptions &O, const ProbeProgram &P) {
  std::string Err;
  std::unique_ptr<OutputSink> Sink = openSink(O, P, Err);
  if (!Sink)
    return error(O, Err), 1;
  SessionOptions SO;
  SO.Params = O.Params;
  SO.MapCapacity = O.MapCapacity;
  SO.MaxStackDepth = O.MaxStackDepth;
  SO.ThreadBuffer = static_cast<uint32_t>(O.ThreadBuffer);
  SO.MaxThreads = O.MaxThreads;
  SO.BurstBuffers = O.BurstBuffers;
  SO.BurstBuffer = static_cast<uint32_t>(O.BurstBuffer);
  SO.BlockWhenFull = O.BlockWhenFull;
  SO.OnStop = [] { stopEverything(); };
  Session S(P, std::move(Sink), SO);
  if (!S.initError().empty())
    return error(O, S.initError()), 1;
  if (!S.checkParams(Err) || !checkInvocation(O, P, S.paramsUsed(), Err))
    return error(O, Err), 1;
  // Declared after S: stops serving before the session goes away.
  std::unique_ptr<MetricsServer> Metrics;
  if (!O.Metrics.empty()) {
    if (!(Metrics = MetricsServer::start(S, O.Metrics, Err)))
      return error(O, Err), 1;
    S.note("serving metrics at http://" + Metrics->address() + "/metrics");
  }

  if (pipe2(WakePipe, O_CLOEXEC) != 0 || pipe2(ControlPipe, O_CLOEXEC) != 0 ||
      fcntl(ControlPipe[1], F_SETFL, O_NONBLOCK) != 0)
    return error(O, std::string("pipe: ") + strerror(errno)), 1;
  if (O.CollectOff) {
    // Before any backend starts: no clause runs until SIGUSR2.
    S.setCollecting(false);
    S.announceCollection(false, "--collect=off");
  }
  // Declared after S, before Unpublished: stops before either goes away.
  ControlThread Controller(S);
  SignalSession = &S;
  installSignals();

  std::vector<std::unique_ptr<BackendRun>> Runs;
  // Whatever way we leave, the signal handler must stop seeing the session
  // and the backends before they are destroyed; declared after Runs, this
  // guard's destructor runs first.
  struct Unpublish {
    ~Unpublish() {
      for (auto &B : SignalBackends)
        B = nullptr;
      SignalSession = nullptr;
    }
  } Unpublished;
  if (!createBackends(O, S, Runs, Err))
    return error(O, Err), 1;
  for (size_t I = 0; I < Runs.size(); ++I) {
    BackendRun *R = Runs[I].get();
    SignalBackends[I] = R->B.get();
    R->Thread = std::thread([R] {
      std::string E;
      bool Ok = R->B->start(E);
      R->Started.set_value(Ok ? std::string()
                              : (E.empty() ? "failed to start" : E));
      R->Go.get_future().get();
      // run() cleans up what start() set up even when told to stop at once.
      R->B->run();
    });
  }
  bool StartFailed = false;
  for (auto &R : Runs) {
    std::string E = R->Started.get_future().get();
    if (!E.empty()) {
      error(O, E);
      StartFailed = true;
    }
  }
  if (StartFailed || S.stopRequested()) {
    // Nothing ran yet: undo the setup, no BEGIN/END.
    S.requestStop();
    for (auto &R : Runs) {
      R->B->interrupt();
      R->Go.set_value(false);
    }
    for (auto &R : Runs)
      R->Thread.join();
    return StartFailed ? 1 : 0;
  }

  S.begin();
  for (auto &R : Runs)
    R->Go.set_value(true);
  if (Runs.empty())
    waitForStop(S);
  for (auto &R : Runs)
    R->Thread.join();
  // Switches from now on are not announced: the session is ending.
  Controller.stop();
  if (std::string Fatal = S.fatalError(); !Fatal.empty())
    return error(O, Fatal), 1;
  S.end();

  if (!S.outputOk()) {
    // A reader that went away (`tsrun ... | head`) ends tsrun the way it
    // ends any filter: quietly, with the status of a death by SIGPIPE.
    if (S.outputError() == EPIPE)
      return 128 + SIGPIPE;
    int E = S.outputError();
    error(O, "writing the output failed" +
                 (E ? std::string(": ") + strerror(E) : std::string()) +
                 (O.OutputFile.empty() ? std::string()
                                       : " (" + O.OutputFile + ")"));
    return 1;
  }
  int Status = S.launchedExitStatus();
  return Status >= 0 ? Status : 0;
}

ProbeProgram::FileCheck objectCheck(const DriverOptions &O) {
  if (O.AllowUntrustedObject)
    return nullptr;
  return [](const struct stat &St, std::string &Why) {
    return objectFileTrusted(St, geteuid(), getuid(), Why);
  };
}

int driverMain(int Argc, char **Argv, bool Linked) {
  // Before tsrun changes any of it: launched commands get it back.
  rememberCallerSignals();
  DriverOptions O;
  // Not passed on to the commands tsrun launches.
  O.ByTsccRun = getenv("TSCC_RUN_BY_TSCC") != nullptr;
  unsetenv("TSCC_RUN_BY_TSCC");
  if (Argc > 0 && Argv[0]) {
    const char *Slash = strrchr(Argv[0], '/');
    O.Tool = Slash ? Slash + 1 : Argv[0];
  }
  std::string Err;
  switch (parseArgs(Argc, Argv, Linked, O, Err)) {
  case ParseResult::Help:
    usage(stdout, O.Tool, Linked);
    return 0;
  case ParseResult::Version:
    printf("%s (tscc runtime) %s, object ABI %d.%d\n", O.Tool.c_str(),
           TSCC_VERSION, TSCC_ABI_MAJOR, TSCC_ABI_MINOR);
    return 0;
  case ParseResult::Error:
    error(O, Err);
    fprintf(stderr, "Try '%s --help' for more information.\n", O.Tool.c_str());
    return 1;
  case ParseResult::List: {
    ListRequest R;
    R.Spec = *O.ListSpec;
    if (!O.Params.empty())
      R.Binary = O.Params.front();
    else if (!O.Commands.empty())
      R.Binary = O.Commands.front().front();
    else if (!O.Pids.empty())
      R.Pid = O.Pids.front();
    if (!listProbes(R, stdout, Err))
      return error(O, Err), 1;
    return 0;
  }
  case ParseResult::Run:
    break;
  }
  std::unique_ptr<ProbeProgram> P =
      Linked ? ProbeProgram::fromLinkedImage(Err)
             : ProbeProgram::load(O.Object, Err, objectCheck(O));
  if (!P)
    return error(O, Err), 1;
  return runSession(O, *P);
}

} // namespace

int tscc::rt::tsrunMain(int Argc, char **Argv) {
  return driverMain(Argc, Argv, false);
}

extern "C" int tsrt_main(int argc, char **argv) {
  return driverMain(argc, argv, true);
}
