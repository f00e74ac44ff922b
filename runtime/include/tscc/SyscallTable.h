//===- tscc/SyscallTable.h - Linux system calls per data model --*- C++ -*-===//
//
// The one system call table of compiler and runtime, made from
// tscc/Syscalls.def: sema checks `@@syscall:*:NAME:...` with it, the runtime
// turns names into numbers to trace and numbers back into `__func`.
// LLVM-free and header-only, like everything next to abi.h.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_SYSCALLTABLE_H
#define TSCC_SYSCALLTABLE_H

#include "tscc/DataModel.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string_view>

namespace tscc {

/// One system call: its name and its number in each data model.
struct SyscallInfo {
  std::string_view Name;
  int16_t Numbers[NumDataModels]; ///< by modelIndex(); -1: not in that model

  /// The call's number in \p DM, or nullopt where it does not exist.
  constexpr std::optional<uint32_t> number(DataModel DM) const {
    int16_t Nr = Numbers[modelIndex(DM)];
    if (Nr < 0)
      return std::nullopt;
    return static_cast<uint32_t>(Nr);
  }
};

/// Every system call of either model, sorted by name.
inline constexpr SyscallInfo SyscallTable[] = {
#define TSCC_SYSCALL(Name, I386, X86_64) {#Name, {I386, X86_64}},
#include "tscc/Syscalls.def"
#undef TSCC_SYSCALL
};

/// The whole table, sorted by name.
constexpr std::span<const SyscallInfo> allSyscalls() { return SyscallTable; }

/// The call named \p Name, or null.
constexpr const SyscallInfo *findSyscall(std::string_view Name) {
  const SyscallInfo *It = std::lower_bound(
      std::begin(SyscallTable), std::end(SyscallTable), Name,
      [](const SyscallInfo &S, std::string_view N) { return S.Name < N; });
  if (It == std::end(SyscallTable) || It->Name != Name)
    return nullptr;
  return It;
}

/// The number of \p Name in \p DM, for the calls tsrun makes in a target
/// itself (mmap, munmap, rt_sigaction...). Evaluated at compile time: a call
/// the table does not have in that model does not compile.
consteval uint32_t syscallNumberOf(DataModel DM, std::string_view Name) {
  // By index, without pointers: GCC's -fsanitize=undefined (the sanitizer
  // build) instruments pointer uses with null checks that are not constant
  // expressions, even in a consteval function.
  for (size_t I = 0; I < std::size(SyscallTable); ++I) {
    if (SyscallTable[I].Name != Name)
      continue;
    int16_t Nr = SyscallTable[I].Numbers[modelIndex(DM)];
    if (Nr < 0)
      throw "no such system call in this data model";
    return static_cast<uint32_t>(Nr);
  }
  throw "no such system call";
}

// The runtime's namespace sees the same definitions.
namespace rt {
using ::tscc::allSyscalls;
using ::tscc::findSyscall;
using ::tscc::SyscallInfo;
using ::tscc::syscallNumberOf;
} // namespace rt

} // namespace tscc

#endif // TSCC_SYSCALLTABLE_H
