//===- main.cpp - tscc entry point ----------------------------------------===//

#include "Driver.h"
#include "Options.h"

#include "tscc/Basic/SourceManager.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/thread.h"

using namespace tscc;

int main(int argc, char **argv) {
  llvm::InitLLVM X(argc, argv);

  driver::Options Opts;
  {
    SourceManager NoSources;
    DiagnosticsEngine Diags(NoSources);
    if (!driver::parseOptions(llvm::ArrayRef(argv + 1, argv + argc), Opts,
                              Diags))
      return 1;
  }
  if (Opts.Act == driver::Action::PrintHelp) {
    driver::printHelp(llvm::outs());
    return 0;
  }
  if (Opts.Act == driver::Action::PrintVersion) {
    llvm::outs() << driver::getVersionString() << '\n';
    return 0;
  }

  // Parsing and the passes over the AST recurse; a generous stack (like
  // clang's) keeps pathological nesting a diagnostic rather than a crash.
  int RC = 1;
  llvm::thread Worker(std::optional<unsigned>(256u << 20),
                      [&] { RC = driver::runCompilation(Opts, argv[0]); });
  Worker.join();
  return RC;
}
