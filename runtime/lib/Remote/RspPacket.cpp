//===- RspPacket.cpp - GDB remote protocol framing ------------------------===//
#include "tscc/Runtime/RspPacket.h"

using namespace tscc::rt;

namespace {

int hexDigit(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  if (C >= 'A' && C <= 'F')
    return C - 'A' + 10;
  return -1;
}

constexpr char Digits[] = "0123456789abcdef";

/// The length Data has once run-length expanded, without expanding it;
/// nullopt when the encoding is malformed (expandRunLength's rules).
std::optional<size_t> expandedSize(std::string_view Data) {
  size_t N = 0;
  for (size_t I = 0; I < Data.size(); ++I) {
    if (Data[I] != '*') {
      ++N;
      continue;
    }
    if (!N || I + 1 >= Data.size())
      return std::nullopt;
    int Count = static_cast<unsigned char>(Data[++I]) - 29;
    if (Count < 3 || Count > 97)
      return std::nullopt;
    N += static_cast<size_t>(Count);
  }
  return N;
}

} // namespace

uint8_t rsp::checksum(std::string_view Payload) {
  uint8_t Sum = 0;
  for (char C : Payload)
    Sum = static_cast<uint8_t>(Sum + static_cast<uint8_t>(C));
  return Sum;
}

std::string rsp::escape(std::string_view Data) {
  std::string Out;
  Out.reserve(Data.size());
  for (char C : Data) {
    if (C == '$' || C == '#' || C == '}' || C == '*') {
      Out.push_back('}');
      Out.push_back(static_cast<char>(C ^ 0x20));
    } else {
      Out.push_back(C);
    }
  }
  return Out;
}

std::string rsp::unescape(std::string_view Data) {
  std::string Out;
  Out.reserve(Data.size());
  for (size_t I = 0; I < Data.size(); ++I) {
    if (Data[I] != '}') {
      Out.push_back(Data[I]);
      continue;
    }
    if (I + 1 < Data.size())
      Out.push_back(static_cast<char>(Data[++I] ^ 0x20));
  }
  return Out;
}

std::optional<std::string> rsp::expandRunLength(std::string_view Data,
                                                size_t MaxSize) {
  if (Data.size() > MaxSize)
    return std::nullopt;
  std::string Out;
  Out.reserve(Data.size());
  for (size_t I = 0; I < Data.size(); ++I) {
    char C = Data[I];
    if (C != '*') {
      if (Out.size() >= MaxSize)
        return std::nullopt;
      Out.push_back(C);
      continue;
    }
    // "X*N": X repeated N - 29 more times. Counts that would need '#' or
    // '$' (and anything outside printable ASCII) are not valid encodings.
    if (Out.empty() || I + 1 >= Data.size())
      return std::nullopt;
    int Count = static_cast<unsigned char>(Data[++I]) - 29;
    if (Count < 3 || Count > 97 || Out.size() + Count > MaxSize)
      return std::nullopt;
    Out.append(static_cast<size_t>(Count), Out.back());
  }
  return Out;
}

std::string rsp::frame(std::string_view Payload) {
  std::string Out;
  Out.reserve(Payload.size() + 4);
  Out.push_back('$');
  Out.append(Payload);
  Out.push_back('#');
  uint8_t Sum = checksum(Payload);
  Out.push_back(Digits[Sum >> 4]);
  Out.push_back(Digits[Sum & 15]);
  return Out;
}

std::string rsp::toHex(const void *Data, size_t Len) {
  const auto *P = static_cast<const uint8_t *>(Data);
  std::string Out(Len * 2, '0');
  for (size_t I = 0; I < Len; ++I) {
    Out[2 * I] = Digits[P[I] >> 4];
    Out[2 * I + 1] = Digits[P[I] & 15];
  }
  return Out;
}

std::string rsp::toHex(std::string_view Data) {
  return toHex(Data.data(), Data.size());
}

std::string rsp::hexNumber(uint64_t V) {
  if (!V)
    return "0";
  std::string Out;
  for (; V; V >>= 4)
    Out.insert(Out.begin(), Digits[V & 15]);
  return Out;
}

bool rsp::fromHex(std::string_view Hex, void *Dst, size_t Len) {
  if (Hex.size() < Len * 2)
    return false;
  auto *P = static_cast<uint8_t *>(Dst);
  for (size_t I = 0; I < Len; ++I) {
    int Hi = hexDigit(Hex[2 * I]), Lo = hexDigit(Hex[2 * I + 1]);
    if (Hi < 0 || Lo < 0)
      return false;
    P[I] = static_cast<uint8_t>(Hi << 4 | Lo);
  }
  return true;
}

bool rsp::parseHexNumber(std::string_view S, uint64_t &Out) {
  if (S.empty() || S.size() > 16)
    return false;
  uint64_t V = 0;
  for (char C : S) {
    int D = hexDigit(C);
    if (D < 0)
      return false;
    V = V << 4 | static_cast<uint64_t>(D);
  }
  Out = V;
  return true;
}

void rsp::PacketReader::compact() {
  // Dropping the consumed prefix costs a copy of what is left: do it when
  // that is at most as much as what goes, so each byte is copied O(1) times.
  if (Pos == Buf.size()) {
    Buf.clear();
    Pos = 0;
  } else if (Pos >= 4096 && Pos >= Buf.size() - Pos) {
    Buf.erase(0, Pos);
    Pos = 0;
  }
}

std::optional<rsp::Incoming> rsp::PacketReader::next() {
  while (Pos < Buf.size()) {
    char C = Buf[Pos];
    if (C == '+' || C == '-') {
      ++Pos;
      compact();
      return Incoming{C == '+' ? Incoming::Ack : Incoming::Nak, {}};
    }
    if (C != '$' && C != '%') {
      ++Pos; // noise between packets
      continue;
    }
    // Continue the search for '#' where the last call left it: a packet
    // arriving in many reads is scanned once, not once per read.
    size_t From = Pos + 1 + Scanned;
    size_t Hash = Buf.find('#', From);
    size_t BodyLen = (Hash == std::string::npos ? Buf.size() : Hash) - Pos - 1;
    if (BodyLen > MaxPacket) {
      // Whatever follows is the rest of a packet we will not take: the
      // caller gives up on the connection.
      Buf.clear();
      Pos = Scanned = 0;
      return Incoming{Incoming::TooLarge, {}};
    }
    if (Hash == std::string::npos || Hash + 2 >= Buf.size()) {
      Scanned = BodyLen; // incomplete
      break;
    }
    Scanned = 0;
    std::string_view Body(Buf.data() + Pos + 1, BodyLen);
    int Hi = hexDigit(Buf[Hash + 1]), Lo = hexDigit(Buf[Hash + 2]);
    Incoming In;
    In.K = C == '$' ? Incoming::Packet : Incoming::Notification;
    bool SumOk = Hi >= 0 && Lo >= 0 && checksum(Body) == (Hi << 4 | Lo);
    std::optional<std::string> Expanded;
    if (SumOk) {
      // Only packets that arrived intact are expanded, and only once their
      // size is known to be within the limit: a few megabytes of "0*~"
      // would otherwise expand to hundreds.
      std::optional<size_t> Size = expandedSize(Body);
      if (Size && *Size > MaxPacket)
        In.K = Incoming::TooLarge;
      else if (Size)
        Expanded = expandRunLength(Body, MaxPacket);
    }
    if (In.K == Incoming::TooLarge) {
      Buf.clear();
      Pos = 0;
      return In;
    }
    if (!Expanded)
      In.K = Incoming::BadPacket;
    else
      In.Payload = std::move(*Expanded);
    Pos = Hash + 3;
    compact();
    return In;
  }
  compact();
  return std::nullopt;
}
