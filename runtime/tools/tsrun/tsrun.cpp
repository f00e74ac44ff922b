//===- tsrun.cpp - Run a compiled probe object against processes ----------===//
//
// Thin: the driver lives in libtsrt (tscc/Runtime/Driver.h) so that tracers
// with a linked-in probe object share it.
//
//===----------------------------------------------------------------------===//

#include "tscc/Runtime/Driver.h"

int main(int argc, char **argv) { return tscc::rt::tsrunMain(argc, argv); }
