//===- HealerI386.cpp - The i386 healer, embedded in libtsrt --------------===//
//
// runtime/lib/InProcess/Agent/i386/healer.S, assembled for i386 and cut down to
// its raw bytes by the build (runtime/CMakeLists.txt); Healer.cpp copies it
// into attached 32-bit processes.
//
//===----------------------------------------------------------------------===//
#include "Healer.h"

asm(".pushsection .rodata.tscc_healer_i386,\"a\",@progbits\n"
    ".balign 16\n"
    "tscc_healer_i386_begin:\n"
    ".incbin \"" TSCC_HEALER_I386_PATH "\"\n"
    "tscc_healer_i386_end:\n"
    ".popsection\n");

extern "C" const uint8_t tscc_healer_i386_begin[], tscc_healer_i386_end[];

std::span<const uint8_t> tscc::rt::pt::healerBlobI386() {
  return {tscc_healer_i386_begin, tscc_healer_i386_end};
}
