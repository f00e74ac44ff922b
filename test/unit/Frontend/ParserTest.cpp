//===- ParserTest.cpp - parseScript, ASTBuilder, visitor ------------------===//

#include "tscc/Parse/Parser.h"
#include "tscc/AST/ASTContext.h"
#include "tscc/AST/RecursiveASTVisitor.h"
#include "tscc/Basic/Diagnostic.h"
#include "tscc/Basic/SourceManager.h"

#include "gtest/gtest.h"

using namespace tscc;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

struct ParserFixture : ::testing::Test {
  ParserFixture() : Printer(OS, &SM), Diags(SM, &Printer) {}

  Script *parse(llvm::StringRef Text, const ParseOptions &Opts = {}) {
    File = SM.createFileID(Text, "p.t");
    return parseScript(SM, File, Ctx, Diags, Opts);
  }
  std::pair<unsigned, unsigned> lc(SourceLocation L) {
    return {SM.getLineNumber(L), SM.getColumnNumber(L)};
  }
  Expr *firstExpr(Script *S, unsigned Clause = 0, unsigned Stmt = 0) {
    auto *ES =
        dyn_cast<ExprStmt>(S->getClauses()[Clause]->getBody()->body()[Stmt]);
    return ES ? ES->getExpr() : nullptr;
  }

  SourceManager SM;
  ASTContext Ctx;
  std::string Out;
  llvm::raw_string_ostream OS{Out};
  TextDiagnosticPrinter Printer;
  DiagnosticsEngine Diags;
  FileID File;
};

TEST_F(ParserFixture, VariablesCarryTheirShape) {
  Script *S =
      parse("__thread long start[long];\nString s[64] = \"x\";\nint *p, q;\n");
  ASSERT_FALSE(Diags.hasErrorOccurred()) << OS.str();
  ASSERT_EQ(S->getVars().size(), 4u);
  VarDecl *Start = S->getVars()[0];
  EXPECT_EQ(Start->getName(), "start");
  EXPECT_EQ(Start->getStorageClass(), StorageClass::Thread);
  EXPECT_TRUE(Start->isStorageClassExplicit());
  EXPECT_TRUE(Start->isTopLevel());
  ASSERT_EQ(Start->getKeyTypes().size(), 1u);
  EXPECT_EQ(Start->getKeyTypes()[0]->getBuiltinKind(), BuiltinTypeKind::Long);
  VarDecl *Str = S->getVars()[1];
  EXPECT_EQ(Str->getStorageClass(), StorageClass::Global);
  EXPECT_FALSE(Str->isStorageClassExplicit());
  ASSERT_TRUE(Str->getTypeSpec()->isString());
  auto *Cap = dyn_cast<IntegerLiteral>(Str->getTypeSpec()->getStringCapacity());
  ASSERT_TRUE(Cap);
  EXPECT_EQ(Cap->getValue(), 64u);
  EXPECT_TRUE(isa<StringLiteral>(Str->getInit()));
  EXPECT_EQ(S->getVars()[2]->getTypeSpec()->getPointerDepth(), 1u);
  EXPECT_EQ(S->getVars()[3]->getTypeSpec()->getPointerDepth(), 0u);
  EXPECT_EQ(lc(S->getVars()[3]->getNameLoc()), std::make_pair(3u, 9u));
}

TEST_F(ParserFixture, ProbeFieldsAndProviders) {
  Script *S = parse("@@uft:*:a.out:/a:b/:entry, @@END\nwhen (1) { }\n");
  ASSERT_FALSE(Diags.hasErrorOccurred()) << OS.str();
  ASSERT_EQ(S->getClauses().size(), 1u);
  Clause *C = S->getClauses()[0];
  ASSERT_EQ(C->getProbes().size(), 2u);
  ProbeSpec *P = C->getProbes()[0];
  EXPECT_EQ(P->getProvider(), ProbeProvider::Uft);
  ASSERT_EQ(P->getFields().size(), 5u);
  EXPECT_EQ(P->getFields()[3].Text, "/a:b/");
  EXPECT_TRUE(P->getFields()[3].IsRegex);
  EXPECT_EQ(lc(P->getFields()[3].Range.getBegin()), std::make_pair(1u, 15u));
  EXPECT_EQ(lc(P->getFields()[3].Range.getEnd()), std::make_pair(1u, 19u));
  EXPECT_EQ(C->getProbes()[1]->getProvider(), ProbeProvider::End);
  ASSERT_TRUE(C->getPredicate());
  EXPECT_EQ(lc(C->getWhenLoc()), std::make_pair(2u, 1u));
}

TEST_F(ParserFixture, PreludeHasLineMarkers) {
  Script *S =
      parse("#include <x.h>\n\n  struct s { int a; };\nlong v;\nint f(int);\n");
  ASSERT_FALSE(Diags.hasErrorOccurred()) << OS.str();
  EXPECT_EQ(S->getCPrelude(), "#line 1 \"p.t\"\n#include <x.h>\n"
                              "#line 3 \"p.t\"\n  struct s { int a; };\n"
                              "#line 5 \"p.t\"\nint f(int);\n");
  ASSERT_EQ(S->getPrototypeNames().size(), 1u);
  EXPECT_EQ(S->getPrototypeNames()[0].Name, "f");
  ASSERT_EQ(S->getCDecls().size(), 3u);
  EXPECT_EQ(S->getCDecls()[1].K, CDeclChunk::Kind::Tag);
  EXPECT_EQ(S->getCDecls()[1].Name, "s");
}

TEST_F(ParserFixture, BuiltinsParamsAndArgIndex) {
  Script *S = parse("@@BEGIN { x = __arg3 + __arg12 + __arg0 + $2; }");
  ASSERT_FALSE(Diags.hasErrorOccurred()) << OS.str();
  struct Collect : RecursiveASTVisitor<Collect> {
    std::vector<std::optional<unsigned>> Args;
    unsigned Params = 0;
    bool visitBuiltinVarExpr(BuiltinVarExpr *B) {
      Args.push_back(B->getArgIndex());
      return true;
    }
    bool visitParamExpr(ParamExpr *P) {
      Params += P->getIndex();
      return true;
    }
  } C;
  C.traverse(S);
  ASSERT_EQ(C.Args.size(), 3u);
  EXPECT_EQ(C.Args[0], 3u);
  EXPECT_EQ(C.Args[1], 12u);
  EXPECT_EQ(C.Args[2], std::nullopt);
  EXPECT_EQ(C.Params, 2u);
}

TEST_F(ParserFixture, VisitorOrderAndEarlyStop) {
  Script *S = parse("@@BEGIN { x = a + b; y = c; }");
  ASSERT_FALSE(Diags.hasErrorOccurred());
  struct Order : RecursiveASTVisitor<Order> {
    std::vector<std::string> Seen;
    bool Post = false;
    bool shouldTraversePostOrder() const { return Post; }
    bool visitDeclRefExpr(DeclRefExpr *D) {
      Seen.push_back(D->getName().str());
      return D->getName() != "b";
    }
    bool visitBinaryOperator(BinaryOperator *) {
      Seen.push_back("+");
      return true;
    }
  } Pre, Post;
  EXPECT_FALSE(Pre.traverse(S)); // stopped at b
  EXPECT_EQ(Pre.Seen, (std::vector<std::string>{"x", "+", "a", "b"}));
  Post.Post = true;
  EXPECT_FALSE(Post.traverse(S));
  EXPECT_EQ(Post.Seen, (std::vector<std::string>{"x", "a", "b"}));
}

TEST_F(ParserFixture, TypeSpecsPrint) {
  Script *S = parse("const unsigned char **p;\nstruct req r[2][N];\n");
  ASSERT_FALSE(Diags.hasErrorOccurred()) << OS.str();
  EXPECT_EQ(S->getVars()[0]->getTypeSpec()->getAsString(),
            "const unsigned char **");
  EXPECT_EQ(S->getVars()[1]->getTypeSpec()->getAsString(), "struct req [2][N]");
  EXPECT_EQ(S->getVars()[1]->getTypeSpec()->getBaseAsString(), "struct req");
}

TEST_F(ParserFixture, TypeNameHookDecidesCasts) {
  ParseOptions Opts;
  Opts.IsTypeName = [](llvm::StringRef N) { return N == "word"; };
  Script *S = parse("@@BEGIN { x = (word)-1; y = (size_t)-1; }", Opts);
  ASSERT_FALSE(Diags.hasErrorOccurred()) << OS.str();
  auto *A = cast<AssignExpr>(firstExpr(S, 0, 0));
  EXPECT_TRUE(isa<CastExpr>(A->getRHS()));
  // With a hook, the _t convention no longer applies.
  auto *B = cast<AssignExpr>(firstExpr(S, 0, 1));
  EXPECT_TRUE(isa<BinaryOperator>(B->getRHS()));
}

TEST_F(ParserFixture, ExpressionTextTakesTheOriginRange) {
  File = SM.createFileID("@@BEGIN { x = BUFSZ; }", "m.t");
  SourceRange Origin(SM.getLocation(File, 1, 15), SM.getLocation(File, 1, 15));
  Expr *E = parseExpressionText("(4096 * 2)", Origin, SM, Ctx, Diags, "BUFSZ");
  ASSERT_TRUE(E) << OS.str();
  auto *P = dyn_cast<ParenExpr>(E);
  ASSERT_TRUE(P);
  EXPECT_EQ(P->getSourceRange(), Origin);
  EXPECT_EQ(P->getSubExpr()->getSourceRange(), Origin);
  EXPECT_FALSE(Diags.hasErrorOccurred());

  Expr *Bad = parseExpressionText("4096 *", Origin, SM, Ctx, Diags, "BAD");
  EXPECT_EQ(Bad, nullptr);
  EXPECT_NE(OS.str().find("BAD:1:7: error: expected expression"),
            std::string::npos)
      << OS.str();
  EXPECT_NE(OS.str().find("m.t:1:15: note: while parsing BAD used here"),
            std::string::npos)
      << OS.str();
}

TEST_F(ParserFixture, SyntaxErrorsStillGiveAScript) {
  Script *S = parse("long x\n@@BEGIN { y = ; }\n@@END { z = 1; }\n");
  EXPECT_TRUE(S);
  EXPECT_EQ(Diags.getNumErrors(), 2u) << OS.str();
  // The clause after the errors is intact.
  ASSERT_FALSE(S->getClauses().empty());
  EXPECT_EQ(S->getClauses().back()->getProbes()[0]->getProvider(),
            ProbeProvider::End);
}

TEST_F(ParserFixture, InvalidUTF8IsReportedNotFatal) {
  std::string Text = "@@BEGIN { x = 1; } \xff\xfe // caf\xc3\xa9\n@@END { }";
  Script *S = parse(Text);
  EXPECT_EQ(Diags.getNumErrors(), 2u) << OS.str();
  EXPECT_NE(OS.str().find("p.t:1:20: error: invalid character '\\xff'"),
            std::string::npos)
      << OS.str();
  EXPECT_EQ(S->getClauses().size(), 2u);
}

TEST_F(ParserFixture, NonASCIIKeepsByteColumns) {
  Script *S =
      parse("// \xc3\xa9t\xc3\xa9\n@@BEGIN { printf(\"\xc3\xa9\"); x = ; }");
  EXPECT_EQ(Diags.getNumErrors(), 1u);
  EXPECT_NE(OS.str().find("p.t:2:29: error: expected expression"),
            std::string::npos)
      << OS.str();
  auto *Call = cast<CallExpr>(firstExpr(S));
  EXPECT_EQ(cast<StringLiteral>(Call->getArg(0))->getBytes(), "\xc3\xa9");
}

} // namespace

namespace {

TEST_F(ParserFixture, GnuConditionalEvaluatesItsConditionOnce) {
  // The true expression of `x ?: y` stands for the condition: visitors see
  // x once, and the opaque value refers back to it.
  Script *S = parse("@@BEGIN { z = x ?: y; }");
  ASSERT_FALSE(Diags.hasErrorOccurred()) << OS.str();
  auto *C =
      dyn_cast<ConditionalOperator>(cast<AssignExpr>(firstExpr(S))->getRHS());
  ASSERT_TRUE(C);
  auto *O = dyn_cast<OpaqueValueExpr>(C->getTrueExpr());
  ASSERT_TRUE(O);
  EXPECT_EQ(O->getSourceExpr(), C->getCond());
  struct Names : RecursiveASTVisitor<Names> {
    std::vector<std::string> Seen;
    bool visitDeclRefExpr(DeclRefExpr *D) {
      Seen.push_back(D->getName().str());
      return true;
    }
  } V;
  EXPECT_TRUE(V.traverse(S));
  EXPECT_EQ(V.Seen, (std::vector<std::string>{"z", "x", "y"}));
}

TEST_F(ParserFixture, TypeNamesWithParenthesisedDeclarators) {
  Script *S = parse("@@BEGIN { x = (short (*)[3])p; y = sizeof(void (*)(int)); "
                    "z = (int (*[2])(char *, ...))q; }");
  ASSERT_FALSE(Diags.hasErrorOccurred()) << OS.str();
  auto TypeOf = [&](unsigned I) {
    Expr *R = cast<AssignExpr>(firstExpr(S, 0, I))->getRHS();
    if (auto *C = dyn_cast<CastExpr>(R))
      return C->getTypeSpec();
    return cast<SizeofExpr>(R)->getTypeOperand();
  };
  TypeSpec *P = TypeOf(0);
  EXPECT_EQ(P->getAsString(), "short (*)[3]");
  ASSERT_TRUE(P->getNested());
  EXPECT_EQ(P->getNested()->PointerDepth, 1u);
  EXPECT_EQ(P->getArrayDims().size(), 1u);
  EXPECT_EQ(TypeOf(1)->getAsString(), "void (*)(int)");
  ASSERT_TRUE(TypeOf(1)->getFunction());
  EXPECT_EQ(TypeOf(2)->getAsString(), "int (*[2])(char *, ...)");
  EXPECT_TRUE(TypeOf(2)->getFunction()->Variadic);
}

TEST_F(ParserFixture, PrefixedCharacterConstants) {
  Script *S = parse("@@BEGIN { a = L'\\xffffffff'; b = u'\\u20ac'; "
                    "c = U'\\U0001F600'; d = 'x'; }");
  ASSERT_FALSE(Diags.hasErrorOccurred()) << OS.str();
  auto Lit = [&](unsigned I) {
    return cast<CharLiteral>(cast<AssignExpr>(firstExpr(S, 0, I))->getRHS());
  };
  EXPECT_EQ(Lit(0)->getCharKind(), CharLiteralKind::Wide);
  EXPECT_EQ(Lit(0)->getValue(), 0xffffffffLL); // sema types it as wchar_t
  EXPECT_EQ(Lit(1)->getCharKind(), CharLiteralKind::UTF16);
  EXPECT_EQ(Lit(1)->getValue(), 0x20ac);
  EXPECT_EQ(Lit(2)->getCharKind(), CharLiteralKind::UTF32);
  EXPECT_EQ(Lit(2)->getValue(), 0x1F600);
  EXPECT_EQ(Lit(3)->getCharKind(), CharLiteralKind::Plain);
}

TEST_F(ParserFixture, CharacterConstantTooLargeForItsPrefix) {
  parse("@@BEGIN { a = u'\\x12345'; }");
  EXPECT_TRUE(Diags.hasErrorOccurred());
}

} // namespace
