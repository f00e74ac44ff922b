//===- tscc/Runtime/RspClient.h - A GDB remote serial protocol client -----===//
//
// Speaks the GDB remote serial protocol to one stub over TCP (qemu-user's
// gdbstub, gdbserver, ...): negotiation, the target description, registers,
// memory, breakpoints, resumption and stop replies, in all-stop mode.
//
// Not thread-safe: one thread owns a client. The only exception is the
// wake-up descriptor passed to waitStop() and setInterruptFd(), which any
// thread (or a signal handler) may write to.
//
// Nothing a stub does can hold the client up for long or make it grow
// without bound: every exchange has a deadline (setRequestTimeout()), after
// which the connection is closed with an error naming the request that went
// unanswered; once the interrupt descriptor fires, every wait ends within
// the shutdown grace; packets are limited to a margin over the stub's
// PacketSize; console output and qXfer objects are capped.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_RSPCLIENT_H
#define TSCC_RUNTIME_RSPCLIENT_H

#include "tscc/Runtime/RspPacket.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tscc::rt {

/// What the stub said it supports in its qSupported reply.
struct RspFeatures {
  size_t PacketSize = 400; ///< the stub's largest packet (payload bytes)
  bool NoAckMode = false;  ///< QStartNoAckMode+ (and we switched)
  bool XferFeatures = false;
  bool XferAuxv = false;
  bool XferLibrariesSvr4 = false;
  bool XferExecFile = false; ///< the path of the program the stub runs
  bool CatchSyscalls = false;
  bool SwBreak = false;
  bool VContSupported = false;
  bool VCont = false; ///< vCont? lists c and s
  bool Multiprocess = false;
  std::string Raw; ///< the reply as received
};

/// One register of the target description, in 'g' packet order.
struct RspRegister {
  std::string Name;
  unsigned Number = 0; ///< for 'p'/'P'
  unsigned BitSize = 0;
  size_t Offset = 0; ///< byte offset in the 'g' reply
};

/// A thread as the protocol names it ("p<pid>.<tid>" or "<tid>").
struct RspThreadId {
  int64_t Pid = 0; ///< 0 when the stub does not use multiprocess ids
  int64_t Tid = 0; ///< -1 = all, 0 = any
  std::string str(bool Multiprocess) const;
  static std::optional<RspThreadId> parse(std::string_view S);
};

/// A decoded stop reply (T/S/W/X/O packets).
struct RspStop {
  enum Kind {
    Signal,        ///< T or S: the thread stopped with a signal
    Exited,        ///< W: the process exited with Code
    Terminated,    ///< X: the process was killed by Sig
    SyscallEntry,  ///< T05 syscall_entry:NR
    SyscallReturn, ///< T05 syscall_return:NR
  } K = Signal;
  int Sig = 0;
  int Code = 0;
  RspThreadId Thread; ///< Tid 0 when the stub named none
  bool SwBreak = false;
  uint64_t SyscallNr = 0;
  /// Registers the stub sent along ("NN:value" pairs): number, raw bytes.
  std::vector<std::pair<unsigned, std::string>> Expedited;

  static std::optional<RspStop> parse(std::string_view Payload);
};

class RspClient {
public:
  /// Defaults; see docs/runtime.md, "When a stub misbehaves".
  static constexpr unsigned DefaultRequestTimeoutMs = 10000;
  static constexpr unsigned ShutdownGraceMs = 800;
  static constexpr size_t MaxConsoleBytes = 1 << 20;
  static constexpr size_t MaxXferBytes = 16 << 20;
  static constexpr size_t MaxThreads = 1 << 16;
  /// Consecutive corrupted packets (bad checksums, NAKs) before giving up.
  static constexpr unsigned MaxRetries = 16;

  /// Connects to Host:Port, retrying for up to TimeoutMs while the port
  /// refuses connections (the stub may still be starting). Gives up at once
  /// when InterruptFd (if >= 0) becomes readable. Null with a message on
  /// failure.
  static std::unique_ptr<RspClient> connect(const std::string &Host,
                                            uint16_t Port, unsigned TimeoutMs,
                                            std::string &Error,
                                            int InterruptFd = -1);
  /// Takes ownership of a connected stream socket.
  explicit RspClient(int Fd);
  ~RspClient();
  RspClient(const RspClient &) = delete;
  RspClient &operator=(const RspClient &) = delete;

  /// How long one exchange may take: a packet, its acknowledgement and its
  /// reply, a step, or the stop after an interrupt (not the stop of a
  /// resumed target, which may run for as long as it likes).
  void setRequestTimeout(unsigned Ms) { RequestTimeoutMs = Ms ? Ms : 1; }
  unsigned requestTimeout() const { return RequestTimeoutMs; }
  /// A descriptor that becomes readable when the session is ending (a
  /// non-blocking pipe; the client drains it). From then on, every wait
  /// ends within ShutdownGraceMs, so that a silent stub cannot hold up
  /// Ctrl-C.
  void setInterruptFd(int Fd) { InterruptFd = Fd; }

  /// qSupported, QStartNoAckMode, the target description and '?'. After
  /// success features(), architecture(), registers() and initialStop() are
  /// valid.
  bool handshake(std::string &Error);

  const RspFeatures &features() const { return Features; }
  /// <architecture> of the target description ("i386", "i386:x86-64"), or
  /// empty when the stub has none.
  const std::string &architecture() const { return Arch; }
  const std::vector<RspRegister> &registers() const { return Regs; }
  const RspRegister *findRegister(std::string_view Name) const;
  const RspStop &initialStop() const { return Initial; }
  /// Why the connection is unusable, once it is.
  const std::string &lastError() const { return LastError; }
  bool connected() const { return Fd >= 0; }
  /// The connection's socket (-1 once closed), to find out who is at the
  /// other end.
  int socketFd() const { return Fd; }

  // --- Packets -----------------------------------------------------------
  /// Sends a packet (waiting for its ack in ack mode).
  bool send(std::string_view Payload);
  /// Sends a packet and returns the reply; nullopt when the connection
  /// failed. Console output ('O' packets) is skipped.
  std::optional<std::string> request(std::string_view Payload);

  // --- Queries -----------------------------------------------------------
  /// The whole of a qXfer object ("features", "auxv", "libraries-svr4").
  std::optional<std::string> readXfer(std::string_view Object,
                                      std::string_view Annex);
  /// Every thread id (qfThreadInfo/qsThreadInfo).
  std::vector<RspThreadId> threads();

  // --- Registers and memory ----------------------------------------------
  /// Selects the thread for register access (Hg), skipping redundant ones.
  bool selectThread(const RspThreadId &T);
  /// The 'g' reply of the selected thread, as bytes.
  bool readRegisterBlock(std::string &Raw);
  bool readRegister(unsigned Number, std::string &Raw);
  /// P; false with pUnsupported() set when the stub does not know P
  /// (gdbserver on x86-64): then use writeRegisterBlock().
  bool writeRegister(unsigned Number, std::string_view Raw);
  bool pUnsupported() const { return PUnsupported; }
  /// G: the whole block, as readRegisterBlock() returned it.
  bool writeRegisterBlock(std::string_view Raw);
  /// Copies Len bytes; false (with Dst zero-filled) on any fault. Large
  /// reads are split to fit the stub's packet size.
  bool readMemory(uint64_t Addr, void *Dst, size_t Len);
  bool writeMemory(uint64_t Addr, const void *Src, size_t Len);

  // --- Execution control --------------------------------------------------
  /// Z0/z0. Returns false if the stub refused; Unsupported is set when it
  /// does not know the packet at all (empty reply).
  bool insertBreakpoint(uint64_t Addr, unsigned Kind, bool &Unsupported);
  bool removeBreakpoint(uint64_t Addr, unsigned Kind);
  /// QCatchSyscalls:1[;nr...] (an empty list catches every call), or
  /// QCatchSyscalls:0.
  bool catchSyscalls(bool Enable, const std::vector<uint64_t> &Numbers);
  /// Starts the target running: "vCont;c" (or "c"). The stop reply is
  /// collected by waitStop().
  bool resumeAll(int Signal = 0, const RspThreadId *SignalThread = nullptr);
  /// Single-steps one thread, others stopped, and waits for its stop.
  bool stepThread(const RspThreadId &T, RspStop &Stop);
  /// Sends the interrupt byte (0x03). From then on, stop replies that
  /// arrive where none is expected are dropped: the session is ending.
  bool sendBreak();
  enum class WaitResult { Stopped, Woken, Closed, TimedOut };
  /// Waits for the stop reply of a resumption. Returns Woken, without
  /// consuming anything, when WakeFd becomes readable first, or at once if
  /// the session is already ending (the caller then drains WakeFd, calls
  /// sendBreak() and waits again); TimedOut after TimeoutMs (-1: no limit)
  /// with the connection still usable.
  WaitResult waitStop(RspStop &Stop, int WakeFd, int TimeoutMs = -1);
  /// Waits for a stop that must come promptly (after a step or an
  /// interrupt): past the request timeout the connection is closed with an
  /// error saying that What went unanswered.
  bool awaitStop(RspStop &Stop, std::string_view What);

  /// D (or D;pid): the target runs on without us.
  bool detach();
  /// vKill;pid or k. The target is gone after this.
  bool kill();

  /// Console output the stub forwarded ('O' packets), drained: at most
  /// MaxConsoleBytes between two calls; consoleDropped() counts the rest.
  std::string takeConsoleOutput();
  uint64_t consoleDropped() const { return ConsoleDropped; }

private:
  using Clock = std::chrono::steady_clock;

  bool sendRaw(std::string_view Bytes);
  void trace(char Dir, std::string_view Bytes);
  /// Starts the clock of one exchange; What names it in errors.
  void armDeadline(std::string_view What);
  void disarmDeadline() { Deadline = Clock::time_point::max(); }
  /// Reads the next packet. WakeFd >= 0: returns nullopt with Woken set
  /// when it fires. Until: returns nullopt, connection intact, when no
  /// packet came by then (however many other bytes did).
  std::optional<std::string>
  receive(int WakeFd = -1, bool *Woken = nullptr,
          Clock::time_point Until = Clock::time_point::max());
  bool fillBuffer(int WakeFd, bool *Woken, Clock::time_point Until);
  /// waitStop() and awaitStop() without touching the deadline.
  WaitResult collectStop(RspStop &Stop, int WakeFd, Clock::time_point Until);
  /// Notes that the session is ending: every wait from now on ends within
  /// the grace period.
  void beginEnding();
  /// Console output, with the cap applied; true if Payload was an 'O'
  /// packet.
  bool takeConsolePacket(const std::string &Payload);
  bool loadTargetDescription(std::string &Error);
  /// Records the first error and closes the connection. LinkUp: the stub
  /// still reads (it sent nonsense, or did not answer in time): it is
  /// asked to detach first (detachBeforeClosing()).
  void fail(std::string Message, bool LinkUp = false);
  void detachBeforeClosing();
  /// Waits up to DetachAckMs for an ack, acknowledging any packet.
  bool awaitAckBriefly();
  void failTooLarge();

  int Fd = -1;
  int InterruptFd = -1;
  unsigned RequestTimeoutMs = DefaultRequestTimeoutMs;
  Clock::time_point Deadline = Clock::time_point::max();
  std::string Awaiting; ///< what the armed deadline waits for
  bool Ending = false;
  Clock::time_point EndBy = Clock::time_point::max();
  uint64_t ConsoleDropped = 0;
  bool AckMode = true;
  rsp::PacketReader Reader;
  RspFeatures Features;
  std::string Arch;
  std::vector<RspRegister> Regs;
  RspStop Initial;
  std::string LastError;
  std::string Console;
  std::string LastSent; ///< for retransmission on '-'
  std::optional<RspThreadId> SelectedG;
  bool DropStrayStops = false;
  bool PUnsupported = false;
  bool Abandoning = false; ///< detachBeforeClosing() is running
  static constexpr unsigned DetachAckMs = 250;
  static constexpr size_t DetachAckPrefix = 16;
  int64_t ProcessId = 0; ///< from the initial stop, for vKill / D;pid
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_RSPCLIENT_H
