//===- TraceReaderFuzzer.cpp - Binary traces from arbitrary bytes ---------===//
//
// Opens the input as a binary trace file and replays it into the text and
// JSON sinks, as tsreport does (output to /dev/null).
//
//===----------------------------------------------------------------------===//

#include "tscc/Runtime/Output.h"
#include "tscc/Runtime/TraceFile.h"

#include <cstdio>
#include <sys/mman.h>
#include <unistd.h>

using namespace tscc::rt;

namespace {

/// The input as a file (TraceReader reads paths): a memfd, by its /proc name.
std::string asFile(const uint8_t *Data, size_t Size) {
  static int Fd = memfd_create("trace", MFD_CLOEXEC);
  if (ftruncate(Fd, 0) != 0 || pwrite(Fd, Data, Size, 0) != ssize_t(Size))
    return {};
  return "/proc/self/fd/" + std::to_string(Fd);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Path = asFile(Data, Size);
  std::string Error;
  std::unique_ptr<TraceReader> R = TraceReader::open(Path, Error);
  if (!R)
    return 0;
  static FILE *Null = fopen("/dev/null", "w");
  for (bool Json : {false, true}) {
    std::unique_ptr<OutputSink> Sink =
        Json ? createJsonSink(R->program(), Null, false)
             : createTextSink(R->program(), Null, false,
                              TextOptions{Null, true, true});
    R->replay(
        *Sink,
        [&](const RecordOrigin &O, const RecordView &V) { Sink->record(O, V); },
        Error);
  }
  return 0;
}
