//===- CDeclarationsTest.cpp - Clang-backed C declarations ----------------===//

#include "tscc/Sema/CDeclarations.h"
#include "tscc/Basic/Diagnostic.h"
#include "tscc/Basic/SourceManager.h"
#include "tscc/Sema/TypeContext.h"

#include "gtest/gtest.h"

using namespace tscc;

namespace {

class CollectingConsumer : public DiagnosticConsumer {
public:
  void handleDiagnostic(const Diagnostic &D) override { Diags.push_back(D); }
  std::vector<Diagnostic> Diags;
};

/// A script file, its prelude (one #line marker, as the frontend writes
/// it), and both models parsed.
class CDeclTest : public ::testing::Test {
protected:
  void parse(llvm::StringRef Script, CDeclOptions Opts = {}) {
    Opts.ScriptPath = "test.t";
    SM.createFileID(Script, "test.t");
    std::string Prelude = "#line 1 \"test.t\"\n" + Script.str();
    auto Ds =
        CDeclarations::createForAllModels({&T32, &T64}, Prelude, Opts, Diags);
    D32 = std::move(Ds[0]);
    D64 = std::move(Ds[1]);
  }

  SourceManager SM;
  CollectingConsumer Consumer;
  DiagnosticsEngine Diags{SM, &Consumer};
  TypeContext T32{DataModel::ILP32}, T64{DataModel::LP64};
  std::unique_ptr<CDeclarations> D32, D64;
};

TEST_F(CDeclTest, LongLongMembersAlignToFourOnI386) {
  parse("struct s { char c; long long x; double d; };\n");
  ASSERT_FALSE(Diags.hasErrorOccurred());
  const RecordType *S32 = D32->lookupStruct("s");
  const RecordType *S64 = D64->lookupStruct("s");
  ASSERT_TRUE(S32 && S64);
  EXPECT_EQ(S32->lookupField("x")->getByteOffset(), 4u);
  EXPECT_EQ(S32->getSize(), 20u);
  EXPECT_EQ(S32->getAlign(), 4u);
  EXPECT_EQ(S64->lookupField("x")->getByteOffset(), 8u);
  EXPECT_EQ(S64->getSize(), 24u);
  EXPECT_EQ(S64->getAlign(), 8u);
  EXPECT_EQ(S32->getDataModel(), DataModel::ILP32);
}

TEST_F(CDeclTest, LayoutsAreCachedPerRecord) {
  parse("struct node { struct node *next; int v; };\n");
  const RecordType *A = D64->lookupStruct("node");
  size_t N = T64.getNumTypes();
  EXPECT_EQ(D64->lookupStruct("node"), A);
  EXPECT_EQ(T64.getNumTypes(), N);
  // The self-reference resolves to the same record.
  const auto *Next = A->lookupField("next")->getType()->getAs<PointerType>();
  ASSERT_TRUE(Next);
  EXPECT_EQ(Next->getPointee()->getCanonical(), A);
  EXPECT_NE(D32->lookupStruct("node"), nullptr);
  EXPECT_EQ(D32->lookupStruct("node")->getSize(), 8u);
  EXPECT_EQ(A->getSize(), 16u);
}

TEST_F(CDeclTest, BitFieldsPackedAndAligned) {
  parse("struct bf { unsigned a : 3; unsigned : 2; int b : 7; char c; };\n"
        "struct __attribute__((packed)) pk { char c; int i; short s; };\n"
        "struct al { char c; int i __attribute__((aligned(16))); };\n");
  ASSERT_FALSE(Diags.hasErrorOccurred());
  const RecordType *BF = D64->lookupStruct("bf");
  ASSERT_TRUE(BF);
  // The unnamed bit-field pads but is not a member.
  ASSERT_EQ(BF->fields().size(), 3u);
  EXPECT_EQ(BF->fields()[0].BitOffset, 0u);
  EXPECT_EQ(BF->fields()[0].BitWidth, 3u);
  EXPECT_EQ(BF->fields()[1].BitOffset, 5u);
  EXPECT_EQ(BF->fields()[1].BitWidth, 7u);
  EXPECT_FALSE(BF->fields()[2].isBitField());
  EXPECT_EQ(BF->fields()[2].BitOffset, 16u);
  const RecordType *PK = D32->lookupStruct("pk");
  EXPECT_EQ(PK->getSize(), 7u);
  EXPECT_EQ(PK->getAlign(), 1u);
  EXPECT_EQ(PK->lookupField("i")->getByteOffset(), 1u);
  const RecordType *AL = D32->lookupStruct("al");
  EXPECT_EQ(AL->lookupField("i")->getByteOffset(), 16u);
  EXPECT_EQ(AL->getSize(), 32u);
  EXPECT_EQ(AL->getAlign(), 16u);
}

TEST_F(CDeclTest, AlignedTypedefs) {
  parse("typedef int int_a8 __attribute__((aligned(8)));\n"
        "typedef int_a8 again;\n"
        "typedef long long ll;\n");
  ASSERT_FALSE(Diags.hasErrorOccurred());
  for (CDeclarations *D : {D32.get(), D64.get()}) {
    const Type *A8 = D->lookupTypedef("int_a8");
    ASSERT_TRUE(A8);
    EXPECT_EQ(A8->getSize(), 4u);
    EXPECT_EQ(A8->getAlign(), 8u);
    EXPECT_EQ(D->lookupTypedef("again")->getAlign(), 8u);
    EXPECT_EQ(A8->getCanonical()->getAlign(), 4u);
  }
  // A plain typedef keeps its type's alignment: 4 for long long on i386.
  EXPECT_EQ(D32->lookupTypedef("ll")->getAlign(), 4u);
  EXPECT_FALSE(
      llvm::cast<TypedefType>(D32->lookupTypedef("ll"))->getAlignOverride());
}

TEST_F(CDeclTest, SystemHeadersAreTheTargetsOwn) {
  parse("#include <signal.h>\n#include <fcntl.h>\n");
  ASSERT_FALSE(Diags.hasErrorOccurred());
  const RecordType *S32 = D32->lookupStruct("sigaction");
  const RecordType *S64 = D64->lookupStruct("sigaction");
  ASSERT_TRUE(S32 && S64);
  EXPECT_EQ(S32->getSize(), 140u);
  EXPECT_EQ(S64->getSize(), 152u);
  EXPECT_EQ(S32->lookupField("sa_mask")->getByteOffset(), 4u);
  EXPECT_EQ(S64->lookupField("sa_mask")->getByteOffset(), 8u);
  const Type *PidT = D32->lookupTypedef("pid_t");
  ASSERT_TRUE(PidT);
  EXPECT_EQ(PidT->getName(), "pid_t");
  EXPECT_EQ(PidT->getCanonical(), T32.getInt());
  EXPECT_EQ(D32->lookupTypedef("size_t")->getCanonical(), T32.getUInt());
  EXPECT_EQ(D64->lookupTypedef("size_t")->getCanonical(), T64.getULong());
  EXPECT_EQ(D64->lookupTypedef("no_such_type_t"), nullptr);
  EXPECT_EQ(D64->lookupUnion("sigaction"), nullptr);
  EXPECT_NE(D64->lookupUnion("sigval"), nullptr);
}

TEST_F(CDeclTest, ObjectLikeMacrosExpandFully) {
  parse("#include <signal.h>\n#include <fcntl.h>\n#include <stdint.h>\n"
        "#define TWICE(x) ((x) * 2)\n#define FOUR TWICE(2)\n"
        "#define PASTE(a, b) a##b\n#define LIMIT PASTE(12, 34)\n");
  ASSERT_FALSE(Diags.hasErrorOccurred());
  for (CDeclarations *D : {D32.get(), D64.get()}) {
    EXPECT_EQ(D->lookupMacro("SIGINT"), "2");
    EXPECT_EQ(D->lookupMacro("O_CREAT"), "0100");
    EXPECT_EQ(D->lookupMacro("sa_handler"), "__sigaction_handler.sa_handler");
    EXPECT_EQ(D->lookupMacro("SIG_IGN"), "((__sighandler_t) 1)");
    EXPECT_EQ(D->lookupMacro("FOUR"), "((2) * 2)");
    EXPECT_EQ(D->lookupMacro("LIMIT"), "1234");
    EXPECT_FALSE(D->lookupMacro("TWICE"));
    EXPECT_TRUE(D->isFunctionLikeMacro("TWICE"));
    EXPECT_FALSE(D->isFunctionLikeMacro("SIGINT"));
    EXPECT_FALSE(D->lookupMacro("NO_SUCH_MACRO"));
    EXPECT_FALSE(D->lookupMacro(""));
  }
  // Per model: the 64-bit constant macros use different suffixes.
  EXPECT_EQ(D32->lookupMacro("INT64_MAX"), "(9223372036854775807LL)");
  EXPECT_EQ(D64->lookupMacro("INT64_MAX"), "(9223372036854775807L)");
}

TEST_F(CDeclTest, RepeatedMacroLookupsAreStable) {
  parse("#define A B\n#define B 7\n");
  for (int I = 0; I != 2000; ++I)
    ASSERT_EQ(D64->lookupMacro("A"), "7");
  EXPECT_FALSE(Diags.hasErrorOccurred());
}

TEST_F(CDeclTest, BrokenMacroExpansionsAreReportedNotReturned) {
  parse("#define CALL(x) x\n#define BROKEN CALL(\n#define EMPTY\n");
  ASSERT_FALSE(Diags.hasErrorOccurred());
  EXPECT_FALSE(D64->lookupMacro("BROKEN"));
  EXPECT_TRUE(Diags.hasErrorOccurred());
  EXPECT_EQ(Consumer.Diags[0].Message,
            "unterminated function-like macro invocation");
  // The preprocessor is still usable afterwards.
  EXPECT_EQ(D64->lookupMacro("EMPTY"), "");
}

TEST_F(CDeclTest, CommandLineMacros) {
  CDeclOptions Opts;
  Opts.Macros.push_back({"BUFSZ", "64"});
  Opts.Macros.push_back({"GONE", "1"});
  Opts.Macros.push_back({"GONE", "", /*Undef=*/true});
  parse("struct b { char buf[BUFSZ]; };\n", Opts);
  ASSERT_FALSE(Diags.hasErrorOccurred());
  EXPECT_EQ(D64->lookupStruct("b")->getSize(), 64u);
  EXPECT_EQ(D64->lookupMacro("BUFSZ"), "64");
  EXPECT_FALSE(D64->lookupMacro("GONE"));
}

TEST_F(CDeclTest, EnumeratorsPrototypesAndMembers) {
  parse("#include <signal.h>\n"
        "enum color { RED = -1, GREEN = 5, BLUE };\n"
        "struct req { int id; long len; char *name; };\n"
        "int handle(struct req *r, int flags);\n"
        "int old_style();\n"
        "int logf(const char *fmt, ...);\n");
  ASSERT_FALSE(Diags.hasErrorOccurred());
  std::optional<EnumeratorValue> Blue = D64->lookupEnumerator("BLUE");
  ASSERT_TRUE(Blue);
  EXPECT_EQ(Blue->Value, 6);
  EXPECT_EQ(Blue->Enum, D64->lookupEnum("color"));
  EXPECT_EQ(D64->lookupEnumerator("RED")->Value, -1);
  EXPECT_TRUE(D64->lookupEnum("color")->isSigned());
  EXPECT_EQ(D64->lookupEnum("color")->enumerators().size(), 3u);
  EXPECT_FALSE(D64->lookupEnumerator("PURPLE"));

  const FunctionType *H = D32->lookupFunction("handle");
  ASSERT_TRUE(H);
  EXPECT_EQ(H->getName(), "int (struct req *, int)");
  ASSERT_EQ(H->getParams().size(), 2u);
  EXPECT_EQ(H->getParams()[0]->getAs<PointerType>()->getPointee(),
            D32->lookupStruct("req"));
  EXPECT_FALSE(D32->lookupFunction("old_style")->hasPrototype());
  EXPECT_TRUE(D32->lookupFunction("logf")->isVariadic());
  EXPECT_NE(D32->lookupFunction("sigaction"), nullptr);
  EXPECT_EQ(D32->lookupFunction("no_such_function"), nullptr);

  // `act->sa_handler` is a macro for a path through a named union.
  for (CDeclarations *D : {D32.get(), D64.get()}) {
    const RecordType *SA = D->lookupStruct("sigaction");
    std::optional<FieldPath> P = D->lookupMember(SA, "sa_handler");
    ASSERT_TRUE(P);
    EXPECT_EQ(P->Fields.size(), 2u);
    EXPECT_EQ(P->getByteOffset(), 0u);
    EXPECT_EQ(P->getType()->getName(), "__sighandler_t");
    EXPECT_TRUE(D->lookupMember(SA, "sa_flags"));
    EXPECT_FALSE(D->lookupMember(SA, "SIGINT"));
    EXPECT_FALSE(D->lookupMember(SA, "nope"));
  }
  EXPECT_EQ(D32->lookupMember(D32->lookupStruct("sigaction"), "sa_flags")
                ->getByteOffset(),
            132u);
}

TEST_F(CDeclTest, TypeNamesAndOffsetof) {
  parse("#include <signal.h>\n"
        "struct pt { short x, y; };\n"
        "struct m { int n; struct pt p[4]; };\n");
  ASSERT_FALSE(Diags.hasErrorOccurred());
  auto Name = [&](CDeclarations &D, llvm::StringRef S) -> std::string {
    auto T = D.parseTypeName(S);
    if (!T)
      return "error: " + llvm::toString(T.takeError());
    return (*T)->getName();
  };
  EXPECT_EQ(Name(*D64, "struct sigaction"), "struct sigaction");
  EXPECT_EQ(Name(*D64, "unsigned long *"), "unsigned long *");
  EXPECT_EQ(Name(*D64, "long unsigned int"), "unsigned long");
  EXPECT_EQ(Name(*D64, "const char *const *"), "char **");
  EXPECT_EQ(Name(*D64, "unsigned"), "unsigned int");
  EXPECT_EQ(Name(*D64, "signed char"), "signed char");
  EXPECT_EQ(Name(*D64, "long long int"), "long long");
  EXPECT_EQ(Name(*D64, "short int"), "short");
  EXPECT_EQ(Name(*D64, "long double"), "long double");
  EXPECT_EQ(Name(*D64, "char [16]"), "char[16]");
  EXPECT_EQ(Name(*D64, "int (*)(int, ...)"), "int (*)(int, ...)");
  EXPECT_EQ(Name(*D64, "int (*)[4]"), "int (*)[4]");
  EXPECT_EQ(Name(*D64, "pid_t"), "pid_t");
  EXPECT_EQ(Name(*D64, "String"), "String");
  EXPECT_EQ(Name(*D64, "foo_t"), "error: unknown type name 'foo_t'");
  EXPECT_EQ(Name(*D64, "struct nope"), "error: unknown type 'struct nope'");
  EXPECT_EQ(Name(*D64, "int int"),
            "error: cannot combine 'int' with a previous type specifier");
  EXPECT_EQ(Name(*D64, "int (int"), "error: expected ')' after parameters");
  EXPECT_EQ(Name(*D64, "int (*"), "error: expected ')'");
  EXPECT_EQ(Name(*D64, ""), "error: expected a type name");
  EXPECT_EQ(Name(*D64, "int $"), "error: unexpected character '$' in 'int $'");

  EXPECT_EQ(llvm::cantFail(D32->evaluateSizeof("struct sigaction")), 140u);
  EXPECT_EQ(llvm::cantFail(D64->evaluateSizeof("long")), 8u);
  EXPECT_EQ(llvm::cantFail(D32->evaluateSizeof("long")), 4u);
  llvm::Expected<uint64_t> Void = D64->evaluateSizeof("void");
  EXPECT_FALSE(Void);
  llvm::consumeError(Void.takeError());

  const RecordType *M = D64->lookupStruct("m");
  auto Off = [&](llvm::StringRef Designator) -> std::string {
    auto Steps = CDeclarations::parseDesignator(Designator);
    if (!Steps)
      return "error: " + llvm::toString(Steps.takeError());
    auto O = CDeclarations::evaluateOffsetof(M, *Steps);
    if (!O)
      return "error: " + llvm::toString(O.takeError());
    return std::to_string(*O);
  };
  EXPECT_EQ(Off("n"), "0");
  EXPECT_EQ(Off("p"), "4");
  EXPECT_EQ(Off("p[1].x"), "8");
  EXPECT_EQ(Off("p[2].y"), "14");
  EXPECT_EQ(Off("q"), "error: no member named 'q' in 'struct m'");
  EXPECT_EQ(Off("n[1]"), "error: subscript of non-array type 'int'");
  EXPECT_EQ(Off("p.x"),
            "error: member reference 'x' into non-record type 'struct pt[4]'");
  EXPECT_EQ(Off("p[1"), "error: expected '[index]' in designator 'p[1'");
}

TEST_F(CDeclTest, ClangErrorsLandOnTheScriptLine) {
  parse("struct ok { int a; };\n"
        "struct bad {\n"
        "  int a;\n"
        "  foo_t b;\n"
        "};\n");
  EXPECT_TRUE(D32->hasErrors());
  EXPECT_TRUE(D64->hasErrors());
  // Same error in both models: reported once, without a model tag.
  ASSERT_EQ(Consumer.Diags.size(), 1u);
  const Diagnostic &D = Consumer.Diags[0];
  EXPECT_EQ(D.Severity, diag::Level::Error);
  // A position in the script becomes an ordinary location in its buffer.
  ASSERT_TRUE(D.Loc.isValid());
  EXPECT_EQ(SM.getBufferName(SM.getFileID(D.Loc)), "test.t");
  EXPECT_EQ(SM.getLineNumber(D.Loc), 4u);
  EXPECT_EQ(SM.getColumnNumber(D.Loc), 3u);
  EXPECT_EQ(D.Message, "unknown type name 'foo_t'");
  EXPECT_EQ(Diags.getNumErrors(), 1u);
  // Recovery: the good declarations are still there.
  EXPECT_NE(D64->lookupStruct("ok"), nullptr);
}

TEST_F(CDeclTest, ModelSpecificErrorsNameTheModel) {
  parse("_Static_assert(sizeof(long) == 8, \"needs LP64\");\n");
  EXPECT_TRUE(D32->hasErrors());
  EXPECT_FALSE(D64->hasErrors());
  ASSERT_GE(Consumer.Diags.size(), 1u);
  EXPECT_EQ(Consumer.Diags[0].Severity, diag::Level::Error);
  EXPECT_EQ(SM.getLineNumber(Consumer.Diags[0].Loc), 1u);
  EXPECT_TRUE(
      llvm::StringRef(Consumer.Diags[0].Message).ends_with(" [ILP32 only]"))
      << Consumer.Diags[0].Message;
}

TEST_F(CDeclTest, MissingHeaderIsAnError) {
  parse("#include <no/such/header.h>\n");
  ASSERT_FALSE(Consumer.Diags.empty());
  EXPECT_EQ(Consumer.Diags[0].Message, "'no/such/header.h' file not found");
  EXPECT_EQ(SM.getLineNumber(Consumer.Diags[0].Loc), 1u);
  EXPECT_EQ(SM.getColumnNumber(Consumer.Diags[0].Loc), 10u);
  EXPECT_TRUE(Diags.hasErrorOccurred());
}

TEST_F(CDeclTest, TagsDeclaredInsideStructsHaveFileScope) {
  parse("struct outer { struct inner { int a; } in; struct fwd *p;\n"
        "  enum mode { M_A = 3 } m; };\n");
  ASSERT_FALSE(Diags.hasErrorOccurred());
  const RecordType *Inner = D64->lookupStruct("inner");
  ASSERT_TRUE(Inner);
  EXPECT_EQ(Inner, D64->lookupStruct("outer")->lookupField("in")->getType());
  const RecordType *Fwd = D64->lookupStruct("fwd");
  ASSERT_TRUE(Fwd);
  EXPECT_FALSE(Fwd->isComplete());
  EXPECT_NE(D64->lookupEnum("mode"), nullptr);
  EXPECT_EQ(D64->lookupEnumerator("M_A")->Value, 3);
}

TEST_F(CDeclTest, EmptyPrelude) {
  parse("");
  EXPECT_FALSE(Diags.hasErrorOccurred());
  EXPECT_FALSE(D32->hasErrors());
  EXPECT_EQ(D32->lookupStruct("x"), nullptr);
  EXPECT_EQ(llvm::cantFail(D32->evaluateSizeof("unsigned long long")), 8u);
}

} // namespace
