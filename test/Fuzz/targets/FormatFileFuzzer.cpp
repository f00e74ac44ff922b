//===- FormatFileFuzzer.cpp - tsreport format files from arbitrary text ---===//

#include "tscc/Runtime/TraceFormat.h"

#include <cstdint>
#include <string_view>

using namespace tscc::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Error;
  auto F = TraceFormatFile::parse(
      std::string_view(reinterpret_cast<const char *>(Data), Size), "fuzz.fmt",
      Error);
  if (F)
    for (uint32_t Hook : {0u, 1u, 0x10u, 0xffffffffu})
      (void)F->find(Hook);
  return 0;
}
