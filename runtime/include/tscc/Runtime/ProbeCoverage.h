//===- tscc/Runtime/ProbeCoverage.h - Probes that match nothing -----------===//
//
// Keeps, for every user-function probe of a session, whether it has found a
// function anywhere, and in which loaded modules it looked. A probe that
// names a module explicitly (`libc.so.6:mallco`) is known to be dead as soon
// as that module is loaded without such a function: the user is told at once,
// with the closest name the module has. Probes still unmatched when the
// session ends are reported then, saying whether their module ever loaded.
//
// Backend-independent and thread-safe: every backend reports the modules it
// searched.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PROBECOVERAGE_H
#define TSCC_RUNTIME_PROBECOVERAGE_H

#include "tscc/abi.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tscc::rt {

class ElfFile;
class ProbeMatcher;
struct ModuleRef;

/// The number of functions each probe found in one module: NotSearched when
/// the probe's module pattern does not name that module.
inline constexpr int NotSearched = -1;

class ProbeCoverage {
public:
  /// Matcher must outlive the coverage.
  explicit ProbeCoverage(const ProbeMatcher &Matcher);

  /// Found[P] is what ProbeMatcher::matchModule() found for probe P in the
  /// module File (named ModuleName, e.g. "libc.so.6"); IsMain: it is the
  /// process's executable. Returns the warnings to give now: probes that
  /// name this module explicitly and cannot match in it.
  std::vector<std::string> searched(std::string_view ModuleName, bool IsMain,
                                    const ElfFile &File,
                                    std::span<const int> Found);

  /// The backend loaded module M (named ModuleName) but probes nothing in
  /// it, for the reason Why ("it is not the library the target maps"):
  /// the end-of-session report of the probes that name it says so, instead
  /// of claiming the module never loaded.
  void skipped(std::string_view ModuleName, const ModuleRef &M,
               std::string_view Why);

  /// Whether some probe of the program may still fire: it has matched, it
  /// is not a user-function probe, or its module has not been loaded (it
  /// may be dlopen()ed later). A probe on `a.out` is dead only in the image
  /// that lacks the function, so it never counts as dead here: an exec may
  /// bring the function.
  bool someProbeMayFire() const;

  /// One line per user-function probe that never matched a function, for
  /// the end of the session.
  std::vector<std::string> unmatchedReport() const;

private:
  struct ProbeState {
    bool Matched = false;
    bool Dead = false;             ///< its named module lacks it
    std::set<std::string> Modules; ///< searched, by name
    /// Loaded modules it names but that were not searched, by name: why.
    std::map<std::string, std::string, std::less<>> Skipped;
    std::string Suggestion; ///< closest function name seen
    unsigned SuggestionDistance = ~0u;
  };
  const ProbeMatcher &Matcher;
  mutable std::mutex Lock;
  std::vector<ProbeState> States;
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_PROBECOVERAGE_H
