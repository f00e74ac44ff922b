//===- PrintfFuzzer.cpp - printf formatting of arbitrary records ----------===//
//
// The input is split: a format string up to the first NUL, then argument
// bytes decoded as a record's argument area for a fixed field list (every
// kind), then formatted for both data models.
//
//===----------------------------------------------------------------------===//

#include "tscc/Runtime/Format.h"

#include <cstring>

using namespace tscc::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const uint8_t *Nul = static_cast<const uint8_t *>(memchr(Data, 0, Size));
  size_t FmtLen = Nul ? size_t(Nul - Data) : Size;
  std::string_view Fmt(reinterpret_cast<const char *>(Data), FmtLen);
  std::span<const uint8_t> ArgBytes;
  if (Nul)
    ArgBytes = {Nul + 1, Size - FmtLen - 1};
  static const tscc_field Fields[] = {
      {TSCC_FIELD_S64, 8},  {TSCC_FIELD_U64, 8},    {TSCC_FIELD_PTR, 8},
      {TSCC_FIELD_CHAR, 8}, {TSCC_FIELD_DOUBLE, 8}, {TSCC_FIELD_STRING, 0},
      {TSCC_FIELD_S64, 8},  {TSCC_FIELD_STACK, 0},  {TSCC_FIELD_S64, 8},
  };
  std::vector<FormatArg> Args;
  decodeArgs(Fields, ArgBytes, Args);
  (void)formatPrintf(Fmt, Args, DataModel::LP64);
  (void)formatPrintf(Fmt, Args, DataModel::ILP32);
  (void)escapeForDisplay(Fmt);
  return 0;
}
