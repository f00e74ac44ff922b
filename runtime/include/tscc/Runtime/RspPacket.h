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
#include <limits>
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
/// nullopt on a '*' with nothing before it, a count outside the protocol's
/// range, or a result longer than MaxSize (each two bytes on the wire may
/// expand to 97: a stub must not be able to make a small packet huge).
std::optional<std::string> expandRunLength(std::string_view Data,
                                           size_t MaxSize = SIZE_MAX);

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
    Ack,          ///< '+'
    Nak,          ///< '-': the peer wants the last packet again
    Packet,       ///< a '$' packet with a good checksum, run-length
                  ///< expanded; binary replies still need unescape()
    BadPacket,    ///< a '$' packet whose checksum or encoding is wrong
    Notification, ///< a '%' non-stop notification (payload as for Packet)
    TooLarge      ///< a packet longer than the limit, on the wire or
                  ///< expanded: the stream cannot be trusted any more
  } K = Ack;
  std::string Payload;
};

/// Accumulates bytes and yields protocol units in order. Stray bytes between
/// packets (line noise, a stub's stray output) are skipped.
///
/// Memory and work are bounded whatever the peer sends: a packet whose body
/// grows past maxPacket() bytes (before its '#', or once run-length
/// expanded) yields TooLarge as soon as that is known, without waiting for
/// its end; each byte is scanned once (a partial packet remembers how far
/// it was searched), and consumed bytes are dropped from the buffer.
class PacketReader {
public:
  /// The default limit, until the peer tells its packet size.
  static constexpr size_t DefaultMaxPacket = 64 * 1024;

  void feed(const char *Data, size_t Len) { Buf.append(Data, Len); }
  /// The next complete unit, if any.
  std::optional<Incoming> next();
  /// Bytes buffered but not yet returned.
  size_t pending() const { return Buf.size() - Pos; }
  /// The largest packet body accepted, on the wire and expanded.
  size_t maxPacket() const { return MaxPacket; }
  void setMaxPacket(size_t N) { MaxPacket = N; }

private:
  void compact();

  std::string Buf;
  size_t Pos = 0;     ///< start of the first unit not returned yet
  size_t Scanned = 0; ///< for a partial packet at Pos: bytes searched
  size_t MaxPacket = DefaultMaxPacket;
};

} // namespace tscc::rt::rsp

#endif // TSCC_RUNTIME_RSPPACKET_H
