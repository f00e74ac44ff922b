//===- EhReader.h - Reading .eh_frame and .gcc_except_table bytes ---------===//
//
// A bounds-checked reader over the bytes of an unwind section that knows
// their link-time address, for the DW_EH_PE pointer encodings the unwinder
// (Unwind/EhFrame.cpp) and the landing-pad finder
// (InProcess/Patch/ModuleEntries) both read. A read past the end clears Ok and
// yields 0.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_ELF_EHREADER_H
#define TSCC_RUNTIME_ELF_EHREADER_H

#include <cstddef>
#include <cstdint>

namespace tscc::rt {

/// A bounds-checked reader over file bytes that knows their link address.
struct EhReader {
  const uint8_t *Data;
  size_t Size;
  size_t Pos;
  uint64_t BaseAddr; ///< link-time address of Data[0]
  bool Ok = true;

  bool need(size_t N) {
    if (!Ok || Pos + N > Size || Pos + N < Pos)
      Ok = false;
    return Ok;
  }
  uint64_t fixed(unsigned N) {
    if (!need(N))
      return 0;
    uint64_t V = 0;
    for (unsigned I = 0; I < N; ++I)
      V |= uint64_t(Data[Pos + I]) << (8 * I);
    Pos += N;
    return V;
  }
  uint64_t uleb() {
    uint64_t V = 0;
    for (unsigned Shift = 0; need(1); Shift += 7) {
      uint8_t B = Data[Pos++];
      if (Shift < 64)
        V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        break;
    }
    return V;
  }
  int64_t sleb() {
    int64_t V = 0;
    unsigned Shift = 0;
    uint8_t B = 0;
    while (need(1)) {
      B = Data[Pos++];
      if (Shift < 64)
        V |= int64_t(B & 0x7f) << Shift;
      Shift += 7;
      if (!(B & 0x80))
        break;
    }
    if (Shift < 64 && (B & 0x40))
      V |= -(int64_t(1) << Shift);
    return V;
  }
  /// A DW_EH_PE-encoded pointer (pcrel relative to its own address).
  uint64_t encoded(uint8_t Enc, unsigned PtrSize) {
    if (Enc == 0xff)
      return 0;
    uint64_t Here = BaseAddr + Pos;
    uint64_t V;
    switch (Enc & 0x0f) {
    case 0x00:
      V = fixed(PtrSize);
      break;
    case 0x01:
      V = uleb();
      break;
    case 0x02:
      V = fixed(2);
      break;
    case 0x03:
      V = fixed(4);
      break;
    case 0x04:
      V = fixed(8);
      break;
    case 0x09:
      V = sleb();
      break;
    case 0x0a:
      V = static_cast<uint64_t>(int64_t(int16_t(fixed(2))));
      break;
    case 0x0b:
      V = static_cast<uint64_t>(int64_t(int32_t(fixed(4))));
      break;
    case 0x0c:
      V = fixed(8);
      break;
    default:
      Ok = false;
      return 0;
    }
    if ((Enc & 0x70) == 0x10)
      V += Here;
    if (PtrSize == 4)
      V &= 0xffffffffull;
    return V;
  }
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_ELF_EHREADER_H
