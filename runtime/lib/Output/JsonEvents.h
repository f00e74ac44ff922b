//===- JsonEvents.h - Session events as JSON objects ------------*- C++ -*-===//
//
// Internal to libtsrt. The JSON lines sink writes these objects one per line;
// the binary trace file stores the non-record events as the same objects so
// that tsreport can replay them into any sink.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_OUTPUT_JSONEVENTS_H
#define TSCC_RUNTIME_LIB_OUTPUT_JSONEVENTS_H

#include "tscc/Runtime/Output.h"

#include <nlohmann/json.hpp>

namespace tscc::rt {

std::string signalName(int Sig);

nlohmann::json headerJson(const ProbeProgram &P);
nlohmann::json aggJson(const AggDump &D);
nlohmann::json targetJson(const TargetInfo &T);
nlohmann::json attachedJson(const TargetInfo &T, std::string_view How);
nlohmann::json probeJson(const ProbeProgram &P, const TargetInfo &T,
                         uint32_t Probe, std::string_view Function,
                         std::string_view Module, uint64_t Address,
                         std::string_view Mechanism = {});
nlohmann::json exitedJson(const TargetInfo &T, int ExitCode, int Signal);
nlohmann::json warningJson(std::string_view Message);
nlohmann::json lostJson(const LostRecords &L);
nlohmann::json countersJson(const ClauseCounters &C);
/// {"type":"collection","state":"off"|"on",...} or {"type":"snapshot",...}.
nlohmann::json switchJson(const SessionSwitch &E);

/// Replays one of the objects above into Sink. False if J is not one.
bool replayJson(const nlohmann::json &J, OutputSink &Sink);

} // namespace tscc::rt

#endif
