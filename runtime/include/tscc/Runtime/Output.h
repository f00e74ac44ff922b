//===- tscc/Runtime/Output.h - Where session events go ----------------------===//
//
// Everything a session reports -- records emitted by clauses, aggregation
// dumps, targets coming and going, per-clause fault counters, warnings --
// goes through one OutputSink. There are three: text (human readable),
// JSON lines (schema "tscc-run/1", docs/runtime.md) and binary (a
// self-describing trace file that tsreport renders later by replaying it into
// one of the other two). Sinks are called with the session lock held, so
// they need no locking of their own.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_OUTPUT_H
#define TSCC_RUNTIME_OUTPUT_H

#include "tscc/Runtime/Target.h"
#include "tscc/abi.h"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tscc::rt {

class ProbeProgram;

/// The JSON lines schema name; bump the number on incompatible changes.
inline constexpr std::string_view JsonSchema = "tscc-run/1";

/// Who emitted a record. Target-less clauses (BEGIN/END/interval) have
/// Pid == 0 and the LP64 model.
struct RecordOrigin {
  int64_t Pid = 0;
  int64_t Tid = 0;
  DataModel DM = DataModel::LP64;
  uint32_t Clause = 0;
  uint32_t Probe = 0;
  uint64_t TimeNs = 0; ///< since the session started
  /// Resolves stack PCs; null for records replayed from a trace file.
  Target *Tgt = nullptr;
};

/// A record as clause code emitted it: the header plus its argument bytes.
struct RecordView {
  tscc_record Header{};
  std::span<const uint8_t> Args;
  /// For TSCC_REC_STACK records replayed from a trace file: the symbolised
  /// frames (live records are symbolised through RecordOrigin::Tgt).
  const std::vector<std::string> *Frames = nullptr;
  /// Overrides the record's rendered text (tsreport's format files), with
  /// an optional label for JSON.
  const std::string *Text = nullptr;
  const std::string *Label = nullptr;
};

/// One aggregation, ready to print: entries already sorted.
struct AggEntry {
  std::vector<std::string> Keys; ///< formatted per the key fields
  /// Per key: the frames, innermost first, when it is a stack (stktrace()
  /// as a key; Keys holds their text form), else empty. Structured outputs
  /// (JSON) write these as lists.
  std::vector<std::vector<std::string>> KeyFrames;
  int64_t Count = 0, Sum = 0, Min = 0, Max = 0;
  /// avg(): Sum / Count, total for any values (a trace file or a target
  /// may hold any): 0 without a value, and never INT64_MIN / -1.
  int64_t average() const {
    if (Count <= 0)
      return 0;
    return Sum / Count;
  }
  /// hist: bucket counts indexed as described in Aggregation.h; lhist:
  /// [underflow, buckets..., overflow].
  std::vector<uint64_t> Buckets;
};

struct AggDump {
  std::string Name;  ///< without '@'
  uint32_t Kind = 0; ///< tscc_agg_kind
  int64_t LhistLo = 0, LhistHi = 0, LhistStep = 0;
  std::vector<AggEntry> Entries;
  /// Entries read with a negative count, which only a program writing the
  /// shared store can give (a count wraps after 2^63 values).
  uint64_t Implausible = 0;
};

struct ClauseCounters {
  uint32_t Clause = 0;
  uint32_t Line = 0, Column = 0;
  uint64_t Fired = 0, Faults = 0, Drops = 0;
  /// Of the drops, records lost to a full record buffer (what the loss
  /// warnings and markers count).
  uint64_t Lost = 0;
};

struct TargetInfo {
  int64_t Pid = 0;
  DataModel DM = DataModel::LP64;
  std::string Name;
  std::string Backend;
  std::string Path;    ///< Target::pathName(), "" if none
  std::string Sandbox; ///< Target::sandbox(), "" if none
  /// The session was already ending (tsrun's own SIGKILL of a launched
  /// command is then expected, not news).
  bool SessionStopping = false;
};

/// A switch of the session's collection, or a snapshot of its ring
/// (docs/runtime.md, "Buffer modes" and "Start and stop by signal").
struct SessionSwitch {
  enum KindT { CollectionOff, CollectionOn, Snapshot } Kind = CollectionOff;
  std::string Why;      ///< collection: "SIGUSR1", "--collect=off", ...
  uint64_t TimeNs = 0;  ///< since the session started
  std::string File;     ///< snapshot: where it went
  uint64_t Records = 0; ///< snapshot: how many records it holds
};

/// "collection stopped (SIGUSR1)", "snapshot: 12 records written to F.1".
std::string describeSwitch(const SessionSwitch &E);

/// Records of one thread that were dropped (its buffer was full) at this
/// place in the stream of records.
struct LostRecords {
  int64_t Pid = 0;
  int64_t Tid = 0;
  uint64_t Count = 0;
  uint64_t TimeNs = 0; ///< since the session started (when it was noticed)
};

/// "[lost 12 records: pid 100, tid 101]\n", what text output shows.
std::string renderLost(const LostRecords &L);

class OutputSink {
public:
  virtual ~OutputSink();

  virtual void start(const ProbeProgram &P) {}
  virtual void record(const RecordOrigin &O, const RecordView &R) = 0;
  /// A loss marker: where records went missing, in order with them.
  virtual void lost(const LostRecords &L) = 0;
  virtual void aggregation(const AggDump &D) = 0;
  virtual void targetAttached(const TargetInfo &T, std::string_view How) = 0;
  /// Mechanism: how hits get to the clause, when there is a choice
  /// ("in-process", "breakpoint (why)"); empty otherwise.
  virtual void probeAttached(const TargetInfo &T, uint32_t Probe,
                             std::string_view Function, std::string_view Module,
                             uint64_t Address, std::string_view Mechanism) = 0;
  /// How the session is set up, for -v.
  virtual void note(std::string_view Message) {}
  virtual void targetExited(const TargetInfo &T, int ExitCode, int Signal) = 0;
  virtual void warning(std::string_view Message) = 0;
  /// Collection switched, or a snapshot written (tsrun reports these on
  /// stderr itself; text sinks show replayed ones when Warnings is set).
  virtual void sessionSwitch(const SessionSwitch &E) {}
  /// Circular mode only: writes the records kept now to a new numbered
  /// file, File (with how many Records). False with Error otherwise.
  virtual bool snapshot(std::string &File, uint64_t &Records,
                        std::string &Error) {
    Error = "snapshots need --buffer-mode circular";
    return false;
  }
  /// At the end: counters for every clause (sinks decide what to show).
  virtual void counters(std::span<const ClauseCounters> C) = 0;
  virtual void finish() {}
  /// The input ended early (tsreport on a truncated trace): writes out what
  /// was rendered without marking the output complete, so no JSON `end`
  /// event and no binary end frame claim a whole session.
  virtual void finishIncomplete() { finish(); }
  /// False once writing failed (disk full, closed pipe).
  virtual bool ok() const { return true; }
  /// The errno of the first failed write, or 0.
  virtual int writeError() const { return 0; }
};

enum class OutputFormat { Text, Json, Binary };

struct TextOptions {
  /// Where reports that are not script output go (attachments, exits,
  /// clause counters); never mixed into the script's output.
  FILE *Diag = stderr;
  /// Also report attachments and normal exits (-v).
  bool Verbose = false;
  /// Print warning events on Diag. tsrun's session prints its warnings as
  /// they happen; tsreport replays the recorded ones through this.
  bool Warnings = false;
};

/// Creates a sink writing to Out (closed at the end if OwnsFile).
std::unique_ptr<OutputSink> createTextSink(const ProbeProgram &P, FILE *Out,
                                           bool OwnsFile,
                                           TextOptions Opts = {});
std::unique_ptr<OutputSink> createJsonSink(const ProbeProgram &P, FILE *Out,
                                           bool OwnsFile);
struct BinaryOptions {
  /// The write buffer.
  size_t BufferSize = 1u << 20;
};
std::unique_ptr<OutputSink> createBinarySink(const ProbeProgram &P, FILE *Out,
                                             bool OwnsFile,
                                             BinaryOptions Opts = {});

/// What happens to records when the buffer is full (--buffer-mode).
enum class BufferMode {
  /// Everything is written as it comes; the per-thread rings drop (and
  /// count) what the reader cannot keep up with.
  Continuous,
  /// A flight recorder: the newest Size bytes of records are kept in
  /// memory and written at the end and on snapshot().
  Circular,
  /// Records are written until Size bytes of them were, then collection
  /// stops (OnFull) and later records are counted as not recorded.
  Single,
};

/// The bytes a record takes in a buffer, the same for every output format:
/// its binary trace frame's payload (origin, header, arguments, frames).
size_t recordBufferBytes(const RecordView &R,
                         std::span<const std::string> Frames);

struct BufferOptions {
  BufferMode Mode = BufferMode::Circular;
  size_t Size = 8u << 20;
  /// Single: called once, under the session lock, when the buffer fills;
  /// must only switch collection off and ask for the announcement.
  std::function<void()> OnFull;
  /// Circular: snapshots go to SnapshotBase.1, .2, ... (the first number
  /// whose file does not exist yet), each written by a sink MakeSink
  /// creates for the file it is given (and owns).
  std::string SnapshotBase;
  std::function<std::unique_ptr<OutputSink>(FILE *)> MakeSink;
  /// Where the buffer's own warnings go, besides the output.
  FILE *Diag = stderr;
};

/// Wraps Inner with a circular or single buffer. Records (and the
/// aggregation printouts among them, never overwritten) go through the
/// buffer; every other event goes to Inner at once.
std::unique_ptr<OutputSink>
createBufferedSink(const ProbeProgram &P, std::unique_ptr<OutputSink> Inner,
                   BufferOptions Opts);

/// Renders a record's text the way printf would for that data model: the
/// format text of a PRINTF record, "hook 0xID: a b c" for TRACE records
/// without a format file, frames joined by newlines for STACK records.
std::string renderRecord(const ProbeProgram &P, const RecordOrigin &O,
                         const RecordView &R);
/// The same, appended to Out.
void appendRecord(std::string &Out, const ProbeProgram &P,
                  const RecordOrigin &O, const RecordView &R);

/// The frames of a STACK record: replayed ones as stored, live ones
/// symbolised through the target now.
std::vector<std::string> stackFrames(const RecordOrigin &O,
                                     const RecordView &R);

/// "trace 0x10: 1 2 \"str\"\n": a trace() record without a format file.
std::string renderTraceDefault(const ProbeProgram &P, const RecordOrigin &O,
                               const RecordView &R);

/// Formats one scalar or string key value as text (for aggregation keys and
/// map dumps): strings as is, PTR as 0x..., CHAR as the character.
std::string formatField(const tscc_field &F, std::span<const uint8_t> Bytes,
                        DataModel DM);

/// Renders an aggregation the way bpftrace does (histograms as bars).
std::string renderAggregation(const AggDump &D);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_OUTPUT_H
