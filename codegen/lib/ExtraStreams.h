//===- ExtraStreams.h - Code streams for other instruction sets -*- C++ -*-===//
//
// The object's two text sections are x86-64 code: they run in the tracer
// and in the agent of 64-bit processes. Clause code that runs inside a
// 32-bit process must be i386 code, so the ILP32 clauses are compiled once
// more for i386 into an ELF32 relocatable of their own, which the object
// carries as bytes (abi.h, tscc_streams and tscc_stream_images; docs/
// object-format.md). The IR is the same generator's: clause code reaches
// the context and the helper table at the offsets of abi.h, which has one
// layout in every stream (TSCC_PTR_SLOT).
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_CODEGEN_LIB_EXTRASTREAMS_H
#define TSCC_CODEGEN_LIB_EXTRASTREAMS_H

#include "tscc/CodeGen/CodeGen.h"
#include "tscc/abi.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace tscc {

/// One row of tscc_streams with its image and its clauses' entries.
struct ExtraStream {
  tscc_stream Row{};
  llvm::SmallVector<char, 0> Image;
  std::vector<tscc_stream_entry> Entries;
};

/// The ILP32 clauses of the script as i386 code. Diagnostics of the script
/// were reported by the main build; this one only fails on internal errors.
llvm::Expected<ExtraStream> buildI386Stream(const CodeGenInput &In,
                                            const CodeGenOptions &Opts);

/// Adds the tscc_streams and tscc_stream_images sections of Streams to the
/// (host) module M, kept alive like the other tables.
void addStreamSections(llvm::Module &M, llvm::ArrayRef<ExtraStream> Streams);

} // namespace tscc

#endif // TSCC_CODEGEN_LIB_EXTRASTREAMS_H
