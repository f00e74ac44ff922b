//===- LinkedImage.cpp - A probe object linked into the executable --------===//
//
// When probe.o is linked by the system linker together with libtsrt, the
// linker defines __start_<sec> / __stop_<sec> for every section whose name is
// a C identifier -- which is why abi.h names them that way. The references
// are weak so that tsrun, which carries no probe object, still links; they
// then resolve to null.
//
//===----------------------------------------------------------------------===//

#include "tscc/Runtime/ProbeProgram.h"

#include "LoadedImage.h"

#include <cstdint>

#define TSCC_BOUNDS(sec)                                                       \
  extern const uint8_t __start_##sec[]                                         \
      __attribute__((weak, visibility("hidden")));                             \
  extern const uint8_t __stop_##sec[]                                          \
      __attribute__((weak, visibility("hidden")));

extern "C" {
TSCC_BOUNDS(tscc_header)
TSCC_BOUNDS(tscc_clauses)
TSCC_BOUNDS(tscc_probes)
TSCC_BOUNDS(tscc_formats)
TSCC_BOUNDS(tscc_fields)
TSCC_BOUNDS(tscc_maps)
TSCC_BOUNDS(tscc_aggs)
TSCC_BOUNDS(tscc_within)
TSCC_BOUNDS(tscc_strtab)
TSCC_BOUNDS(tscc_text_ilp32)
TSCC_BOUNDS(tscc_text_lp64)
}

using namespace tscc::rt;

namespace {
std::span<const uint8_t> bounds(const uint8_t *Start, const uint8_t *Stop) {
  if (!Start || !Stop || Stop < Start)
    return {};
  return {Start, static_cast<size_t>(Stop - Start)};
}
} // namespace

#define TSCC_SPAN(sec) bounds(__start_##sec, __stop_##sec)

std::unique_ptr<ProbeProgram>
ProbeProgram::fromLinkedImage(std::string &Error) {
  ProgramTables T;
  T.Header = TSCC_SPAN(tscc_header);
  if (T.Header.empty()) {
    Error = "this executable has no linked-in probe object (no " TSCC_SEC_HEADER
            " section)";
    return nullptr;
  }
  T.Clauses = TSCC_SPAN(tscc_clauses);
  T.Probes = TSCC_SPAN(tscc_probes);
  T.Formats = TSCC_SPAN(tscc_formats);
  T.Fields = TSCC_SPAN(tscc_fields);
  T.Maps = TSCC_SPAN(tscc_maps);
  T.Aggs = TSCC_SPAN(tscc_aggs);
  T.Within = TSCC_SPAN(tscc_within);
  T.Strtab = TSCC_SPAN(tscc_strtab);
  std::span<const uint8_t> Text[TSCC_DM_COUNT] = {TSCC_SPAN(tscc_text_ilp32),
                                                  TSCC_SPAN(tscc_text_lp64)};
  for (unsigned M = 0; M < TSCC_DM_COUNT; ++M) {
    T.Text[M] = Text[M].data();
    T.TextSize[M] = Text[M].size();
  }
  std::unique_ptr<ProbeProgram> P(new ProbeProgram());
  P->Name = "<linked-in probe object>";
  std::string Why;
  if (!P->adopt(T, Why)) {
    Error = P->Name + ": " + Why;
    return nullptr;
  }
  return P;
}
