//===- TraceReader.cpp - Read binary trace files back ----------------------===//
//
// A trace file is untrusted input like a probe object: every size is checked
// before it is used, and a truncated file replays up to the damage.
//
//===----------------------------------------------------------------------===//

#include "JsonEvents.h"

#include "tscc/Runtime/TraceFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tscc::rt;

namespace {

bool readAll(const std::string &Path, std::vector<uint8_t> &Out,
             std::string &Error) {
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0) {
    Error = strerror(errno);
    return false;
  }
  struct stat St;
  if (fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode)) {
    ::close(Fd);
    Error = "not a regular file";
    return false;
  }
  uint8_t Buf[65536];
  for (;;) {
    ssize_t N = ::read(Fd, Buf, sizeof(Buf));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      ::close(Fd);
      if (N < 0)
        Error = strerror(errno);
      return N == 0;
    }
    Out.insert(Out.end(), Buf, Buf + N);
  }
}

/// A bounds-checked cursor.
struct Cursor {
  std::span<const uint8_t> B;
  size_t Pos = 0;
  bool take(void *D, size_t N) {
    if (B.size() - Pos < N)
      return false;
    memcpy(D, B.data() + Pos, N);
    Pos += N;
    return true;
  }
  bool span(size_t N, std::span<const uint8_t> &S) {
    if (B.size() - Pos < N)
      return false;
    S = B.subspan(Pos, N);
    Pos += N;
    return true;
  }
  bool pad() {
    size_t P = (8 - Pos % 8) % 8;
    if (B.size() - Pos < P)
      return false;
    Pos += P;
    return true;
  }
};

} // namespace

TraceReader::~TraceReader() = default;

std::unique_ptr<TraceReader> TraceReader::open(const std::string &Path,
                                               std::string &Error) {
  std::unique_ptr<TraceReader> R(new TraceReader());
  R->Path = Path;
  std::string Why;
  if (!readAll(Path, R->Bytes, Why)) {
    Error = Path + ": " + Why;
    return nullptr;
  }
  Cursor C{R->Bytes};
  char Magic[8];
  uint32_t Version, Count;
  if (!C.take(Magic, 8) || memcmp(Magic, TraceMagic, 8) != 0) {
    Error = Path + ": not a tsrun binary trace file";
    return nullptr;
  }
  if (!C.take(&Version, 4) || Version == 0 || Version > TraceVersion) {
    Error = Path + ": unsupported trace file version";
    return nullptr;
  }
  std::span<const uint8_t> Tables[9];
  if (!C.take(&Count, 4) || Count != 9) {
    Error = Path + ": bad table count";
    return nullptr;
  }
  for (std::span<const uint8_t> &T : Tables) {
    uint64_t Size;
    if (!C.take(&Size, 8) || Size > R->Bytes.size() || !C.span(Size, T) ||
        !C.pad()) {
      Error = Path + ": truncated table";
      return nullptr;
    }
  }
  uint32_t NameSize;
  std::span<const uint8_t> Name;
  if (!C.take(&NameSize, 4) || !C.span(NameSize, Name) || !C.pad()) {
    Error = Path + ": truncated header";
    return nullptr;
  }
  ProgramTables T;
  T.Header = Tables[0];
  T.Clauses = Tables[1];
  T.Probes = Tables[2];
  T.Formats = Tables[3];
  T.Fields = Tables[4];
  T.Maps = Tables[5];
  T.Aggs = Tables[6];
  T.Within = Tables[7];
  T.Strtab = Tables[8];
  R->Program = ProbeProgram::fromTables(
      T, std::string(reinterpret_cast<const char *>(Name.data()), Name.size()),
      Why);
  if (!R->Program) {
    Error = Path + ": " + Why;
    return nullptr;
  }
  R->FramesAt = C.Pos;
  R->Version = Version;
  return R;
}

bool TraceReader::replay(OutputSink &Sink, const RecordFn &Record,
                         std::string &Error) {
  Sink.start(*Program);
  Cursor C{Bytes, FramesAt};
  bool Ended = false;
  while (C.Pos < Bytes.size()) {
    if (Ended) {
      Error = Path + ": data after the end of the trace at offset " +
              std::to_string(C.Pos);
      return false;
    }
    uint32_t Type, Size;
    std::span<const uint8_t> Payload;
    size_t FrameAt = C.Pos;
    if (!C.take(&Type, 4) || !C.take(&Size, 4) || !C.span(Size, Payload) ||
        !C.pad()) {
      // A writer that died mid-write leaves a partial last frame.
      Error = Path + ": truncated: the trace stops inside the frame at " +
              "offset " + std::to_string(FrameAt) +
              ", without its end frame (was tsrun killed?)";
      return false;
    }
    if (Type == static_cast<uint32_t>(TraceFrame::Event)) {
      try {
        auto J = nlohmann::json::parse(Payload.begin(), Payload.end());
        replayJson(J, Sink);
      } catch (const std::exception &E) {
        Error = Path + ": malformed event: " + E.what();
        return false;
      }
      continue;
    }
    if (Type == static_cast<uint32_t>(TraceFrame::End)) {
      Ended = true;
      continue;
    }
    if (Type != static_cast<uint32_t>(TraceFrame::Record))
      continue; // a newer writer's frame type: skip it
    Cursor P{Payload};
    RecordOrigin O;
    uint32_t DM, FrameCount;
    RecordView V;
    std::span<const uint8_t> Rest;
    if (!P.take(&O.Pid, 8) || !P.take(&O.Tid, 8) || !P.take(&DM, 4) ||
        !P.take(&O.Clause, 4) || !P.take(&O.Probe, 4) ||
        !P.take(&FrameCount, 4) || !P.take(&O.TimeNs, 8) ||
        !P.take(&V.Header, sizeof(V.Header)) ||
        V.Header.size < sizeof(V.Header) ||
        !P.span(V.Header.size - sizeof(V.Header), V.Args)) {
      Error = Path + ": malformed record frame";
      return false;
    }
    O.DM = dataModelFromIndex(DM).value_or(DataModel::LP64);
    std::vector<std::string> Frames;
    for (uint32_t I = 0; I < FrameCount; ++I) {
      uint32_t Len;
      std::span<const uint8_t> S;
      if (!P.take(&Len, 4) || !P.span(Len, S)) {
        Error = Path + ": malformed stack frame list";
        return false;
      }
      Frames.emplace_back(reinterpret_cast<const char *>(S.data()), S.size());
    }
    if (V.Header.kind == TSCC_REC_STACK)
      V.Frames = &Frames;
    else if (V.Header.kind != TSCC_REC_PRINTF &&
             V.Header.kind != TSCC_REC_TRACE)
      continue;
    if ((V.Header.kind != TSCC_REC_STACK &&
         V.Header.format >= Program->formats().size()))
      continue; // cannot be rendered; the writer never produces this
    Record(O, V);
  }
  if (!Ended && Version >= 2) {
    Error = Path + ": truncated: the trace stops at offset " +
            std::to_string(C.Pos) +
            " without its end frame (was tsrun killed?)";
    return false;
  }
  Sink.finish();
  return true;
}
