//===- tscc/Sema/SemaProbeSpec.h - Probe specification parsing -*- C++ -*-===//
//
// The semantic parser of one probe specification (`@@uft:*:a.out:f:entry`).
// The grammar only delimits a spec; every field is validated here so that a
// script with a bad spec is rejected at compile time, with the column of the
// offending field: unknown providers, malformed pids, regexes that regcomp()
// rejects, unknown system call names, bad offsets and periods.
//
// It needs no AST, so it is unit-tested on its own.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_SEMA_SEMAPROBESPEC_H
#define TSCC_SEMA_SEMAPROBESPEC_H

#include "tscc/Sema/ScriptInfo.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tscc {

/// What went wrong in a probe spec. Sema maps each kind to one diagnostic id
/// of DiagnosticSemaKinds.def (the `probe_*` entries).
enum class ProbeSpecIssueKind : uint8_t {
  MissingAtAt,        ///< does not start with "@@"
  UnknownProvider,    ///< Arg0: the provider; Arg1: a suggestion or ""
  FieldCount,         ///< Arg0: provider; Arg1: the expected shape
  EmptyField,         ///< Arg0: the field's name
  BadPid,             ///< Arg0: the text
  BadLocation,        ///< Arg0: the text (not entry/exit)
  UnterminatedRegex,  ///< a field opened with '/' and never closed
  BadRegex,           ///< Arg0: the regex; Arg1: regerror()'s text
  BadOffset,          ///< Arg0: the text after '+'
  OffsetWithLocation, ///< FUNC+OFFSET followed by :entry/:exit
  UnknownSyscall,     ///< Arg0: the name; Arg1: a suggestion or ""
  NoSyscallMatches,   ///< Arg0: the pattern
  SyscallOnlyIn,      ///< warning. Arg0: the name; Arg1: the model it lacks
  IntervalPid,        ///< interval's pid field is not '*'
  IntervalClock,      ///< Arg0: the text (not "clock")
  BadPeriod,          ///< Arg0: the text
};

struct ProbeSpecIssue {
  ProbeSpecIssueKind Kind;
  bool IsWarning = false;
  unsigned Offset = 0; ///< byte offset of the field in the spec text
  unsigned Length = 0;
  std::string Arg0, Arg1;
};

struct ProbeSpecResult {
  ProbeInfo Probe; ///< Spec, kind and fields; Clause and Loc are left to sema
  std::vector<ProbeSpecIssue> Issues;
  bool hasErrors() const {
    for (const ProbeSpecIssue &I : Issues)
      if (!I.IsWarning)
        return true;
    return false;
  }
};

/// Parses and validates \p Text, a whole probe specification including the
/// leading "@@". Never fails hard: problems are returned as issues.
ProbeSpecResult parseProbeSpec(llvm::StringRef Text);

/// True for probes that fire without a process (BEGIN, END, interval).
inline bool isNoProcessProbe(tscc_probe_kind K) {
  return K == TSCC_PROBE_BEGIN || K == TSCC_PROBE_END ||
         K == TSCC_PROBE_INTERVAL;
}
inline bool isExitProbe(tscc_probe_kind K) {
  return K == TSCC_PROBE_UFT_EXIT || K == TSCC_PROBE_SYSCALL_EXIT;
}
inline bool isSyscallProbe(tscc_probe_kind K) {
  return K == TSCC_PROBE_SYSCALL_ENTRY || K == TSCC_PROBE_SYSCALL_EXIT;
}
inline bool isUsdtProbe(tscc_probe_kind K) { return K == TSCC_PROBE_USDT; }
inline bool isUftProbe(tscc_probe_kind K) {
  return K == TSCC_PROBE_UFT_ENTRY || K == TSCC_PROBE_UFT_EXIT ||
         K == TSCC_PROBE_UFT_OFFSET;
}

} // namespace tscc

#endif // TSCC_SEMA_SEMAPROBESPEC_H
