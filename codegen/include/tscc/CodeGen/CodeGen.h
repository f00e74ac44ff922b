//===- tscc/CodeGen/CodeGen.h - Code generation entry points ----*- C++ -*-===//
//
// What the driver calls after sema succeeded. Both entry points generate the
// whole script -- every clause's predicate and action, for the ILP32 and the
// LP64 stream -- into one LLVM module, so compile time grows linearly with
// the number of clauses.
//
// Errors are reported through the DiagnosticsEngine (with a source location
// where there is one); the functions return false if any was reported.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_CODEGEN_CODEGEN_H
#define TSCC_CODEGEN_CODEGEN_H

#include "tscc/CodeGen/CodeGenOptions.h"

#include "llvm/ADT/StringRef.h"

#include <memory>

namespace llvm {
class LLVMContext;
class Module;
class raw_ostream;
class raw_pwrite_stream;
} // namespace llvm

namespace tscc {

class DiagnosticsEngine;
class Script;
class ScriptInfo;

/// The script being compiled, as sema left it.
struct CodeGenInput {
  const Script &TheScript;
  const ScriptInfo &Info;
  /// The script's bytes (hashed into the header) and its name as given.
  llvm::StringRef SourceText;
  llvm::StringRef SourceName;
};

/// Compiles to a relocatable ELF64 probe object (docs/object-format.md) and
/// writes it to \p OS.
bool emitObject(const CodeGenInput &In, const CodeGenOptions &Opts,
                DiagnosticsEngine &Diags, llvm::raw_pwrite_stream &OS);

/// Prints the module `emitObject` would compile -- both streams, functions
/// suffixed `_ilp32` / `_lp64`, and the tables -- as textual LLVM IR, after
/// the optimisation pipeline of Opts.OptLevel. Deterministic.
bool emitLLVMIR(const CodeGenInput &In, const CodeGenOptions &Opts,
                DiagnosticsEngine &Diags, llvm::raw_ostream &OS);

/// `-S`: the x86-64 assembly of both streams and the tables. The clause
/// table's code offsets are only known once an object is emitted, so in
/// assembly they are still TSCC_NO_CODE; the labels carry the information.
bool emitAssembly(const CodeGenInput &In, const CodeGenOptions &Opts,
                  DiagnosticsEngine &Diags, llvm::raw_pwrite_stream &OS);

/// The unoptimised module with both streams and the tables, for tools and
/// tests that want to inspect or transform it themselves. Null after an
/// error was reported.
std::unique_ptr<llvm::Module> generateModule(const CodeGenInput &In,
                                             const CodeGenOptions &Opts,
                                             DiagnosticsEngine &Diags,
                                             llvm::LLVMContext &Ctx);

} // namespace tscc

#endif // TSCC_CODEGEN_CODEGEN_H
