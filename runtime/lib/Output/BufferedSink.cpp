//===- BufferedSink.cpp - Circular and single trace buffers ----------------===//
//
// --buffer-mode circular|single for every output format: this sink sits in
// front of the format's own sink. Records are owned copies (a stack's
// frames symbolised at once: the target may be gone when they are written)
// and are replayed into the format's sink the way tsreport replays a trace.
// Sizes are counted in the bytes of the binary trace frame, so that
// --buffer-size means the same amount of records in every format.
//
//===----------------------------------------------------------------------===//

#include "PendingOutput.h"

#include "tscc/Runtime/Output.h"
#include "tscc/Runtime/ProbeProgram.h"

#include <cerrno>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <unistd.h>
#include <variant>

using namespace tscc::rt;

size_t tscc::rt::recordBufferBytes(const RecordView &R,
                                   std::span<const std::string> Frames) {
  // pid, tid, data model, clause, probe, frame count, time (BinarySink).
  size_t N = 40 + sizeof(R.Header) + R.Args.size();
  for (const std::string &F : Frames)
    N += 4 + F.size();
  return N;
}

namespace {

std::string records(uint64_t N) {
  return std::to_string(N) + (N == 1 ? " record" : " records");
}

struct OwnedRecord {
  RecordOrigin Origin;
  tscc_record Header{};
  std::vector<uint8_t> Args;
  std::vector<std::string> Frames;
  std::string Text, Label;
  bool HasText = false, HasLabel = false;
  size_t Bytes = 0;

  void replay(OutputSink &Out) const {
    RecordView V;
    V.Header = Header;
    V.Args = Args;
    if (Header.kind == TSCC_REC_STACK)
      V.Frames = &Frames;
    if (HasText)
      V.Text = &Text;
    if (HasLabel)
      V.Label = &Label;
    Out.record(Origin, V);
  }
};

/// An entry of the buffer: a record, or an aggregation printout that was
/// among them (script output too, so it stays in order with them; never
/// overwritten).
using Entry = std::variant<OwnedRecord, AggDump, LostRecords>;

void replayEntry(const Entry &E, OutputSink &Out) {
  if (const auto *R = std::get_if<OwnedRecord>(&E))
    R->replay(Out);
  else if (const auto *L = std::get_if<LostRecords>(&E))
    Out.lost(*L);
  else
    Out.aggregation(std::get<AggDump>(E));
}

class BufferedSink final : public OutputSink, public BatchedSink {
public:
  BufferedSink(const ProbeProgram &P, std::unique_ptr<OutputSink> Inner,
               BufferOptions Opts)
      : P(P), Inner(std::move(Inner)), Opts(std::move(Opts)) {}

  void start(const ProbeProgram &Prog) override { Inner->start(Prog); }

  void record(const RecordOrigin &O, const RecordView &R) override {
    if (Opts.Mode == BufferMode::Single)
      return recordSingle(O, R);
    OwnedRecord Rec;
    Rec.Origin = O;
    Rec.Origin.Tgt = nullptr; // replayed later, maybe after the target left
    Rec.Header = R.Header;
    Rec.Args.assign(R.Args.begin(), R.Args.end());
    if (R.Header.kind == TSCC_REC_STACK)
      Rec.Frames = stackFrames(O, R);
    if (R.Text) {
      Rec.Text = *R.Text;
      Rec.HasText = true;
    }
    if (R.Label) {
      Rec.Label = *R.Label;
      Rec.HasLabel = true;
    }
    Rec.Bytes = recordBufferBytes(R, Rec.Frames);
    Used += Rec.Bytes;
    Buffer.push_back(std::move(Rec));
    // Overwrite the oldest records; printouts between them are kept.
    while (Used > Opts.Size && !Buffer.empty()) {
      if (auto *Old = std::get_if<OwnedRecord>(&Buffer.front())) {
        Used -= Old->Bytes;
        ++Overwritten;
      } else if (std::holds_alternative<LostRecords>(Buffer.front())) {
        // Where records went missing before the oldest kept one: the
        // overwritten ones are said as such.
      } else {
        Kept.push_back(std::move(std::get<AggDump>(Buffer.front())));
      }
      Buffer.pop_front();
    }
  }

  void lost(const LostRecords &L) override {
    if (Opts.Mode == BufferMode::Circular)
      Buffer.push_back(L);
    else if (!Full)
      Inner->lost(L);
  }

  void aggregation(const AggDump &D) override {
    if (Opts.Mode == BufferMode::Circular)
      Buffer.push_back(D);
    else
      Inner->aggregation(D);
  }
  void targetAttached(const TargetInfo &T, std::string_view How) override {
    Inner->targetAttached(T, How);
  }
  void probeAttached(const TargetInfo &T, uint32_t Probe,
                     std::string_view Function, std::string_view Module,
                     uint64_t Address, std::string_view Mechanism) override {
    Inner->probeAttached(T, Probe, Function, Module, Address, Mechanism);
  }
  void note(std::string_view Message) override { Inner->note(Message); }
  void endOfBatch() override { BatchedSink::endOfBatch(Inner.get()); }
  void targetExited(const TargetInfo &T, int ExitCode, int Signal) override {
    Inner->targetExited(T, ExitCode, Signal);
  }
  void warning(std::string_view Message) override { Inner->warning(Message); }
  void sessionSwitch(const SessionSwitch &E) override {
    Inner->sessionSwitch(E);
  }

  void counters(std::span<const ClauseCounters> C) override {
    flush(); // the script's output before the session's statistics
    Inner->counters(C);
  }
  void finish() override {
    flush();
    Inner->finish();
  }
  void finishIncomplete() override {
    flush();
    Inner->finishIncomplete();
  }
  bool ok() const override { return Inner->ok(); }
  int writeError() const override { return Inner->writeError(); }

  bool snapshot(std::string &File, uint64_t &Records,
                std::string &Error) override {
    if (Opts.Mode != BufferMode::Circular || !Opts.MakeSink)
      return OutputSink::snapshot(File, Records, Error);
    int Fd = -1;
    for (unsigned N = ++LastSnapshot; N < LastSnapshot + 10000; ++N) {
      File = Opts.SnapshotBase + "." + std::to_string(N);
      Fd = open(File.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (Fd >= 0 || errno != EEXIST) {
        LastSnapshot = N;
        break;
      }
    }
    FILE *F = Fd >= 0 ? fdopen(Fd, "w") : nullptr;
    if (!F) {
      Error = File + ": " + strerror(errno);
      if (Fd >= 0)
        close(Fd);
      return false;
    }
    std::unique_ptr<OutputSink> Out = Opts.MakeSink(F);
    Out->start(P);
    Records = 0;
    for (const AggDump &D : Kept)
      Out->aggregation(D);
    for (const Entry &E : Buffer) {
      replayEntry(E, *Out);
      Records += std::holds_alternative<OwnedRecord>(E);
    }
    if (Overwritten)
      Out->warning(overwrittenMessage());
    Out->finish();
    if (!Out->ok()) {
      Error =
          File + ": " + strerror(Out->writeError() ? Out->writeError() : EIO);
      return false;
    }
    return true;
  }

private:
  /// The oldest are kept: records go through until the buffer is full.
  void recordSingle(const RecordOrigin &O, const RecordView &R) {
    std::vector<std::string> Frames;
    if (R.Header.kind == TSCC_REC_STACK)
      Frames = stackFrames(O, R);
    size_t Bytes = recordBufferBytes(R, Frames);
    if (Full || Used + Bytes > Opts.Size) {
      // In flight when the buffer filled, or after SIGUSR2 turned
      // collection on again: not recorded.
      ++NotRecorded;
      if (!Full) {
        Full = true;
        if (Opts.OnFull)
          Opts.OnFull();
      }
      return;
    }
    Used += Bytes;
    ++Recorded;
    Inner->record(O, R);
  }

  std::string overwrittenMessage() const {
    return "circular buffer: " + std::to_string(Overwritten) + " older " +
           (Overwritten == 1 ? "record was" : "records were") + " overwritten";
  }
  void warn(const std::string &Message) {
    if (Opts.Diag) {
      fprintf(Opts.Diag, "tsrun: warning: %s\n", Message.c_str());
      fflush(Opts.Diag);
    }
    Inner->warning(Message);
  }
  void flush() {
    if (Flushed)
      return;
    Flushed = true;
    if (Opts.Mode == BufferMode::Single) {
      if (NotRecorded)
        warn("single buffer full after " + records(Recorded) + " (" +
             std::to_string(Used) + " bytes): collection was stopped; " +
             std::to_string(NotRecorded) + " later " +
             (NotRecorded == 1 ? "record was" : "records were") +
             " not recorded");
      return;
    }
    for (const AggDump &D : Kept)
      Inner->aggregation(D);
    for (const Entry &E : Buffer)
      replayEntry(E, *Inner);
    if (Overwritten)
      warn(overwrittenMessage());
    Buffer.clear();
    Kept.clear();
  }

  const ProbeProgram &P;
  std::unique_ptr<OutputSink> Inner;
  BufferOptions Opts;
  std::deque<Entry> Buffer;
  std::vector<AggDump> Kept; ///< printouts older than every kept record
  size_t Used = 0;
  uint64_t Overwritten = 0, Recorded = 0, NotRecorded = 0;
  bool Full = false, Flushed = false;
  unsigned LastSnapshot = 0;
};

} // namespace

std::unique_ptr<OutputSink>
tscc::rt::createBufferedSink(const ProbeProgram &P,
                             std::unique_ptr<OutputSink> Inner,
                             BufferOptions Opts) {
  return std::make_unique<BufferedSink>(P, std::move(Inner), std::move(Opts));
}
