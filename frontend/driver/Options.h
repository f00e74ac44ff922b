//===- Options.h - tscc command-line options --------------------*- C++ -*-===//
//
// A small hand-written parser: the driver's options mix clang-style joined
// and separate forms (`-I DIR`, `-IDIR`, `-DNAME=VAL`) that llvm::cl does not
// express well, and parse errors must become ordinary diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_DRIVER_OPTIONS_H
#define TSCC_DRIVER_OPTIONS_H

#include "tscc/Basic/Diagnostic.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tscc::driver {

/// What the driver produces.
enum class Action {
  EmitObject,   ///< Default: a probe object.
  EmitLLVM,     ///< `-S --emit-llvm`: textual LLVM IR of both streams.
  EmitAssembly, ///< `-S`: assembly of both streams.
  DumpAST,      ///< `--dump-ast`.
  DumpLayout,   ///< `--dump-layout 'struct X'`.
  DumpCPrelude, ///< `--dump-c-prelude`: the C text handed to Clang.
  DumpSema,     ///< `--dump-sema`: types per model and sema's tables.
  SyntaxOnly,   ///< `-fsyntax-only`: parse and check, write nothing.
  PrintVersion,
  PrintHelp,
};

/// The file name diagnostics give a script passed with -e.
inline constexpr const char *InlineScriptName = "<command line>";

struct Options {
  Action Act = Action::EmitObject;
  std::string Input; ///< The script; "-" is stdin.
  /// `-e TEXT`: the script itself (Input is then InlineScriptName).
  std::optional<std::string> InlineScript;
  /// `--run ARGS...`: compile to a private temporary object, then run
  /// `tsrun OBJECT ARGS...` and exit with its status.
  bool Run = false;
  std::vector<std::string> RunArgs;
  std::string Output; ///< Empty: derived from the input name.
  std::vector<std::string> IncludeDirs;
  /// `-D NAME[=VAL]` and `-U NAME`, in command-line order; they apply to
  /// the C declarations (Clang), like a compiler's -D/-U.
  struct MacroDef {
    std::string Name;
    std::string Value; ///< "1" when `-D NAME` has no value.
    bool Undef = false;
  };
  std::vector<MacroDef> Macros;
  std::string LayoutType; ///< For DumpLayout.
  /// `-MD`: also write a Make-style depfile listing the script and every
  /// header its C declarations read, for either data model. `-MF FILE`
  /// names it (default: the output with `.d`), `-MT TARGET` its target
  /// (default: the output).
  bool WriteDepFile = false;
  std::string DepFile;
  std::string DepTarget;
  unsigned OptLevel = 1;
  /// `--no-i386-stream`: leave the ILP32 clauses' i386 code out of the
  /// object (32-bit processes then run their clauses in tsrun).
  bool I386Stream = true;
  bool WarningsAsErrors = false;
  bool NoWarnings = false;
  unsigned ErrorLimit = 20;
  /// `-fbracket-depth=N`: see ParseOptions::MaxNestingDepth.
  unsigned BracketDepth = 1024;
};

/// Parses \p Args (without argv[0]). Problems are reported to \p Diags;
/// returns false if any occurred.
bool parseOptions(llvm::ArrayRef<const char *> Args, Options &Opts,
                  DiagnosticsEngine &Diags);

/// The --help text.
void printHelp(llvm::raw_ostream &OS);

} // namespace tscc::driver

#endif // TSCC_DRIVER_OPTIONS_H
