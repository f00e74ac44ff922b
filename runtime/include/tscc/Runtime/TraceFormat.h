//===- tscc/Runtime/TraceFormat.h - Format files for trace() hooks --------===//
//
// trace(HOOK, args...) records carry no text; like AIX's trcfmt, a format
// file given to tsreport says how to print each hook:
//
//   # comment
//   0x1001  open  "open(%s) flags %#x\n"
//   4098          "read %d bytes"
//
// One stanza per line: a hook id (decimal, 0x hex or 0 octal), an optional
// label (a word, shown in JSON output), and a C string literal used as a
// printf format over the record's arguments, with the data model of the
// process that emitted it. A newline is added when the format has none.
// Hooks without a stanza print as "trace 0xID: args...".
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_TRACEFORMAT_H
#define TSCC_RUNTIME_TRACEFORMAT_H

#include "tscc/Runtime/Output.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tscc::rt {

class TraceFormatFile {
public:
  struct Stanza {
    std::string Label;
    std::string Format;
    unsigned Line = 0;
  };

  /// Parses format-file text; Name prefixes "NAME:LINE:COL: error: ...".
  static std::unique_ptr<TraceFormatFile>
  parse(std::string_view Text, std::string_view Name, std::string &Error);
  static std::unique_ptr<TraceFormatFile> load(const std::string &Path,
                                               std::string &Error);

  const Stanza *find(uint32_t Hook) const;
  /// The record's text per its stanza, or nullopt when it has none (or is
  /// not a trace record).
  std::optional<std::string> render(const ProbeProgram &P,
                                    const RecordOrigin &O,
                                    const RecordView &R) const;
  size_t size() const { return Stanzas.size(); }

private:
  std::map<uint32_t, Stanza> Stanzas;
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_TRACEFORMAT_H
