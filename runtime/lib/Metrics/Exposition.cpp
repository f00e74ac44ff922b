//===- Exposition.cpp - Aggregations and counters as Prometheus text ------===//
//
// The Prometheus text format, version 0.0.4:
//
//   count()               tscc_NAME_total      counter
//   sum/min/max/avg()     tscc_NAME            gauge
//   stats()               tscc_NAME{stat="count|sum|min|max|avg"} gauge
//   hist()/lhist()        tscc_NAME_bucket{le=...}, _sum, _count  histogram
//
// A gauge whose name would end in _total, _count, _sum or _bucket gets
// "_value" appended. Keys become labels (key, or key1..keyN for several).
// Values are integers, so a bucket [a, b) is le="b-1": hist's
// [2^k, 2^(k+1)) is le="2^(k+1)-1", its negative bucket le="-1", its zero
// bucket le="0".
//
//===----------------------------------------------------------------------===//

#include "tscc/Runtime/Metrics.h"

#include "tscc/Runtime/Aggregation.h"
#include "tscc/Runtime/ProbeProgram.h"

#include <algorithm>
#include <optional>

using namespace tscc::rt;

namespace {

std::string metricName(std::string_view S) {
  std::string Out;
  for (char C : S) {
    bool Ok = (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
              (C >= '0' && C <= '9') || C == '_';
    Out += Ok ? C : '_';
  }
  return Out;
}

/// A label value: backslash, double quote and newline escaped.
std::string labelValue(std::string_view S) {
  std::string Out;
  for (char C : S) {
    if (C == '\\')
      Out += "\\\\";
    else if (C == '"')
      Out += "\\\"";
    else if (C == '\n')
      Out += "\\n";
    else
      Out += C;
  }
  return Out;
}

/// HELP text: backslash and newline escaped.
std::string helpText(std::string_view S) {
  std::string Out;
  for (char C : S)
    Out += C == '\\' ? "\\\\" : C == '\n' ? "\\n" : std::string(1, C);
  return Out;
}

using Labels = std::vector<std::pair<std::string, std::string>>;

std::string labels(const Labels &L) {
  if (L.empty())
    return {};
  std::string Out = "{";
  for (size_t I = 0; I < L.size(); ++I)
    Out += (I ? "," : "") + L[I].first + "=\"" + labelValue(L[I].second) + "\"";
  return Out + "}";
}

/// A stack key as a label: its frames outermost first, joined by ';' (the
/// "folded" form flame-graph tools read).
std::string foldedStack(const std::vector<std::string> &Frames) {
  std::string Out;
  for (auto It = Frames.rbegin(); It != Frames.rend(); ++It)
    Out += (Out.empty() ? "" : ";") + *It;
  return Out;
}

Labels keyLabels(const AggEntry &E) {
  Labels L;
  for (size_t I = 0; I < E.Keys.size(); ++I) {
    bool Stack = I < E.KeyFrames.size() && !E.KeyFrames[I].empty();
    L.push_back({E.Keys.size() == 1 ? "key" : "key" + std::to_string(I + 1),
                 Stack ? foldedStack(E.KeyFrames[I]) : E.Keys[I]});
  }
  return L;
}

void family(std::string &Out, const std::string &Name, const char *Type,
            std::string_view Help) {
  Out += "# HELP " + Name + " " + helpText(Help) + "\n";
  Out += "# TYPE " + Name + " " + Type + "\n";
}

void sample(std::string &Out, const std::string &Name, const Labels &L,
            const std::string &Value) {
  Out += Name + labels(L) + " " + Value + "\n";
}

/// The le bound of bucket I (integers: the largest value it counts), or
/// nullopt for the overflow bucket, which only +Inf covers.
std::optional<std::string> upperBound(const AggDump &D, size_t I) {
  if (D.Kind == TSCC_AGG_HIST) {
    if (I == 0)
      return "-1";
    if (I == 1)
      return "0";
    return std::to_string((uint64_t(1) << (I - 1)) -
                          1); // [2^k, 2^(k+1)), k = I - 2
  }
  if (I + 1 >= D.Entries.front().Buckets.size())
    return std::nullopt;
  // __int128: lo + I * step - 1 may leave int64 for extreme bounds.
  __int128 B = static_cast<__int128>(D.LhistLo) +
               static_cast<__int128>(I) * D.LhistStep - 1;
  if (B > INT64_MAX || B < INT64_MIN)
    return std::nullopt;
  return std::to_string(static_cast<int64_t>(B));
}

void histogram(std::string &Out, const std::string &Name, const AggDump &D) {
  size_t Last = 0; // buckets up to the last one used by any entry
  for (const AggEntry &E : D.Entries)
    for (size_t I = 0; I < E.Buckets.size(); ++I)
      if (E.Buckets[I])
        Last = std::max(Last, I);
  for (const AggEntry &E : D.Entries) {
    Labels L = keyLabels(E);
    uint64_t Cumulative = 0;
    for (size_t I = 0; I <= Last && I < E.Buckets.size(); ++I) {
      Cumulative += E.Buckets[I];
      std::optional<std::string> Le = upperBound(D, I);
      if (!Le)
        continue;
      Labels B = L;
      B.push_back({"le", *Le});
      sample(Out, Name + "_bucket", B, std::to_string(Cumulative));
    }
    Labels Inf = L;
    Inf.push_back({"le", "+Inf"});
    sample(Out, Name + "_bucket", Inf, std::to_string(E.Count));
    sample(Out, Name + "_sum", L, std::to_string(E.Sum));
    sample(Out, Name + "_count", L, std::to_string(E.Count));
  }
}

/// A gauge's name may not end like a counter's or a histogram's series
/// (promtool's lint rejects tscc_total for @total = sum(...)).
std::string gaugeName(std::string Base) {
  for (std::string_view Suffix : {"_total", "_count", "_sum", "_bucket"})
    if (Base.size() > Suffix.size() &&
        Base.compare(Base.size() - Suffix.size(), Suffix.size(), Suffix) == 0)
      return Base + "_value";
  return Base;
}

void aggregation(std::string &Out, const AggDump &D) {
  // The anonymous `@` has no name to build one from.
  std::string Base = "tscc_" + (D.Name.empty() ? std::string("anonymous")
                                               : metricName(D.Name));
  std::string Help = "@" + D.Name + ": " + aggKindName(D.Kind) + "()";
  switch (D.Kind) {
  case TSCC_AGG_COUNT:
    family(Out, Base + "_total", "counter", Help);
    for (const AggEntry &E : D.Entries)
      sample(Out, Base + "_total", keyLabels(E), std::to_string(E.Count));
    return;
  case TSCC_AGG_STATS:
    Base = gaugeName(Base);
    family(Out, Base, "gauge", Help);
    for (const AggEntry &E : D.Entries) {
      int64_t Avg = E.average();
      std::pair<const char *, int64_t> Stats[] = {{"count", E.Count},
                                                  {"sum", E.Sum},
                                                  {"min", E.Min},
                                                  {"max", E.Max},
                                                  {"avg", Avg}};
      for (auto [Stat, V] : Stats) {
        Labels L = keyLabels(E);
        L.push_back({"stat", Stat});
        sample(Out, Base, L, std::to_string(V));
      }
    }
    return;
  case TSCC_AGG_HIST:
  case TSCC_AGG_LHIST:
    family(Out, Base, "histogram", Help);
    if (!D.Entries.empty())
      histogram(Out, Base, D);
    return;
  default:
    Base = gaugeName(Base);
    family(Out, Base, "gauge", Help);
    for (const AggEntry &E : D.Entries) {
      int64_t V = D.Kind == TSCC_AGG_SUM   ? E.Sum
                  : D.Kind == TSCC_AGG_MIN ? E.Min
                  : D.Kind == TSCC_AGG_MAX ? E.Max
                                           : E.average();
      sample(Out, Base, keyLabels(E), std::to_string(V));
    }
    return;
  }
}

} // namespace

std::string tscc::rt::renderMetrics(const ProbeProgram &P,
                                    std::span<const AggDump> Aggs,
                                    std::span<const ClauseCounters> Counters) {
  std::string Out;
  for (const AggDump &D : Aggs)
    aggregation(Out, D);
  struct Counter {
    const char *Name, *Help;
    uint64_t ClauseCounters::*Field;
  } const Kinds[] = {
      {"tscc_clause_fired_total", "Times a clause's probe fired.",
       &ClauseCounters::Fired},
      {"tscc_clause_faults_total",
       "Faults (bad target reads, crashes) in a clause.",
       &ClauseCounters::Faults},
      {"tscc_clause_drops_total",
       "Records or table entries a clause could not store.",
       &ClauseCounters::Drops},
  };
  for (const Counter &K : Kinds) {
    family(Out, K.Name, "counter", K.Help);
    for (const ClauseCounters &C : Counters) {
      std::string Probes;
      for (const tscc_probe &Pr : P.probes())
        if (Pr.clause == C.Clause) {
          if (!Probes.empty())
            Probes += ' ';
          Probes += P.string(Pr.spec);
        }
      sample(Out, K.Name,
             {{"clause", std::to_string(C.Clause)},
              {"line", std::to_string(C.Line)},
              {"probe", Probes}},
             std::to_string(C.*K.Field));
    }
  }
  return Out;
}
