//===- RspFuzzer.cpp - What a GDB stub may send -----------------------------===//
//
// The first input byte picks a target: the packet reader fed in pieces (the
// RSP framing, checksums, run-length expansion, escapes), the stop-reply
// and thread-id parsers, or the target-description XML parser with an
// include fetcher that serves parts of the same input.
//
//===----------------------------------------------------------------------===//

#include "TargetXml.h"

#include "tscc/Runtime/RspClient.h"
#include "tscc/Runtime/RspPacket.h"

using namespace tscc::rt;
using namespace tscc::rt::rsp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  uint8_t Which = Data[0];
  std::string_view In(reinterpret_cast<const char *>(Data + 1), Size - 1);
  switch (Which % 3) {
  case 0: {
    PacketReader R;
    // Feed in uneven pieces, as a socket delivers.
    size_t Step = 1 + Which / 3;
    for (size_t Pos = 0; Pos < In.size(); Pos += Step) {
      R.feed(In.data() + Pos, std::min(Step, In.size() - Pos));
      while (std::optional<Incoming> I = R.next())
        if (I->K == Incoming::Packet || I->K == Incoming::Notification) {
          (void)unescape(I->Payload);
          (void)RspStop::parse(I->Payload);
        }
    }
    (void)expandRunLength(In);
    break;
  }
  case 1:
    (void)RspStop::parse(In);
    (void)RspThreadId::parse(In);
    {
      uint64_t V;
      (void)parseHexNumber(In, V);
    }
    break;
  default: {
    TargetDescription D;
    std::string Error;
    // Annexes: the rest of the input after each '\0'-separated part.
    parseTargetDescription(
        In,
        [&](const std::string &Annex) -> std::optional<std::string> {
          size_t At = In.find(Annex);
          if (At == std::string_view::npos)
            return std::nullopt;
          return std::string(In.substr(At + Annex.size()));
        },
        D, Error);
    break;
  }
  }
  return 0;
}
