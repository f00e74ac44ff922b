//===- PendingOutput.h - A sink's output, written in large pieces -*- C++ -*-=//
//
// Internal to libtsrt. The live reader formats millions of records a
// second: each is appended straight into one large buffer (no copy into
// a line, then into stdio's buffer), and the buffer goes to the FILE in
// pieces of PieceBytes or more, which a large enough fwrite hands to
// write(2) without copying it again. The sink flushes it before anything
// that must come after what is pending (a diagnostic on another stream,
// the end), and at the end of every batch of records the reader hands
// over (BatchedSink::endOfBatch), so that a slow trace is seen as it
// happens.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_OUTPUT_PENDINGOUTPUT_H
#define TSCC_RUNTIME_LIB_OUTPUT_PENDINGOUTPUT_H

#include <cerrno>
#include <cstdio>
#include <string>
#include <string_view>
#include <unistd.h>

namespace tscc::rt {

/// A sink that holds records back for a larger write. The live reader
/// calls endOfBatch() after each batch of records it hands over: what is
/// held goes out then.
class BatchedSink {
public:
  virtual ~BatchedSink() = default;
  virtual void endOfBatch() = 0;
  /// S's endOfBatch(), where S is such a sink.
  template <typename Sink> static void endOfBatch(Sink *S) {
    if (auto *B = dynamic_cast<BatchedSink *>(S))
      B->endOfBatch();
  }
};

class PendingOutput {
public:
  static constexpr size_t DefaultPiece = 256u << 10;

  explicit PendingOutput(FILE *Out, size_t PieceBytes = DefaultPiece)
      : Out(Out), Interactive(isatty(fileno(Out))), PieceBytes(PieceBytes) {
    Text.reserve(PieceBytes + 4096);
  }

  /// Where a record is formatted: append to it, then call done().
  std::string &text() { return Text; }
  void append(std::string_view S) { Text.append(S); }
  /// After each record: a terminal sees it at once; otherwise it waits
  /// for a full piece or the end of the batch.
  void done() {
    if (Interactive || Text.size() >= PieceBytes)
      flush();
  }
  /// Hands everything pending to the FILE, and the FILE to the kernel
  /// where it is a terminal.
  void flush() {
    if (!Text.empty() &&
        fwrite_unlocked(Text.data(), 1, Text.size(), Out) != Text.size())
      fail();
    Text.clear();
    if (Interactive && fflush(Out) != 0)
      fail();
  }
  /// flush() and fflush(): everything is with the kernel.
  bool flushAll() {
    flush();
    if (fflush(Out) != 0)
      fail();
    return !Failed;
  }
  bool ok() const { return !Failed && !ferror_unlocked(Out); }
  int error() const { return Errno; }

private:
  void fail() {
    if (!Failed)
      Errno = errno;
    Failed = true;
  }

  FILE *Out;
  bool Interactive;
  size_t PieceBytes;
  bool Failed = false;
  int Errno = 0;
  std::string Text;
};

} // namespace tscc::rt

#endif
