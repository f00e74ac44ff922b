//===- DataModelTest.cpp - Data model helpers agree with Clang ------------===//

#include "tscc/Sema/DataModel.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Basic/TargetOptions.h"

#include "gtest/gtest.h"

using namespace tscc;

namespace {

TEST(DataModelTest, Names) {
  EXPECT_EQ(std::string_view(dataModelName(DataModel::ILP32)), "ILP32");
  EXPECT_EQ(std::string_view(dataModelName(DataModel::LP64)), "LP64");
  EXPECT_EQ(parseDataModel("lp64"), DataModel::LP64);
  EXPECT_EQ(parseDataModel("ILP32"), DataModel::ILP32);
  EXPECT_FALSE(parseDataModel("LP32"));
  EXPECT_EQ(dataModelBits(DataModel::ILP32), 32u);
  EXPECT_EQ(dataModelPointerSize(DataModel::LP64), 8u);
}

// The strings are hard-coded so codegen does not need Clang; Clang's own
// TargetInfo for the triple is the reference.
TEST(DataModelTest, TripleAndDataLayoutMatchClang) {
  for (DataModel DM : AllDataModels) {
    auto Opts = std::make_shared<clang::TargetOptions>();
    Opts->Triple = dataModelTriple(DM).str();
    clang::DiagnosticsEngine Diags(
        llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(),
        llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>());
    std::unique_ptr<clang::TargetInfo> TI(
        clang::TargetInfo::CreateTargetInfo(Diags, Opts));
    ASSERT_TRUE(TI) << dataModelTriple(DM).str();
    EXPECT_EQ(TI->getDataLayoutString(), dataModelDataLayout(DM));
    EXPECT_EQ(TI->getPointerWidth(clang::LangAS::Default) / 8,
              dataModelPointerSize(DM));
    EXPECT_EQ(TI->getLongWidth() / 8, dataModelLongSize(DM));
  }
}

} // namespace
