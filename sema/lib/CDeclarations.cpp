//===- CDeclarations.cpp - Parse the C prelude with Clang -----------------===//
//
// Builds a Clang compiler instance the way the `clang` driver would for
// `clang -target x86_64-linux-gnu [-m32] -fsyntax-only`, which searches the
// same system header directories as gcc -m32/-m64 on Debian multilib, and
// parses the prelude into an AST that stays alive for lookups.
//
//===----------------------------------------------------------------------===//

#include "CDeclarationsImpl.h"

#include "tscc/Basic/PerModelDiagnosticMerger.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Parse/ParseAST.h"
#include "clang/Sema/Sema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#ifndef TSCC_CLANG_EXECUTABLE
#define TSCC_CLANG_EXECUTABLE "/usr/lib/llvm-19/bin/clang"
#endif
#ifndef TSCC_CLANG_RESOURCE_DIR
#define TSCC_CLANG_RESOURCE_DIR "/usr/lib/llvm-19/lib/clang/19"
#endif

using namespace tscc;

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

static diag::Level mapLevel(clang::DiagnosticsEngine::Level L) {
  switch (L) {
  case clang::DiagnosticsEngine::Ignored:
    return diag::Level::Ignored;
  case clang::DiagnosticsEngine::Note:
    return diag::Level::Note;
  case clang::DiagnosticsEngine::Remark:
    return diag::Level::Remark;
  case clang::DiagnosticsEngine::Warning:
    return diag::Level::Warning;
  case clang::DiagnosticsEngine::Error:
    return diag::Level::Error;
  case clang::DiagnosticsEngine::Fatal:
    return diag::Level::Fatal;
  }
  return diag::Level::Error;
}

/// The physical source line containing \p Loc, for the caret snippet of a
/// position outside tscc's own buffers (a system header).
static std::string lineTextAt(const clang::SourceManager &SM,
                              clang::SourceLocation Loc) {
  auto [FID, Offset] = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
  if (Invalid || Offset > Buf.size())
    return {};
  // rfind searches the positions before Offset.
  size_t NL = Buf.rfind('\n', Offset);
  size_t Begin = NL == llvm::StringRef::npos ? 0 : NL + 1;
  size_t End = Buf.find_first_of("\r\n", Offset);
  return Buf.slice(Begin, End).str();
}

void DiagForwarder::HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                                     const clang::Diagnostic &Info) {
  clang::DiagnosticConsumer::HandleDiagnostic(Level, Info);
  if (Level == clang::DiagnosticsEngine::Ignored)
    return;
  llvm::SmallString<128> Msg;
  Info.FormatDiagnostic(Msg);
  std::string File, LineText;
  unsigned Line = 0, Column = 0;
  if (Info.getLocation().isValid() && Info.hasSourceManager()) {
    const clang::SourceManager &SM = Info.getSourceManager();
    // Macro arguments point at their spelling in the file, everything else
    // at the expansion: where a C programmer would look.
    clang::SourceLocation Loc = SM.getFileLoc(Info.getLocation());
    clang::PresumedLoc P = SM.getPresumedLoc(Loc);
    if (P.isValid()) {
      File = P.getFilename();
      Line = P.getLine();
      Column = P.getColumn();
      LineText = lineTextAt(SM, Loc);
    }
  }
  Diags.reportRaw(mapLevel(Level), File, Line, Column, Msg, LineText, Model);
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

static std::vector<std::string>
driverArgs(DataModel DM, const CDeclOptions &Opts, llvm::StringRef InputName) {
  std::vector<std::string> Args = {TSCC_CLANG_EXECUTABLE,
                                   "-target",
                                   "x86_64-linux-gnu",
                                   DM == DataModel::ILP32 ? "-m32" : "-m64",
                                   "-fsyntax-only",
                                   "-std=gnu17",
                                   "-resource-dir",
                                   TSCC_CLANG_RESOURCE_DIR,
                                   "-fno-color-diagnostics",
                                   "-ferror-limit=0",
                                   "-x",
                                   "c"};
  llvm::SmallString<256> Dir(Opts.ScriptPath);
  llvm::sys::path::remove_filename(Dir);
  Args.push_back("-iquote");
  Args.push_back(Dir.empty() ? "." : std::string(Dir.str()));
  for (const std::string &I : Opts.IncludeDirs)
    Args.push_back("-I" + I);
  for (const CDeclOptions::Macro &M : Opts.Macros)
    Args.push_back(M.Undef ? "-U" + M.Name : "-D" + M.Name + "=" + M.Value);
  Args.push_back(InputName.str());
  return Args;
}

void CDeclarations::Impl::parse(llvm::StringRef Prelude) {
  // The prelude is remapped onto a name no real file has; text before the
  // first #line marker is attributed to the script.
  std::string InputName = Opts.ScriptPath + ".prelude.c";
  std::vector<std::string> Args =
      driverArgs(Types.getDataModel(), Opts, InputName);
  std::vector<const char *> ArgPtrs;
  for (const std::string &A : Args)
    ArgPtrs.push_back(A.c_str());

  auto DiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> DriverDiags =
      clang::CompilerInstance::createDiagnostics(DiagOpts.get(), &Forwarder,
                                                 /*ShouldOwnClient=*/false);
  clang::CreateInvocationOptions CIOpts;
  CIOpts.Diags = DriverDiags;
  CIOpts.RecoverOnError = true;
  std::shared_ptr<clang::CompilerInvocation> Inv =
      clang::createInvocation(ArgPtrs, CIOpts);
  if (!Inv) {
    Diags.reportRaw(diag::Level::Error, {}, 0, 0,
                    "cannot set up Clang for the " +
                        std::string(dataModelName(Types.getDataModel())) +
                        " C declarations");
    return;
  }
  Inv->getPreprocessorOpts().addRemappedFile(
      InputName,
      llvm::MemoryBuffer::getMemBufferCopy(Prelude, InputName).release());
  // Warnings in system headers are not the script author's business.
  Inv->getDiagnosticOpts().ShowColors = false;

  CI = std::make_unique<clang::CompilerInstance>();
  CI->setInvocation(std::move(Inv));
  CI->createDiagnostics(&Forwarder, /*ShouldOwnClient=*/false);
  if (!CI->createTarget())
    return;
  CI->createFileManager();
  CI->createSourceManager(CI->getFileManager());
  // The preprocessor applies the remapping, so it must exist before the
  // main file is entered.
  CI->createPreprocessor(clang::TU_Complete);
  if (!CI->InitializeSourceManager(CI->getFrontendOpts().Inputs[0]))
    return;
  CI->createASTContext();
  CI->setASTConsumer(std::make_unique<clang::ASTConsumer>());
  CI->createSema(clang::TU_Complete, nullptr);
  Forwarder.BeginSourceFile(CI->getLangOpts(), &CI->getPreprocessor());
  clang::ParseAST(CI->getSema());
  Forwarder.EndSourceFile();
  Parsed = true;
}

//===----------------------------------------------------------------------===//
// Public interface
//===----------------------------------------------------------------------===//

CDeclarations::CDeclarations(std::unique_ptr<Impl> I) : P(std::move(I)) {}
CDeclarations::~CDeclarations() = default;

std::unique_ptr<CDeclarations> CDeclarations::create(TypeContext &Types,
                                                     llvm::StringRef Prelude,
                                                     const CDeclOptions &Opts,
                                                     DiagnosticsEngine &Diags) {
  auto I = std::make_unique<Impl>(Types, Diags, Opts);
  I->parse(Prelude);
  return std::unique_ptr<CDeclarations>(new CDeclarations(std::move(I)));
}

std::array<std::unique_ptr<CDeclarations>, NumDataModels>
CDeclarations::createForAllModels(
    std::array<TypeContext *, NumDataModels> Types, llvm::StringRef Prelude,
    const CDeclOptions &Opts, DiagnosticsEngine &Diags) {
  std::array<std::unique_ptr<CDeclarations>, NumDataModels> Result;
  // Clang reports per model; the merger reports what both said once.
  PerModelDiagnosticMerger &Merger = Diags.getMerger();
  PerModelDiagnosticMerger::Batch Batch(Merger);
  for (DataModel DM : AllDataModels) {
    unsigned M = modelIndex(DM);
    assert(Types[M]->getDataModel() == DM && "context of the wrong model");
    Merger.markPassRun(DM);
    Result[M] = create(*Types[M], Prelude, Opts, Diags);
  }
  return Result;
}

DataModel CDeclarations::getDataModel() const {
  return P->Types.getDataModel();
}

TypeContext &CDeclarations::getTypes() const { return P->Types; }

bool CDeclarations::hasErrors() const {
  return !P->Parsed || P->Forwarder.getNumErrors() != 0;
}

std::vector<std::string> CDeclarations::includedFiles() const {
  std::vector<std::string> Files;
  if (!P->CI || !P->CI->hasSourceManager())
    return Files;
  const clang::SourceManager &SM = P->CI->getSourceManager();
  for (auto It = SM.fileinfo_begin(), E = SM.fileinfo_end(); It != E; ++It) {
    llvm::StringRef Name = It->first.getName();
    // The prelude itself is an in-memory buffer, not a dependency.
    if (!llvm::sys::fs::exists(Name))
      continue;
    Files.push_back(Name.str());
  }
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  return Files;
}
