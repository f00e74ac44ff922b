//===- ProbeCoverage.cpp - Probes that match nothing ----------------------===//
#include "tscc/Runtime/ProbeCoverage.h"

#include "tscc/ClosestName.h"
#include "tscc/Runtime/ElfFile.h"
#include "tscc/Runtime/ProbeMatcher.h"

#include <algorithm>

using namespace tscc::rt;

/// The names of \p Items in the order closestName() should prefer them on
/// a tie: the shorter, then the alphabetically first (a module's symbol
/// order means nothing to a user).
template <typename Items, typename NameOf>
static std::vector<std::string_view> suggestionOrder(const Items &All,
                                                     NameOf Name) {
  std::vector<std::string_view> Names;
  for (const auto &I : All)
    Names.push_back(Name(I));
  std::sort(Names.begin(), Names.end(),
            [](std::string_view A, std::string_view B) {
              return std::make_pair(A.size(), A) < std::make_pair(B.size(), B);
            });
  return Names;
}

/// "no function 'mallco'" or "no function matching 'x*'".
static std::string noFunction(const ProbeMatcher &Matcher,
                              const tscc_probe &Pr) {
  std::string Function(Matcher.string(Pr.function));
  if (Pr.kind == TSCC_PROBE_USDT)
    return "no USDT probe '" +
           std::string(Matcher.string(TSCC_USDT_PROVIDER(Pr.offset))) + ":" +
           Function + "'";
  return Pr.function_match == TSCC_MATCH_EXACT
             ? "no function '" + Function + "'"
             : "no function matching '" + Function + "'";
}

ProbeCoverage::ProbeCoverage(const ProbeMatcher &Matcher)
    : Matcher(Matcher), States(Matcher.probeCount()) {}

std::vector<std::string> ProbeCoverage::searched(std::string_view ModuleName,
                                                 bool IsMain,
                                                 const ElfFile &File,
                                                 std::span<const int> Found) {
  std::vector<std::string> Warnings;
  std::vector<std::string_view> Names; // built only when a probe missed
  std::vector<std::string_view> UsdtNames;
  std::lock_guard<std::mutex> G(Lock);
  for (uint32_t P = 0; P < Found.size() && P < States.size(); ++P) {
    if (Found[P] == NotSearched)
      continue;
    ProbeState &St = States[P];
    bool FirstLook = St.Modules.insert(std::string(ModuleName)).second;
    if (Found[P] > 0) {
      St.Matched = true;
      St.Dead = false;
      continue;
    }
    if (St.Matched || !FirstLook)
      continue;
    const tscc_probe &Pr = Matcher.probe(P);
    std::string_view Function = Matcher.string(Pr.function);
    std::string_view Suggestion;
    if (Pr.function_match == TSCC_MATCH_EXACT) {
      bool Usdt = Pr.kind == TSCC_PROBE_USDT;
      if (Usdt && UsdtNames.empty())
        UsdtNames = suggestionOrder(
            File.usdtProbes(),
            [](const UsdtProbe &U) -> std::string_view { return U.Name; });
      if (!Usdt && Names.empty())
        Names = suggestionOrder(
            File.functions(),
            [](const ElfSymbol &S) -> std::string_view { return S.Name; });
      unsigned D = ~0u;
      Suggestion = closestName(Function, Usdt ? UsdtNames : Names, &D);
      if (!Suggestion.empty() && D < St.SuggestionDistance) {
        St.Suggestion = std::string(Suggestion);
        St.SuggestionDistance = D;
      }
    }
    // Only a probe that names this module is sure to miss: with `*` or a
    // pattern, another module may still have the function.
    if (Pr.module_match != TSCC_MATCH_EXACT)
      continue;
    std::string Shown(ModuleName);
    if (IsMain && Matcher.string(Pr.module) == "a.out")
      Shown += " (a.out)";
    std::string W = "probe '" + std::string(Matcher.spec(P)) +
                    "': " + noFunction(Matcher, Pr) + " in " + Shown;
    if (!Suggestion.empty())
      W += "; did you mean '" + std::string(Suggestion) + "'?";
    Warnings.push_back(std::move(W));
    if (Matcher.string(Pr.module) != "a.out")
      St.Dead = true;
  }
  return Warnings;
}

void ProbeCoverage::skipped(std::string_view ModuleName, const ModuleRef &M,
                            std::string_view Why) {
  std::lock_guard<std::mutex> G(Lock);
  for (uint32_t P = 0; P < States.size(); ++P)
    if (isModuleProbeKind(Matcher.probe(P).kind) && Matcher.moduleMatches(P, M))
      States[P].Skipped.try_emplace(std::string(ModuleName), Why);
}

/// "; not probed: libx.so (why), liby.so (why)", or "".
static std::string
skippedList(const std::map<std::string, std::string, std::less<>> &Skipped) {
  std::string Out;
  for (const auto &[Name, Why] : Skipped)
    Out += (Out.empty() ? "; not probed: " : ", ") + Name + " (" + Why + ")";
  return Out;
}

bool ProbeCoverage::someProbeMayFire() const {
  std::lock_guard<std::mutex> G(Lock);
  for (uint32_t P = 0; P < States.size(); ++P) {
    const tscc_probe &Pr = Matcher.probe(P);
    if (!isModuleProbeKind(Pr.kind) || States[P].Matched || !States[P].Dead)
      return true;
  }
  return false;
}

std::vector<std::string> ProbeCoverage::unmatchedReport() const {
  std::vector<std::string> Out;
  std::lock_guard<std::mutex> G(Lock);
  for (uint32_t P = 0; P < States.size(); ++P) {
    const tscc_probe &Pr = Matcher.probe(P);
    const ProbeState &St = States[P];
    if (!isModuleProbeKind(Pr.kind) || St.Matched)
      continue;
    std::string Spec(Matcher.spec(P));
    std::string_view Module = Matcher.string(Pr.module);
    if (St.Modules.empty() && !St.Skipped.empty()) {
      std::string W = "probe '" + Spec + "' never matched:";
      for (const auto &[Name, Why] : St.Skipped)
        W += " " + Name + " was loaded but not probed (" + Why + ");";
      W.pop_back();
      Out.push_back(std::move(W));
      continue;
    }
    if (St.Modules.empty()) {
      Out.push_back("probe '" + Spec + "' never matched: no module named '" +
                    std::string(Module) + "' was loaded");
      continue;
    }
    // Probes on a named module were reported when it was searched.
    if (Pr.module_match == TSCC_MATCH_EXACT)
      continue;
    std::string W =
        "probe '" + Spec + "' never matched: " + noFunction(Matcher, Pr) +
        " in the " + std::to_string(St.Modules.size()) +
        (St.Modules.size() == 1 ? " module" : " modules") + " searched";
    if (!St.Suggestion.empty())
      W += "; did you mean '" + St.Suggestion + "'?";
    W += skippedList(St.Skipped);
    Out.push_back(std::move(W));
  }
  return Out;
}
