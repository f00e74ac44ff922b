//===- tscc/Runtime/Export.h - Traces for other tools' viewers ------------===//
//
// tsreport's --to writes a binary trace in a format that existing tools
// read, so tscc needs no viewer of its own:
//
//   ctf       a CTF 1.8 trace directory (babeltrace2, Trace Compass): one
//             event class per printf format and trace() hook, typed fields,
//             pid/tid/data model in the event context
//   perfetto  Chrome JSON trace events (ui.perfetto.dev, trace_processor):
//             entry/exit pairs as slices, other records as instant events
//
// Both are OutputSinks that collect what a TraceReader replays and write
// their output in finish(). docs/runtime.md describes the formats.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_EXPORT_H
#define TSCC_RUNTIME_EXPORT_H

#include "tscc/Runtime/Output.h"

#include <memory>
#include <string>

namespace tscc::rt {

class TraceFormatFile;

struct ExportOptions {
  /// Format-file stanzas type and name trace() hooks (may be null).
  const TraceFormatFile *Formats = nullptr;
};

/// A sink that writes a CTF 1.8 trace into directory Dir (created if
/// missing; "metadata" and "stream_0" are replaced). Null with Error when
/// Dir cannot be used. Write failures show in ok()/writeError().
std::unique_ptr<OutputSink> createCtfSink(const ProbeProgram &P,
                                          const std::string &Dir,
                                          ExportOptions Opts,
                                          std::string &Error);

/// A sink that writes a Chrome JSON trace-event file to Out.
std::unique_ptr<OutputSink> createPerfettoSink(const ProbeProgram &P, FILE *Out,
                                               bool OwnsFile,
                                               ExportOptions Opts);

} // namespace tscc::rt

#endif // TSCC_RUNTIME_EXPORT_H
