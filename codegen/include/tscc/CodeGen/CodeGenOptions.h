//===- tscc/CodeGen/CodeGenOptions.h - Knobs of code generation -*- C++ -*-===//
//
// Options the driver passes to code generation. They are plain values so the
// driver can fill them from its command line without knowing LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_CODEGEN_CODEGENOPTIONS_H
#define TSCC_CODEGEN_CODEGENOPTIONS_H

#include <cstdint>
#include <string>

namespace tscc {

struct CodeGenOptions {
  /// 0 runs only the always-needed passes (-O0); 1 runs the clause
  /// pipeline (SROA, EarlyCSE, InstCombine, SimplifyCFG) with the cheaper
  /// back-end level; 2 and 3 run LLVM's default per-module pipeline at that
  /// level. The driver's default is 1.
  unsigned OptLevel = 1;

  /// Verify the module before optimisation. Cheap next to the pipeline and
  /// turns a codegen bug into a diagnostic instead of a bad object.
  bool VerifyModule = true;

  /// Recorded in the header as the script's name (as given on the command
  /// line) and, via its bytes, as the FNV-1a source hash.
  std::string SourceName;

  /// Also compile the ILP32 clauses as i386 code (abi.h, tscc_streams), so
  /// that 32-bit processes run them in their own agent. Without it, their
  /// clauses run in the tracer.
  bool I386Stream = true;
};

/// "tscc 0.1.0 (LLVM 19.1.7)": the compiler version string the header and
/// `tscc --version` carry.
std::string getCompilerVersionString();

/// FNV-1a 64-bit hash, as stored in tscc_header::source_hash.
uint64_t fnv1a64(const char *Data, size_t Size);

} // namespace tscc

#endif // TSCC_CODEGEN_CODEGENOPTIONS_H
