//===- TextSink.cpp - Human-readable output ---------------------------------===//
//
// Script output (printf, trace, stacks, aggregations) goes to the output
// file; reports about the session itself go to the diagnostic stream, so a
// script's output can be compared with a program's own printout.
//
//===----------------------------------------------------------------------===//

#include "JsonEvents.h"
#include "PendingOutput.h"

#include "tscc/Runtime/Output.h"
#include "tscc/Runtime/ProbeProgram.h"

#include <csignal>
#include <unistd.h>

#include <cerrno>

using namespace tscc::rt;

namespace {

class TextSink final : public OutputSink, public BatchedSink {
public:
  TextSink(const ProbeProgram &P, FILE *Out, bool Owns, TextOptions O)
      : P(P), Out(Out), Owns(Owns), O(O), Pending(Out) {}
  ~TextSink() override {
    Pending.flush();
    if (Owns)
      fclose(Out);
  }

  void record(const RecordOrigin &Origin, const RecordView &R) override {
    // Formatted in place at the end of what waits to be written.
    appendRecord(Pending.text(), P, Origin, R);
    Pending.done();
  }

  void endOfBatch() override { Pending.flush(); }

  void lost(const LostRecords &L) override { write(renderLost(L)); }

  void aggregation(const AggDump &D) override {
    std::string Text = renderAggregation(D);
    if (!Text.empty())
      write("\n" + Text);
  }

  void targetAttached(const TargetInfo &T, std::string_view How) override {
    if (O.Verbose)
      diag("tsrun: " + describe(T) + ": " + std::string(How) + "\n");
  }

  void probeAttached(const TargetInfo &T, uint32_t Probe,
                     std::string_view Function, std::string_view Module,
                     uint64_t Address, std::string_view Mechanism) override {
    if (!O.Verbose)
      return;
    char Addr[24];
    snprintf(Addr, sizeof(Addr), "0x%llx",
             static_cast<unsigned long long>(Address));
    std::string_view Spec = Probe < P.probes().size()
                                ? P.string(P.probes()[Probe].spec)
                                : std::string_view();
    diag("tsrun: pid " + std::to_string(T.Pid) + ": probe " +
         std::string(Spec) + " at " + std::string(Function) + " in " +
         std::string(Module) + " (" + Addr + ")" +
         (Mechanism.empty() ? "" : ", " + std::string(Mechanism)) + "\n");
  }

  void targetExited(const TargetInfo &T, int ExitCode, int Signal) override {
    // A target killed by a signal is news even without -v, like strace's
    // "+++ killed by SIGSEGV +++"; but not our own kill, nor SIGPIPE, the
    // normal end of a writer in a pipeline (`yes | head -1`), which shells
    // do not report either.
    bool OwnKill = Signal == SIGKILL && T.SessionStopping;
    bool Quiet = OwnKill || Signal == SIGPIPE;
    if (Signal && (!Quiet || O.Verbose))
      diag("tsrun: " + describe(T) + " killed by " + signalName(Signal) + "\n");
    else if (O.Verbose)
      diag("tsrun: " + describe(T) + " exited with status " +
           std::to_string(ExitCode) + "\n");
  }

  void note(std::string_view Message) override {
    if (O.Verbose)
      diag("tsrun: " + std::string(Message) + "\n");
  }

  void warning(std::string_view Message) override {
    if (O.Warnings)
      diag("tsrun: warning: " + std::string(Message) + "\n");
  }

  void sessionSwitch(const SessionSwitch &E) override {
    // Live, tsrun says this itself (whatever the format); this is tsreport
    // replaying a trace.
    if (O.Warnings)
      diag("tsrun: " + describeSwitch(E) + "\n");
  }

  void counters(std::span<const ClauseCounters> C) override {
    for (const ClauseCounters &K : C) {
      if (!K.Faults && !K.Drops && !O.Verbose)
        continue;
      diag("tsrun: clause " + std::to_string(K.Clause) + " (line " +
           std::to_string(K.Line) + "): fired " + std::to_string(K.Fired) +
           ", " + std::to_string(K.Faults) + " faults, " +
           std::to_string(K.Drops) + " drops, " + std::to_string(K.Lost) +
           " lost\n");
    }
  }

  void finish() override { Pending.flushAll(); }
  bool ok() const override { return Pending.ok(); }
  int writeError() const override { return Pending.error(); }

private:
  static std::string describe(const TargetInfo &T) {
    return "pid " + std::to_string(T.Pid) + " (" + T.Name + ", " +
           dataModelName(T.DM) + ", " + T.Backend + ")";
  }
  /// Output other than records (rare): to the FILE at once, as before.
  void write(const std::string &S) {
    Pending.append(S);
    Pending.flush();
  }
  void diag(const std::string &S) {
    if (O.Diag) {
      Pending.flushAll(); // keep the two streams in order on a terminal
      fputs(S.c_str(), O.Diag);
      fflush(O.Diag);
    }
  }

  const ProbeProgram &P;
  FILE *Out;
  bool Owns;
  TextOptions O;
  PendingOutput Pending;
};

} // namespace

std::unique_ptr<OutputSink> tscc::rt::createTextSink(const ProbeProgram &P,
                                                     FILE *Out, bool OwnsFile,
                                                     TextOptions Opts) {
  return std::make_unique<TextSink>(P, Out, OwnsFile, Opts);
}
