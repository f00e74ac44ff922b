//===- tscc/Runtime/ModuleImage.h - A module mapped in a process -*- C++ -*-===//
//
// What both backends (ptrace, gdb-remote) know of one ELF module in a
// traced process, and the cache of ELF files they read modules from. Each
// backend extends ModuleImage with its own bookkeeping.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_MODULEIMAGE_H
#define TSCC_RUNTIME_MODULEIMAGE_H

#include "tscc/Runtime/ElfFile.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace tscc::rt {

struct ModuleImage {
  std::string Path; ///< canonical (canonicalModulePath)
  std::string Name; ///< base name: __module and symbolize()
  std::shared_ptr<const ElfFile> Elf;
  uint64_t Bias = 0; ///< runtime address = link-time address + Bias
  uint64_t Start = 0, End = 0; ///< runtime extent of its PT_LOADs
  bool IsMain = false;
  bool FromLinkMap = false; ///< dropped when it leaves the link map

  /// Describes Elf, found at Path, loaded at Bias. False if the file has
  /// nothing to load (then the module is of no use).
  bool describe(std::string CanonicalPath, std::shared_ptr<const ElfFile> Elf,
                uint64_t Bias, bool IsMain);
  /// "malloc+0x10 (libc.so.6)", or "libc.so.6+0x2724a" where no symbol
  /// covers PC: one format for every backend and data model.
  std::string symbolize(uint64_t PC) const;
};

/// M->symbolize(PC), or "0x..." when PC is in no known module (M null).
std::string symbolizeAddress(const ModuleImage *M, uint64_t PC);

/// ELF files by path, each opened once. Failures are remembered too, so a
/// file that cannot be read is not tried on every library load.
class ElfCache {
public:
  /// The file, or null with Error saying why (on every call).
  std::shared_ptr<const ElfFile> get(const std::string &Path,
                                     std::string &Error);

private:
  struct Entry {
    std::shared_ptr<const ElfFile> File;
    std::string Error;
  };
  std::map<std::string, Entry> Files;
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_MODULEIMAGE_H
