//===- ObjectEmitterTest.cpp - Emission and clause-table finalisation -----===//
//
// Builds tiny modules by hand (no AST), emits them and checks the object
// with llvm::object: the sections exist with the right flags, the header is
// filled in, and the clause table holds each function's real offset and size.
//
//===----------------------------------------------------------------------===//

#include "tscc/CodeGen/ObjectEmitter.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cstring>
#include <set>

using namespace llvm;
using namespace llvm::object;
using namespace tscc;

namespace {

/// Adds a clause function returning \p Ret (predicates) or storing it to the
/// global block (actions), so that functions get different sizes.
Function *addClauseFunction(Module &M, uint32_t Clause, bool Pred,
                            tscc_data_model Model, int Ret) {
  LLVMContext &Ctx = M.getContext();
  Type *RetTy = Pred ? Type::getInt32Ty(Ctx) : Type::getVoidTy(Ctx);
  auto *FTy = FunctionType::get(RetTy, {PointerType::get(Ctx, 0)}, false);
  Function *F = Function::Create(FTy, GlobalValue::ExternalLinkage,
                                 clauseFunctionName(Clause, Pred, Model), M);
  F->setSection(textSectionName(Model));
  F->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  if (Pred) {
    B.CreateRet(B.getInt32(Ret));
    return F;
  }
  // ctx->globals is the third pointer of struct tscc_ctx.
  Value *GlobalsPtr =
      B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), F->getArg(0), 16);
  Value *Globals = B.CreateLoad(B.getPtrTy(), GlobalsPtr);
  for (int I = 0; I <= Ret; ++I)
    B.CreateStore(B.getInt64(I * 7 + 1),
                  B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Globals, I * 8));
  B.CreateRetVoid();
  return F;
}

struct Emitted {
  SmallVector<char, 0> Bytes;
  std::unique_ptr<ELF64LEObjectFile> Obj;
};

class ObjectEmitterTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto E = ObjectEmitter::create(Opts);
    ASSERT_TRUE(bool(E)) << toString(E.takeError());
    Emitter = std::move(*E);
    M = std::make_unique<Module>("test", Ctx);
    Emitter->configureModule(*M);
  }

  void emit(ObjectTables &Tables, Emitted &Out) {
    Tables.finishHeader("test.t", "@@BEGIN { }\n");
    Emitter->addTables(*M, Tables);
    ASSERT_FALSE(bool(Emitter->optimize(*M)));
    Error Err = Emitter->emit(*M, Out.Bytes);
    ASSERT_FALSE(bool(Err)) << toString(std::move(Err));
    MemoryBufferRef Ref(StringRef(Out.Bytes.data(), Out.Bytes.size()), "t.o");
    auto Obj = ELF64LEObjectFile::create(Ref);
    ASSERT_TRUE(bool(Obj)) << toString(Obj.takeError());
    Out.Obj = std::make_unique<ELF64LEObjectFile>(std::move(*Obj));
  }

  static std::optional<SectionRef> section(const ELF64LEObjectFile &O,
                                           StringRef Name) {
    for (const SectionRef &S : O.sections())
      if (Expected<StringRef> N = S.getName(); N && *N == Name)
        return S;
    return std::nullopt;
  }

  /// (st_value, st_size) of a defined symbol.
  static std::pair<uint64_t, uint64_t> symbol(const ELF64LEObjectFile &O,
                                              StringRef Name) {
    for (const ELFSymbolRef &S : O.symbols())
      if (Expected<StringRef> N = S.getName(); N && *N == Name)
        return {cantFail(S.getValue()), S.getSize()};
    ADD_FAILURE() << "no symbol " << Name.str();
    return {0, 0};
  }

  CodeGenOptions Opts;
  LLVMContext Ctx;
  std::unique_ptr<ObjectEmitter> Emitter;
  std::unique_ptr<Module> M;
};

TEST_F(ObjectEmitterTest, EverySectionIsPresentAndRetained) {
  ObjectTables T;
  T.Clauses.push_back(ObjectTables::makeClause(0));
  for (auto DM : {TSCC_DM_ILP32, TSCC_DM_LP64})
    addClauseFunction(*M, 0, /*Pred=*/false, DM, 1);
  Emitted E;
  emit(T, E);

  for (StringRef Name :
       {TSCC_SEC_HEADER, TSCC_SEC_CLAUSES, TSCC_SEC_PROBES, TSCC_SEC_FORMATS,
        TSCC_SEC_FIELDS, TSCC_SEC_MAPS, TSCC_SEC_AGGS, TSCC_SEC_WITHIN,
        TSCC_SEC_STRTAB, TSCC_SEC_TEXT_ILP32, TSCC_SEC_TEXT_LP64}) {
    auto S = section(*E.Obj, Name);
    ASSERT_TRUE(S.has_value()) << Name.str();
    ELFSectionRef ES(*S);
    EXPECT_TRUE(ES.getFlags() & ELF::SHF_ALLOC) << Name.str();
    EXPECT_TRUE(ES.getFlags() & ELF::SHF_GNU_RETAIN) << Name.str();
    // Tables are plain integers: nothing may relocate them.
    if (!Name.starts_with("tscc_text")) {
      EXPECT_EQ(S->relocations().begin(), S->relocations().end()) << Name.str();
    }
  }
  EXPECT_TRUE(ELFSectionRef(*section(*E.Obj, TSCC_SEC_TEXT_LP64)).getFlags() &
              ELF::SHF_EXECINSTR);
}

TEST_F(ObjectEmitterTest, HeaderCarriesVersionCountsAndStrings) {
  ObjectTables T;
  T.Clauses.push_back(ObjectTables::makeClause(0));
  T.Within.push_back(T.Strings.add("handle"));
  T.Header.global_size = 24;
  for (auto DM : {TSCC_DM_ILP32, TSCC_DM_LP64})
    addClauseFunction(*M, 0, /*Pred=*/false, DM, 0);
  Emitted E;
  emit(T, E);

  StringRef Bytes = cantFail(section(*E.Obj, TSCC_SEC_HEADER)->getContents());
  ASSERT_GE(Bytes.size(), sizeof(tscc_header));
  tscc_header H;
  std::memcpy(&H, Bytes.data(), sizeof(H));
  EXPECT_EQ(0, std::memcmp(H.magic, TSCC_MAGIC, TSCC_MAGIC_SIZE));
  EXPECT_EQ(TSCC_ABI_MAJOR, H.abi_major);
  EXPECT_EQ(TSCC_ABI_MINOR, H.abi_minor);
  EXPECT_EQ(sizeof(tscc_header), H.header_size);
  EXPECT_EQ(fnv1a64("@@BEGIN { }\n", 12), H.source_hash);
  EXPECT_EQ(1u, H.clause_count);
  EXPECT_EQ(1u, H.within_count);
  EXPECT_EQ(24u, H.global_size);

  StringRef Str = cantFail(section(*E.Obj, TSCC_SEC_STRTAB)->getContents());
  EXPECT_EQ(H.strtab_size, Str.size());
  EXPECT_EQ('\0', Str[0]);
  EXPECT_EQ("test.t", StringRef(Str.data() + H.source_name));
  EXPECT_TRUE(StringRef(Str.data() + H.compiler_version)
                  .starts_with("tscc 0.1.0 (LLVM 19."));
}

TEST_F(ObjectEmitterTest, ClauseTableHoldsSymbolOffsetsAndSizes) {
  ObjectTables T;
  for (uint32_t C = 0; C != 3; ++C) {
    T.Clauses.push_back(ObjectTables::makeClause(C));
    for (auto DM : {TSCC_DM_ILP32, TSCC_DM_LP64}) {
      // Clause 1 has no predicate; the others do.
      if (C != 1)
        addClauseFunction(*M, C, /*Pred=*/true, DM, C + 1);
      addClauseFunction(*M, C, /*Pred=*/false, DM, C + DM);
    }
  }
  Emitted E;
  emit(T, E);

  StringRef Bytes = cantFail(section(*E.Obj, TSCC_SEC_CLAUSES)->getContents());
  ASSERT_EQ(3 * sizeof(tscc_clause), Bytes.size());
  // All five functions of a model share one section, so their offsets
  // differ (a per-function section would make every offset 0).
  std::set<uint32_t> Offsets[TSCC_DM_COUNT];
  for (uint32_t C = 0; C != 3; ++C) {
    tscc_clause Row;
    std::memcpy(&Row, Bytes.data() + C * sizeof(Row), sizeof(Row));
    for (auto DM : {TSCC_DM_ILP32, TSCC_DM_LP64}) {
      Offsets[DM].insert(Row.stream[DM].action_offset);
      if (Row.stream[DM].pred_offset != TSCC_NO_CODE)
        Offsets[DM].insert(Row.stream[DM].pred_offset);
    }
  }
  EXPECT_EQ(5u, Offsets[TSCC_DM_ILP32].size());
  EXPECT_EQ(5u, Offsets[TSCC_DM_LP64].size());
  for (uint32_t C = 0; C != 3; ++C) {
    tscc_clause Row;
    std::memcpy(&Row, Bytes.data() + C * sizeof(Row), sizeof(Row));
    EXPECT_EQ(C, Row.id);
    for (auto DM : {TSCC_DM_ILP32, TSCC_DM_LP64}) {
      const tscc_stream_entry &S = Row.stream[DM];
      auto [AOff, ASize] = symbol(*E.Obj, clauseFunctionName(C, false, DM));
      EXPECT_EQ(AOff, S.action_offset);
      EXPECT_EQ(ASize, S.action_size);
      EXPECT_GT(S.action_size, 0u);
      if (C == 1) {
        EXPECT_EQ(TSCC_NO_CODE, S.pred_offset);
        EXPECT_EQ(0u, S.pred_size);
        continue;
      }
      auto [POff, PSize] = symbol(*E.Obj, clauseFunctionName(C, true, DM));
      EXPECT_EQ(POff, S.pred_offset);
      EXPECT_EQ(PSize, S.pred_size);
      EXPECT_GT(S.pred_size, 0u);
    }
  }
}

TEST_F(ObjectEmitterTest, MissingActionIsAnError) {
  ObjectTables T;
  T.Clauses.push_back(ObjectTables::makeClause(0));
  addClauseFunction(*M, 0, /*Pred=*/false, TSCC_DM_LP64, 0);
  T.finishHeader("t.t", "");
  Emitter->addTables(*M, T);
  SmallVector<char, 0> Bytes;
  Error Err = Emitter->emit(*M, Bytes);
  ASSERT_TRUE(bool(Err));
  EXPECT_NE(std::string::npos,
            toString(std::move(Err)).find("tscc_clause0_action_ilp32"));
}

TEST_F(ObjectEmitterTest, FunctionInTheWrongSectionIsAnError) {
  ObjectTables T;
  T.Clauses.push_back(ObjectTables::makeClause(0));
  addClauseFunction(*M, 0, /*Pred=*/false, TSCC_DM_LP64, 0);
  Function *F = addClauseFunction(*M, 0, /*Pred=*/false, TSCC_DM_ILP32, 0);
  F->setSection(TSCC_SEC_TEXT_LP64);
  T.finishHeader("t.t", "");
  Emitter->addTables(*M, T);
  SmallVector<char, 0> Bytes;
  Error Err = Emitter->emit(*M, Bytes);
  ASSERT_TRUE(bool(Err));
  EXPECT_NE(std::string::npos,
            toString(std::move(Err)).find("expected 'tscc_text_ilp32'"));
}

TEST_F(ObjectEmitterTest, NoUndefinedSymbolsBeyondTheMemFunctions) {
  ObjectTables T;
  T.Clauses.push_back(ObjectTables::makeClause(0));
  for (auto DM : {TSCC_DM_ILP32, TSCC_DM_LP64})
    addClauseFunction(*M, 0, /*Pred=*/false, DM, 40);
  Emitted E;
  emit(T, E);
  for (const ELFSymbolRef &S : E.Obj->symbols()) {
    if (cantFail(S.getSection()) != E.Obj->section_end() ||
        S.getELFType() == ELF::STT_FILE)
      continue;
    StringRef Name = cantFail(S.getName());
    if (Name.empty())
      continue;
    EXPECT_TRUE(Name == "memcpy" || Name == "memset" || Name == "memmove")
        << "unexpected undefined symbol " << Name.str();
  }
}

TEST_F(ObjectEmitterTest, HelperFunctionsShareTheirStreamSection) {
  ObjectTables T;
  T.Clauses.push_back(ObjectTables::makeClause(0));
  for (auto DM : {TSCC_DM_ILP32, TSCC_DM_LP64}) {
    addClauseFunction(*M, 0, /*Pred=*/false, DM, 0);
    // An internal helper in the same section, not referenced by anything.
    auto *FTy = FunctionType::get(Type::getVoidTy(Ctx), false);
    Function *H = Function::Create(FTy, GlobalValue::InternalLinkage,
                                   "helper_" + dataModelSuffix(DM).str(), *M);
    H->setSection(textSectionName(DM));
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", H));
    B.CreateRetVoid();
  }
  Emitted E;
  emit(T, E);
  unsigned Count[2] = {0, 0};
  for (const SectionRef &S : E.Obj->sections()) {
    StringRef Name = cantFail(S.getName());
    Count[0] += Name == TSCC_SEC_TEXT_ILP32;
    Count[1] += Name == TSCC_SEC_TEXT_LP64;
  }
  EXPECT_EQ(1u, Count[0]);
  EXPECT_EQ(1u, Count[1]);
}

TEST(ObjectStringTableTest, DeduplicatesAndStartsWithEmpty) {
  ObjectStringTable S;
  EXPECT_EQ(0u, S.add(""));
  uint32_t A = S.add("abc");
  EXPECT_EQ(1u, A);
  EXPECT_EQ(A, S.add("abc"));
  uint32_t B = S.add("de");
  EXPECT_EQ(5u, B);
  EXPECT_EQ(StringRef("\0abc\0de\0", 8), S.data());
}

TEST(FnvTest, KnownVectors) {
  EXPECT_EQ(0xcbf29ce484222325ULL, fnv1a64("", 0));
  EXPECT_EQ(0xaf63dc4c8601ec8cULL, fnv1a64("a", 1));
}

} // namespace
