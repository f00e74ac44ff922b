//===- JsonSink.cpp - JSON lines, schema "tscc-run/1" -----------------------===//
//
// One JSON object per line; the first line names the schema. The schema is
// documented in docs/runtime.md; fields are only ever added within a schema
// version.
//
//===----------------------------------------------------------------------===//

#include "JsonEvents.h"

#include "tscc/Runtime/Format.h"
#include "tscc/Runtime/ProbeProgram.h"

#include <cstring>
#include <unistd.h>

#include <cerrno>

using namespace tscc::rt;
using nlohmann::json;

namespace {

const char *recordType(uint16_t Kind) {
  switch (Kind) {
  case TSCC_REC_PRINTF:
    return "printf";
  case TSCC_REC_TRACE:
    return "trace";
  case TSCC_REC_STACK:
    return "stack";
  default:
    return "unknown";
  }
}

json argJson(const FormatArg &A, DataModel DM) {
  switch (A.Kind) {
  case TSCC_FIELD_S64:
    return static_cast<int64_t>(A.Bits);
  case TSCC_FIELD_U64:
    return A.Bits;
  case TSCC_FIELD_DOUBLE: {
    double D;
    memcpy(&D, &A.Bits, sizeof(D));
    return D;
  }
  case TSCC_FIELD_STRING:
    return A.Str;
  default: {
    tscc_field F = {A.Kind, 8};
    return formatField(F, {reinterpret_cast<const uint8_t *>(&A.Bits), 8}, DM);
  }
  }
}

class JsonSink final : public OutputSink {
public:
  JsonSink(const ProbeProgram &P, FILE *Out, bool Owns)
      : P(P), Out(Out), Owns(Owns) {}
  ~JsonSink() override {
    if (Owns)
      fclose(Out);
  }

  void start(const ProbeProgram &) override { line(headerJson(P)); }

  void record(const RecordOrigin &O, const RecordView &R) override {
    json J = {{"type", recordType(R.Header.kind)},
              {"pid", O.Pid},
              {"tid", O.Tid},
              {"data_model", dataModelName(O.DM)},
              {"clause", O.Clause},
              {"probe", O.Probe},
              {"time_ns", O.TimeNs}};
    if (R.Header.kind == TSCC_REC_STACK) {
      std::vector<std::string> Frames = stackFrames(O, R);
      // A stack that ended early ends in its marker frame; the reason is
      // also a field of its own, for programs that read the frames.
      if (!Frames.empty())
        if (auto Why = stackEndReason(Frames.back()))
          J["truncated"] = std::string(*Why);
      J["frames"] = std::move(Frames);
    } else {
      std::vector<FormatArg> Args;
      decodeArgs(P.formatFields(R.Header.format), R.Args, Args);
      json A = json::array();
      for (const FormatArg &Arg : Args)
        A.push_back(argJson(Arg, O.DM));
      J["args"] = std::move(A);
      if (R.Header.kind == TSCC_REC_TRACE)
        J["hook"] = R.Header.id;
      if (R.Label && !R.Label->empty())
        J["label"] = *R.Label;
      J["text"] = renderRecord(P, O, R);
    }
    line(J);
  }

  void aggregation(const AggDump &D) override { line(aggJson(D)); }
  void targetAttached(const TargetInfo &T, std::string_view How) override {
    line(attachedJson(T, How));
  }
  void probeAttached(const TargetInfo &T, uint32_t Probe,
                     std::string_view Function, std::string_view Module,
                     uint64_t Address, std::string_view Mechanism) override {
    line(probeJson(P, T, Probe, Function, Module, Address, Mechanism));
  }
  void targetExited(const TargetInfo &T, int ExitCode, int Signal) override {
    line(exitedJson(T, ExitCode, Signal));
  }
  void note(std::string_view Message) override {
    line({{"type", "note"}, {"message", Message}});
  }
  void lost(const LostRecords &L) override { line(lostJson(L)); }
  void warning(std::string_view Message) override {
    line(warningJson(Message));
  }
  void sessionSwitch(const SessionSwitch &E) override { line(switchJson(E)); }
  void counters(std::span<const ClauseCounters> C) override {
    for (const ClauseCounters &K : C)
      line(countersJson(K));
  }
  void finish() override {
    line({{"type", "end"}});
    finishIncomplete();
  }
  void finishIncomplete() override {
    if (fflush(Out) != 0)
      fail();
  }
  bool ok() const override { return !Failed && !ferror(Out); }
  int writeError() const override { return Errno; }

private:
  void fail() {
    if (!Failed)
      Errno = errno;
    Failed = true;
  }
  void line(const json &J) {
    // Invalid UTF-8 from a target's memory is replaced, never fatal.
    std::string S = J.dump(-1, ' ', false, json::error_handler_t::replace);
    S += '\n';
    if (fwrite(S.data(), 1, S.size(), Out) != S.size())
      fail();
    if (LineBuffered && fflush(Out) != 0)
      fail();
  }

  const ProbeProgram &P;
  FILE *Out;
  bool Owns;
  bool Failed = false;
  int Errno = 0;
  bool LineBuffered = isatty(fileno(Out));
};

} // namespace

std::unique_ptr<OutputSink> tscc::rt::createJsonSink(const ProbeProgram &P,
                                                     FILE *Out, bool OwnsFile) {
  return std::make_unique<JsonSink>(P, Out, OwnsFile);
}
