//===- ObjectLoaderFuzzer.cpp - Probe objects from arbitrary bytes --------===//
//
// Loads the input as a probe object (map, relocate, validate every table)
// and, like the agent and remote paths do, relocates it for another
// process. Nothing is executed: the fuzzer checks the loader, not the code.
//
//===----------------------------------------------------------------------===//

#include "LoadedImage.h"

#include "tscc/Runtime/ProbeProgram.h"

#include <cstddef>
#include <cstdint>

using namespace tscc::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::span<const uint8_t> Bytes(Data, Size);
  std::string Error;
  if (auto P = ProbeProgram::loadFromMemory(Bytes, "fuzz.o", Error)) {
    // Exercise the accessors the session uses on every table.
    for (uint32_t C = 0; C < P->clauses().size(); ++C) {
      (void)P->predicate(C, DataModel::LP64);
      (void)P->action(C, DataModel::ILP32);
    }
    for (uint32_t F = 0; F < P->formats().size(); ++F)
      (void)P->formatFields(F);
    for (uint32_t A = 0; A < P->aggs().size(); ++A)
      (void)P->aggKeyFields(A);
  }
  uint64_t ImageSize = 0;
  if (!relocatedImageSize(Bytes, ImageSize, Error) || ImageSize > (64u << 20))
    return 0;
  RelocatedImage Out;
  relocateImage(
      Bytes, 0x7f0000000000ull,
      [](std::string_view Name) -> std::optional<uint64_t> {
        return Name == "memcpy" ? std::optional<uint64_t>(0x7f1000000000ull)
                                : std::nullopt;
      },
      Out, Error);
  return 0;
}
