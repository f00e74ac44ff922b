//===- EventClasses.h - Records as typed events -----------------*- C++ -*-===//
//
// Internal to libtsrt's exporters. A record's argument area holds 8-byte
// scalars and strings; what C type each argument *is* comes from the
// conversion that prints it: "%hhd" is an int8_t, "%u" a uint32_t, "%ld" an
// int32_t in an ILP32 process and an int64_t in an LP64 one. An event class
// is one printf format, or one trace() hook (typed by its format-file
// stanza when there is one, else by the argument kinds the compiler
// recorded), or the stack records. A field's width is the widest its
// conversion has in any data model, so one class holds the records of both
// models; each value is the one printf prints for the record's own model.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_EXPORT_EVENTCLASSES_H
#define TSCC_RUNTIME_LIB_EXPORT_EVENTCLASSES_H

#include "tscc/Runtime/Output.h"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace tscc::rt {

class TraceFormatFile;

enum class ValueType { Signed, Unsigned, Float, Char, String, StringList };

struct FieldType {
  std::string Name;
  ValueType Type = ValueType::Signed;
  unsigned Bits = 64; ///< integers
  unsigned Base = 10; ///< integers: 8, 10 or 16
};

struct EventClass {
  uint32_t Id = 0;
  std::string Name;        ///< an identifier: printf_3, trace_0x1001, open
  std::string Description; ///< the format text, or the stanza's
  std::vector<FieldType> Fields;
};

struct FieldValue {
  int64_t S = 0;
  uint64_t U = 0; ///< Unsigned and Char
  double D = 0;
  std::string Str;
  std::vector<std::string> List;
};

class EventClasses {
public:
  EventClasses(const ProbeProgram &P, const TraceFormatFile *Formats)
      : P(P), Formats(Formats) {}

  /// The class of R, created on first use.
  const EventClass &classOf(const RecordView &R);
  /// R's field values, one per field of its class.
  std::vector<FieldValue> values(const EventClass &C, const RecordOrigin &O,
                                 const RecordView &R) const;
  /// Classes in creation order (Id == index).
  const std::vector<EventClass> &all() const { return Classes; }

private:
  /// Name, or Name_Id when a class already has that name.
  std::string uniqueName(std::string Name, uint32_t Id) const;
  /// The printf format whose conversions type R's arguments, or "".
  std::string_view typingFormat(const RecordView &R) const;

  const ProbeProgram &P;
  const TraceFormatFile *Formats;
  std::vector<EventClass> Classes;
  /// (kind, hook id, format index) -> class id
  std::map<std::tuple<uint16_t, uint32_t, uint32_t>, uint32_t> Index;
};

/// The base of the exporters: they keep records (and whatever else they
/// override) and write everything in finish(); session events they do not
/// export are ignored here.
class ExportSink : public OutputSink {
public:
  void aggregation(const AggDump &) override {}
  void targetAttached(const TargetInfo &, std::string_view) override {}
  void probeAttached(const TargetInfo &, uint32_t, std::string_view,
                     std::string_view, uint64_t, std::string_view) override {}
  void targetExited(const TargetInfo &, int, int) override {}
  void warning(std::string_view) override {}
  void counters(std::span<const ClauseCounters>) override {}
  bool ok() const override { return Error == 0; }
  int writeError() const override { return Error; }

protected:
  int Error = 0; ///< errno of the first failed write
};

/// Text of a record without its trailing newline (what text output shows).
std::string recordText(const ProbeProgram &P, const RecordOrigin &O,
                       const RecordView &R);

} // namespace tscc::rt

#endif
