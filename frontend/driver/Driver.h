//===- Driver.h - The tscc compilation pipeline -----------------*- C++ -*-===//

#ifndef TSCC_DRIVER_DRIVER_H
#define TSCC_DRIVER_DRIVER_H

#include "Options.h"

namespace tscc::driver {

/// Runs the whole compilation described by \p Opts; diagnostics go to
/// stderr. Returns the process exit status (0 or 1), or with --run tsrun's.
/// \p Argv0 locates tsrun for --run.
int runCompilation(const Options &Opts, const char *Argv0);

/// "tscc version 0.1.0 (LLVM 19.1.7)".
std::string getVersionString();

} // namespace tscc::driver

#endif // TSCC_DRIVER_DRIVER_H
