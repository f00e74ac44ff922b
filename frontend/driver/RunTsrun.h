//===- RunTsrun.h - `tscc --run`: compile, then trace -----------*- C++ -*-===//
//
// `tscc script.t --run [tsrun options] -- CMD` compiles to a private
// temporary object and runs tsrun on it, like `go run`: one command traces.
// tsrun stays a separate program (it never links LLVM); tscc waits for it,
// removes the object and exits with tsrun's status.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_DRIVER_RUNTSRUN_H
#define TSCC_DRIVER_RUNTSRUN_H

#include <string>
#include <vector>

namespace tscc::driver {

/// A new private (0600) temporary file for the object, or "" with Error.
std::string createRunObjectPath(std::string &Error);

/// Runs `tsrun Object Args...` (tsrun from tscc's own directory, else
/// PATH), forwarding SIGTERM and SIGHUP to it; Ctrl-C reaches it through
/// the terminal. Removes Object afterwards. Returns the status for exit():
/// tsrun's, or 128 + the signal that killed it.
int runTsrun(const std::string &Object, const std::vector<std::string> &Args,
             const char *Argv0);

} // namespace tscc::driver

#endif
