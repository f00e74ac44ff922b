//===- Driver.cpp - The tscc compilation pipeline -------------------------===//
//
// One function per stage. Each returns false when it reported an error; the
// pipeline stops at the first failing stage, and no output file is left
// behind (outputs are written to a temporary file renamed on success).
//
// Plugging in a stage: replace the body of the corresponding function below
// (and link the library in driver/CMakeLists.txt). Everything a stage needs
// is in Compilation.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "RunTsrun.h"

#include "tscc/AST/ASTContext.h"
#include "tscc/AST/ASTDumper.h"
#include "tscc/Basic/Diagnostic.h"
#include "tscc/Basic/SourceManager.h"
#include "tscc/CodeGen/CodeGen.h"
#include "tscc/Parse/Parser.h"
#include "tscc/Sema/CDeclarations.h"
#include "tscc/Sema/LayoutDumper.h"
#include "tscc/Sema/ScriptInfo.h"
#include "tscc/Sema/Sema.h"
#include "tscc/Sema/TypeContext.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <functional>

using namespace tscc;
using namespace tscc::driver;

#ifndef TSCC_VERSION
#define TSCC_VERSION "0.1.0"
#endif

std::string tscc::driver::getVersionString() {
  return std::string("tscc version ") + TSCC_VERSION + " (LLVM " +
         LLVM_VERSION_STRING + ")";
}

namespace {

/// Everything one compilation owns.
struct Compilation {
  explicit Compilation(const Options &Opts) : Opts(Opts), Diags(SM) {
    Diags.setWarningsAsErrors(Opts.WarningsAsErrors);
    Diags.setIgnoreAllWarnings(Opts.NoWarnings);
    Diags.setErrorLimit(Opts.ErrorLimit);
  }

  const Options &Opts;
  SourceManager SM;
  DiagnosticsEngine Diags;
  ASTContext Ctx;
  FileID MainFile;
  Script *AST = nullptr;
  /// Filled by analyze(): per-model types and C declarations, and what
  /// codegen turns into the object's tables.
  std::array<std::unique_ptr<TypeContext>, NumDataModels> Types;
  std::array<std::unique_ptr<CDeclarations>, NumDataModels> CDecls;
  std::unique_ptr<ScriptInfo> Info;
  /// The C prelude CDecls were built from.
  std::string CPreludeBuilt;
};

/// Where the output goes: -o, or the input's name with \p Ext.
std::string outputPath(const Compilation &C, llvm::StringRef Ext) {
  if (!C.Opts.Output.empty())
    return C.Opts.Output;
  if (C.Opts.Input == "-")
    return "-";
  if (C.Opts.InlineScript)
    return "probe" + Ext.str();
  llvm::SmallString<128> P(llvm::sys::path::filename(C.Opts.Input));
  llvm::sys::path::replace_extension(P, Ext);
  return std::string(P);
}

/// Runs \p Write on a temporary file next to \p Path and renames it to
/// \p Path only if \p Write succeeded and no error was reported, so a
/// failed compilation never leaves a (partial) output behind.
bool writeOutput(Compilation &C, const std::string &Path,
                 const std::function<bool(llvm::raw_pwrite_stream &)> &Write) {
  if (Path == "-") {
    bool OK = Write(llvm::outs());
    llvm::outs().flush();
    return OK && !C.Diags.hasErrorOccurred();
  }
  auto Tmp = llvm::sys::fs::TempFile::create(Path + "-%%%%%%.tmp");
  if (!Tmp) {
    C.Diags.report(diag::err_cannot_write_file)
        << Path << llvm::toString(Tmp.takeError());
    return false;
  }
  bool OK;
  {
    llvm::raw_fd_ostream OS(Tmp->FD, /*shouldClose=*/false);
    OK = Write(OS) && !C.Diags.hasErrorOccurred();
    OS.flush();
    if (OS.has_error()) {
      C.Diags.report(diag::err_cannot_write_file)
          << Path << OS.error().message();
      OS.clear_error();
      OK = false;
    }
  }
  if (!OK) {
    llvm::consumeError(Tmp->discard());
    return false;
  }
  if (llvm::Error E = Tmp->keep(Path)) {
    C.Diags.report(diag::err_cannot_write_file)
        << Path << llvm::toString(std::move(E));
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Stages
//===----------------------------------------------------------------------===//

bool loadInput(Compilation &C) {
  if (C.Opts.InlineScript) {
    C.MainFile = C.SM.createFileID(*C.Opts.InlineScript, InlineScriptName);
    C.SM.setMainFileID(C.MainFile);
    return true;
  }
  auto F = C.SM.loadFile(C.Opts.Input);
  if (!F) {
    C.Diags.report(diag::err_cannot_open_file)
        << C.Opts.Input << llvm::toString(F.takeError());
    return false;
  }
  C.MainFile = *F;
  C.SM.setMainFileID(*F);
  return true;
}

/// Drops every diagnostic: for the first of two parses, whose messages the
/// second one gives again.
class DiscardDiagnostics : public DiagnosticConsumer {
  void handleDiagnostic(const Diagnostic &) override {}
};

void buildCDeclarations(Compilation &C, const std::string &Prelude);

bool parse(Compilation &C) {
  ParseOptions PO;
  PO.MaxNestingDepth = C.Opts.BracketDepth;
  // Which identifiers name types decides how `(word)-1` parses. Without
  // headers the script's own typedefs are all there is; with headers, the
  // names Clang declared are, so the declarations are parsed out first
  // (quietly), laid out by Clang, and the script parsed knowing them (the
  // C declarations are not affected by that choice, so Clang's work is
  // kept for sema).
  bool NeedsSema =
      C.Opts.Act != Action::DumpAST && C.Opts.Act != Action::DumpCPrelude;
  if (NeedsSema && C.SM.getBufferData(C.MainFile).contains("#include")) {
    ASTContext Scratch;
    DiscardDiagnostics Quiet;
    DiagnosticsEngine QuietDiags(C.SM, &Quiet);
    Script *First = parseScript(C.SM, C.MainFile, Scratch, QuietDiags, PO);
    if (First && !QuietDiags.hasErrorOccurred()) {
      buildCDeclarations(C, First->getCPrelude().str());
      if (C.CDecls[0] && C.CDecls[1])
        PO.IsTypeName = [&C](llvm::StringRef Name) {
          return C.CDecls[0]->isTypedefName(Name) ||
                 C.CDecls[1]->isTypedefName(Name);
        };
    }
  }
  // Only syntax errors stop here; Clang's were reported already, and sema
  // goes on to report its own, as without the first round.
  unsigned Before = C.Diags.getNumErrors();
  C.AST = parseScript(C.SM, C.MainFile, C.Ctx, C.Diags, PO);
  return C.Diags.getNumErrors() == Before;
}

bool dumpAST(Compilation &C) {
  std::string Path = C.Opts.Output.empty() ? "-" : C.Opts.Output;
  return writeOutput(C, Path, [&](llvm::raw_pwrite_stream &OS) {
    dumpAST(C.AST, C.SM, OS);
    return true;
  });
}

bool dumpCPrelude(Compilation &C) {
  std::string Path = C.Opts.Output.empty() ? "-" : C.Opts.Output;
  return writeOutput(C, Path, [&](llvm::raw_pwrite_stream &OS) {
    OS << C.AST->getCPrelude();
    return true;
  });
}

/// Hands the script's C prelude to Clang once per data model, with the
/// command line's -I/-D/-U; kept when the prelude is the one Clang already
/// has (parse() may have needed it first).
void buildCDeclarations(Compilation &C) {
  std::string Prelude = C.AST->getCPrelude().str();
  if (C.CDecls[0] && C.CDecls[1] && Prelude == C.CPreludeBuilt)
    return;
  buildCDeclarations(C, Prelude);
}

void buildCDeclarations(Compilation &C, const std::string &Prelude) {
  C.CPreludeBuilt = Prelude;
  CDeclOptions CO;
  CO.ScriptPath = C.Opts.Input;
  CO.IncludeDirs = C.Opts.IncludeDirs;
  for (const Options::MacroDef &M : C.Opts.Macros)
    CO.Macros.push_back({M.Name, M.Value, M.Undef});
  for (DataModel DM : AllDataModels)
    C.Types[modelIndex(DM)] = std::make_unique<TypeContext>(DM);
  C.CDecls = CDeclarations::createForAllModels(
      {C.Types[0].get(), C.Types[1].get()}, Prelude, CO, C.Diags);
}

/// --dump-layout: sema's CDeclarations lays the type out per data model.
bool dumpLayout(Compilation &C) {
  buildCDeclarations(C);
  if (C.Diags.hasErrorOccurred())
    return false;
  std::string Path = C.Opts.Output.empty() ? "-" : C.Opts.Output;
  return writeOutput(C, Path, [&](llvm::raw_pwrite_stream &OS) {
    CDeclarations *Models[] = {C.CDecls[0].get(), C.CDecls[1].get()};
    if (llvm::Error E = tscc::dumpLayout(OS, C.Opts.LayoutType, Models)) {
      C.Diags.reportRaw(diag::Level::Error, {}, 0, 0,
                        llvm::toString(std::move(E)));
      return false;
    }
    return true;
  });
}

/// Names, types, C declarations; fills whatever codegen needs.
bool analyze(Compilation &C) {
  buildCDeclarations(C);
  SemaInputs In{
      *C.AST, C.Ctx, C.SM, C.Diags, {C.CDecls[0].get(), C.CDecls[1].get()}};
  C.Info = analyzeScript(In);
  return C.Info && !C.Diags.hasErrorOccurred();
}

/// --dump-sema: every expression's type per model and sema's tables.
bool dumpSema(Compilation &C) {
  std::string Path = C.Opts.Output.empty() ? "-" : C.Opts.Output;
  return writeOutput(C, Path, [&](llvm::raw_pwrite_stream &OS) {
    tscc::dumpSema(*C.AST, *C.Info, C.SM, OS);
    return true;
  });
}

/// Codegen's view of the compilation; the header records the script's name
/// as given on the command line and the hash of its bytes.
CodeGenInput codeGenInput(const Compilation &C) {
  return {*C.AST, *C.Info, C.SM.getBufferData(C.MainFile), C.Opts.Input};
}

CodeGenOptions codeGenOptions(const Compilation &C) {
  CodeGenOptions CG;
  CG.OptLevel = C.Opts.OptLevel;
  CG.I386Stream = C.Opts.I386Stream;
  CG.SourceName = C.Opts.Input;
  return CG;
}

bool emitLLVMIR(Compilation &C) {
  return writeOutput(C, outputPath(C, ".ll"), [&](llvm::raw_pwrite_stream &OS) {
    return tscc::emitLLVMIR(codeGenInput(C), codeGenOptions(C), C.Diags, OS);
  });
}

bool emitAssembly(Compilation &C) {
  return writeOutput(C, outputPath(C, ".s"), [&](llvm::raw_pwrite_stream &OS) {
    return tscc::emitAssembly(codeGenInput(C), codeGenOptions(C), C.Diags, OS);
  });
}

bool emitObject(Compilation &C) {
  return writeOutput(C, outputPath(C, ".o"), [&](llvm::raw_pwrite_stream &OS) {
    return tscc::emitObject(codeGenInput(C), codeGenOptions(C), C.Diags, OS);
  });
}

/// Escapes a path for a Make-style depfile (spaces, '#', '$').
std::string escapeForDepFile(llvm::StringRef Path) {
  std::string Out;
  for (char Ch : Path) {
    if (Ch == ' ' || Ch == '#')
      Out += '\\';
    else if (Ch == '$')
      Out += '$';
    Out += Ch;
  }
  return Out;
}

/// -MD: `target: script header...`, with the headers of both data models
/// (a header may be read for one model only, e.g. through __x86_64__).
bool writeDepFile(Compilation &C) {
  if (!C.Opts.WriteDepFile)
    return true;
  std::string Output = outputPath(C, ".o");
  std::string Path = !C.Opts.DepFile.empty() ? C.Opts.DepFile : Output + ".d";
  std::string Target = !C.Opts.DepTarget.empty() ? C.Opts.DepTarget : Output;
  std::vector<std::string> Deps{C.Opts.Input};
  for (const auto &CD : C.CDecls)
    if (CD)
      for (std::string &F : CD->includedFiles())
        Deps.push_back(std::move(F));
  std::sort(Deps.begin() + 1, Deps.end());
  Deps.erase(std::unique(Deps.begin() + 1, Deps.end()), Deps.end());
  return writeOutput(C, Path, [&](llvm::raw_pwrite_stream &OS) {
    OS << escapeForDepFile(Target) << ":";
    for (const std::string &D : Deps)
      OS << " \\\n  " << escapeForDepFile(D);
    OS << "\n";
    return true;
  });
}

bool runPipeline(Compilation &C) {
  if (!loadInput(C))
    return false;
  if (!parse(C)) {
    // As Clang does, the type checker still looks at what the parser
    // recovered, so one run shows the semantic errors too; nothing is
    // written.
    bool Checks = C.Opts.Act != Action::DumpAST &&
                  C.Opts.Act != Action::DumpCPrelude && C.AST &&
                  !C.Diags.hasFatalErrorOccurred();
    if (Checks)
      analyze(C);
    return false;
  }
  switch (C.Opts.Act) {
  case Action::DumpAST:
    return dumpAST(C);
  case Action::DumpLayout:
    return dumpLayout(C);
  case Action::DumpCPrelude:
    return dumpCPrelude(C);
  case Action::SyntaxOnly:
    return analyze(C);
  case Action::DumpSema:
    return analyze(C) && dumpSema(C);
  case Action::EmitLLVM:
    return analyze(C) && emitLLVMIR(C);
  case Action::EmitAssembly:
    return analyze(C) && emitAssembly(C);
  case Action::EmitObject:
    return analyze(C) && emitObject(C) && writeDepFile(C);
  case Action::PrintVersion:
  case Action::PrintHelp:
    break;
  }
  return true;
}

} // namespace

int tscc::driver::runCompilation(const Options &Opts, const char *Argv0) {
  Options Own = Opts;
  if (Opts.Run) {
    std::string Error;
    Own.Output = createRunObjectPath(Error);
    if (Own.Output.empty()) {
      llvm::errs() << "tscc: error: --run: cannot create a temporary object: "
                   << Error << "\n";
      return 1;
    }
  }
  bool OK;
  {
    Compilation C(Own);
    OK = runPipeline(C) && !C.Diags.hasErrorOccurred();
    C.Diags.finish();
    C.Diags.printSummary(llvm::errs());
  }
  if (!Opts.Run)
    return OK ? 0 : 1;
  if (!OK) {
    llvm::sys::fs::remove(Own.Output);
    return 1;
  }
  return runTsrun(Own.Output, Opts.RunArgs, Argv0);
}
