//===- BinarySink.cpp - Self-describing binary trace files -----------------===//
//
// The hot path writes records as they came from clause code, with only the
// origin prepended; everything else is rare and stored as JSON. See
// tscc/Runtime/TraceFile.h for the layout.
//
//===----------------------------------------------------------------------===//

#include "JsonEvents.h"
#include "PendingOutput.h"

#include "tscc/Runtime/TraceFile.h"

#include <algorithm>
#include <cstring>

#include <cerrno>

using namespace tscc::rt;

namespace {

class BinarySink final : public OutputSink, public BatchedSink {
public:
  BinarySink(const ProbeProgram &P, FILE *Out, bool Owns, BinaryOptions Opts)
      : P(P), Out(Out), Owns(Owns), Opts(Opts),
        // Records are small and frequent: large writes keep write(2) rare.
        Pending(Out, std::clamp<size_t>(Opts.BufferSize, 4096, 8u << 20)) {
    setvbuf(Out, nullptr, _IOFBF, std::max<size_t>(Opts.BufferSize, 4096));
  }
  ~BinarySink() override {
    Pending.flush();
    if (Owns)
      fclose(Out);
  }

  void start(const ProbeProgram &) override {
    put(TraceMagic, 8);
    u32(TraceVersion);
    ProgramTables T = P.tables();
    const std::span<const uint8_t> Tables[] = {T.Header,  T.Clauses, T.Probes,
                                               T.Formats, T.Fields,  T.Maps,
                                               T.Aggs,    T.Within,  T.Strtab};
    u32(std::size(Tables));
    for (std::span<const uint8_t> S : Tables) {
      u64(S.size());
      put(S.data(), S.size());
      pad(S.size());
    }
    u32(P.name().size());
    put(P.name().data(), P.name().size());
    pad(4 + P.name().size());
    Pending.flush();
  }

  void record(const RecordOrigin &O, const RecordView &R) override {
    std::vector<std::string> Frames;
    if (R.Header.kind == TSCC_REC_STACK)
      Frames = stackFrames(O, R); // the target may be gone at report time
    // The frame goes straight to the end of what waits to be written: its
    // header, the origin, the record as clause code wrote it, the frames
    // and the padding, each copied once.
    uint32_t DM = static_cast<uint32_t>(O.DM);
    uint32_t FrameCount = static_cast<uint32_t>(Frames.size());
    size_t Size = 40 + sizeof(R.Header) + R.Args.size();
    for (const std::string &F : Frames)
      Size += 4 + F.size();
    std::string &Out = Pending.text();
    size_t At = Out.size();
    Out.resize(At + 8 + ((Size + 7) & ~size_t(7)));
    char *W = Out.data() + At;
    auto Add = [&](const void *D, size_t N) {
      if (N)
        memcpy(W, D, N);
      W += N;
    };
    uint32_t Head[2] = {static_cast<uint32_t>(TraceFrame::Record),
                        static_cast<uint32_t>(Size)};
    Add(Head, sizeof(Head));
    Add(&O.Pid, 8);
    Add(&O.Tid, 8);
    Add(&DM, 4);
    Add(&O.Clause, 4);
    Add(&O.Probe, 4);
    Add(&FrameCount, 4);
    Add(&O.TimeNs, 8);
    Add(&R.Header, sizeof(R.Header));
    Add(R.Args.data(), R.Args.size());
    for (const std::string &F : Frames) {
      uint32_t Len = static_cast<uint32_t>(F.size());
      Add(&Len, 4);
      Add(F.data(), F.size());
    }
    memset(W, 0, Out.data() + Out.size() - W); // the padding
    Pending.done();
  }

  void endOfBatch() override { Pending.flush(); }

  void lost(const LostRecords &L) override { event(lostJson(L)); }
  void aggregation(const AggDump &D) override { event(aggJson(D)); }
  void targetAttached(const TargetInfo &T, std::string_view How) override {
    event(attachedJson(T, How));
  }
  void probeAttached(const TargetInfo &T, uint32_t Probe,
                     std::string_view Function, std::string_view Module,
                     uint64_t Address, std::string_view Mechanism) override {
    event(probeJson(P, T, Probe, Function, Module, Address, Mechanism));
  }
  void targetExited(const TargetInfo &T, int ExitCode, int Signal) override {
    event(exitedJson(T, ExitCode, Signal));
  }
  void note(std::string_view Message) override {
    event({{"type", "note"}, {"message", Message}});
  }
  void warning(std::string_view Message) override {
    event(warningJson(Message));
  }
  void counters(std::span<const ClauseCounters> C) override {
    nlohmann::json All = nlohmann::json::array();
    for (const ClauseCounters &K : C)
      All.push_back(countersJson(K));
    event({{"type", "clause_stats_all"}, {"clauses", std::move(All)}});
  }
  void sessionSwitch(const SessionSwitch &E) override { event(switchJson(E)); }
  void finish() override {
    // The End frame tells a reader the file is complete: a tsrun killed
    // between two frames leaves a file that is well-formed but short.
    if (!Ended)
      frame(TraceFrame::End, std::string());
    Ended = true;
    finishIncomplete();
  }
  void finishIncomplete() override { Pending.flushAll(); }
  bool ok() const override { return Pending.ok(); }
  int writeError() const override { return Pending.error(); }

private:
  void put(const void *D, size_t N) {
    Pending.append({static_cast<const char *>(D), N});
  }
  void u32(uint32_t V) { put(&V, 4); }
  void u64(uint64_t V) { put(&V, 8); }
  void pad(size_t N) {
    static const char Zero[8] = {};
    put(Zero, (8 - N % 8) % 8);
  }
  bool Ended = false;
  void frame(TraceFrame Type, const std::string &Payload) {
    // One write of the frame: its header, payload and padding.
    uint32_t Head[2] = {static_cast<uint32_t>(Type),
                        static_cast<uint32_t>(Payload.size())};
    Framed.assign(reinterpret_cast<const char *>(Head), sizeof(Head));
    Framed += Payload;
    Framed.append((8 - Payload.size() % 8) % 8, '\0');
    put(Framed.data(), Framed.size());
    Pending.flush(); // events are rare: to the FILE at once, as before
  }
  void event(const nlohmann::json &J) {
    std::string Text =
        J.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    frame(TraceFrame::Event, Text);
  }

  const ProbeProgram &P;
  FILE *Out;
  bool Owns;
  BinaryOptions Opts;
  PendingOutput Pending;
  std::string Framed;
};

} // namespace

std::unique_ptr<OutputSink> tscc::rt::createBinarySink(const ProbeProgram &P,
                                                       FILE *Out, bool OwnsFile,
                                                       BinaryOptions Opts) {
  return std::make_unique<BinarySink>(P, Out, OwnsFile, Opts);
}
