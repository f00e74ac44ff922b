//===- tscc/Runtime/Metrics.h - Prometheus /metrics while tracing ---------===//
//
// `tsrun --metrics HOST:PORT` serves every aggregation and every clause's
// fired/fault/drop counters at /metrics in the Prometheus text exposition
// format (version 0.0.4), so the Prometheus a fleet already runs can scrape
// its tracers. The server is one thread with a plain HTTP/1.1 loop: one
// connection at a time, requests bounded in size and time, and the store
// lock taken only to copy the aggregations out (never while writing to a
// socket), so a slow or hostile client never holds up clause code.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_METRICS_H
#define TSCC_RUNTIME_METRICS_H

#include "tscc/Runtime/Output.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace tscc::rt {

class ProbeProgram;
class Session;

/// The exposition text for these aggregations and counters. Metric names
/// are tscc_<aggregation> and tscc_clause_{fired,faults,drops}_total;
/// docs/runtime.md lists them.
std::string renderMetrics(const ProbeProgram &P, std::span<const AggDump> Aggs,
                          std::span<const ClauseCounters> Counters);

class MetricsServer {
public:
  /// Listens on HOST:PORT (an IPv4 address or name, or [IPv6]; port 0
  /// picks a free port) and serves S until destroyed. Null with Error.
  static std::unique_ptr<MetricsServer>
  start(Session &S, std::string_view HostPort, std::string &Error);
  ~MetricsServer();
  MetricsServer(const MetricsServer &) = delete;
  MetricsServer &operator=(const MetricsServer &) = delete;

  /// The address bound, as HOST:PORT with the real port.
  const std::string &address() const;

  struct Impl;

private:
  explicit MetricsServer(std::unique_ptr<Impl> I);
  std::unique_ptr<Impl> I;
};

} // namespace tscc::rt

#endif // TSCC_RUNTIME_METRICS_H
