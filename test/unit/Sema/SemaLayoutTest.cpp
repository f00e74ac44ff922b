//===- SemaLayoutTest.cpp - Storage layout and ScriptInfo units ----------===//
//
// Runs the whole front half (parse, C declarations, sema) on small scripts
// and checks the storage layout and tables codegen relies on.
//
//===----------------------------------------------------------------------===//

#include "tscc/AST/ASTContext.h"
#include "tscc/Basic/Diagnostic.h"
#include "tscc/Basic/SourceManager.h"
#include "tscc/Parse/Parser.h"
#include "tscc/Sema/CDeclarations.h"
#include "tscc/Sema/Sema.h"
#include "tscc/Sema/TypeContext.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace tscc;

namespace {

struct Collect : DiagnosticConsumer {
  std::vector<std::string> Messages;
  void handleDiagnostic(const Diagnostic &D) override {
    Messages.push_back(D.Message);
  }
};

/// Everything one analysis owns.
struct Analysis {
  SourceManager SM;
  Collect Diags;
  DiagnosticsEngine Engine{SM, &Diags};
  ASTContext AST;
  TypeContext IL{DataModel::ILP32}, LP{DataModel::LP64};
  std::array<std::unique_ptr<CDeclarations>, NumDataModels> CDecls;
  std::unique_ptr<ScriptInfo> Info;

  explicit Analysis(llvm::StringRef Text) {
    FileID F = SM.createFileID(Text, "test.t");
    SM.setMainFileID(F);
    Script *S = parseScript(SM, F, AST, Engine);
    CDeclOptions O;
    O.ScriptPath = "test.t";
    CDecls = CDeclarations::createForAllModels({&IL, &LP}, S->getCPrelude(), O,
                                               Engine);
    Info = analyzeScript(
        {*S, AST, SM, Engine, {CDecls[0].get(), CDecls[1].get()}});
  }
  const VariableInfo *var(llvm::StringRef Name) const {
    for (const VariableInfo &V : Info->Variables)
      if (V.Name == Name)
        return &V;
    return nullptr;
  }
};

TEST(SemaLayout, GlobalsShareOneLP64Block) {
  Analysis A("__global int a;\n__global long b;\n__global char *c;\n"
             "__global String s[20];\n@@BEGIN { }\n");
  ASSERT_TRUE(A.Diags.Messages.empty()) << A.Diags.Messages.front();
  const VariableInfo *Av = A.var("a"), *B = A.var("b"), *C = A.var("c"),
                     *S = A.var("s");
  ASSERT_TRUE(Av && B && C && S);
  EXPECT_EQ(Av->Offsets[TSCC_DM_LP64], 0u);
  EXPECT_EQ(B->Offsets[TSCC_DM_LP64], 8u);  // aligned to 8
  EXPECT_EQ(B->Offsets[TSCC_DM_ILP32], 8u); // one block for both streams
  EXPECT_EQ(B->Sizes[TSCC_DM_ILP32], 8u);   // a global long is 64-bit
  EXPECT_EQ(B->Types[TSCC_DM_ILP32]->getSize(), 8u);
  EXPECT_EQ(C->Sizes[TSCC_DM_ILP32], 8u);
  EXPECT_EQ(C->Offsets[TSCC_DM_LP64], 16u);
  EXPECT_EQ(S->Offsets[TSCC_DM_LP64], 24u);
  EXPECT_EQ(S->Sizes[TSCC_DM_LP64], 20u);
  EXPECT_EQ(A.Info->GlobalSize, 48u); // 44 rounded to the block's alignment
}

TEST(SemaLayout, ThreadLocalsPerModelAfterBitmap) {
  Analysis A("__thread char c;\n__thread long l;\n__thread int i;\n"
             "@@uft:*:a.out:main:entry { c = 1; l = 2; i = 3; }\n");
  ASSERT_TRUE(A.Diags.Messages.empty()) << A.Diags.Messages.front();
  EXPECT_EQ(A.Info->ThreadBitmapSize, 8u);
  const VariableInfo *C = A.var("c"), *L = A.var("l"), *I = A.var("i");
  ASSERT_TRUE(C && L && I);
  EXPECT_EQ(C->WrittenBit, 0u);
  EXPECT_EQ(L->WrittenBit, 1u);
  EXPECT_EQ(I->WrittenBit, 2u);
  EXPECT_EQ(L->Offsets[TSCC_DM_ILP32], 12u);
  EXPECT_EQ(L->Offsets[TSCC_DM_LP64], 16u);
  EXPECT_EQ(I->Offsets[TSCC_DM_ILP32], 16u);
  EXPECT_EQ(I->Offsets[TSCC_DM_LP64], 24u);
  EXPECT_EQ(A.Info->ThreadSize[TSCC_DM_ILP32], 24u);
  EXPECT_EQ(A.Info->ThreadSize[TSCC_DM_LP64], 32u);
  EXPECT_TRUE(A.Info->Clauses[0].Flags & TSCC_CLAUSE_USES_THREAD);
}

TEST(SemaLayout, RecordGlobalsFitEitherModel) {
  Analysis A("struct r { int id; long len; char *name; };\n"
             "__global struct r last;\n@@BEGIN { }\n");
  ASSERT_TRUE(A.Diags.Messages.empty()) << A.Diags.Messages.front();
  const VariableInfo *R = A.var("last");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Sizes[TSCC_DM_ILP32], 24u); // max(12, 24)
  EXPECT_EQ(R->Types[TSCC_DM_ILP32]->getSize(), 12u);
  EXPECT_EQ(R->Types[TSCC_DM_LP64]->getSize(), 24u);
}

TEST(SemaLayout, InitializersAndMaps) {
  Analysis A("__global long base = 1 << 20;\n__global String who = \"x\";\n"
             "__thread long start[long];\n@@BEGIN { }\n");
  ASSERT_TRUE(A.Diags.Messages.empty()) << A.Diags.Messages.front();
  ASSERT_TRUE(A.var("base")->Init);
  EXPECT_EQ(A.var("base")->Init->Int, 1 << 20);
  EXPECT_EQ(A.var("who")->Init->Str, "x");
  ASSERT_EQ(A.Info->Maps.size(), 1u);
  EXPECT_EQ(A.Info->Maps[0].Flags, uint32_t(TSCC_MAP_THREAD));
  EXPECT_EQ(A.Info->Maps[0].KeySize, 8u);
  EXPECT_EQ(A.var("start")->MapId, 0);
}

TEST(SemaLayout, ErrorsAreReportedOnceForBothModels) {
  Analysis A("@@uft:*:a.out:main:entry { x = 1; y = 2; }\n");
  ASSERT_EQ(A.Diags.Messages.size(), 2u);
  EXPECT_EQ(A.Diags.Messages[0], "use of undeclared identifier 'x'");
  EXPECT_EQ(A.Diags.Messages[1], "use of undeclared identifier 'y'");
}

} // namespace
