//===- ProbeCoverage.cpp - Probes that match nothing ----------------------===//
#include "tscc/Runtime/ProbeCoverage.h"

#include "tscc/Runtime/ElfFile.h"
#include "tscc/Runtime/ProbeMatcher.h"

#include <algorithm>

using namespace tscc::rt;

/// Probes that live in modules: user functions and USDT sites.
/// Optimal string alignment distance: edits plus adjacent transpositions,
/// so `mallco` is one edit from `malloc`.
static unsigned editDistance(std::string_view A, std::string_view B,
                             unsigned Limit) {
  size_t N = A.size(), M = B.size();
  if ((N > M ? N - M : M - N) > Limit)
    return Limit + 1;
  std::vector<unsigned> Prev2(M + 1), Prev(M + 1), Cur(M + 1);
  for (size_t J = 0; J <= M; ++J)
    Prev[J] = static_cast<unsigned>(J);
  for (size_t I = 1; I <= N; ++I) {
    Cur[0] = static_cast<unsigned>(I);
    unsigned RowMin = Cur[0];
    for (size_t J = 1; J <= M; ++J) {
      unsigned Cost = A[I - 1] == B[J - 1] ? 0 : 1;
      Cur[J] = std::min({Prev[J] + 1, Cur[J - 1] + 1, Prev[J - 1] + Cost});
      if (I > 1 && J > 1 && A[I - 1] == B[J - 2] && A[I - 2] == B[J - 1])
        Cur[J] = std::min(Cur[J], Prev2[J - 2] + 1);
      RowMin = std::min(RowMin, Cur[J]);
    }
    if (RowMin > Limit)
      return Limit + 1;
    std::swap(Prev2, Prev);
    std::swap(Prev, Cur);
  }
  return Prev[M];
}

std::string_view tscc::rt::closestName(
    std::string_view Want, std::span<const std::string_view> Candidates,
    unsigned *Distance) {
  // As Clang's typo correction: about one edit per three characters.
  unsigned Limit = std::clamp<unsigned>(
      static_cast<unsigned>(Want.size() + 2) / 3, 1, 3);
  std::string_view Best;
  unsigned BestDistance = Limit + 1;
  for (std::string_view C : Candidates) {
    if (C == Want)
      continue;
    unsigned D = editDistance(Want, C, std::min(Limit, BestDistance));
    // Ties: the shorter, then the alphabetically first, name.
    if (D < BestDistance ||
        (D == BestDistance && D <= Limit &&
         std::make_pair(C.size(), C) < std::make_pair(Best.size(), Best))) {
      Best = C;
      BestDistance = D;
    }
  }
  if (BestDistance > Limit)
    return {};
  if (Distance)
    *Distance = BestDistance;
  return Best;
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

std::vector<std::string>
ProbeCoverage::searched(std::string_view ModuleName, bool IsMain,
                        const ElfFile &File, std::span<const int> Found) {
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
        for (const UsdtProbe &U : File.usdtProbes())
          UsdtNames.push_back(U.Name);
      if (!Usdt && Names.empty())
        for (const ElfSymbol &S : File.functions())
          Names.push_back(S.Name);
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
    std::string W = "probe '" + std::string(Matcher.spec(P)) + "': " +
                    noFunction(Matcher, Pr) + " in " + Shown;
    if (!Suggestion.empty())
      W += "; did you mean '" + std::string(Suggestion) + "'?";
    Warnings.push_back(std::move(W));
    if (Matcher.string(Pr.module) != "a.out")
      St.Dead = true;
  }
  return Warnings;
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
    if (St.Modules.empty()) {
      Out.push_back("probe '" + Spec + "' never matched: no module named '" +
                    std::string(Module) + "' was loaded");
      continue;
    }
    // Probes on a named module were reported when it was searched.
    if (Pr.module_match == TSCC_MATCH_EXACT)
      continue;
    std::string W = "probe '" + Spec + "' never matched: " +
                    noFunction(Matcher, Pr) + " in the " +
                    std::to_string(St.Modules.size()) +
                    (St.Modules.size() == 1 ? " module" : " modules") +
                    " searched";
    if (!St.Suggestion.empty())
      W += "; did you mean '" + St.Suggestion + "'?";
    Out.push_back(std::move(W));
  }
  return Out;
}
