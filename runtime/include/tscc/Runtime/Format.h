//===- tscc/Runtime/Format.h - printf on the consumer side -----------------===//
//
// Clause code never formats text: printf() emits a record holding the format
// index and the raw argument values. This file turns such a record back into
// text, with C's printf semantics *for the data model of the process that
// emitted it*: "%ld" of 0xffffffff is -1 from an ILP32 process and 4294967295
// from an LP64 one, "%p" is 32 or 64 bits wide, and so on.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_FORMAT_H
#define TSCC_RUNTIME_FORMAT_H

#include "tscc/Runtime/Target.h"
#include "tscc/abi.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tscc::rt {

/// One decoded record argument.
struct FormatArg {
  uint32_t Kind = 0;           ///< tscc_field_kind
  uint64_t Bits = 0;           ///< scalars (DOUBLE: the IEEE bits)
  std::string Str;             ///< STRING
  std::vector<uint64_t> Stack; ///< STACK
  uint32_t StackEndWord = 0;   ///< STACK: why it ends (tscc_stack_end)
};

/// Decodes the argument area of a record as Fields describe it. Returns false
/// (with the arguments decoded so far) when the area is too short or malformed.
bool decodeArgs(std::span<const tscc_field> Fields,
                std::span<const uint8_t> Bytes, std::vector<FormatArg> &Out);

/// printf(Fmt, Args...) as the C library of the given data model would print
/// it. Supports the conversions d i u o x X c s p f F e E g G a A % with the
/// flags "-+ #0", width and precision (also '*'), and the length modifiers
/// hh h l ll L q j z t. Values are truncated or sign-extended as the length
/// modifier says for that data model. %n is refused (printed as text); a
/// missing argument prints as "(missing)". Never fails.
std::string formatPrintf(std::string_view Fmt, std::span<const FormatArg> Args,
                         DataModel DM);
/// The same, appended to Out (the live reader's reused buffer).
void appendPrintf(std::string &Out, std::string_view Fmt,
                  std::span<const FormatArg> Args, DataModel DM);

/// One argument a printf format consumes, for exports that keep values typed
/// (CTF, Perfetto): the conversion character ('*' for a '*' width or
/// precision) and the integer width that conversion reads in each data model
/// (indexed by DataModel), e.g. 32/64 for "%ld".
struct ArgConversion {
  char Conv = 0;
  unsigned IntBits[2] = {64, 64};
};

/// The arguments Fmt consumes, in order, as formatPrintf() would read them.
std::vector<ArgConversion> formatArgConversions(std::string_view Fmt);

/// The integer printf converts: V sign-extended or truncated from Bits.
int64_t signExtendBits(uint64_t V, unsigned Bits);
uint64_t truncateBits(uint64_t V, unsigned Bits);

/// Escapes a string for display in diagnostics (non-printables as \xNN).
std::string escapeForDisplay(std::string_view S);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_FORMAT_H
