//===- tscc/Runtime/DescribeObject.h - A probe object's tables as text ----===//
//
// `tsreport --describe probe.o`: the header, clause, probe, format, map,
// aggregation and within() tables of a probe object, by name and number, as
// the runtime's loader sees them (so tests and users read tables rather
// than hex dumps).
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_DESCRIBEOBJECT_H
#define TSCC_RUNTIME_DESCRIBEOBJECT_H

#include <cstdio>

namespace tscc::rt {

class ProbeProgram;

void describeObject(const ProbeProgram &P, FILE *Out);

} // namespace tscc::rt

#endif
