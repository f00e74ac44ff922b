//===- BuiltinsTest.cpp - Every Builtins.def line works end to end -------===//
//
// Builtins.def drives lookup, "did you mean", the generic checks, the
// dumper and codegen's dispatch. These tests walk the .def tables, so a new
// line is tested without being named here: it must be found by lookup,
// offered as a correction, accepted with its Example, dumped by name and
// emitted by codegen (a line without codegen makes emitLLVMIR report
// "unsupported").
//
//===----------------------------------------------------------------------===//

#include "tscc/AST/ASTContext.h"
#include "tscc/AbiNames.h"
#include "tscc/Basic/Diagnostic.h"
#include "tscc/Basic/SourceManager.h"
#include "tscc/CodeGen/CodeGen.h"
#include "tscc/CodeGen/CodeGenOptions.h"
#include "tscc/Parse/Parser.h"
#include "tscc/Sema/CDeclarations.h"
#include "tscc/Sema/Sema.h"
#include "tscc/Sema/SemaBuiltins.h"
#include "tscc/Sema/TypeContext.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <set>

using namespace tscc;

namespace {

struct Collect : DiagnosticConsumer {
  std::vector<std::string> Messages;
  void handleDiagnostic(const Diagnostic &D) override {
    Messages.push_back(D.Message);
  }
};

/// Parses, checks and compiles one script; keeps the sema dump and IR.
struct Compilation {
  std::string Text;
  SourceManager SM;
  Collect Diags;
  DiagnosticsEngine Engine{SM, &Diags};
  ASTContext AST;
  TypeContext IL{DataModel::ILP32}, LP{DataModel::LP64};
  std::array<std::unique_ptr<CDeclarations>, NumDataModels> CDecls;
  std::unique_ptr<ScriptInfo> Info;
  std::string Dump, IR;

  explicit Compilation(std::string Source) : Text(std::move(Source)) {
    FileID F = SM.createFileID(Text, "test.t");
    SM.setMainFileID(F);
    Script *S = parseScript(SM, F, AST, Engine);
    CDeclOptions O;
    O.ScriptPath = "test.t";
    CDecls = CDeclarations::createForAllModels({&IL, &LP}, S->getCPrelude(), O,
                                               Engine);
    Info = analyzeScript(
        {*S, AST, SM, Engine, {CDecls[0].get(), CDecls[1].get()}});
    if (!Diags.Messages.empty())
      return;
    llvm::raw_string_ostream DS(Dump);
    dumpSema(*S, *Info, SM, DS);
    llvm::raw_string_ostream IS(IR);
    emitLLVMIR({*S, *Info, Text, "test.t"}, CodeGenOptions(), Engine, IS);
  }
  std::string messages() const {
    std::string All;
    for (const std::string &M : Diags.Messages)
      All += M + "\n";
    return All;
  }
};

/// The script around a .def Example: one clause whose probes give the
/// built-in what it needs, after a map the examples may use.
std::string scriptFor(llvm::StringRef Example, BuiltinProbes Probes) {
  llvm::StringRef Clause = "@@uft:*:a.out:f:entry";
  if (Probes == BuiltinProbes::ExitProbes)
    Clause = "@@uft:*:a.out:f:exit";
  else if (Probes == BuiltinProbes::SyscallExitProbes)
    Clause = "@@syscall:*:read:exit";
  return ("__global long m[long];\n" + Clause + "\n{\n  " + Example + "\n}\n")
      .str();
}

TEST(BuiltinsDef, EveryFunctionIsFoundAndOffered) {
  std::set<std::string> Seen;
  for (const BuiltinFunctionInfo &F : builtinFunctions()) {
    SCOPED_TRACE(F.Spelling.str());
    EXPECT_TRUE(Seen.insert(F.Spelling.str()).second) << "listed twice";
    EXPECT_EQ(lookupBuiltinFunction(F.Spelling), F.Id);
    EXPECT_EQ(builtinFunctionName(F.Id), F.Spelling);
    EXPECT_EQ(&builtinFunctionInfo(F.Id), &F);
    // Offered for a typo one edit away from it alone (a name is never
    // suggested for itself).
    EXPECT_EQ(suggestBuiltinFunction("Q" + F.Spelling.str()), F.Spelling);
    EXPECT_LE(F.MinArgs, F.MaxArgs);
    EXPECT_FALSE(F.Example.empty());
    if (F.isAggregation()) {
      EXPECT_TRUE(isAggregationFunction(F.Id));
      EXPECT_EQ(llvm::StringRef(aggKindName(F.AggKind)), F.Spelling);
    }
  }
  EXPECT_EQ(lookupBuiltinFunction("prinf"), std::nullopt);
  EXPECT_EQ(suggestBuiltinFunction("prinf"), "printf");
}

TEST(BuiltinsDef, EveryVariableIsFoundAndOffered) {
  for (const BuiltinVarInfo &V : builtinVars()) {
    SCOPED_TRACE(V.Spelling.str());
    std::string Name = V.Spelling.str();
    if (V.Id == BuiltinVar::Arg)
      Name += "3";
    unsigned N = 0;
    EXPECT_EQ(classifyBuiltinVar(Name, &N), V.Id);
    EXPECT_EQ(&builtinVarInfo(V.Id), &V);
    EXPECT_EQ(suggestBuiltinVar("Q" + Name), Name);
    if (V.Id == BuiltinVar::Arg) {
      EXPECT_EQ(N, 3u);
    }
  }
  EXPECT_EQ(classifyBuiltinVar("__arg0"), std::nullopt);
  EXPECT_EQ(classifyBuiltinVar("__pidd"), std::nullopt);
  EXPECT_EQ(suggestBuiltinVar("__pidd"), "__pid");
}

TEST(BuiltinsDef, EveryFunctionExampleChecksDumpsAndCompiles) {
  for (const BuiltinFunctionInfo &F : builtinFunctions()) {
    SCOPED_TRACE(F.Spelling.str());
    Compilation C(scriptFor(F.Example, BuiltinProbes::EntryProbes));
    ASSERT_TRUE(C.Diags.Messages.empty()) << C.Text << C.messages();
    EXPECT_NE(C.Dump.find("CallExpr '" + F.Spelling.str() + "'"),
              std::string::npos)
        << C.Dump;
    EXPECT_NE(C.IR.find("tscc_clause0_action_lp64"), std::string::npos);
  }
}

TEST(BuiltinsDef, EveryVariableExampleChecksDumpsAndCompiles) {
  for (const BuiltinVarInfo &V : builtinVars()) {
    SCOPED_TRACE(V.Spelling.str());
    Compilation C(scriptFor(V.Example, V.Probes));
    ASSERT_TRUE(C.Diags.Messages.empty()) << C.Text << C.messages();
    EXPECT_NE(C.Dump.find("BuiltinVarExpr '" + V.Spelling.str()),
              std::string::npos)
        << C.Dump;
    EXPECT_NE(C.IR.find("tscc_clause0_action_lp64"), std::string::npos);
  }
}

/// The generic checks come from the .def columns.
TEST(BuiltinsDef, ArityEffectsAndProcessComeFromTheTable) {
  for (const BuiltinFunctionInfo &F : builtinFunctions()) {
    if (F.isAggregation())
      continue;
    SCOPED_TRACE(F.Spelling.str());
    if (F.MaxArgs != ~0u) {
      std::string Args;
      for (unsigned I = 0; I <= F.MaxArgs; ++I)
        Args += I ? ", 1" : "1";
      Compilation C(scriptFor(F.Spelling.str() + "(" + Args + ");",
                              BuiltinProbes::EntryProbes));
      EXPECT_NE(C.messages().find("too many arguments"), std::string::npos)
          << C.messages();
    }
    Compilation P("@@BEGIN\n{\n  " + F.Example.str() + "\n}\n");
    bool Rejected =
        P.messages().find("'" + F.Spelling.str() + "()' is not available") !=
        std::string::npos;
    EXPECT_EQ(Rejected, F.needsProcess()) << P.messages();
    Compilation W("@@uft:*:a.out:f:entry when (" + F.Spelling.str() +
                  "()) { }\n");
    bool SideEffect =
        W.messages().find("cannot have side effects") != std::string::npos;
    EXPECT_EQ(SideEffect, F.hasSideEffects()) << W.messages();
  }
}

} // namespace
