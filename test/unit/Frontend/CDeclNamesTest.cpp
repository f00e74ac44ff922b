//===- CDeclNamesTest.cpp -------------------------------------------------===//

#include "CDeclNames.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace tscc::parse;

namespace {

/// A tiny tokenizer for the tests: identifiers, brackets, commas, and
/// single-character everything else.
std::vector<CToken> lex(const std::string &S, std::vector<std::string> &Store) {
  Store.clear();
  Store.reserve(S.size());
  std::vector<CToken> Out;
  for (size_t I = 0; I < S.size();) {
    char C = S[I];
    if (isspace(static_cast<unsigned char>(C))) {
      ++I;
      continue;
    }
    size_t J = I + 1;
    CToken::Kind K = CToken::Other;
    if (isalpha(static_cast<unsigned char>(C)) || C == '_') {
      while (J < S.size() &&
             (isalnum(static_cast<unsigned char>(S[J])) || S[J] == '_'))
        ++J;
      static const char *const Keywords[] = {
          "int",   "void",   "char",  "long", "unsigned", "signed",
          "short", "struct", "union", "enum", "const",    "volatile"};
      K = CToken::Identifier;
      for (const char *KW : Keywords)
        if (S.compare(I, J - I, KW) == 0)
          K = CToken::Other;
    } else if (isdigit(static_cast<unsigned char>(C))) {
      while (J < S.size() && isalnum(static_cast<unsigned char>(S[J])))
        ++J;
    } else {
      K = C == '('   ? CToken::LParen
          : C == ')' ? CToken::RParen
          : C == '[' ? CToken::LBracket
          : C == ']' ? CToken::RBracket
          : C == '{' ? CToken::LBrace
          : C == '}' ? CToken::RBrace
          : C == ',' ? CToken::Comma
                     : CToken::Other;
    }
    Store.push_back(S.substr(I, J - I));
    Out.push_back({K, Store.back(), static_cast<unsigned>(Out.size())});
    I = J;
  }
  return Out;
}

std::vector<std::string> names(const std::string &Decl) {
  std::vector<std::string> Store;
  std::vector<CToken> Toks = lex(Decl, Store);
  std::vector<std::string> Out;
  for (size_t I : findDeclaredNames(Toks))
    Out.push_back(Toks[I].Text.str());
  return Out;
}

using V = std::vector<std::string>;

TEST(CDeclNamesTest, SimpleDeclarators) {
  EXPECT_EQ(names("unsigned long size_type"), V{"size_type"});
  EXPECT_EQ(names("char buf_t[16]"), V{"buf_t"});
  EXPECT_EQ(names("struct s *sp, **spp"), (V{"sp", "spp"}));
  EXPECT_EQ(names("my_t x = 3, y"), (V{"x", "y"}));
}

TEST(CDeclNamesTest, FunctionDeclarators) {
  EXPECT_EQ(names("int handle(struct req *r, int flags)"), V{"handle"});
  EXPECT_EQ(names("int (*fn_t)(int sig)"), V{"fn_t"});
  EXPECT_EQ(names("void (*signal(int, void (*)(int)))(int)"), V{"signal"});
  EXPECT_EQ(names("size_t strlen(const char *s) __attribute__((pure))"),
            V{"strlen"});
  EXPECT_EQ(names("int __attribute__((noreturn)) die(void), live(int)"),
            (V{"die", "live"}));
}

TEST(CDeclNamesTest, TagBodiesAreSkipped) {
  EXPECT_EQ(names("struct x { int a; long b; } x_t, *x_p"), (V{"x_t", "x_p"}));
  EXPECT_EQ(names("int aligned_int __attribute__((aligned(8)))"),
            V{"aligned_int"});
}

TEST(CDeclNamesTest, TagNames) {
  std::vector<std::string> Store;
  EXPECT_EQ(findTagName(lex("struct req { int id; }", Store)), "req");
  EXPECT_EQ(findTagName(lex("struct __attribute__((packed)) pk { }", Store)),
            "pk");
  EXPECT_EQ(findTagName(lex("union { int i; } u", Store)), "");
  EXPECT_EQ(findTagName(lex("const enum color { RED }", Store)), "color");
}

TEST(CDeclNamesTest, DirectiveNames) {
  EXPECT_EQ(findDirectiveName("#define BUFSZ (4096 * 2)"), "BUFSZ");
  EXPECT_EQ(findDirectiveName("#  define F(x) x"), "F");
  EXPECT_EQ(findDirectiveName("#include <signal.h>"), "<signal.h>");
  EXPECT_EQ(findDirectiveName("#include \"a b.h\" // c"), "\"a b.h\"");
  EXPECT_EQ(findDirectiveName("#pragma once"), "");
}

} // namespace
