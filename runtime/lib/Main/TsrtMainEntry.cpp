//===- TsrtMainEntry.cpp - main() for linked-in tracers --------------------===//
//
// Linking probe.o with this object and libtsrt.a yields a complete tracer:
//   cc probe.o $prefix/lib/tsrt-main.o -L$prefix/lib -ltsrt -lstdc++ -lpthread
//
//===----------------------------------------------------------------------===//

#include "tscc/Runtime/Driver.h"

int main(int argc, char **argv) { return tsrt_main(argc, argv); }
