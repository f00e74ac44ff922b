//===- BackendHarness.h - Drive PtraceBackend without the compiler --------===//
//
// Builds a code-less ProbeProgram from probe descriptions (one clause per
// probe, so the session's per-clause "fired" counters count each probe's
// hits), runs a PtraceBackend session against a real program and records
// what the session reported.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_TEST_UNIT_PTRACE_BACKENDHARNESS_H
#define TSCC_TEST_UNIT_PTRACE_BACKENDHARNESS_H

#include "tscc/Runtime/Output.h"
#include "tscc/Runtime/ProbeProgram.h"
#include "tscc/Runtime/PtraceBackend.h"
#include "tscc/Runtime/Session.h"

#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace tscc::rt::test {

struct ProbeDesc {
  uint32_t Kind;
  std::string Module = "a.out";
  uint32_t ModuleMatch = TSCC_MATCH_EXACT;
  std::string Function = {};
  uint32_t FunctionMatch = TSCC_MATCH_EXACT;
  uint64_t Offset = 0;
  int64_t Pid = -1; ///< -1: any
};

/// The tables of a program whose clause i has exactly probe i.
class TableBuilder {
public:
  explicit TableBuilder(const std::vector<ProbeDesc> &Probes,
                        const std::vector<std::string> &Within = {}) {
    Strtab.push_back('\0');
    uint32_t N = Probes.size();
    for (uint32_t I = 0; I < N; ++I) {
      const ProbeDesc &D = Probes[I];
      tscc_clause C{};
      C.id = I;
      C.probe_first = I;
      C.probe_count = 1;
      C.source_line = I + 1;
      C.source_column = 1;
      for (auto &E : C.stream)
        E = {TSCC_NO_CODE, 0, TSCC_NO_CODE, 0};
      Clauses.push_back(C);
      tscc_probe P{};
      P.kind = D.Kind;
      P.clause = I;
      P.spec = str("probe" + std::to_string(I) + ":" + D.Function);
      P.pid_kind = D.Pid < 0 ? TSCC_PID_ANY : TSCC_PID_NUMBER;
      P.pid_value = D.Pid < 0 ? 0 : D.Pid;
      P.module = str(D.Module);
      P.module_match = D.ModuleMatch;
      P.function = str(D.Function);
      P.function_match = D.FunctionMatch;
      P.offset = D.Offset;
      ProbeRows.push_back(P);
    }
    for (const std::string &W : Within)
      WithinRows.push_back(str(W));
    std::memset(&Header, 0, sizeof(Header));
    std::memcpy(Header.magic, TSCC_MAGIC, TSCC_MAGIC_SIZE);
    Header.abi_major = TSCC_ABI_MAJOR;
    Header.abi_minor = TSCC_ABI_MINOR;
    Header.header_size = sizeof(tscc_header);
    Header.source_name = str("test.t");
    Header.compiler_version = str("unit test");
    Header.clause_count = N;
    Header.probe_count = N;
    Header.within_count = WithinRows.size();
    Header.global_align = 8;
    Header.thread_align = 8;
    Header.strtab_size = Strtab.size();
  }

  std::unique_ptr<ProbeProgram> program(std::string &Error) {
    Header.strtab_size = Strtab.size();
    ProgramTables T;
    T.Header = bytes(&Header, 1);
    T.Clauses = bytes(Clauses.data(), Clauses.size());
    T.Probes = bytes(ProbeRows.data(), ProbeRows.size());
    T.Within = bytes(WithinRows.data(), WithinRows.size());
    T.Strtab = {reinterpret_cast<const uint8_t *>(Strtab.data()),
                Strtab.size()};
    return ProbeProgram::fromTables(T, "unit-test", Error);
  }

private:
  template <class T>
  static std::span<const uint8_t> bytes(const T *P, size_t N) {
    return {reinterpret_cast<const uint8_t *>(P), N * sizeof(T)};
  }
  uint32_t str(const std::string &S) {
    uint32_t Off = Strtab.size();
    Strtab.insert(Strtab.end(), S.begin(), S.end());
    Strtab.push_back('\0');
    return Off;
  }
  tscc_header Header;
  std::vector<tscc_clause> Clauses;
  std::vector<tscc_probe> ProbeRows;
  std::vector<uint32_t> WithinRows;
  std::vector<char> Strtab;
};

/// Records what the session reports.
struct Recorded {
  std::vector<std::string> Attached; ///< "How pid"
  std::vector<std::string> Probes;   ///< "probe func module"
  std::vector<std::string> Exits;    ///< "pid code signal"
  std::vector<std::string> Warnings;
  std::vector<ClauseCounters> Counters;
};

class RecordingSink final : public OutputSink {
public:
  explicit RecordingSink(Recorded &R) : R(R) {}
  void record(const RecordOrigin &, const RecordView &) override {}
  void lost(const LostRecords &) override {}
  void aggregation(const AggDump &) override {}
  void targetAttached(const TargetInfo &T, std::string_view How) override {
    R.Attached.push_back(std::string(How) + " " + std::to_string(T.Pid));
  }
  void probeAttached(const TargetInfo &, uint32_t Probe,
                     std::string_view Function, std::string_view Module,
                     uint64_t, std::string_view) override {
    R.Probes.push_back(std::to_string(Probe) + " " + std::string(Function) +
                       " " + std::string(Module));
  }
  void targetExited(const TargetInfo &T, int Code, int Sig) override {
    R.Exits.push_back(std::to_string(T.Pid) + " " + std::to_string(Code) + " " +
                      std::to_string(Sig));
  }
  void warning(std::string_view M) override {
    R.Warnings.push_back(std::string(M));
  }
  void counters(std::span<const ClauseCounters> C) override {
    R.Counters.assign(C.begin(), C.end());
  }

private:
  Recorded &R;
};

/// Runs one session: launches Argv with probes, returns the per-probe hit
/// counts. The program's stdout goes to OutFile (via TARGET_OUT).
struct RunResult {
  bool Started = false;
  std::string Error;
  std::vector<uint64_t> Hits;
  Recorded Rec;
};

inline RunResult runSession(const std::vector<ProbeDesc> &Probes,
                            PtraceOptions Opts,
                            const std::vector<std::string> &Within = {}) {
  RunResult Result;
  TableBuilder TB(Probes, Within);
  std::unique_ptr<ProbeProgram> Prog = TB.program(Result.Error);
  if (!Prog)
    return Result;
  {
    Session S(*Prog, std::make_unique<RecordingSink>(Result.Rec));
    PtraceBackend B(S, std::move(Opts));
    Result.Started = B.start(Result.Error);
    if (Result.Started)
      S.begin();
    else
      B.interrupt();
    B.run();
    if (Result.Started)
      S.end();
  }
  Result.Hits.assign(Probes.size(), 0);
  for (const ClauseCounters &C : Result.Rec.Counters)
    if (C.Clause < Result.Hits.size())
      Result.Hits[C.Clause] = C.Fired;
  return Result;
}

/// "key=value" pairs printed by the target.
inline std::map<std::string, long> readValues(const std::string &Path) {
  std::map<std::string, long> V;
  std::ifstream In(Path);
  std::string Word;
  while (In >> Word) {
    size_t Eq = Word.find('=');
    if (Eq != std::string::npos)
      V[Word.substr(0, Eq)] = std::atol(Word.c_str() + Eq + 1);
  }
  return V;
}

} // namespace tscc::rt::test

#endif // TSCC_TEST_UNIT_PTRACE_BACKENDHARNESS_H
