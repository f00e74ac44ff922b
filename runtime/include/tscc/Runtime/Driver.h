//===- tscc/Runtime/Driver.h - The tsrun command line ----------------------===//
//
// The whole of tsrun lives in libtsrt so that a tracer with its probe object
// linked in behaves exactly like `tsrun probe.o`: tsrun's main() calls
// tsrunMain(), a linked-in tracer's main() calls tsrt_main() (or links the
// tsrt-main object, which provides that main()). See docs/runtime.md.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_DRIVER_H
#define TSCC_RUNTIME_DRIVER_H

#include <string>
#include <vector>

namespace tscc::rt {

/// tsrun PROBE.o [options] [PARAM...] [-- CMD ARGS...]
int tsrunMain(int Argc, char **Argv);

/// Splits a -c command like a POSIX shell splits words: blanks separate,
/// '...' and "..." quote, backslash escapes. False on an unterminated quote.
bool splitCommand(const std::string &Cmd, std::vector<std::string> &Argv,
                  std::string &Error);

} // namespace tscc::rt

/// The same command line without PROBE.o: the probe object is the one linked
/// into the running executable.
extern "C" int tsrt_main(int argc, char **argv);

#endif // TSCC_RUNTIME_DRIVER_H
