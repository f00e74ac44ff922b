//===- tscc/CodeGen/ObjectEmitter.h - LLVM module to probe object -*- C++ -*-===//
//
// The back half of code generation, independent of the AST: it owns the one
// TargetMachine (x86_64-linux-gnu, PIC, small code model), runs one
// optimisation pipeline over the whole module, emits an ELF64 relocatable
// into memory and finalises the clause table in place from the symbol table
// LLVM wrote.
//
// One emitter handles any number of clauses in one module: nothing here is
// per clause, so compile time stays linear in the script size.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_CODEGEN_OBJECTEMITTER_H
#define TSCC_CODEGEN_OBJECTEMITTER_H

#include "tscc/CodeGen/CodeGenOptions.h"
#include "tscc/CodeGen/ObjectTables.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace llvm {
class Module;
class TargetMachine;
class raw_pwrite_stream;
} // namespace llvm

namespace tscc {

/// What an ObjectEmitter compiles for. The probe object itself is x86-64
/// (Host); further code streams (abi.h, tscc_streams) are other targets.
struct EmitterTarget {
  const char *Triple;
  const char *CPU;
  const char *Features;
  /// Static relocation model: the code is relocated for one address, so it
  /// needs no GOT (streams relocated into a target by the runtime's loader).
  bool Static;
  static const EmitterTarget Host; ///< x86_64-linux-gnu, PIC
  static const EmitterTarget I386; ///< i386-linux-gnu, SSE2, static
};

class ObjectEmitter {
public:
  /// Initialises the X86 target (only it) once per process and creates the
  /// TargetMachine.
  static llvm::Expected<std::unique_ptr<ObjectEmitter>>
  create(const CodeGenOptions &Opts,
         const EmitterTarget &Target = EmitterTarget::Host);
  ~ObjectEmitter();

  /// Sets the module's triple and data layout to the emitter's. Call before
  /// generating IR so that LLVM's folding sees the real layout.
  void configureModule(llvm::Module &M) const;

  /// Places \p Tables into the tscc_* sections of \p M as constant data and
  /// keeps them, and every function of the tscc text sections, alive through
  /// the optimiser (llvm.compiler.used). emit() marks the sections
  /// SHF_GNU_RETAIN so `--gc-sections` links keep them too.
  void addTables(llvm::Module &M, const ObjectTables &Tables) const;

  /// Verifies (if asked) and runs the optimisation pipeline.
  llvm::Error optimize(llvm::Module &M) const;

  /// Emits \p M as an ELF64 relocatable into \p Out and finalises the clause
  /// table in it.
  llvm::Error emit(llvm::Module &M, llvm::SmallVectorImpl<char> &Out) const;
  /// Emits \p M as a relocatable object of the emitter's target, as it is
  /// (a further stream's image, which has no clause table).
  llvm::Error emitRaw(llvm::Module &M, llvm::SmallVectorImpl<char> &Out) const;

  /// Prints the x86-64 assembly of \p M (both text sections and the table
  /// sections) to \p OS. The clause table in it still holds placeholder
  /// offsets: only an emitted object is finalised.
  llvm::Error emitAssembly(llvm::Module &M, llvm::raw_pwrite_stream &OS) const;

  llvm::TargetMachine &getTargetMachine() const { return *TM; }

private:
  ObjectEmitter(const CodeGenOptions &Opts,
                std::unique_ptr<llvm::TargetMachine> TM);

  CodeGenOptions Opts;
  std::unique_ptr<llvm::TargetMachine> TM;
};

/// Sets SHF_GNU_RETAIN on every tscc_* section and rewrites the stream
/// entries of every clause in the tscc_clauses section of
/// the relocatable ELF64 object in \p Object: for each clause function
/// (clauseFunctionName()) present in the model's text section, its st_value
/// and st_size become the offset and size; absent predicates become
/// TSCC_NO_CODE / 0. A missing action, a function in the wrong section or a
/// malformed object is an error.
llvm::Error finalizeClauseTable(llvm::MutableArrayRef<char> Object);

} // namespace tscc

#endif // TSCC_CODEGEN_OBJECTEMITTER_H
