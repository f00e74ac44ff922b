//===- Render.cpp - Records and aggregations as text ------------------------===//

#include "tscc/Runtime/Aggregation.h"
#include "tscc/Runtime/Format.h"
#include "tscc/Runtime/Output.h"
#include "tscc/Runtime/ProbeProgram.h"
#include "tscc/Runtime/Unwinder.h"

#include <algorithm>
#include <cstring>

using namespace tscc::rt;

OutputSink::~OutputSink() = default;

namespace {

std::string hex(uint64_t V) {
  char Buf[24];
  snprintf(Buf, sizeof(Buf), "0x%llx", static_cast<unsigned long long>(V));
  return Buf;
}

std::string renderValue(const FormatArg &A, DataModel DM) {
  switch (A.Kind) {
  case TSCC_FIELD_S64:
    return std::to_string(static_cast<int64_t>(A.Bits));
  case TSCC_FIELD_U64:
    return std::to_string(A.Bits);
  case TSCC_FIELD_PTR:
    return hex(DM == DataModel::ILP32 ? A.Bits & 0xffffffffu : A.Bits);
  case TSCC_FIELD_CHAR: {
    char C = static_cast<char>(A.Bits & 0xff);
    return "'" + escapeForDisplay(std::string_view(&C, 1)) + "'";
  }
  case TSCC_FIELD_DOUBLE: {
    double D;
    memcpy(&D, &A.Bits, sizeof(D));
    char Buf[64];
    snprintf(Buf, sizeof(Buf), "%g", D);
    return Buf;
  }
  case TSCC_FIELD_STRING:
    return "\"" + escapeForDisplay(A.Str) + "\"";
  case TSCC_FIELD_STACK:
    return "<stack of " + std::to_string(A.Stack.size()) + ">";
  case TSCC_FIELD_STACK_ID: // resolved by formatKey(), which has the table
    return "<stack " + std::to_string(A.Bits) + ">";
  }
  return "?";
}

} // namespace

std::vector<std::string> tscc::rt::stackFrames(const RecordOrigin &O,
                                               const RecordView &R) {
  if (R.Frames)
    return *R.Frames;
  std::vector<std::string> Out;
  static const tscc_field StackField = {TSCC_FIELD_STACK, 0};
  std::vector<FormatArg> Args;
  decodeArgs({&StackField, 1}, R.Args, Args);
  if (Args.empty())
    return Out;
  for (uint64_t PC : Args[0].Stack)
    Out.push_back(O.Tgt ? O.Tgt->symbolize(PC) : hex(PC));
  return withStackEndMarker(std::move(Out),
                            static_cast<StackEnd>(Args[0].StackEndWord));
}

std::string tscc::rt::renderTraceDefault(const ProbeProgram &P,
                                         const RecordOrigin &O,
                                         const RecordView &R) {
  std::vector<FormatArg> Args;
  decodeArgs(P.formatFields(R.Header.format), R.Args, Args);
  std::string Out = "trace " + hex(R.Header.id) + ":";
  for (const FormatArg &A : Args)
    Out += " " + renderValue(A, O.DM);
  return Out + "\n";
}

std::string tscc::rt::renderLost(const LostRecords &L) {
  return "[lost " + std::to_string(L.Count) +
         (L.Count == 1 ? " record" : " records") + ": pid " +
         std::to_string(L.Pid) + ", tid " + std::to_string(L.Tid) + "]\n";
}

std::string tscc::rt::renderRecord(const ProbeProgram &P, const RecordOrigin &O,
                                   const RecordView &R) {
  std::string Out;
  appendRecord(Out, P, O, R);
  return Out;
}

void tscc::rt::appendRecord(std::string &Out, const ProbeProgram &P,
                            const RecordOrigin &O, const RecordView &R) {
  if (R.Text) {
    Out += *R.Text;
    return;
  }
  switch (R.Header.kind) {
  case TSCC_REC_PRINTF: {
    // Reused from record to record: the live reader formats millions.
    thread_local std::vector<FormatArg> Args;
    Args.clear();
    decodeArgs(P.formatFields(R.Header.format), R.Args, Args);
    std::string_view Fmt;
    if (R.Header.format < P.formats().size())
      Fmt = P.string(P.formats()[R.Header.format].text);
    appendPrintf(Out, Fmt, Args, O.DM);
    return;
  }
  case TSCC_REC_TRACE:
    Out += renderTraceDefault(P, O, R);
    return;
  case TSCC_REC_STACK:
    for (const std::string &F : stackFrames(O, R))
      Out += "        " + F + "\n";
    return;
  default:
    return;
  }
}

std::string tscc::rt::formatField(const tscc_field &F,
                                  std::span<const uint8_t> Bytes,
                                  DataModel DM) {
  if (F.kind == TSCC_FIELD_STRING) {
    const char *S = reinterpret_cast<const char *>(Bytes.data());
    return std::string(S, strnlen(S, Bytes.size()));
  }
  FormatArg A;
  A.Kind = F.kind;
  memcpy(&A.Bits, Bytes.data(), std::min<size_t>(Bytes.size(), 8));
  if (F.kind == TSCC_FIELD_CHAR) {
    char C = static_cast<char>(A.Bits & 0xff);
    return escapeForDisplay(std::string_view(&C, 1));
  }
  return renderValue(A, DM);
}

namespace {

std::string keySuffix(const AggEntry &E) {
  if (E.Keys.empty())
    return {};
  std::string Out = "[";
  // A stack key starts on a line of its own (stackKeyText).
  for (size_t I = 0; I < E.Keys.size(); ++I)
    Out += (!I ? "" : E.Keys[I].starts_with('\n') ? "," : ", ") + E.Keys[I];
  return Out + "]";
}

/// bpftrace's histogram: label, count and a bar of up to 52 '@'.
std::string renderBuckets(const AggDump &D, const AggEntry &E) {
  const std::vector<uint64_t> &B = E.Buckets;
  size_t First = 0, Last = 0;
  bool Any = false;
  uint64_t Max = 0;
  for (size_t I = 0; I < B.size(); ++I)
    if (B[I]) {
      if (!Any)
        First = I;
      Last = I;
      Any = true;
      Max = std::max(Max, B[I]);
    }
  if (!Any)
    return {};
  std::string Out;
  for (size_t I = First; I <= Last; ++I) {
    std::string Label = D.Kind == TSCC_AGG_HIST
                            ? histBucketLabel(static_cast<unsigned>(I))
                            : lhistBucketLabel(D, I);
    // In 128 bits: counts from a trace file or a target may be anything.
    size_t Bar =
        static_cast<size_t>(static_cast<unsigned __int128>(B[I]) * 52 / Max);
    char Line[128];
    snprintf(Line, sizeof(Line), "%-16s %8llu |", Label.c_str(),
             static_cast<unsigned long long>(B[I]));
    Out += Line + std::string(Bar, '@') + std::string(52 - Bar, ' ') + "|\n";
  }
  return Out;
}

} // namespace

std::string tscc::rt::renderAggregation(const AggDump &D) {
  std::string Out;
  for (const AggEntry &E : D.Entries) {
    std::string Head = "@" + D.Name + keySuffix(E) + ":";
    int64_t Avg = E.average();
    switch (D.Kind) {
    case TSCC_AGG_COUNT:
      Out += Head + " " + std::to_string(E.Count) + "\n";
      break;
    case TSCC_AGG_SUM:
      Out += Head + " " + std::to_string(E.Sum) + "\n";
      break;
    case TSCC_AGG_MIN:
      Out += Head + " " + std::to_string(E.Min) + "\n";
      break;
    case TSCC_AGG_MAX:
      Out += Head + " " + std::to_string(E.Max) + "\n";
      break;
    case TSCC_AGG_AVG:
      Out += Head + " " + std::to_string(Avg) + "\n";
      break;
    case TSCC_AGG_STATS:
      Out += Head + " count " + std::to_string(E.Count) + ", average " +
             std::to_string(Avg) + ", total " + std::to_string(E.Sum) +
             ", min " + std::to_string(E.Min) + ", max " +
             std::to_string(E.Max) + "\n";
      break;
    default:
      // Histograms of different keys are separated by a blank line.
      if (&E != &D.Entries.front())
        Out += "\n";
      Out += Head + "\n" + renderBuckets(D, E);
      break;
    }
  }
  return Out;
}
