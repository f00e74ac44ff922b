//===- PerfettoSink.cpp - Write Chrome JSON trace events ------------------===//
//
// ui.perfetto.dev and trace_processor read the Chrome JSON trace-event
// format (docs/runtime.md says why this format and not Perfetto's
// protobuf). Per thread, the records of one firing (same clause, probe and
// time) are one step; an entry step and the exit step of the same function
// that closes it, matched like calls and returns, become a slice ("B" and
// "E" events); every other record becomes a thread-scoped instant event
// ("i"). Metadata events name each process (with its data model) and thread.
// Collection switches and snapshots are global instant events.
//
//===----------------------------------------------------------------------===//

#include "EventClasses.h"

#include "tscc/Runtime/Export.h"
#include "tscc/Runtime/ProbeProgram.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <map>

using namespace tscc::rt;
using nlohmann::json;

namespace {

struct Rec {
  RecordOrigin Origin;
  uint32_t Class = 0;
  std::string Text;
  std::vector<FieldValue> Values;
};

enum class Role { Other, Entry, Exit };

/// Records of target-less clauses (BEGIN, END, interval) have pid 0 in
/// tsrun, which Perfetto reserves for the kernel's idle task and treats
/// specially. They go to this pid (and tid) instead: one above Linux's
/// largest possible pid (PID_MAX_LIMIT, 2^22), so no target has it. The
/// file says so in otherData.tsrun_pid.
constexpr int64_t SessionPid = (int64_t(1) << 22) + 1;

class PerfettoSink final : public ExportSink {
public:
  PerfettoSink(const ProbeProgram &P, FILE *Out, bool Owns, ExportOptions Opts)
      : P(P), Out(Out), Owns(Owns), Classes(P, Opts.Formats) {}
  ~PerfettoSink() override { finish(); }

  void record(const RecordOrigin &O, const RecordView &R) override {
    const EventClass &C = Classes.classOf(R);
    Recs.push_back({O, C.Id, recordText(P, O, R), Classes.values(C, O, R)});
    RecordOrigin &Origin = Recs.back().Origin;
    Origin.Tgt = nullptr;
    if (Origin.Pid == 0)
      Origin.Pid = Origin.Tid = SessionPid;
  }
  void targetAttached(const TargetInfo &T, std::string_view) override {
    Processes[T.Pid] = T;
  }
  /// Collection switches and snapshots: global instant events, so that a
  /// gap in the records shows why.
  void sessionSwitch(const SessionSwitch &E) override { Switches.push_back(E); }
  /// Loss markers: instant events on the thread's track.
  void lost(const LostRecords &L) override { Losts.push_back(L); }
  void finish() override;

private:
  Role roleOf(const RecordOrigin &O) const;
  /// Entry and exit steps pair up when this is equal: kind of probe, module
  /// and function as the probe spec names them.
  std::string pairKey(const RecordOrigin &O) const;
  json args(const Rec &R) const;
  /// A B, E or i event of R's thread at R's time, with R's arguments.
  json event(const char *Phase, const std::string &Name, const Rec &R) const;
  json instant(const Rec &R) const;
  void threadEvents(std::vector<const Rec *> &Thread, json &Events) const;

  const ProbeProgram &P;
  FILE *Out;
  bool Owns;
  EventClasses Classes;
  std::vector<Rec> Recs;
  std::map<int64_t, TargetInfo> Processes;
  std::vector<SessionSwitch> Switches;
  std::vector<LostRecords> Losts;
  bool Finished = false;
};

Role PerfettoSink::roleOf(const RecordOrigin &O) const {
  if (O.Probe >= P.probes().size())
    return Role::Other;
  switch (P.probes()[O.Probe].kind) {
  case TSCC_PROBE_UFT_ENTRY:
  case TSCC_PROBE_SYSCALL_ENTRY:
    return Role::Entry;
  case TSCC_PROBE_UFT_EXIT:
  case TSCC_PROBE_SYSCALL_EXIT:
    return Role::Exit;
  default:
    return Role::Other;
  }
}

std::string PerfettoSink::pairKey(const RecordOrigin &O) const {
  const tscc_probe &Pr = P.probes()[O.Probe];
  bool Syscall =
      Pr.kind == TSCC_PROBE_SYSCALL_ENTRY || Pr.kind == TSCC_PROBE_SYSCALL_EXIT;
  return std::string(Syscall ? "syscall:" : "uft:") +
         std::string(P.string(Pr.module)) + ":" +
         std::string(P.string(Pr.function));
}

double micros(uint64_t Ns) { return static_cast<double>(Ns) / 1000.0; }

json PerfettoSink::args(const Rec &R) const {
  const EventClass &C = Classes.all()[R.Class];
  json A = json::object();
  A["text"] = R.Text;
  A["event"] = C.Name;
  if (R.Origin.Probe < P.probes().size())
    A["probe"] = P.string(P.probes()[R.Origin.Probe].spec);
  for (size_t I = 0; I < C.Fields.size() && I < R.Values.size(); ++I) {
    const FieldType &F = C.Fields[I];
    const FieldValue &V = R.Values[I];
    json &J = A[F.Name];
    switch (F.Type) {
    case ValueType::Signed:
      J = V.S;
      break;
    case ValueType::Unsigned:
      if (F.Base == 16) {
        char Buf[24];
        snprintf(Buf, sizeof(Buf), "0x%llx",
                 static_cast<unsigned long long>(V.U));
        J = Buf;
      } else {
        J = V.U;
      }
      break;
    case ValueType::Char:
      J = std::string(1, static_cast<char>(V.U));
      break;
    case ValueType::Float:
      J = V.D;
      break;
    case ValueType::String:
      J = V.Str;
      break;
    case ValueType::StringList:
      J = V.List;
      break;
    }
  }
  return A;
}

json PerfettoSink::event(const char *Phase, const std::string &Name,
                         const Rec &R) const {
  return {{"ph", Phase},         {"name", Name},
          {"cat", "tscc"},       {"pid", R.Origin.Pid},
          {"tid", R.Origin.Tid}, {"ts", micros(R.Origin.TimeNs)},
          {"args", args(R)}};
}

json PerfettoSink::instant(const Rec &R) const {
  const EventClass &C = Classes.all()[R.Class];
  std::string Name = C.Description.empty() ? C.Name : C.Description;
  while (!Name.empty() && Name.back() == '\n')
    Name.pop_back();
  json E = event("i", Name, R);
  E["s"] = "t"; // thread scope: on the thread's track
  return E;
}

void PerfettoSink::threadEvents(std::vector<const Rec *> &Thread,
                                json &Events) const {
  // Steps: runs of records from one firing.
  struct StepInfo {
    size_t First, Last; // indices into Thread
    Role R;
    int64_t Partner = -1; // matched step
  };
  std::vector<StepInfo> Steps;
  for (size_t I = 0; I < Thread.size(); ++I) {
    const RecordOrigin &O = Thread[I]->Origin;
    if (!Steps.empty()) {
      const RecordOrigin &Prev = Thread[Steps.back().Last]->Origin;
      if (Prev.Clause == O.Clause && Prev.Probe == O.Probe &&
          Prev.TimeNs == O.TimeNs) {
        Steps.back().Last = I;
        continue;
      }
    }
    Steps.push_back({I, I, roleOf(O)});
  }
  // Calls and returns nest: an exit closes the innermost open entry of
  // its function; entries above that one never returned while traced.
  std::vector<size_t> Open;
  for (size_t S = 0; S < Steps.size(); ++S) {
    if (Steps[S].R == Role::Entry) {
      Open.push_back(S);
      continue;
    }
    if (Steps[S].R != Role::Exit)
      continue;
    std::string Key = pairKey(Thread[Steps[S].First]->Origin);
    for (size_t K = Open.size(); K-- > 0;) {
      if (pairKey(Thread[Steps[Open[K]].First]->Origin) != Key)
        continue;
      Steps[S].Partner = static_cast<int64_t>(Open[K]);
      Steps[Open[K]].Partner = static_cast<int64_t>(S);
      Open.resize(K);
      break;
    }
  }
  for (const StepInfo &S : Steps) {
    const Rec &Head = *Thread[S.First];
    bool Slice = S.Partner >= 0;
    std::string Name;
    if (Slice) {
      const tscc_probe &Pr = P.probes()[Head.Origin.Probe];
      Name = std::string(P.string(Pr.function));
    }
    if (Slice && S.R == Role::Entry)
      Events.push_back(event("B", Name, Head));
    // The other records of the step are instants inside the slice.
    size_t From = Slice && S.R == Role::Entry ? S.First + 1 : S.First;
    size_t To = Slice && S.R == Role::Exit ? S.Last : S.Last + 1;
    for (size_t I = From; I < To; ++I)
      Events.push_back(instant(*Thread[I]));
    if (Slice && S.R == Role::Exit)
      Events.push_back(event("E", Name, *Thread[S.Last]));
  }
}

void PerfettoSink::finish() {
  if (Finished)
    return;
  Finished = true;
  json Events = json::array();
  std::map<std::pair<int64_t, int64_t>, std::vector<const Rec *>> Threads;
  for (const Rec &R : Recs)
    Threads[{R.Origin.Pid, R.Origin.Tid}].push_back(&R);

  std::map<int64_t, bool> Named;
  for (auto &[Key, Thread] : Threads) {
    auto [Pid, Tid] = Key;
    auto It = Processes.find(Pid);
    std::string Process =
        Pid == SessionPid ? std::string("tsrun (BEGIN, END, interval clauses)")
        : It != Processes.end()
            ? It->second.Name + " (" + dataModelName(It->second.DM) + ")"
            : "pid " + std::to_string(Pid);
    if (!Named[Pid]) {
      Named[Pid] = true;
      Events.push_back({{"ph", "M"},
                        {"name", "process_name"},
                        {"ts", 0},
                        {"pid", Pid},
                        {"tid", Pid},
                        {"args", {{"name", Process}}}});
    }
    std::string ThreadName = Pid == SessionPid ? "tsrun"
                             : It != Processes.end()
                                 ? It->second.Name + " " + std::to_string(Tid)
                                 : "tid " + std::to_string(Tid);
    Events.push_back({{"ph", "M"},
                      {"name", "thread_name"},
                      {"ts", 0},
                      {"pid", Pid},
                      {"tid", Tid},
                      {"args", {{"name", ThreadName}}}});
    // Within a thread the trace's order is its time order already; the
    // stable sort only guards against clocks of different backends.
    std::stable_sort(Thread.begin(), Thread.end(),
                     [](const Rec *A, const Rec *B) {
                       return A->Origin.TimeNs < B->Origin.TimeNs;
                     });
    threadEvents(Thread, Events);
  }
  for (const SessionSwitch &E : Switches) {
    json Args = {{"why", E.Why}};
    if (E.Kind == SessionSwitch::Snapshot)
      Args = {{"file", E.File}, {"records", E.Records}};
    Events.push_back({{"ph", "i"},
                      {"s", "g"},
                      {"name", describeSwitch(E)},
                      {"ts", micros(E.TimeNs)},
                      {"pid", SessionPid},
                      {"tid", SessionPid},
                      {"args", std::move(Args)}});
  }
  for (const LostRecords &L : Losts)
    Events.push_back({{"ph", "i"},
                      {"s", "t"},
                      {"cat", "tscc"},
                      {"name", "lost " + std::to_string(L.Count) +
                                   (L.Count == 1 ? " record" : " records")},
                      {"ts", micros(L.TimeNs)},
                      {"pid", L.Pid ? L.Pid : SessionPid},
                      {"tid", L.Pid ? L.Tid : SessionPid},
                      {"args", {{"records", L.Count}}}});
  // One event per line: compact, and still greppable.
  auto Dump = [](const json &J) {
    return J.dump(-1, ' ', false, json::error_handler_t::replace);
  };
  json Other = {{"producer", "tsreport --to perfetto"},
                {"script", P.sourceName()},
                {"tsrun_pid", SessionPid}};
  std::string Text =
      "{\"displayTimeUnit\":\"ns\",\"otherData\":" + Dump(Other) +
      ",\n\"traceEvents\":[";
  for (size_t I = 0; I < Events.size(); ++I)
    Text += (I ? ",\n" : "\n") + Dump(Events[I]);
  Text += "\n]}\n";
  if (fwrite(Text.data(), 1, Text.size(), Out) != Text.size() ||
      fflush(Out) != 0)
    Error = errno ? errno : EIO;
  if (Owns && fclose(Out) != 0 && !Error)
    Error = errno;
}

} // namespace

std::unique_ptr<OutputSink> tscc::rt::createPerfettoSink(const ProbeProgram &P,
                                                         FILE *Out,
                                                         bool OwnsFile,
                                                         ExportOptions Opts) {
  return std::make_unique<PerfettoSink>(P, Out, OwnsFile, Opts);
}
