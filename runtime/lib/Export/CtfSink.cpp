//===- CtfSink.cpp - Write a CTF 1.8 trace --------------------------------===//
//
// The trace is a directory with a TSDL "metadata" file and one binary stream
// file, "stream_0", cut into packets. Everything is byte-aligned and little
// endian; every event is
//
//   header  { uint32 id; uint64 timestamp (clock "tscc", ns since the
//             session started) }
//   context { int64 pid; int64 tid; enum data_model : uint8 { ILP32, LP64 } }
//   fields  as the event class says (EventClasses.h)
//
// Records are written in timestamp order (a stable sort of the trace's own
// order): CTF readers require time to be monotonic within a stream, and the
// records of different processes reach the trace file in sequence order,
// not strictly in time order.
//
//===----------------------------------------------------------------------===//

#include "EventClasses.h"

#include "tscc/Runtime/Export.h"
#include "tscc/Runtime/Format.h"
#include "tscc/Runtime/ProbeProgram.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/stat.h>

using namespace tscc::rt;

namespace {

constexpr uint32_t CtfMagic = 0xC1FC1FC1;
/// Events per packet are cut at this many bytes, so that readers never need
/// the whole stream in memory.
constexpr size_t PacketBytes = 1u << 20;
constexpr size_t PacketHeaderBytes = 8 + 5 * 8; // header + context

/// A TSDL string literal.
std::string quoted(std::string_view S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (static_cast<unsigned char>(C) < 0x20)
      Out += escapeForDisplay(std::string_view(&C, 1));
    else
      Out += C;
  }
  return Out + "\"";
}

/// Text safe inside a TSDL /* comment */.
std::string commentSafe(std::string_view S) {
  std::string Out = escapeForDisplay(S);
  for (size_t P; (P = Out.find("*/")) != std::string::npos;)
    Out.replace(P, 2, "*\\/");
  return Out;
}

std::string integerType(unsigned Bits, bool Signed, unsigned Base,
                        bool Ascii = false) {
  std::string T = "integer { size = " + std::to_string(Bits) +
                  "; align = 8; signed = " + (Signed ? "true" : "false");
  if (Base != 10)
    T += "; base = " + std::to_string(Base);
  if (Ascii)
    T += "; encoding = ASCII";
  return T + "; }";
}

std::string fieldDecl(const FieldType &F) {
  switch (F.Type) {
  case ValueType::Signed:
    return integerType(F.Bits, true, F.Base) + " " + F.Name + ";";
  case ValueType::Unsigned:
    return integerType(F.Bits, false, F.Base) + " " + F.Name + ";";
  case ValueType::Char:
    return integerType(8, false, 10, true) + " " + F.Name + ";";
  case ValueType::Float:
    return "floating_point { exp_dig = 11; mant_dig = 53; align = 8; } " +
           F.Name + ";";
  case ValueType::String:
    return "string " + F.Name + ";";
  case ValueType::StringList:
    return "uint32_t " + F.Name + "_count; string " + F.Name + "[" + F.Name +
           "_count];";
  }
  return {};
}

struct Event {
  RecordOrigin Origin;
  uint32_t Class = 0;
  std::vector<FieldValue> Values;
  uint64_t Lost = 0; ///< a loss marker (Class is lostId()): how many
};

class CtfSink final : public ExportSink {
public:
  CtfSink(const ProbeProgram &P, std::string Dir, ExportOptions Opts)
      : P(P), Dir(std::move(Dir)), Classes(P, Opts.Formats) {}

  void record(const RecordOrigin &O, const RecordView &R) override {
    const EventClass &C = Classes.classOf(R);
    Events.push_back({O, C.Id, Classes.values(C, O, R)});
    Events.back().Origin.Tgt = nullptr;
  }
  void lost(const LostRecords &L) override {
    Event &E = Events.emplace_back();
    E.Origin.Pid = L.Pid;
    E.Origin.Tid = L.Tid;
    E.Origin.TimeNs = L.TimeNs;
    E.Class = lostId();
    E.Lost = L.Count;
  }
  void finish() override;

private:
  /// The event class of loss markers: after the script's own classes.
  uint32_t lostId() const {
    return static_cast<uint32_t>(Classes.all().size());
  }
  std::string metadata() const;
  bool writeFile(const std::string &Name, const std::string &Bytes);
  void appendEvent(std::string &Out, const Event &E) const;

  const ProbeProgram &P;
  std::string Dir;
  EventClasses Classes;
  std::vector<Event> Events;
  bool Finished = false;
};

std::string CtfSink::metadata() const {
  std::string M = "/* CTF 1.8 */\n\n"
                  "/* Written by tsreport --to ctf from a tsrun binary "
                  "trace. */\n\n";
  for (unsigned Bits : {8u, 16u, 32u, 64u}) {
    std::string B = std::to_string(Bits);
    M += "typealias " + integerType(Bits, false, 10) + " := uint" + B + "_t;\n";
    M += "typealias " + integerType(Bits, true, 10) + " := int" + B + "_t;\n";
  }
  M += "\ntrace {\n"
       "  major = 1;\n"
       "  minor = 8;\n"
       "  byte_order = le;\n"
       "  packet.header := struct {\n"
       "    uint32_t magic;\n"
       "    uint32_t stream_id;\n"
       "  };\n"
       "};\n\n"
       "env {\n"
       "  domain = \"tscc\";\n"
       "  tracer_name = \"tsrun\";\n"
       "  script = " +
       quoted(P.sourceName()) +
       ";\n"
       "};\n\n"
       "clock {\n"
       "  name = \"tscc\";\n"
       "  description = \"CLOCK_MONOTONIC, nanoseconds since the tsrun "
       "session started\";\n"
       "  freq = 1000000000;\n"
       "  precision = 1;\n"
       "  offset = 0;\n"
       "  absolute = false;\n"
       "};\n\n"
       "typealias integer { size = 64; align = 8; signed = false; "
       "map = clock.tscc.value; } := tscc_clock_t;\n\n"
       "stream {\n"
       "  id = 0;\n"
       "  packet.context := struct {\n"
       "    tscc_clock_t timestamp_begin;\n"
       "    tscc_clock_t timestamp_end;\n"
       "    uint64_t content_size;\n"
       "    uint64_t packet_size;\n"
       "    uint64_t events_discarded;\n"
       "  };\n"
       "  event.header := struct {\n"
       "    uint32_t id;\n"
       "    tscc_clock_t timestamp;\n"
       "  };\n"
       "  event.context := struct {\n"
       "    int64_t pid;\n"
       "    int64_t tid;\n"
       "    enum : uint8_t { ILP32 = 0, LP64 = 1 } data_model;\n"
       "  };\n"
       "};\n";
  for (const EventClass &C : Classes.all()) {
    M += "\n";
    if (!C.Description.empty())
      M += "/* " + commentSafe(C.Description) + " */\n";
    M += "event {\n  name = " + quoted(C.Name) +
         ";\n  id = " + std::to_string(C.Id) +
         ";\n  stream_id = 0;\n  fields := struct {\n";
    for (const FieldType &F : C.Fields)
      M += "    " + fieldDecl(F) + "\n";
    M += "  };\n};\n";
  }
  // Where records of a thread went missing (its buffer was full); packets
  // also count them, cumulatively, in events_discarded.
  M += "\n/* records of this thread were lost here */\nevent {\n"
       "  name = \"tscc_lost\";\n  id = " +
       std::to_string(lostId()) +
       ";\n  stream_id = 0;\n  fields := struct {\n"
       "    uint64_t records;\n  };\n};\n";
  return M;
}

template <typename T> void put(std::string &Out, T V) {
  Out.append(reinterpret_cast<const char *>(&V), sizeof(V));
}

void putString(std::string &Out, const std::string &S) {
  // CTF strings end at the first NUL; decoded strings hold none.
  Out.append(S.c_str(), strlen(S.c_str()) + 1);
}

void CtfSink::appendEvent(std::string &Out, const Event &E) const {
  put<uint32_t>(Out, E.Class);
  put<uint64_t>(Out, E.Origin.TimeNs);
  put<int64_t>(Out, E.Origin.Pid);
  put<int64_t>(Out, E.Origin.Tid);
  put<uint8_t>(Out, E.Origin.DM == DataModel::ILP32 ? 0 : 1);
  if (E.Class == lostId()) {
    put<uint64_t>(Out, E.Lost);
    return;
  }
  const EventClass &C = Classes.all()[E.Class];
  for (size_t I = 0; I < C.Fields.size(); ++I) {
    const FieldType &F = C.Fields[I];
    const FieldValue &V = E.Values[I];
    switch (F.Type) {
    case ValueType::Signed:
    case ValueType::Unsigned: {
      uint64_t Bits =
          F.Type == ValueType::Signed ? static_cast<uint64_t>(V.S) : V.U;
      Out.append(reinterpret_cast<const char *>(&Bits), F.Bits / 8);
      break;
    }
    case ValueType::Char:
      put<uint8_t>(Out, static_cast<uint8_t>(V.U));
      break;
    case ValueType::Float:
      put<double>(Out, V.D);
      break;
    case ValueType::String:
      putString(Out, V.Str);
      break;
    case ValueType::StringList:
      put<uint32_t>(Out, static_cast<uint32_t>(V.List.size()));
      for (const std::string &S : V.List)
        putString(Out, S);
      break;
    }
  }
}

bool CtfSink::writeFile(const std::string &Name, const std::string &Bytes) {
  std::string Path = Dir + "/" + Name;
  FILE *F = fopen(Path.c_str(), "we");
  if (!F) {
    Error = errno;
    return false;
  }
  bool Ok = fwrite(Bytes.data(), 1, Bytes.size(), F) == Bytes.size();
  if (!Ok)
    Error = errno ? errno : EIO;
  if (fclose(F) != 0 && Ok) {
    Error = errno;
    Ok = false;
  }
  return Ok;
}

void CtfSink::finish() {
  if (Finished)
    return;
  Finished = true;
  std::stable_sort(Events.begin(), Events.end(),
                   [](const Event &A, const Event &B) {
                     return A.Origin.TimeNs < B.Origin.TimeNs;
                   });
  std::string Stream;
  uint64_t Discarded = 0;
  for (size_t I = 0; I < Events.size();) {
    std::string Body;
    uint64_t Begin = Events[I].Origin.TimeNs, End = Begin;
    for (; I < Events.size() && Body.size() < PacketBytes; ++I) {
      appendEvent(Body, Events[I]);
      End = Events[I].Origin.TimeNs;
      Discarded += Events[I].Lost;
    }
    uint64_t Bits = (PacketHeaderBytes + Body.size()) * 8;
    put<uint32_t>(Stream, CtfMagic);
    put<uint32_t>(Stream, 0); // stream_id
    put<uint64_t>(Stream, Begin);
    put<uint64_t>(Stream, End);
    put<uint64_t>(Stream, Bits);      // content_size
    put<uint64_t>(Stream, Bits);      // packet_size
    put<uint64_t>(Stream, Discarded); // events_discarded, so far
    Stream += Body;
  }
  if (writeFile("stream_0", Stream))
    writeFile("metadata", metadata());
}

} // namespace

std::unique_ptr<OutputSink> tscc::rt::createCtfSink(const ProbeProgram &P,
                                                    const std::string &Dir,
                                                    ExportOptions Opts,
                                                    std::string &Error) {
  struct stat St;
  if (mkdir(Dir.c_str(), 0777) != 0 && errno != EEXIST) {
    Error = Dir + ": " + strerror(errno);
    return nullptr;
  }
  if (stat(Dir.c_str(), &St) != 0 || !S_ISDIR(St.st_mode)) {
    Error = Dir + ": not a directory";
    return nullptr;
  }
  return std::make_unique<CtfSink>(P, Dir, Opts);
}
