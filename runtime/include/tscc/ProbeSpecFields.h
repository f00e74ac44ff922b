//===- tscc/ProbeSpecFields.h - Splitting a probe spec into fields -*- C++ -*-//
//
// How `uft:PID:MODULE:FUNC:entry` and its kin split into fields, for the
// compiler (sema's probe-spec parser) and for `tsrun -l`, which must read a
// specification exactly as the compiler does. LLVM-free and header-only,
// like everything next to abi.h.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_PROBESPECFIELDS_H
#define TSCC_PROBESPECFIELDS_H

#include <cstddef>
#include <string_view>
#include <vector>

namespace tscc {

/// One field of a probe specification and where it starts in the text the
/// splitter was given.
struct ProbeSpecField {
  std::string_view Text;
  size_t Offset;
};

/// Splits \p Body, a specification without its leading "@@", at ':' into
/// \p Fields, keeping a field that starts with '/' whole up to its closing
/// '/' (a regular expression may contain ':'; `\/` does not close it).
/// Returns false when such a regular expression is never closed; the last
/// field then holds the rest of the text.
inline bool splitProbeSpecFields(std::string_view Body,
                                 std::vector<ProbeSpecField> &Fields) {
  size_t Start = 0;
  size_t I = 0;
  while (true) {
    if (I == Start && I < Body.size() && Body[I] == '/') {
      size_t J = I + 1;
      while (J < Body.size() && Body[J] != '/') {
        if (Body[J] == '\\')
          ++J;
        ++J;
      }
      if (J >= Body.size()) {
        Fields.push_back({Body.substr(Start), Start});
        return false;
      }
      I = J + 1;
    }
    if (I >= Body.size() || Body[I] == ':') {
      Fields.push_back({Body.substr(Start, I - Start), Start});
      if (I >= Body.size())
        return true;
      Start = ++I;
      continue;
    }
    ++I;
  }
}

// The runtime's namespace sees the same definitions.
namespace rt {
using ::tscc::ProbeSpecField;
using ::tscc::splitProbeSpecFields;
} // namespace rt

} // namespace tscc

#endif // TSCC_PROBESPECFIELDS_H
