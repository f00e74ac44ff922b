//===- JsonSink.cpp - JSON lines, schema "tscc-run/1" -----------------------===//
//
// One JSON object per line; the first line names the schema. The schema is
// documented in docs/runtime.md; fields are only ever added within a schema
// version.
//
//===----------------------------------------------------------------------===//

#include "JsonEvents.h"
#include "PendingOutput.h"

#include "tscc/Runtime/Format.h"
#include "tscc/Runtime/ProbeProgram.h"

#include <charconv>
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

// The hot path writes a printf or trace record's line itself, byte for byte
// what nlohmann::json's dump() writes for the same object (keys in sorted
// order, the same escapes), without building the object: the live reader
// writes millions of them.

template <typename T> void appendNumber(std::string &Out, T V) {
  char Buf[24];
  Out.append(Buf, std::to_chars(Buf, Buf + sizeof(Buf), V).ptr);
}

/// S as a JSON string. ASCII is escaped here; anything else (UTF-8, or
/// bytes that are not: replaced) the way nlohmann::json does it.
void appendString(std::string &Out, std::string_view S) {
  size_t At = Out.size();
  Out += '"';
  for (unsigned char C : S) {
    if (C >= 0x80) {
      Out.resize(At);
      Out += json(std::string(S))
                 .dump(-1, ' ', false, json::error_handler_t::replace);
      return;
    }
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\b':
      Out += "\\b";
      break;
    case '\f':
      Out += "\\f";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\r':
      Out += "\\r";
      break;
    case '\t':
      Out += "\\t";
      break;
    default:
      if (C < 0x20) {
        char Buf[8];
        snprintf(Buf, sizeof(Buf), "\\u%04x", C);
        Out += Buf;
      } else {
        Out += static_cast<char>(C);
      }
    }
  }
  Out += '"';
}

void appendArg(std::string &Out, const FormatArg &A, DataModel DM) {
  switch (A.Kind) {
  case TSCC_FIELD_S64:
    return appendNumber(Out, static_cast<int64_t>(A.Bits));
  case TSCC_FIELD_U64:
    return appendNumber(Out, A.Bits);
  case TSCC_FIELD_STRING:
    return appendString(Out, A.Str);
  default:
    Out += argJson(A, DM).dump(-1, ' ', false, json::error_handler_t::replace);
  }
}

class JsonSink final : public OutputSink, public BatchedSink {
public:
  JsonSink(const ProbeProgram &P, FILE *Out, bool Owns)
      : P(P), Out(Out), Owns(Owns), Pending(Out) {}
  ~JsonSink() override {
    Pending.flush();
    if (Owns)
      fclose(Out);
  }

  void start(const ProbeProgram &) override { line(headerJson(P)); }

  void record(const RecordOrigin &O, const RecordView &R) override {
    if (R.Header.kind != TSCC_REC_STACK)
      return recordLine(O, R);
    json J = {{"type", recordType(R.Header.kind)},
              {"pid", O.Pid},
              {"tid", O.Tid},
              {"data_model", dataModelName(O.DM)},
              {"clause", O.Clause},
              {"probe", O.Probe},
              {"time_ns", O.TimeNs}};
    {
      std::vector<std::string> Frames = stackFrames(O, R);
      // A stack that ended early ends in its marker frame; the reason is
      // also a field of its own, for programs that read the frames.
      if (!Frames.empty())
        if (auto Why = stackEndReason(Frames.back()))
          J["truncated"] = std::string(*Why);
      J["frames"] = std::move(Frames);
    }
    line(J);
  }

  /// A printf or trace record's line (see appendString).
  void recordLine(const RecordOrigin &O, const RecordView &R) {
    // Formatted in place at the end of what waits to be written.
    std::string &L = Pending.text();
    Args.clear();
    decodeArgs(P.formatFields(R.Header.format), R.Args, Args);
    L += "{\"args\":[";
    for (size_t I = 0; I < Args.size(); ++I) {
      if (I)
        L += ',';
      appendArg(L, Args[I], O.DM);
    }
    L += "],\"clause\":";
    appendNumber(L, O.Clause);
    L += ",\"data_model\":";
    appendString(L, dataModelName(O.DM));
    if (R.Header.kind == TSCC_REC_TRACE) {
      L += ",\"hook\":";
      appendNumber(L, R.Header.id);
    }
    if (R.Label && !R.Label->empty()) {
      L += ",\"label\":";
      appendString(L, *R.Label);
    }
    L += ",\"pid\":";
    appendNumber(L, O.Pid);
    L += ",\"probe\":";
    appendNumber(L, O.Probe);
    L += ",\"text\":";
    Text.clear();
    appendRecord(Text, P, O, R);
    appendString(L, Text);
    L += ",\"tid\":";
    appendNumber(L, O.Tid);
    L += ",\"time_ns\":";
    appendNumber(L, O.TimeNs);
    L += ",\"type\":";
    appendString(L, recordType(R.Header.kind));
    L += "}\n";
    Pending.done();
  }

  void endOfBatch() override { Pending.flush(); }

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
  void finishIncomplete() override { Pending.flushAll(); }
  bool ok() const override { return Pending.ok(); }
  int writeError() const override { return Pending.error(); }

private:
  void line(const json &J) {
    // Invalid UTF-8 from a target's memory is replaced, never fatal.
    std::string S = J.dump(-1, ' ', false, json::error_handler_t::replace);
    S += '\n';
    write(S);
  }
  /// Lines other than printf and trace records (rare): to the FILE at
  /// once, after what is pending.
  void write(const std::string &S) {
    Pending.append(S);
    Pending.flush();
  }

  const ProbeProgram &P;
  FILE *Out;
  bool Owns;
  PendingOutput Pending;
  std::string Text;
  std::vector<FormatArg> Args;
};

} // namespace

std::unique_ptr<OutputSink> tscc::rt::createJsonSink(const ProbeProgram &P,
                                                     FILE *Out, bool OwnsFile) {
  return std::make_unique<JsonSink>(P, Out, OwnsFile);
}
