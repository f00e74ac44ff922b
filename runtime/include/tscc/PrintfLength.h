//===- tscc/PrintfLength.h - printf length modifiers per model --*- C++ -*-===//
//
// What a printf length modifier (hh, h, l, ll, q, j, z, t, L) means in each
// data model, for the two sides that must agree on it: sema's format checker
// (which widths an argument must have) and the runtime's formatter (how many
// bits of a record's 64-bit argument it prints). LLVM-free and header-only,
// like everything next to abi.h.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_PRINTFLENGTH_H
#define TSCC_PRINTFLENGTH_H

#include "tscc/DataModel.h"

#include <cstddef>
#include <string_view>

namespace tscc {

enum class PrintfLength : uint8_t { None, HH, H, L, LL, J, Z, T, BigL };

/// Reads the length modifier that starts at Fmt[I], if any, and moves I past
/// it. `q` is BSD's spelling of `ll`.
constexpr PrintfLength parsePrintfLength(std::string_view Fmt, size_t &I) {
  std::string_view Rest = I < Fmt.size() ? Fmt.substr(I) : std::string_view();
  if (Rest.starts_with("hh") || Rest.starts_with("ll")) {
    I += 2;
    return Rest[0] == 'h' ? PrintfLength::HH : PrintfLength::LL;
  }
  if (Rest.empty())
    return PrintfLength::None;
  PrintfLength L = PrintfLength::None;
  switch (Rest[0]) {
  case 'h':
    L = PrintfLength::H;
    break;
  case 'l':
    L = PrintfLength::L;
    break;
  case 'q':
    L = PrintfLength::LL;
    break;
  case 'j':
    L = PrintfLength::J;
    break;
  case 'z':
    L = PrintfLength::Z;
    break;
  case 't':
    L = PrintfLength::T;
    break;
  case 'L':
    L = PrintfLength::BigL;
    break;
  default:
    return PrintfLength::None;
  }
  ++I;
  return L;
}

/// The modifier as written ("" for none; `q` reads as "ll").
constexpr const char *printfLengthSpelling(PrintfLength L) {
  switch (L) {
  case PrintfLength::None:
    return "";
  case PrintfLength::HH:
    return "hh";
  case PrintfLength::H:
    return "h";
  case PrintfLength::L:
    return "l";
  case PrintfLength::LL:
    return "ll";
  case PrintfLength::J:
    return "j";
  case PrintfLength::Z:
    return "z";
  case PrintfLength::T:
    return "t";
  case PrintfLength::BigL:
    return "L";
  }
  return "";
}

/// The width in bits of the integer an integer conversion prints in model
/// \p DM: char for hh, short for h, int without a modifier, long/size_t/
/// ptrdiff_t (the model's pointer width) for l, z and t, 64 bits for ll, j
/// and L (which glibc accepts as ll for integers).
constexpr unsigned printfLengthBits(PrintfLength L, DataModel DM) {
  switch (L) {
  case PrintfLength::HH:
    return 8;
  case PrintfLength::H:
    return 16;
  case PrintfLength::None:
    return 32;
  case PrintfLength::L:
  case PrintfLength::Z:
  case PrintfLength::T:
    return dataModelBits(DM);
  case PrintfLength::LL:
  case PrintfLength::J:
  case PrintfLength::BigL:
    return 64;
  }
  return 64;
}

/// The width in bits of the argument such a conversion reads in model
/// \p DM, after the default argument promotions: at least an int.
constexpr unsigned printfArgumentBits(PrintfLength L, DataModel DM) {
  unsigned Bits = printfLengthBits(L, DM);
  return Bits < 32 ? 32 : Bits;
}

} // namespace tscc

#endif // TSCC_PRINTFLENGTH_H
