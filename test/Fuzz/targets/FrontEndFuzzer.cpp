//===- FrontEndFuzzer.cpp - tscc's front half on arbitrary scripts --------===//
//
// Parse, C declarations and sema, as tscc runs them before codegen; the
// diagnostics go nowhere. Seeds are the lit suite's valid scripts.
//
//===----------------------------------------------------------------------===//

#include "tscc/AST/ASTContext.h"
#include "tscc/Basic/Diagnostic.h"
#include "tscc/Basic/SourceManager.h"
#include "tscc/Parse/Parser.h"
#include "tscc/Sema/CDeclarations.h"
#include "tscc/Sema/Sema.h"
#include "tscc/Sema/TypeContext.h"

using namespace tscc;

namespace {
struct Discard : DiagnosticConsumer {
  void handleDiagnostic(const Diagnostic &) override {}
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // Scripts are text; a 64 KiB script is already far beyond a real one.
  if (Size > (64u << 10))
    return 0;
  SourceManager SM;
  Discard Diags;
  DiagnosticsEngine Engine{SM, &Diags};
  ASTContext AST;
  TypeContext IL{DataModel::ILP32}, LP{DataModel::LP64};
  FileID F = SM.createFileID(
      llvm::StringRef(reinterpret_cast<const char *>(Data), Size), "fuzz.t");
  SM.setMainFileID(F);
  Script *S = parseScript(SM, F, AST, Engine);
  if (!S)
    return 0;
  CDeclOptions O;
  O.ScriptPath = "fuzz.t";
  auto CDecls = CDeclarations::createForAllModels({&IL, &LP}, S->getCPrelude(),
                                                  O, Engine);
  (void)analyzeScript(
      {*S, AST, SM, Engine, {CDecls[0].get(), CDecls[1].get()}});
  return 0;
}
