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
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace tscc::rt {

struct ModuleImage {
  std::string Path; ///< canonical (canonicalModulePath)
  std::string Name; ///< base name: __module and symbolize()
  std::shared_ptr<const ElfFile> Elf;
  uint64_t Bias = 0;           ///< runtime address = link-time address + Bias
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

/// ELF files by path, each opened once while a module still uses it and
/// the file at the path is still the same (FileIdentity and build-id,
/// ElfFile::isStillAt): a file rewritten, or replaced by a new one at the
/// same path (a rebuilt program that execs itself), is read again, never
/// served stale; the processes that map the old one keep the old parse.
/// Failures are remembered too, with the identity the path had then, so a
/// file that cannot be read is not tried on every library load, and one
/// that appears or changes later is tried again. Bounded: a long session that
/// runs thousands of different programs keeps only the files its live processes
/// map, the most recently opened ones (so a fork/exec loop of one program
/// parses it once), and a bounded list of failures.
class ElfCache {
public:
  /// Recently opened files kept even when no module uses them.
  static constexpr size_t KeepRecent = 64;
  /// Failed paths remembered (then forgotten all at once).
  static constexpr size_t MaxFailures = 1024;

  /// The file, or null with Error saying why (on every call).
  std::shared_ptr<const ElfFile> get(const std::string &Path,
                                     std::string &Error);
  /// Paths the cache knows, for tests: open or failed.
  size_t size() const { return Files.size() + Failures.size(); }

private:
  struct Failure {
    std::string Why;
    std::optional<FileIdentity> Identity; ///< of the path when it failed
  };
  std::map<std::string, std::weak_ptr<const ElfFile>> Files;
  std::map<std::string, Failure> Failures;
  std::deque<std::shared_ptr<const ElfFile>> Recent;
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_MODULEIMAGE_H
