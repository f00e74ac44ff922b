//===- tscc/ClosestName.h - "did you mean" for compiler and runtime -*- C++ -*-//
//
// The one typo correction of tscc: tscc suggests built-ins, functions and
// system calls with it, tsrun suggests the functions of a module when a
// probe matches nothing. LLVM-free and header-only, like everything next
// to abi.h.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_CLOSESTNAME_H
#define TSCC_CLOSESTNAME_H

#include <algorithm>
#include <string_view>
#include <vector>

namespace tscc {

/// Optimal string alignment distance: insertions, deletions, replacements
/// and transpositions of adjacent characters, so `mallco` is one edit from
/// `malloc`. Stops early and returns Limit + 1 once the distance must
/// exceed \p Limit.
inline unsigned editDistance(std::string_view A, std::string_view B,
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
  return std::min(Prev[M], Limit + 1);
}

/// The most edits a suggestion for \p Want may be away, as Clang's typo
/// correction allows: about one per three characters, at least 1, at most 3.
inline unsigned closestNameLimit(std::string_view Want) {
  return std::clamp<unsigned>(static_cast<unsigned>(Want.size() + 2) / 3, 1, 3);
}

/// The candidate closest to the misspelled \p Want within
/// closestNameLimit(Want) edits, or "" when none is that close. Ties go to
/// the candidate that comes first, so a caller lists what it would rather
/// suggest first (`printf` before `print`); \p Want itself is never
/// suggested. \p Candidates is any range of things a string_view can be
/// made of; the result views the chosen candidate. \p Distance, if given,
/// receives the chosen candidate's distance.
template <typename Range>
std::string_view closestName(std::string_view Want, const Range &Candidates,
                             unsigned *Distance = nullptr) {
  unsigned Limit = closestNameLimit(Want);
  std::string_view Best;
  unsigned BestDistance = Limit + 1;
  for (const auto &Candidate : Candidates) {
    std::string_view C(Candidate);
    if (C == Want)
      continue;
    unsigned D = editDistance(Want, C, std::min(Limit, BestDistance));
    if (D < BestDistance) {
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

// The runtime's namespace sees the same definitions.
namespace rt {
using ::tscc::closestName;
} // namespace rt

} // namespace tscc

#endif // TSCC_CLOSESTNAME_H
