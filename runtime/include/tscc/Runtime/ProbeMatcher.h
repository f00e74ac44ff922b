//===- tscc/Runtime/ProbeMatcher.h - Which probes apply where -------------===//
//
// Turns the program's probe table into concrete sites. For user-function
// probes (entry, exit, FUNC+OFFSET) it matches a module (path, soname,
// main executable or not) and that module's function symbols; for syscall
// probes it matches the syscall table of a data model.
//
// Backend-independent: used by the ptrace backend for native processes and
// by the gdb-remote backend for processes behind a stub. Globs and regular
// expressions are compiled once, when the matcher is built.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PROBEMATCHER_H
#define TSCC_RUNTIME_PROBEMATCHER_H

#include "tscc/Runtime/ElfFile.h"
#include "tscc/Runtime/Target.h"
#include "tscc/abi.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tscc::rt {

class ProbeProgram;

/// What the matcher needs to know about one mapped module.
struct ModuleRef {
  std::string_view Path; ///< as mapped ("/usr/lib/x86_64-linux-gnu/libc.so.6")
  std::string_view Soname; ///< DT_SONAME, may be empty
  bool IsMain = false;     ///< the process's executable ("a.out")
};

/// One place to put a breakpoint for one probe.
struct ProbeSite {
  uint32_t Probe = 0;
  uint32_t Kind = 0; ///< tscc_probe_kind
  /// The function (owned by the ElfFile); for a USDT site the function
  /// around it, possibly null.
  const ElfSymbol *Symbol = nullptr;
  uint64_t Address = 0;            ///< link-time address of the site
  const UsdtProbe *Usdt = nullptr; ///< USDT sites: the note (ElfFile's)

  /// What __func says at this site: the function, or the USDT probe name.
  std::string_view name() const {
    if (Usdt)
      return Usdt->Name;
    return Symbol ? std::string_view(Symbol->Name) : std::string_view();
  }
};

/// One syscall a syscall probe asks for.
struct SyscallSite {
  uint32_t Probe = 0;
  bool Exit = false;
  uint32_t Number = 0;
  std::string_view Name;
};

/// Probes that live in a module's code (uft entry/exit/offset, USDT): the
/// ones a module is searched for.
inline bool isModuleProbeKind(uint32_t K) {
  return K == TSCC_PROBE_UFT_ENTRY || K == TSCC_PROBE_UFT_EXIT ||
         K == TSCC_PROBE_UFT_OFFSET || K == TSCC_PROBE_USDT;
}

class ProbeMatcher {
public:
  /// Probes and strtab are copied/viewed from Program, which must outlive
  /// the matcher. Bad patterns are reported by errors().
  explicit ProbeMatcher(const ProbeProgram &Program);
  ProbeMatcher(std::span<const tscc_probe> Probes, std::string_view Strtab);
  ~ProbeMatcher();
  ProbeMatcher(const ProbeMatcher &) = delete;
  ProbeMatcher &operator=(const ProbeMatcher &) = delete;

  /// "probe 'SPEC': invalid regular expression ..." for each bad pattern;
  /// those probes never match.
  const std::vector<std::string> &errors() const { return Errors; }

  size_t probeCount() const { return Probes.size(); }
  const tscc_probe &probe(uint32_t I) const { return Probes[I]; }
  std::string_view string(uint32_t Offset) const;
  std::string_view spec(uint32_t I) const { return string(Probes[I].spec); }

  /// Whether any probe of this kind exists.
  bool hasKind(uint32_t Kind) const;
  /// Whether some user-function probe could match functions of M.
  bool anyModuleMatches(const ModuleRef &M) const;
  bool moduleMatches(uint32_t Probe, const ModuleRef &M) const;
  bool functionMatches(uint32_t Probe, std::string_view Name) const;
  /// USDT probes: whether PROVIDER and NAME match.
  bool usdtMatches(uint32_t Probe, const UsdtProbe &U) const;

  /// Every user-function site of every UFT probe, and every USDT site of
  /// every USDT probe, in module File, one per
  /// (clause, kind, address): aliases of a function fire a clause once.
  /// FUNC+OFFSET sites past the function's end or not on an instruction
  /// boundary are skipped with a message in Problems. Found, if given,
  /// receives per probe the number of functions it found in the module, or
  /// NotSearched (ProbeCoverage.h) when the module is not the probe's.
  std::vector<ProbeSite> matchModule(const ElfFile &File, const ModuleRef &M,
                                     std::vector<std::string> &Problems,
                                     std::vector<int> *Found = nullptr) const;

  /// Every (probe, syscall number) for syscall probes, in the syscall table
  /// of DM. Unknown names go to Problems.
  std::vector<SyscallSite>
  matchSyscalls(DataModel DM, std::vector<std::string> &Problems) const;

private:
  struct Pattern;
  void compile();
  bool matches(const Pattern &P, std::string_view S) const;
  std::vector<ProbeSite> dropAliases(std::vector<ProbeSite> Sites) const;

  std::span<const tscc_probe> Probes;
  std::string_view Strtab;
  std::vector<Pattern> ModulePatterns, FunctionPatterns, ProviderPatterns;
  std::vector<std::string> Errors;
};

/// The Linux syscall tables of i386 (ILP32) and x86-64 (LP64).
std::optional<uint32_t> syscallNumber(DataModel DM, std::string_view Name);
/// "" when Nr is not a known syscall.
std::string_view syscallName(DataModel DM, uint64_t Nr);
/// All (name, number) pairs of a table, in number order.
std::span<const std::pair<std::string_view, uint32_t>>
syscallTable(DataModel DM);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_PROBEMATCHER_H
