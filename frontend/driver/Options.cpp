//===- Options.cpp - tscc command-line options ----------------------------===//

#include "Options.h"

#include "tscc/ClosestName.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

using namespace tscc;
using namespace tscc::driver;
using llvm::StringRef;

void tscc::driver::printHelp(llvm::raw_ostream &OS) {
  OS << "OVERVIEW: tscc - ahead-of-time compiler for trace scripts\n"
        "\n"
        "USAGE: tscc [options] SCRIPT.t\n"
        "       tscc [options] -e 'SCRIPT TEXT'\n"
        "       tscc [options] (SCRIPT.t | -e TEXT) --run [tsrun options] [-- "
        "CMD]\n"
        "\n"
        "INPUT:\n"
        "  -e TEXT              Compile TEXT as the script (default output:\n"
        "                       probe.o)\n"
        "  --run ARGS...        Compile to a private temporary object and run\n"
        "                       'tsrun OBJECT ARGS...' on it; exits with "
        "tsrun's\n"
        "                       status (e.g. tscc -e '...' --run -- ./app)\n"
        "\n"
        "OUTPUT:\n"
        "  -o FILE              Write the output to FILE ('-' for stdout)\n"
        "  -S --emit-llvm       Emit the LLVM IR of both code streams\n"
        "  -S                   Emit assembly of both code streams\n"
        "  -fsyntax-only        Check the script, write nothing\n"
        "  --dump-ast           Print the syntax tree\n"
        "  --dump-c-prelude     Print the C declarations handed to Clang\n"
        "  --dump-sema          Print every expression's type per data model "
        "and\n"
        "                       the variable, map, format and probe tables\n"
        "  --dump-layout TYPE   Print the ILP32 and LP64 layout of a C type\n"
        "                       (e.g. 'struct req')\n"
        "\n"
        "C DECLARATIONS:\n"
        "  -I DIR, -IDIR        Add DIR to the #include search path\n"
        "  -D NAME[=VAL]        Define a macro for the C declarations\n"
        "  -U NAME              Undefine a macro\n"
        "  -MD                  Also write a depfile of the script and its "
        "headers\n"
        "  -MF FILE             Name the depfile (default: OUTPUT.d)\n"
        "  -MT TARGET           Name the depfile's target (default: OUTPUT)\n"
        "\n"
        "CODE GENERATION:\n"
        "  -O0, -O1, -O2, -O3   Optimisation level (default -O1: the clause\n"
        "                       pipeline; -O2/-O3: LLVM's generic pipeline)\n"
        "  --no-i386-stream     Leave out the i386 code of the ILP32 clauses\n"
        "                       (32-bit processes then run them in tsrun)\n"
        "\n"
        "DIAGNOSTICS:\n"
        "  -Werror              Treat warnings as errors\n"
        "  -w                   Suppress all warnings\n"
        "  -ferror-limit=N      Stop after N errors (default 20, 0: no limit)\n"
        "  -fbracket-depth=N    Maximum nesting depth of expressions and\n"
        "                       statements (default 1024)\n"
        "\n"
        "OTHER:\n"
        "  --version            Print the version\n"
        "  --help               Print this help\n";
}

namespace {
class OptionParser {
public:
  OptionParser(llvm::ArrayRef<const char *> Args, Options &Opts,
               DiagnosticsEngine &Diags)
      : Args(Args), Opts(Opts), Diags(Diags) {}

  bool run() {
    bool EmitLLVM = false, DashS = false;
    std::vector<std::pair<Action, std::string>> Modes;
    for (I = 0; I < Args.size(); ++I) {
      StringRef A = Args[I];
      if (A == "-" || !A.starts_with("-")) {
        setInput(A);
        continue;
      }
      if (A == "--") {
        // `tscc -e '...' -- ls`: a command where --run was meant.
        if (!Opts.Input.empty() && I + 1 < Args.size()) {
          Diags.report(diag::err_drv_command_needs_run) << Args[I + 1];
          break;
        }
        for (++I; I < Args.size(); ++I)
          setInput(Args[I]);
        break;
      }
      if (A == "--run" || A == "-run") {
        // Everything after it is tsrun's, options included.
        Opts.Run = true;
        Opts.RunArgs.assign(Args.begin() + I + 1, Args.end());
        break;
      }
      if (A == "-e") {
        std::string V;
        if (takeJoinedOrSeparate(A, "-e", V)) {
          if (Opts.InlineScript)
            Diags.report(diag::err_drv_multiple_inputs) << "-e" << "-e";
          Opts.InlineScript = std::move(V);
          setInput(InlineScriptName);
        }
        continue;
      }
      // Long options are accepted with one or two dashes, as in clang.
      StringRef Long = A.starts_with("--") ? A.drop_front(2) : A.drop_front(1);
      if (Long == "help" || A == "-h")
        Modes.push_back({Action::PrintHelp, A.str()});
      else if (Long == "version")
        Modes.push_back({Action::PrintVersion, A.str()});
      else if (Long == "dump-ast" || Long == "ast-dump")
        Modes.push_back({Action::DumpAST, A.str()});
      else if (Long == "dump-c-prelude")
        Modes.push_back({Action::DumpCPrelude, A.str()});
      else if (Long == "dump-sema")
        Modes.push_back({Action::DumpSema, A.str()});
      else if (Long == "fsyntax-only")
        Modes.push_back({Action::SyntaxOnly, A.str()});
      else if (Long == "emit-llvm")
        EmitLLVM = true;
      else if (A == "-S")
        DashS = true;
      else if (Long == "dump-layout" || Long.starts_with("dump-layout=")) {
        std::string V;
        if (!takeValue(A, Long, "dump-layout", V))
          continue;
        Opts.LayoutType = V;
        Modes.push_back({Action::DumpLayout, "--dump-layout"});
      } else if (A == "-MD")
        Opts.WriteDepFile = true;
      else if (A.starts_with("-MF")) {
        std::string V;
        if (takeJoinedOrSeparate(A, "-MF", V))
          Opts.DepFile = V;
      } else if (A.starts_with("-MT")) {
        std::string V;
        if (takeJoinedOrSeparate(A, "-MT", V))
          Opts.DepTarget = V;
      } else if (A.starts_with("-o")) {
        std::string V;
        if (takeJoinedOrSeparate(A, "-o", V))
          Opts.Output = V;
      } else if (A.starts_with("-I")) {
        std::string V;
        if (takeJoinedOrSeparate(A, "-I", V))
          Opts.IncludeDirs.push_back(V);
      } else if (A.starts_with("-D")) {
        std::string V;
        if (takeJoinedOrSeparate(A, "-D", V))
          addMacro(A, V, /*Undef=*/false);
      } else if (A.starts_with("-U")) {
        std::string V;
        if (takeJoinedOrSeparate(A, "-U", V))
          addMacro(A, V, /*Undef=*/true);
      } else if (A.size() == 3 && A.starts_with("-O") &&
                 StringRef("0123").contains(A[2]))
        Opts.OptLevel = A[2] - '0';
      else if (A == "-O")
        Opts.OptLevel = 2;
      else if (A == "-Werror")
        Opts.WarningsAsErrors = true;
      else if (Long == "no-i386-stream")
        Opts.I386Stream = false;
      else if (A == "-w")
        Opts.NoWarnings = true;
      else if (Long.starts_with("fbracket-depth=")) {
        unsigned N;
        StringRef V = Long.drop_front(15);
        if (V.getAsInteger(10, N) || N == 0)
          Diags.report(diag::err_drv_invalid_value) << A << V;
        else
          Opts.BracketDepth = N;
      } else if (Long.starts_with("ferror-limit=")) {
        unsigned N;
        if (Long.drop_front(13).getAsInteger(10, N))
          Diags.report(diag::err_drv_invalid_value) << A << Long.drop_front(13);
        else
          Opts.ErrorLimit = N;
      } else
        reportUnknown(A);
    }
    if (DashS && EmitLLVM)
      Modes.push_back({Action::EmitLLVM, "-S --emit-llvm"});
    else if (EmitLLVM)
      Modes.push_back({Action::EmitLLVM, "--emit-llvm"});
    else if (DashS)
      Modes.push_back({Action::EmitAssembly, "-S"});
    return finishModes(Modes);
  }

private:
  void reportUnknown(StringRef A) {
    static constexpr std::string_view Known[] = {"--run",
                                                 "--help",
                                                 "--version",
                                                 "--dump-ast",
                                                 "--dump-c-prelude",
                                                 "--dump-sema",
                                                 "--fsyntax-only",
                                                 "--emit-llvm",
                                                 "--dump-layout",
                                                 "-fbracket-depth",
                                                 "-ferror-limit",
                                                 "-Werror",
                                                 "-MD",
                                                 "-MF",
                                                 "-MT"};
    // Long options take one dash or two; values do not count.
    std::string Spelled = A.split('=').first.str();
    if (!A.starts_with("--") && !A.starts_with("-f") && !A.starts_with("-W") &&
        !A.starts_with("-M"))
      Spelled = "-" + Spelled;
    std::string_view Best = closestName(Spelled, Known);
    if (Best.empty())
      Diags.report(diag::err_drv_unknown_argument) << A;
    else
      Diags.report(diag::err_drv_unknown_argument_suggest) << A << Best;
  }

  bool finishModes(const std::vector<std::pair<Action, std::string>> &Modes) {
    // --help and --version win over everything, like in clang.
    for (const auto &M : Modes)
      if (M.first == Action::PrintHelp || M.first == Action::PrintVersion) {
        Opts.Act = M.first;
        return !Diags.hasErrorOccurred();
      }
    for (size_t K = 1; K < Modes.size(); ++K)
      if (Modes[K].first != Modes[0].first)
        Diags.report(diag::err_drv_conflicting_modes)
            << Modes[0].second << Modes[K].second;
    if (!Modes.empty())
      Opts.Act = Modes[0].first;
    if (Opts.Run && !Modes.empty())
      Diags.report(diag::err_drv_conflicting_modes)
          << "--run" << Modes[0].second;
    if (Opts.Input.empty() && !Diags.hasErrorOccurred())
      Diags.report(diag::err_drv_no_input);
    return !Diags.hasErrorOccurred();
  }

  void setInput(StringRef A) {
    if (!Opts.Input.empty()) {
      Diags.report(diag::err_drv_multiple_inputs) << Opts.Input << A;
      return;
    }
    Opts.Input = A.str();
  }

  /// `-XVAL` or `-X VAL`.
  bool takeJoinedOrSeparate(StringRef A, StringRef Flag, std::string &V) {
    if (A.size() > Flag.size()) {
      V = A.drop_front(Flag.size()).str();
      return true;
    }
    if (I + 1 >= Args.size()) {
      Diags.report(diag::err_drv_missing_argument) << Flag;
      return false;
    }
    V = Args[++I];
    return true;
  }

  /// `--name=VAL` or `--name VAL`.
  bool takeValue(StringRef A, StringRef Long, StringRef Name, std::string &V) {
    if (Long.size() > Name.size()) {
      V = Long.drop_front(Name.size() + 1).str();
      return true;
    }
    if (I + 1 >= Args.size()) {
      Diags.report(diag::err_drv_missing_argument) << A;
      return false;
    }
    V = Args[++I];
    return true;
  }

  void addMacro(StringRef A, StringRef V, bool Undef) {
    auto [Name, Value] = V.split('=');
    if (Name.empty()) {
      Diags.report(diag::err_drv_invalid_value) << A << V;
      return;
    }
    Options::MacroDef M;
    M.Name = Name.str();
    M.Undef = Undef;
    M.Value = V.contains('=') ? Value.str() : std::string("1");
    Opts.Macros.push_back(std::move(M));
  }

  llvm::ArrayRef<const char *> Args;
  Options &Opts;
  DiagnosticsEngine &Diags;
  size_t I = 0;
};
} // namespace

bool tscc::driver::parseOptions(llvm::ArrayRef<const char *> Args,
                                Options &Opts, DiagnosticsEngine &Diags) {
  return OptionParser(Args, Opts, Diags).run();
}
