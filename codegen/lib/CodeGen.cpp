//===- CodeGen.cpp - Code generation entry points -------------------------===//

#include "tscc/CodeGen/CodeGen.h"

#include "CodeGenModule.h"
#include "ExtraStreams.h"

#include "tscc/Basic/Diagnostic.h"
#include "tscc/CodeGen/ObjectEmitter.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tscc;

namespace {

/// Builds the module with the emitter's triple and data layout.
std::unique_ptr<Module> buildModule(const CodeGenInput &In,
                                    const ObjectEmitter &Emitter,
                                    DiagnosticsEngine &Diags,
                                    LLVMContext &Ctx) {
  auto M = std::make_unique<Module>(
      In.SourceName.empty() ? "script" : In.SourceName, Ctx);
  M->setSourceFileName(In.SourceName);
  Emitter.configureModule(*M);
  CodeGenModule CGM(*M, In.TheScript, In.Info, &Diags);
  if (!CGM.emitScript())
    return nullptr;
  ObjectTables Tables = CGM.buildTables(In.SourceName, In.SourceText);
  Emitter.addTables(*M, Tables);
  return M;
}

std::unique_ptr<ObjectEmitter> makeEmitter(const CodeGenOptions &Opts,
                                           DiagnosticsEngine &Diags) {
  Expected<std::unique_ptr<ObjectEmitter>> E = ObjectEmitter::create(Opts);
  if (!E) {
    Diags.report(diag::err_codegen_failed) << toString(E.takeError());
    return nullptr;
  }
  return std::move(*E);
}

bool reportIfError(Error Err, DiagnosticsEngine &Diags) {
  if (!Err)
    return false;
  Diags.report(diag::err_codegen_failed) << toString(std::move(Err));
  return true;
}

} // namespace

std::unique_ptr<Module> tscc::generateModule(const CodeGenInput &In,
                                             const CodeGenOptions &Opts,
                                             DiagnosticsEngine &Diags,
                                             LLVMContext &Ctx) {
  std::unique_ptr<ObjectEmitter> Emitter = makeEmitter(Opts, Diags);
  if (!Emitter)
    return nullptr;
  return buildModule(In, *Emitter, Diags, Ctx);
}

namespace {
/// The part every output shares: build both streams into one module and run
/// the optimisation pipeline, then let \p Finish write it out. Only textual
/// IR shows the names of instructions and blocks; without them, building
/// and optimising a module takes a sixth less time and memory, as in clang.
bool withOptimizedModule(
    const CodeGenInput &In, const CodeGenOptions &Opts,
    DiagnosticsEngine &Diags, bool KeepValueNames,
    llvm::function_ref<bool(ObjectEmitter &, Module &)> Finish) {
  std::unique_ptr<ObjectEmitter> Emitter = makeEmitter(Opts, Diags);
  if (!Emitter)
    return false;
  LLVMContext Ctx;
  Ctx.setDiscardValueNames(!KeepValueNames);
  std::unique_ptr<Module> M = buildModule(In, *Emitter, Diags, Ctx);
  if (!M)
    return false;
  if (reportIfError(Emitter->optimize(*M), Diags))
    return false;
  return Finish(*Emitter, *M);
}
} // namespace

bool tscc::emitObject(const CodeGenInput &In, const CodeGenOptions &Opts,
                      DiagnosticsEngine &Diags, raw_pwrite_stream &OS) {
  auto Write = [&](ObjectEmitter &E, Module &M) {
    if (Opts.I386Stream) {
      Expected<ExtraStream> I386 = buildI386Stream(In, Opts);
      if (!I386) {
        reportIfError(I386.takeError(), Diags);
        return false;
      }
      addStreamSections(M, {*I386});
    }
    SmallVector<char, 0> Bytes;
    if (reportIfError(E.emit(M, Bytes), Diags))
      return false;
    OS.write(Bytes.data(), Bytes.size());
    return true;
  };
  return withOptimizedModule(In, Opts, Diags, /*KeepValueNames=*/false, Write);
}

bool tscc::emitLLVMIR(const CodeGenInput &In, const CodeGenOptions &Opts,
                      DiagnosticsEngine &Diags, raw_ostream &OS) {
  auto Print = [&](ObjectEmitter &, Module &M) {
    M.print(OS, nullptr);
    return true;
  };
  return withOptimizedModule(In, Opts, Diags, /*KeepValueNames=*/true, Print);
}

bool tscc::emitAssembly(const CodeGenInput &In, const CodeGenOptions &Opts,
                        DiagnosticsEngine &Diags, raw_pwrite_stream &OS) {
  auto Write = [&](ObjectEmitter &E, Module &M) {
    return !reportIfError(E.emitAssembly(M, OS), Diags);
  };
  return withOptimizedModule(In, Opts, Diags, /*KeepValueNames=*/true, Write);
}
