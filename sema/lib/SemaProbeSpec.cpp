//===- SemaProbeSpec.cpp - Probe specification parsing --------------------===//

#include "tscc/Sema/SemaProbeSpec.h"

#include "tscc/ClosestName.h"
#include "tscc/ProbeSpecFields.h"
#include "tscc/SyscallTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <fnmatch.h>
#include <regex.h>

namespace tscc {
namespace {

struct Field {
  llvm::StringRef Text;
  unsigned Offset; // in the whole spec text
};

/// Splits the spec body as tscc/ProbeSpecFields.h does, with offsets in
/// the whole spec text. Returns false if a regex is not closed.
bool splitFields(llvm::StringRef Body, unsigned BodyOffset,
                 llvm::SmallVectorImpl<Field> &Fields) {
  std::vector<ProbeSpecField> Split;
  bool Closed = splitProbeSpecFields(Body, Split);
  for (const ProbeSpecField &F : Split)
    Fields.push_back({F.Text, unsigned(BodyOffset + F.Offset)});
  return Closed;
}

class SpecParser {
public:
  explicit SpecParser(llvm::StringRef Text) { R.Probe.Spec = Text.str(); }

  ProbeSpecResult run();

private:
  ProbeSpecResult R;
  llvm::SmallVector<Field, 6> Fields;

  void issue(ProbeSpecIssueKind K, const Field &F, llvm::StringRef A0 = "",
             llvm::StringRef A1 = "", bool Warning = false) {
    R.Issues.push_back(
        {K, Warning, F.Offset, unsigned(F.Text.size()), A0.str(), A1.str()});
  }
  bool nonEmpty(const Field &F, llvm::StringRef What) {
    if (!F.Text.empty())
      return true;
    issue(ProbeSpecIssueKind::EmptyField, F, What);
    return false;
  }

  void parseUft();
  void parseUsdt();
  void parseSyscall();
  void parseInterval();
  void parsePid(const Field &F);
  /// Fills Text/Match from a module or function field.
  bool parseMatch(const Field &F, std::string &Text, tscc_match_kind &Match);
  /// Parses entry/exit; returns true for exit.
  std::optional<bool> parseLocation(const Field &F);
  void checkSyscall(const Field &F);
};

ProbeSpecResult SpecParser::run() {
  llvm::StringRef Text = R.Probe.Spec;
  if (!Text.starts_with("@@")) {
    issue(ProbeSpecIssueKind::MissingAtAt, {Text, 0});
    return std::move(R);
  }
  bool Closed = splitFields(Text.drop_front(2), 2, Fields);
  if (!Closed) {
    issue(ProbeSpecIssueKind::UnterminatedRegex, Fields.back());
    return std::move(R);
  }
  const Field &Provider = Fields.front();
  if (Provider.Text == "BEGIN" || Provider.Text == "END") {
    R.Probe.Kind = Provider.Text == "BEGIN" ? TSCC_PROBE_BEGIN : TSCC_PROBE_END;
    if (Fields.size() != 1)
      issue(ProbeSpecIssueKind::FieldCount, Fields[1], Provider.Text,
            Provider.Text == "BEGIN" ? "@@BEGIN" : "@@END");
    return std::move(R);
  }
  if (Provider.Text == "uft")
    parseUft();
  else if (Provider.Text == "usdt")
    parseUsdt();
  else if (Provider.Text == "syscall")
    parseSyscall();
  else if (Provider.Text == "interval")
    parseInterval();
  else {
    static constexpr std::string_view Providers[] = {
        "BEGIN", "END", "uft", "usdt", "syscall", "interval"};
    std::string_view Best = closestName(Provider.Text, Providers);
    for (std::string_view P : Providers)
      if (Provider.Text.equals_insensitive(P))
        Best = P; // `@@begin`: however far, a case slip is the closest
    issue(ProbeSpecIssueKind::UnknownProvider, Provider, Provider.Text, Best);
  }
  return std::move(R);
}

void SpecParser::parsePid(const Field &F) {
  if (!nonEmpty(F, "process id"))
    return;
  llvm::StringRef T = F.Text;
  if (T == "*") {
    R.Probe.PidKind = TSCC_PID_ANY;
    return;
  }
  uint64_t V = 0;
  if (T.consume_front("$")) {
    if (T.empty() || !llvm::all_of(T, llvm::isDigit) || T.getAsInteger(10, V) ||
        V == 0) {
      issue(ProbeSpecIssueKind::BadPid, F, F.Text);
      return;
    }
    R.Probe.PidKind = TSCC_PID_PARAM;
    R.Probe.PidValue = V;
    return;
  }
  if (!llvm::all_of(T, llvm::isDigit) || T.getAsInteger(10, V) || V == 0 ||
      V > INT32_MAX) {
    issue(ProbeSpecIssueKind::BadPid, F, F.Text);
    return;
  }
  R.Probe.PidKind = TSCC_PID_NUMBER;
  R.Probe.PidValue = V;
}

bool SpecParser::parseMatch(const Field &F, std::string &Text,
                            tscc_match_kind &Match) {
  llvm::StringRef T = F.Text;
  if (T == "*") {
    Text.assign(1, '*');
    Match = TSCC_MATCH_ANY;
    return true;
  }
  if (T.size() >= 2 && T.front() == '/' && T.back() == '/') {
    std::string Re = T.substr(1, T.size() - 2).str();
    regex_t Compiled;
    int Err = regcomp(&Compiled, Re.c_str(), REG_EXTENDED | REG_NOSUB);
    if (Err != 0) {
      char Buf[256];
      regerror(Err, &Compiled, Buf, sizeof(Buf));
      issue(ProbeSpecIssueKind::BadRegex, F, Re, Buf);
      return false;
    }
    regfree(&Compiled);
    Text = std::move(Re);
    Match = TSCC_MATCH_REGEX;
    return true;
  }
  Text = T.str();
  Match = T.find_first_of("*?[") == llvm::StringRef::npos ? TSCC_MATCH_EXACT
                                                          : TSCC_MATCH_GLOB;
  return true;
}

std::optional<bool> SpecParser::parseLocation(const Field &F) {
  if (F.Text == "entry")
    return false;
  if (F.Text == "exit")
    return true;
  issue(ProbeSpecIssueKind::BadLocation, F, F.Text);
  return std::nullopt;
}

void SpecParser::parseUft() {
  static constexpr llvm::StringLiteral Shape =
      "uft:PID:MODULE:FUNC:entry, uft:PID:MODULE:FUNC:exit or "
      "uft:PID:MODULE:FUNC+OFFSET";
  if (Fields.size() != 4 && Fields.size() != 5) {
    const Field &At = Fields.size() > 5 ? Fields[5] : Fields.back();
    issue(ProbeSpecIssueKind::FieldCount, At, "uft", Shape);
    return;
  }
  parsePid(Fields[1]);
  if (nonEmpty(Fields[2], "module"))
    parseMatch(Fields[2], R.Probe.Module, R.Probe.ModuleMatch);

  // FUNC or FUNC+OFFSET; a regex's '+' is part of the regex.
  Field Func = Fields[3];
  std::optional<Field> Offset;
  size_t Plus = Func.Text.rfind('+');
  bool IsRegex = Func.Text.starts_with("/");
  size_t RegexEnd = IsRegex ? Func.Text.rfind('/') : 0;
  if (Plus != llvm::StringRef::npos && (!IsRegex || Plus > RegexEnd)) {
    Offset =
        Field{Func.Text.substr(Plus + 1), unsigned(Func.Offset + Plus + 1)};
    Func.Text = Func.Text.take_front(Plus);
  }
  if (nonEmpty(Func, "function"))
    parseMatch(Func, R.Probe.Function, R.Probe.FunctionMatch);

  if (Offset) {
    uint64_t V = 0;
    if (Offset->Text.empty() || Offset->Text.getAsInteger(0, V))
      issue(ProbeSpecIssueKind::BadOffset, *Offset, Offset->Text);
    R.Probe.Kind = TSCC_PROBE_UFT_OFFSET;
    R.Probe.Offset = V;
    if (Fields.size() == 5)
      issue(ProbeSpecIssueKind::OffsetWithLocation, Fields[4]);
    return;
  }
  if (Fields.size() == 4) {
    issue(ProbeSpecIssueKind::FieldCount, Fields[3], "uft", Shape);
    return;
  }
  if (std::optional<bool> Exit = parseLocation(Fields[4]))
    R.Probe.Kind = *Exit ? TSCC_PROBE_UFT_EXIT : TSCC_PROBE_UFT_ENTRY;
  else
    R.Probe.Kind = TSCC_PROBE_UFT_ENTRY;
}

void SpecParser::parseUsdt() {
  R.Probe.Kind = TSCC_PROBE_USDT;
  if (Fields.size() != 5) {
    const Field &At = Fields.size() > 5 ? Fields[5] : Fields.back();
    issue(ProbeSpecIssueKind::FieldCount, At, "usdt",
          "usdt:PID:MODULE:PROVIDER:NAME");
    return;
  }
  parsePid(Fields[1]);
  if (nonEmpty(Fields[2], "module"))
    parseMatch(Fields[2], R.Probe.Module, R.Probe.ModuleMatch);
  if (nonEmpty(Fields[3], "provider"))
    parseMatch(Fields[3], R.Probe.Provider, R.Probe.ProviderMatch);
  if (nonEmpty(Fields[4], "probe name"))
    parseMatch(Fields[4], R.Probe.Function, R.Probe.FunctionMatch);
}

void SpecParser::checkSyscall(const Field &F) {
  const ProbeInfo &P = R.Probe;
  if (P.FunctionMatch == TSCC_MATCH_ANY)
    return;
  if (P.FunctionMatch == TSCC_MATCH_EXACT) {
    const SyscallInfo *Call = findSyscall(P.Function);
    if (!Call) {
      std::vector<std::string_view> Names;
      for (const SyscallInfo &S : allSyscalls())
        Names.push_back(S.Name);
      issue(ProbeSpecIssueKind::UnknownSyscall, F, P.Function,
            closestName(P.Function, Names));
      return;
    }
    for (DataModel DM : AllDataModels)
      R.Probe.SyscallNumbers[modelIndex(DM)] = Call->Numbers[modelIndex(DM)];
    for (DataModel DM : AllDataModels)
      if (!Call->number(DM)) {
        issue(ProbeSpecIssueKind::SyscallOnlyIn, F, P.Function,
              dataModelName(DM), true);
        break;
      }
    return;
  }
  // A pattern must match at least one call, or the probe can never fire.
  regex_t Re;
  bool IsRegex = P.FunctionMatch == TSCC_MATCH_REGEX;
  if (IsRegex && regcomp(&Re, P.Function.c_str(), REG_EXTENDED | REG_NOSUB))
    return; // already diagnosed by parseMatch
  bool Any = false;
  for (const SyscallInfo &S : allSyscalls()) {
    std::string N(S.Name);
    if (IsRegex ? regexec(&Re, N.c_str(), 0, nullptr, 0) == 0
                : fnmatch(P.Function.c_str(), N.c_str(), 0) == 0) {
      Any = true;
      break;
    }
  }
  if (IsRegex)
    regfree(&Re);
  if (!Any)
    issue(ProbeSpecIssueKind::NoSyscallMatches, F, P.Function);
}

void SpecParser::parseSyscall() {
  if (Fields.size() != 4) {
    const Field &At = Fields.size() > 4 ? Fields[4] : Fields.back();
    issue(ProbeSpecIssueKind::FieldCount, At, "syscall",
          "syscall:PID:NAME:entry or syscall:PID:NAME:exit");
    return;
  }
  parsePid(Fields[1]);
  if (nonEmpty(Fields[2], "system call name") &&
      parseMatch(Fields[2], R.Probe.Function, R.Probe.FunctionMatch))
    checkSyscall(Fields[2]);
  std::optional<bool> Exit = parseLocation(Fields[3]);
  R.Probe.Kind =
      Exit.value_or(false) ? TSCC_PROBE_SYSCALL_EXIT : TSCC_PROBE_SYSCALL_ENTRY;
}

void SpecParser::parseInterval() {
  R.Probe.Kind = TSCC_PROBE_INTERVAL;
  if (Fields.size() != 4) {
    const Field &At = Fields.size() > 4 ? Fields[4] : Fields.back();
    issue(ProbeSpecIssueKind::FieldCount, At, "interval",
          "interval:*:clock:MS");
    return;
  }
  if (Fields[1].Text != "*")
    issue(ProbeSpecIssueKind::IntervalPid, Fields[1]);
  if (Fields[2].Text != "clock")
    issue(ProbeSpecIssueKind::IntervalClock, Fields[2], Fields[2].Text);
  uint64_t Ms = 0;
  llvm::StringRef T = Fields[3].Text;
  if (T.empty() || !llvm::all_of(T, llvm::isDigit) || T.getAsInteger(10, Ms) ||
      Ms == 0 || Ms > UINT32_MAX) {
    issue(ProbeSpecIssueKind::BadPeriod, Fields[3], T);
    return;
  }
  R.Probe.Offset = Ms;
}

} // namespace

ProbeSpecResult parseProbeSpec(llvm::StringRef Text) {
  return SpecParser(Text).run();
}

} // namespace tscc
