//===- tscc/Runtime/RspPacket.h - GDB remote protocol framing -------------===//
//
// The byte-level half of the GDB remote serial protocol, without any I/O:
// checksums, framing with escapes, run-length decoding, hex, and a
// incremental reader that turns a byte stream into acks and packets. Kept
// separate from RspClient so that every corner case is unit-testable.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_RSPPACKET_H
#define TSCC_RUNTIME_RSPPACKET_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tscc::rt::rsp {

/// Modulo-256 sum of the payload bytes.
uint8_t checksum(std::string_view Payload);

/// Escapes '$', '#', '}' and '*' as '}' followed by the byte XOR 0x20, for
/// binary data (X packets) and for any payload that carries them.
std::string escape(std::string_view Data);
/// The inverse of escape(). A trailing lone '}' is dropped.
std::string unescape(std::string_view Data);
/// Expands run-length encoding: "X*N" repeats X (N - 29) more times. Returns
/// nullopt on a '*' with nothing before it or a count outside the protocol's
/// range.
std::optional<std::string> expandRunLength(std::string_view Data);

/// "$" + Payload + "#" + two hex digits. Payload is sent as is: binary
/// arguments (X packets) must already be escape()d.
std::string frame(std::string_view Payload);

std::string toHex(const void *Data, size_t Len);
std::string toHex(std::string_view Data);
/// Lower-case hex number without leading zeros ("0" for zero).
std::string hexNumber(uint64_t V);
/// Decodes exactly Len bytes of hex; false on a short or malformed string.
bool fromHex(std::string_view Hex, void *Dst, size_t Len);
/// A hex number (at most 16 digits); false if empty or not hex.
bool parseHexNumber(std::string_view S, uint64_t &Out);

/// One unit read off the wire.
struct Incoming {
  enum Kind {
    Ack,        ///< '+'
    Nak,        ///< '-': the peer wants the last packet again
    Packet,     ///< a '$' packet with a good checksum, run-length
                ///< expanded; binary replies still need unescape()
    BadPacket,  ///< a '$' packet whose checksum or encoding is wrong
    Notification ///< a '%' non-stop notification (payload as for Packet)
  } K = Ack;
  std::string Payload;
};

/// Accumulates bytes and yields protocol units in order. Stray bytes between
/// packets (line noise, a stub's stray output) are skipped.
class PacketReader {
public:
  void feed(const char *Data, size_t Len) { Buf.append(Data, Len); }
  /// The next complete unit, if any.
  std::optional<Incoming> next();
  /// Bytes buffered but not yet returned.
  size_t pending() const { return Buf.size() - Pos; }

private:
  std::string Buf;
  size_t Pos = 0;
};

} // namespace tscc::rt::rsp

#endif // TSCC_RUNTIME_RSPPACKET_H
