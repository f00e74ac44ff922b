//===- ProgramStreams.h - A probe object's further code streams -*- C++ -*-===//
//
// Internal to the loader: reads and validates tscc_streams and
// tscc_stream_images (abi.h, ABI 1.5) of a loaded object.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_LOADER_PROGRAMSTREAMS_H
#define TSCC_RUNTIME_LIB_LOADER_PROGRAMSTREAMS_H

#include "LoadedImage.h"

#include "tscc/Runtime/ProbeProgram.h"

#include <string>

namespace tscc::rt {

/// Fills P's code streams from Image's sections. An object without them is
/// fine; a malformed table or image is an error. Rows of an instruction set
/// this runtime does not know are skipped (a newer compiler may add them).
bool loadCodeStreams(ProbeProgram &P, const LoadedImage &Image,
                     std::string &Error);

} // namespace tscc::rt

#endif
