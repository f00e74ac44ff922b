//===- llvm-uninstrumented.h - LLVM headers as the archives saw them ------===//
//
// Force-included (-include) into every translation unit that uses LLVM or
// Clang headers when tscc is built with ASan (TSCC_SANITIZE, TSCC_FUZZ).
//
// llvm/Support/Compiler.h turns on LLVM_ADDRESS_SANITIZER_BUILD, and with it
// the allocator poisoning of Allocator.h, Recycler.h and ArrayRecycler.h,
// whenever the including translation unit is compiled with ASan. Debian's
// LLVM and Clang libraries were compiled without it, so the same inline
// functions have two different bodies in one program (an ODR violation):
// the linker keeps our instrumented out-of-line
// BumpPtrAllocatorImpl::AllocateSlow, which poisons each new slab, while the
// archives' inlined Allocate fast path never unpoisons what it hands out.
// The next memcpy into such memory (Clang's IdentifierTable, at
// preprocessor set-up) is then a false use-after-poison. Here every
// translation unit sees Compiler.h's uninstrumented branch, as the archives
// did. ASan's own heap checks are unaffected; only LLVM's manual poisoning
// inside allocator slabs is off, which the archives never had anyway.
// docs/internals.md, "Fuzzing and sanitizers", has the reproduction.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_UTILS_SANITIZE_LLVM_UNINSTRUMENTED_H
#define TSCC_UTILS_SANITIZE_LLVM_UNINSTRUMENTED_H

#ifdef __cplusplus
#include "llvm/Support/Compiler.h"

#undef LLVM_ADDRESS_SANITIZER_BUILD
#define LLVM_ADDRESS_SANITIZER_BUILD 0
// The same no-ops as Compiler.h's branch for uninstrumented builds; they
// shadow the functions that <sanitizer/asan_interface.h> declared.
#define __asan_poison_memory_region(p, size)
#define __asan_unpoison_memory_region(p, size)
#endif

#endif
