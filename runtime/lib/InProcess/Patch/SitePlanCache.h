//===- SitePlanCache.h - Jump-site plans reused across images -*- C++ -*-===//
//
// Planning a jump site (JumpPatch.h) decodes the whole enclosing function,
// follows its registers to resolve its indirect jumps and reads its jump
// tables: tens to hundreds of microseconds per function of libc. A
// fork+exec loop maps the same libc, loader and program in every new
// image, at a new load address each time, so tsrun would make the same
// plans again for every exec. This cache keeps each plan, made once per
// session, for every later image that maps the same file:
//
//  - keyed by which file the code comes from (its build-id, or where it
//    has none its device, inode, size and times; never its path, so a
//    new file put at the same path is a miss), the instruction set, the
//    site and its function (link-time addresses), whether it is a
//    system-call site, and the other probe sites near it (entries the
//    plan must respect);
//  - checked against the bytes: an entry holds the function's code and
//    the padding after it as they were read from the first process, and
//    is served only when the new process holds the very same bytes (so
//    code changed in memory, by another tracer or by the program, is
//    planned afresh);
//  - moved by the load bias: a plan holds one absolute address (its site);
//    a refusal's reason may name addresses, so it is served only at the
//    bias it was made at, and planned again elsewhere;
//  - bounded: the least recently used entries go once the code they hold
//    passes a budget.
//
// What depends on the process at that instant (threads stopped inside the
// bytes, addresses on their stacks, overlap with the sites already there)
// is never cached: JumpSites.cpp checks it for every image.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_INPROCESS_SITEPLANCACHE_H
#define TSCC_RUNTIME_INPROCESS_SITEPLANCACHE_H

#include "JumpPatch.h"

#include "tscc/Runtime/ElfFile.h"

#include <compare>
#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tscc::rt::ip {

/// Which file a module's code comes from: "build-id:HEX", or, for a file
/// without one, "file:DEV:INO:SIZE:MTIME:CTIME". Never the path: a file
/// replaced at the same path has a new inode (or new times).
std::string moduleCodeKey(const std::string &BuildId, const FileIdentity &Id);
std::string moduleCodeKey(const ElfFile &F);

/// What a site's plan depends on besides its bytes. Addresses are
/// link-time (runtime address - load bias).
struct SitePlanKey {
  std::string Module; ///< moduleCodeKey
  X86Mode Mode = X86Mode::Bits64;
  uint64_t FuncStart = 0, FuncSize = 0, Site = 0;
  bool Syscall = false;
  /// The probe sites (link-time, sorted) within the function and the
  /// padding after it: each is an entry the jump must not cover.
  std::vector<uint64_t> Nearby;
  auto operator<=>(const SitePlanKey &) const = default;
};

/// A plan made for a key, or why none could be.
struct SitePlan {
  bool Ok = false;
  PatchPlan Plan; ///< when Ok; Plan.Site at the bias asked for
  std::string Why;
};

class SitePlanCache {
public:
  /// The code held by all entries (their function and padding bytes).
  static constexpr size_t DefaultBudget = 16u << 20;
  explicit SitePlanCache(size_t Budget = DefaultBudget) : Budget(Budget) {}

  /// The plan made earlier for Key on exactly Func and Padding, with its
  /// site moved to Bias; none if there is none, the bytes differ, or it is
  /// a refusal made at another bias.
  std::optional<SitePlan> find(const SitePlanKey &Key,
                               std::span<const uint8_t> Func,
                               std::span<const uint8_t> Padding, uint64_t Bias);
  /// Keeps Made (planned on Func and Padding at Bias) for Key.
  void insert(const SitePlanKey &Key, std::span<const uint8_t> Func,
              std::span<const uint8_t> Padding, uint64_t Bias,
              const SitePlan &Made);

  size_t size() const;
  size_t bytes() const;
  void clear();

  /// The one every backend of this process plans with.
  static SitePlanCache &shared();
  /// False when the environment sets TSCC_SITE_PLAN_CACHE=0: every site
  /// is planned afresh (to measure what the cache saves, or to rule it
  /// out).
  static bool enabled();

private:
  struct Entry {
    std::vector<uint8_t> Func, Padding;
    uint64_t Bias = 0; ///< the one it was made at
    SitePlan Made;
    std::list<SitePlanKey>::iterator Use;
  };
  void evictLocked();

  mutable std::mutex Lock;
  size_t Budget, Held = 0;
  std::map<SitePlanKey, Entry> Entries;
  std::list<SitePlanKey> Uses; ///< least recently used first
};

} // namespace tscc::rt::ip

#endif // TSCC_RUNTIME_INPROCESS_SITEPLANCACHE_H
