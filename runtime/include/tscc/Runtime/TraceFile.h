//===- tscc/Runtime/TraceFile.h - Binary trace files ------------------------===//
//
// `tsrun -f binary -o trace.bin` writes a self-describing trace: the probe
// object's tables (so formats, field kinds and names travel with the data),
// then a stream of frames -- raw records as clause code emitted them, plus
// session events. tsreport reads it back and replays it into a text or JSON
// sink. The layout is documented in docs/runtime.md.
//
//   file   := magic[8]="TSCCTRC\0" u32 version u32 table_count
//             { u64 size, bytes, pad to 8 } x table_count   (abi.h order:
//             header clauses probes formats fields maps aggs within strtab)
//             u32 name_size, name bytes, pad to 8
//             frame*
//   frame  := u32 type, u32 size, payload[size], pad to 8
//   RECORD := i64 pid, i64 tid, u32 data_model, u32 clause, u32 probe,
//             u32 frame_count, u64 time_ns, record (tscc_record + args),
//             then frame_count x { u32 len, bytes } (symbolised stack)
//   EVENT  := JSON text of a non-record event (as in the JSON lines output)
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_TRACEFILE_H
#define TSCC_RUNTIME_TRACEFILE_H

#include "tscc/Runtime/Output.h"
#include "tscc/Runtime/ProbeProgram.h"

#include <functional>
#include <memory>
#include <string>

namespace tscc::rt {

inline constexpr char TraceMagic[8] = {'T', 'S', 'C', 'C', 'T', 'R', 'C', 0};
/// Version 2 ends every complete file with an End frame; version 1 files
/// (no End frame) are still read, but their truncation cannot be detected.
inline constexpr uint32_t TraceVersion = 3;

enum class TraceFrame : uint32_t { Record = 1, Event = 2, End = 3 };

/// A binary trace file opened for reading.
class TraceReader {
public:
  /// Reads and validates the file's tables. Null with "FILE: problem".
  static std::unique_ptr<TraceReader> open(const std::string &Path,
                                           std::string &Error);
  ~TraceReader();

  const ProbeProgram &program() const { return *Program; }

  /// Replays every frame into Sink: records through Record (which may
  /// render them differently, e.g. trace() records with a format file), the
  /// rest into Sink. Returns false with Error on a malformed or truncated
  /// frame, or a file that stops without its End frame (frames before the
  /// damage have been replayed).
  using RecordFn =
      std::function<void(const RecordOrigin &, const RecordView &)>;
  bool replay(OutputSink &Sink, const RecordFn &Record, std::string &Error);

private:
  TraceReader() = default;
  std::string Path;
  std::vector<uint8_t> Bytes;
  size_t FramesAt = 0;
  uint32_t Version = 0;
  std::unique_ptr<ProbeProgram> Program;
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_TRACEFILE_H
