//===- JsonEvents.cpp - Session events as JSON objects ----------------------===//

#include "JsonEvents.h"

#include "tscc/Runtime/Aggregation.h"
#include "tscc/Runtime/ProbeProgram.h"
#include "tscc/Runtime/StackTable.h"

#include <cstring>

using namespace tscc::rt;
using nlohmann::json;

std::string tscc::rt::signalName(int Sig) {
  if (const char *Abbrev = sigabbrev_np(Sig))
    return std::string("SIG") + Abbrev;
  return "signal " + std::to_string(Sig);
}

namespace {
std::string hex(uint64_t V) {
  char Buf[24];
  snprintf(Buf, sizeof(Buf), "0x%llx", static_cast<unsigned long long>(V));
  return Buf;
}
} // namespace

json tscc::rt::headerJson(const ProbeProgram &P) {
  const tscc_header &H = P.header();
  return {
      {"schema", JsonSchema},
      {"type", "header"},
      {"object", P.name()},
      {"source", P.sourceName()},
      {"source_hash", hex(H.source_hash)},
      {"compiler", P.compilerVersion()},
      {"abi", std::to_string(H.abi_major) + "." + std::to_string(H.abi_minor)},
      {"clauses", H.clause_count},
      {"probes", H.probe_count}};
}

json tscc::rt::aggJson(const AggDump &D) {
  json Entries = json::array();
  for (const AggEntry &E : D.Entries) {
    // A stack key is a list of frames, innermost first; other keys are
    // their printed text.
    json Keys = json::array();
    for (size_t I = 0; I < E.Keys.size(); ++I)
      if (I < E.KeyFrames.size() && !E.KeyFrames[I].empty())
        Keys.push_back(E.KeyFrames[I]);
      else
        Keys.push_back(E.Keys[I]);
    json J = {{"keys", std::move(Keys)}, {"count", E.Count}};
    if (D.Kind != TSCC_AGG_COUNT) {
      J["sum"] = E.Sum;
      J["min"] = E.Min;
      J["max"] = E.Max;
      J["avg"] = E.average();
    }
    if (D.Kind == TSCC_AGG_HIST || D.Kind == TSCC_AGG_LHIST) {
      json B = json::array();
      for (size_t I = 0; I < E.Buckets.size(); ++I)
        if (E.Buckets[I])
          B.push_back(
              {{"index", I},
               {"label", D.Kind == TSCC_AGG_HIST ? histBucketLabel(I)
                                                 : lhistBucketLabel(D, I)},
               {"count", E.Buckets[I]}});
      J["buckets"] = std::move(B);
      J["bucket_count"] = E.Buckets.size();
    }
    Entries.push_back(std::move(J));
  }
  json J = {{"type", "aggregation"},
            {"name", D.Name},
            {"kind", aggKindName(D.Kind)},
            {"entries", std::move(Entries)}};
  if (D.Kind == TSCC_AGG_LHIST)
    J["lhist"] = {{"lo", D.LhistLo}, {"hi", D.LhistHi}, {"step", D.LhistStep}};
  return J;
}

json tscc::rt::targetJson(const TargetInfo &T) {
  return {{"pid", T.Pid},
          {"data_model", dataModelName(T.DM)},
          {"name", T.Name},
          {"backend", T.Backend}};
}

json tscc::rt::attachedJson(const TargetInfo &T, std::string_view How) {
  json J = targetJson(T);
  J["type"] = "target_attached";
  J["how"] = How;
  if (!T.Path.empty())
    J["path"] = T.Path;
  if (!T.Sandbox.empty())
    J["sandbox"] = T.Sandbox;
  return J;
}

json tscc::rt::probeJson(const ProbeProgram &P, const TargetInfo &T,
                         uint32_t Probe, std::string_view Function,
                         std::string_view Module, uint64_t Address,
                         std::string_view Mechanism) {
  json J = targetJson(T);
  J["type"] = "probe_attached";
  if (!Mechanism.empty())
    J["mechanism"] = Mechanism;
  J["probe"] = Probe;
  J["spec"] = Probe < P.probes().size() ? P.string(P.probes()[Probe].spec)
                                        : std::string_view();
  J["function"] = Function;
  J["module"] = Module;
  J["address"] = hex(Address);
  return J;
}

json tscc::rt::exitedJson(const TargetInfo &T, int ExitCode, int Signal) {
  json J = targetJson(T);
  J["type"] = "target_exited";
  if (T.SessionStopping)
    J["session_stopping"] = true;
  if (Signal) {
    J["signal"] = Signal;
    J["signal_name"] = signalName(Signal);
  } else {
    J["exit_code"] = ExitCode;
  }
  return J;
}

json tscc::rt::lostJson(const LostRecords &L) {
  return {{"type", "lost"},
          {"pid", L.Pid},
          {"tid", L.Tid},
          {"records", L.Count},
          {"time_ns", L.TimeNs}};
}

json tscc::rt::warningJson(std::string_view Message) {
  return {{"type", "warning"}, {"message", Message}};
}

json tscc::rt::countersJson(const ClauseCounters &C) {
  return {{"type", "clause_stats"}, {"clause", C.Clause}, {"line", C.Line},
          {"column", C.Column},     {"fired", C.Fired},   {"faults", C.Faults},
          {"drops", C.Drops},       {"lost", C.Lost}};
}

namespace {

TargetInfo targetFrom(const json &J) {
  TargetInfo T;
  T.Pid = J.value("pid", int64_t(0));
  T.DM = parseDataModel(J.value("data_model", std::string()))
             .value_or(DataModel::LP64);
  T.Name = J.value("name", std::string());
  T.Backend = J.value("backend", std::string());
  T.Path = J.value("path", std::string());
  T.Sandbox = J.value("sandbox", std::string());
  T.SessionStopping = J.value("session_stopping", false);
  return T;
}

AggDump aggFrom(const json &J) {
  AggDump D;
  D.Name = J.value("name", std::string());
  std::optional<tscc_agg_kind> Kind =
      aggKindFromName(J.value("kind", std::string()));
  D.Kind = Kind ? *Kind : 0;
  if (J.contains("lhist")) {
    D.LhistLo = J["lhist"].value("lo", int64_t(0));
    D.LhistHi = J["lhist"].value("hi", int64_t(0));
    D.LhistStep = J["lhist"].value("step", int64_t(1));
  }
  for (const json &E : J.value("entries", json::array())) {
    AggEntry A;
    for (const json &K : E.value("keys", json::array())) {
      std::vector<std::string> Frames;
      if (K.is_array())
        for (const json &F : K)
          Frames.push_back(F.is_string() ? F.get<std::string>() : F.dump());
      A.Keys.push_back(K.is_array()    ? stackKeyText(Frames)
                       : K.is_string() ? K.get<std::string>()
                                       : K.dump());
      A.KeyFrames.push_back(std::move(Frames));
    }
    A.Count = E.value("count", int64_t(0));
    A.Sum = E.value("sum", int64_t(0));
    A.Min = E.value("min", int64_t(0));
    A.Max = E.value("max", int64_t(0));
    size_t N = std::min<size_t>(E.value("bucket_count", size_t(0)), 1u << 20);
    A.Buckets.assign(N, 0);
    for (const json &B : E.value("buckets", json::array())) {
      size_t I = B.value("index", size_t(0));
      if (I < N)
        A.Buckets[I] = B.value("count", uint64_t(0));
    }
    D.Entries.push_back(std::move(A));
  }
  return D;
}

} // namespace

json tscc::rt::switchJson(const SessionSwitch &E) {
  if (E.Kind == SessionSwitch::Snapshot)
    return {{"type", "snapshot"},
            {"file", E.File},
            {"records", E.Records},
            {"time_ns", E.TimeNs}};
  return {{"type", "collection"},
          {"state", E.Kind == SessionSwitch::CollectionOn ? "on" : "off"},
          {"why", E.Why},
          {"time_ns", E.TimeNs}};
}

std::string tscc::rt::describeSwitch(const SessionSwitch &E) {
  if (E.Kind == SessionSwitch::Snapshot)
    return "snapshot: " + std::to_string(E.Records) + " records written to " +
           E.File;
  return std::string("collection ") +
         (E.Kind == SessionSwitch::CollectionOn ? "started" : "stopped") +
         " (" + E.Why + ")";
}

bool tscc::rt::replayJson(const json &J, OutputSink &Sink) {
  if (!J.is_object())
    return false;
  std::string Type = J.value("type", std::string());
  if (Type == "aggregation") {
    Sink.aggregation(aggFrom(J));
  } else if (Type == "target_attached") {
    Sink.targetAttached(targetFrom(J), J.value("how", std::string()));
  } else if (Type == "probe_attached") {
    uint64_t Addr =
        std::strtoull(J.value("address", std::string("0")).c_str(), nullptr, 0);
    Sink.probeAttached(targetFrom(J), J.value("probe", uint32_t(0)),
                       J.value("function", std::string()),
                       J.value("module", std::string()), Addr,
                       J.value("mechanism", std::string()));
  } else if (Type == "note") {
    Sink.note(J.value("message", std::string()));
  } else if (Type == "target_exited") {
    Sink.targetExited(targetFrom(J), J.value("exit_code", 0),
                      J.value("signal", 0));
  } else if (Type == "lost") {
    LostRecords L;
    L.Pid = J.value("pid", int64_t(0));
    L.Tid = J.value("tid", int64_t(0));
    L.Count = J.value("records", uint64_t(0));
    L.TimeNs = J.value("time_ns", uint64_t(0));
    Sink.lost(L);
  } else if (Type == "warning") {
    Sink.warning(J.value("message", std::string()));
  } else if (Type == "collection" || Type == "snapshot") {
    SessionSwitch E;
    E.Kind = Type == "snapshot" ? SessionSwitch::Snapshot
             : J.value("state", std::string()) == "on"
                 ? SessionSwitch::CollectionOn
                 : SessionSwitch::CollectionOff;
    E.Why = J.value("why", std::string());
    E.TimeNs = J.value("time_ns", uint64_t(0));
    E.File = J.value("file", std::string());
    E.Records = J.value("records", uint64_t(0));
    Sink.sessionSwitch(E);
  } else if (Type == "clause_stats_all") {
    std::vector<ClauseCounters> All;
    for (const json &C : J.value("clauses", json::array())) {
      ClauseCounters K;
      K.Clause = C.value("clause", uint32_t(0));
      K.Line = C.value("line", uint32_t(0));
      K.Column = C.value("column", uint32_t(0));
      K.Fired = C.value("fired", uint64_t(0));
      K.Faults = C.value("faults", uint64_t(0));
      K.Drops = C.value("drops", uint64_t(0));
      K.Lost = C.value("lost", uint64_t(0)); // 0 in traces before it
      All.push_back(K);
    }
    Sink.counters(All);
  } else {
    return false;
  }
  return true;
}
