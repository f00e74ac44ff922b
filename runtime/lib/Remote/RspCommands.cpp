//===- RspCommands.cpp - Registers, memory, execution, stop replies -------===//
#include "tscc/Runtime/RspClient.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <string_view>
#include <unistd.h>

using namespace tscc::rt;

namespace {

/// Concatenates packet parts. ("p" + std::string would do, but GCC 12 warns
/// about it falsely: -Wrestrict, GCC PR 105651.)
std::string cat(std::initializer_list<std::string_view> Parts) {
  std::string Out;
  for (std::string_view P : Parts)
    Out += P;
  return Out;
}

bool isHexString(std::string_view S) {
  return std::all_of(S.begin(), S.end(), [](char C) {
    return (C >= '0' && C <= '9') || (C >= 'a' && C <= 'f') ||
           (C >= 'A' && C <= 'F') || C == 'x'; // 'xx': unavailable register
  });
}

/// "E NN" error replies (and the "E.message" form some stubs use).
bool isError(const std::string &R) {
  return R.size() >= 2 && R[0] == 'E' &&
         (R.size() == 3 || R[1] == '.' || R[1] == 'r');
}

} // namespace

std::string RspThreadId::str(bool Multiprocess) const {
  auto Num = [](int64_t V) {
    return V == -1 ? std::string("-1")
                   : rsp::hexNumber(static_cast<uint64_t>(V));
  };
  if (Multiprocess && Pid)
    return cat({"p", Num(Pid), ".", Num(Tid)});
  return Num(Tid);
}

std::optional<RspThreadId> RspThreadId::parse(std::string_view S) {
  auto Num = [](std::string_view T, int64_t &Out) {
    if (T == "-1") {
      Out = -1;
      return true;
    }
    uint64_t V = 0;
    if (!rsp::parseHexNumber(T, V))
      return false;
    Out = static_cast<int64_t>(V);
    return true;
  };
  RspThreadId Id;
  if (!S.empty() && S[0] == 'p') {
    S.remove_prefix(1);
    size_t Dot = S.find('.');
    if (!Num(S.substr(0, Dot), Id.Pid))
      return std::nullopt;
    if (Dot == std::string_view::npos) {
      Id.Tid = -1; // "pPID": every thread of the process
      return Id;
    }
    S.remove_prefix(Dot + 1);
  }
  if (!Num(S, Id.Tid))
    return std::nullopt;
  return Id;
}

std::optional<RspStop> RspStop::parse(std::string_view P) {
  if (P.empty())
    return std::nullopt;
  RspStop S;
  char K = P[0];
  uint64_t V = 0;
  if (K == 'W' || K == 'X') {
    std::string_view Rest = P.substr(1);
    size_t Semi = Rest.find(';');
    if (!rsp::parseHexNumber(Rest.substr(0, Semi), V))
      return std::nullopt;
    S.K = K == 'W' ? Exited : Terminated;
    (K == 'W' ? S.Code : S.Sig) = static_cast<int>(V);
    if (Semi != std::string_view::npos &&
        Rest.substr(Semi + 1, 8) == "process:") {
      uint64_t Pid = 0;
      if (rsp::parseHexNumber(Rest.substr(Semi + 9), Pid))
        S.Thread.Pid = static_cast<int64_t>(Pid);
    }
    return S;
  }
  if ((K != 'T' && K != 'S') || P.size() < 3 ||
      !rsp::parseHexNumber(P.substr(1, 2), V))
    return std::nullopt;
  S.Sig = static_cast<int>(V);
  std::string_view Rest = P.substr(3);
  while (!Rest.empty()) {
    size_t Semi = Rest.find(';');
    std::string_view Item = Rest.substr(0, Semi);
    Rest = Semi == std::string_view::npos ? "" : Rest.substr(Semi + 1);
    size_t Colon = Item.find(':');
    std::string_view Key = Item.substr(0, Colon);
    std::string_view Val =
        Colon == std::string_view::npos ? "" : Item.substr(Colon + 1);
    if (Key == "thread") {
      if (std::optional<RspThreadId> T = RspThreadId::parse(Val))
        S.Thread = *T;
    } else if (Key == "swbreak") {
      S.SwBreak = true;
    } else if (Key == "syscall_entry" || Key == "syscall_return") {
      S.K = Key == "syscall_entry" ? SyscallEntry : SyscallReturn;
      rsp::parseHexNumber(Val, S.SyscallNr);
    } else if (uint64_t Reg = 0; Key.size() <= 4 &&
                                 rsp::parseHexNumber(Key, Reg) &&
                                 isHexString(Val)) {
      std::string Raw(Val.size() / 2, '\0');
      if (rsp::fromHex(Val, Raw.data(), Raw.size()))
        S.Expedited.emplace_back(static_cast<unsigned>(Reg), std::move(Raw));
    }
  }
  return S;
}

std::vector<RspThreadId> RspClient::threads() {
  std::vector<RspThreadId> Out;
  std::optional<std::string> R = request("qfThreadInfo");
  // Like readXfer(): the whole list gets one request's time, and a bounded
  // size, so that a stub repeating 'm' forever cannot keep us here.
  auto Until = Clock::now() + std::chrono::milliseconds(RequestTimeoutMs);
  while (R && !R->empty() && (*R)[0] == 'm') {
    if (Out.size() > MaxThreads || Clock::now() >= Until) {
      fail("no end to the thread list (qsThreadInfo kept answering)");
      return {};
    }
    std::string_view List = std::string_view(*R).substr(1);
    while (!List.empty()) {
      size_t Comma = List.find(',');
      if (std::optional<RspThreadId> T =
              RspThreadId::parse(List.substr(0, Comma)))
        Out.push_back(*T);
      List = Comma == std::string_view::npos ? "" : List.substr(Comma + 1);
    }
    R = request("qsThreadInfo");
  }
  return Out;
}

bool RspClient::selectThread(const RspThreadId &T) {
  if (SelectedG && SelectedG->Pid == T.Pid && SelectedG->Tid == T.Tid)
    return true;
  std::optional<std::string> R = request("Hg" + T.str(Features.Multiprocess));
  if (!R || *R != "OK")
    return false;
  SelectedG = T;
  return true;
}

bool RspClient::readRegisterBlock(std::string &Raw) {
  std::optional<std::string> R = request("g");
  if (!R || R->empty() || isError(*R) || R->size() % 2)
    return false;
  // Unavailable registers come as "xx": read them as zero.
  std::string Hex = *R;
  std::replace(Hex.begin(), Hex.end(), 'x', '0');
  Raw.assign(Hex.size() / 2, '\0');
  return rsp::fromHex(Hex, Raw.data(), Raw.size());
}

bool RspClient::readRegister(unsigned Number, std::string &Raw) {
  std::optional<std::string> R = request(cat({"p", rsp::hexNumber(Number)}));
  if (!R || R->empty() || isError(*R) || R->size() % 2)
    return false;
  std::string Hex = *R;
  std::replace(Hex.begin(), Hex.end(), 'x', '0');
  Raw.assign(Hex.size() / 2, '\0');
  return rsp::fromHex(Hex, Raw.data(), Raw.size());
}

bool RspClient::writeRegister(unsigned Number, std::string_view Raw) {
  if (PUnsupported)
    return false;
  std::optional<std::string> R =
      request(cat({"P", rsp::hexNumber(Number), "=", rsp::toHex(Raw)}));
  if (R && R->empty())
    PUnsupported = true;
  return R && *R == "OK";
}

bool RspClient::writeRegisterBlock(std::string_view Raw) {
  std::optional<std::string> R = request(cat({"G", rsp::toHex(Raw)}));
  return R && *R == "OK";
}

bool RspClient::readMemory(uint64_t Addr, void *Dst, size_t Len) {
  auto *Out = static_cast<uint8_t *>(Dst);
  // Each byte is two hex digits; leave room for framing.
  size_t Chunk = std::max<size_t>((Features.PacketSize - 8) / 2, 16);
  size_t Done = 0;
  while (Done < Len) {
    size_t N = std::min(Chunk, Len - Done);
    std::optional<std::string> R = request(
        cat({"m", rsp::hexNumber(Addr + Done), ",", rsp::hexNumber(N)}));
    // A fault is an error reply; a short reply means the tail faulted.
    if (!R || R->empty() || isError(*R) || R->size() < 2 * N ||
        !rsp::fromHex(*R, Out + Done, N)) {
      std::memset(Dst, 0, Len);
      return false;
    }
    Done += N;
  }
  return true;
}

bool RspClient::writeMemory(uint64_t Addr, const void *Src, size_t Len) {
  const auto *In = static_cast<const uint8_t *>(Src);
  size_t Chunk = std::max<size_t>((Features.PacketSize - 32) / 2, 16);
  for (size_t Done = 0; Done < Len;) {
    size_t N = std::min(Chunk, Len - Done);
    std::optional<std::string> R =
        request(cat({"M", rsp::hexNumber(Addr + Done), ",", rsp::hexNumber(N),
                     ":", rsp::toHex(In + Done, N)}));
    if (!R || *R != "OK")
      return false;
    Done += N;
  }
  return true;
}

bool RspClient::insertBreakpoint(uint64_t Addr, unsigned Kind,
                                 bool &Unsupported) {
  std::optional<std::string> R =
      request("Z0," + rsp::hexNumber(Addr) + "," + rsp::hexNumber(Kind));
  Unsupported = R && R->empty();
  return R && *R == "OK";
}

bool RspClient::removeBreakpoint(uint64_t Addr, unsigned Kind) {
  std::optional<std::string> R =
      request("z0," + rsp::hexNumber(Addr) + "," + rsp::hexNumber(Kind));
  return R && *R == "OK";
}

bool RspClient::catchSyscalls(bool Enable,
                              const std::vector<uint64_t> &Numbers) {
  std::string Q = Enable ? "QCatchSyscalls:1" : "QCatchSyscalls:0";
  if (Enable)
    for (uint64_t N : Numbers)
      Q += cat({";", rsp::hexNumber(N)});
  std::optional<std::string> R = request(Q);
  return R && *R == "OK";
}

bool RspClient::resumeAll(int Signal, const RspThreadId *SignalThread) {
  SelectedG.reset(); // a resumption may invalidate the stub's selection
  std::string Sig = rsp::toHex(std::string(1, static_cast<char>(Signal)));
  if (!Features.VCont)
    return send(Signal ? "C" + Sig : std::string("c"));
  std::string Q = "vCont;";
  if (Signal && SignalThread)
    Q += "C" + Sig + ":" + SignalThread->str(Features.Multiprocess) + ";";
  Q += "c";
  return send(Q);
}

bool RspClient::stepThread(const RspThreadId &T, RspStop &Stop) {
  // Stubs make the thread that stopped the register thread, and only T
  // runs during the step: a selection of T survives a stop in T.
  std::optional<RspThreadId> Before = SelectedG;
  SelectedG.reset();
  if (Features.VCont) {
    if (!send("vCont;s:" + T.str(Features.Multiprocess)))
      return false;
  } else {
    std::optional<std::string> R = request("Hc" + T.str(Features.Multiprocess));
    if (!R || *R != "OK" || !send("s"))
      return false;
  }
  if (!awaitStop(Stop, "a stop reply to the single step"))
    return false;
  if (Before && Before->Tid == T.Tid && Stop.Thread.Tid == T.Tid)
    SelectedG = Before;
  return true;
}

bool RspClient::sendBreak() {
  DropStrayStops = true;
  return sendRaw(std::string_view("\x03", 1));
}

RspClient::WaitResult RspClient::waitStop(RspStop &Stop, int WakeFd,
                                          int TimeoutMs) {
  // A resumed target may run as long as it likes: no request deadline,
  // only the caller's timeout and, once the session ends, the grace.
  disarmDeadline();
  Awaiting = "a stop reply";
  // One limit for the whole wait: a stub sending console output (or
  // anything but a stop) must not extend it.
  return collectStop(Stop, WakeFd,
                     TimeoutMs < 0
                         ? Clock::time_point::max()
                         : Clock::now() + std::chrono::milliseconds(TimeoutMs));
}

RspClient::WaitResult RspClient::collectStop(RspStop &Stop, int WakeFd,
                                             Clock::time_point Until) {
  for (;;) {
    bool Woken = false;
    std::optional<std::string> R = receive(WakeFd, &Woken, Until);
    if (!R) {
      if (Woken)
        return WaitResult::Woken;
      return connected() ? WaitResult::TimedOut : WaitResult::Closed;
    }
    if (takeConsolePacket(*R))
      continue;
    if (std::optional<RspStop> S = RspStop::parse(*R)) {
      disarmDeadline();
      Stop = *S;
      return WaitResult::Stopped;
    }
    // "OK" from a stub acknowledging vCont, or junk: keep waiting.
  }
}

bool RspClient::awaitStop(RspStop &Stop, std::string_view What) {
  armDeadline(What);
  return collectStop(Stop, -1, Clock::time_point::max()) == WaitResult::Stopped;
}

bool RspClient::detach() {
  std::string Q = "D";
  if (Features.Multiprocess && ProcessId > 0)
    Q += cat({";", rsp::hexNumber(static_cast<uint64_t>(ProcessId))});
  std::optional<std::string> R = request(Q);
  if (R && *R != "OK" && Q != "D")
    R = request("D");
  return R && *R == "OK";
}

bool RspClient::kill() {
  if (Features.Multiprocess && ProcessId > 0) {
    std::optional<std::string> R =
        request("vKill;" + rsp::hexNumber(static_cast<uint64_t>(ProcessId)));
    if (R && *R == "OK")
      return true;
  }
  // 'k' has no reply by definition; the stub may just close.
  return send("k");
}
