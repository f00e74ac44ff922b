//===- CDeclNames.cpp - Names declared by verbatim C declarations ---------===//

#include "CDeclNames.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstdint>
#include <vector>

using namespace tscc::parse;

bool tscc::parse::isCAttributeKeyword(llvm::StringRef Name) {
  return llvm::StringSwitch<bool>(Name)
      .Cases("__attribute__", "__attribute", "__declspec", "__asm__", "__asm",
             "asm", true)
      .Cases("__extension__", "__restrict", "__restrict__", "restrict",
             "__inline", "__inline__", "inline", true)
      .Cases("__typeof__", "__typeof", "typeof", "_Alignas", "alignas", true)
      .Cases("extern", "static", "register", "auto", "_Noreturn", true)
      .Cases("__const", "__volatile__", "__signed__", "_Atomic", true)
      .Default(false);
}

llvm::SmallVector<size_t, 2>
tscc::parse::findDeclaredNames(llvm::ArrayRef<CToken> Toks) {
  llvm::SmallVector<size_t, 2> Names;
  // Kinds of the open brackets: true for the ones whose contents never
  // declare the outer name (parameter lists, attributes, subscripts,
  // bodies).
  std::vector<bool> Hidden;
  auto InHidden = [&] {
    for (bool H : Hidden)
      if (H)
        return true;
    return false;
  };
  bool AfterInit = false; // past '=' in this declarator
  size_t Last = SIZE_MAX;
  const CToken *Prev = nullptr;
  for (size_t I = 0; I < Toks.size(); ++I) {
    const CToken &T = Toks[I];
    switch (T.K) {
    case CToken::LParen: {
      bool ParamList =
          Prev && ((Prev->K == CToken::Identifier) ||
                   Prev->K == CToken::RParen || Prev->K == CToken::RBracket);
      Hidden.push_back(ParamList);
      break;
    }
    case CToken::LBracket:
    case CToken::LBrace:
      Hidden.push_back(true);
      break;
    case CToken::RParen:
    case CToken::RBracket:
    case CToken::RBrace:
      if (!Hidden.empty())
        Hidden.pop_back();
      break;
    case CToken::Comma:
      if (Hidden.empty()) {
        if (Last != SIZE_MAX)
          Names.push_back(Last);
        Last = SIZE_MAX;
        AfterInit = false;
      }
      break;
    case CToken::Identifier:
      if (!InHidden() && !AfterInit && !isCAttributeKeyword(T.Text))
        Last = I;
      break;
    case CToken::Other:
      if (Hidden.empty() && T.Text == "=")
        AfterInit = true;
      break;
    }
    Prev = &T;
  }
  if (Last != SIZE_MAX)
    Names.push_back(Last);
  return Names;
}

llvm::StringRef tscc::parse::findTagName(llvm::ArrayRef<CToken> Toks) {
  size_t I = 0;
  while (I < Toks.size() && Toks[I].Text != "struct" &&
         Toks[I].Text != "union" && Toks[I].Text != "enum")
    ++I;
  for (++I; I < Toks.size(); ++I) {
    const CToken &T = Toks[I];
    if (T.K == CToken::LBrace)
      return {};
    if (T.K == CToken::Identifier && !isCAttributeKeyword(T.Text))
      return T.Text;
    if (T.K == CToken::LParen) {
      // Skip an attribute's argument list.
      unsigned Depth = 0;
      for (; I < Toks.size(); ++I) {
        if (Toks[I].K == CToken::LParen)
          ++Depth;
        else if (Toks[I].K == CToken::RParen && --Depth == 0)
          break;
      }
    }
  }
  return {};
}

llvm::StringRef tscc::parse::findDirectiveName(llvm::StringRef D) {
  D = D.drop_front().ltrim(" \t"); // '#'
  llvm::StringRef Word = D.take_while([](char C) { return llvm::isAlpha(C); });
  llvm::StringRef Rest = D.drop_front(Word.size()).ltrim(" \t");
  if (Word == "define" || Word == "undef")
    return Rest.take_while([](char C) { return llvm::isAlnum(C) || C == '_'; });
  if (Word == "include" || Word == "include_next" || Word == "import") {
    if (Rest.starts_with("<")) {
      size_t E = Rest.find('>');
      return Rest.take_front(E == llvm::StringRef::npos ? Rest.size() : E + 1);
    }
    if (Rest.starts_with("\"")) {
      size_t E = Rest.find('"', 1);
      return Rest.take_front(E == llvm::StringRef::npos ? Rest.size() : E + 1);
    }
    return Rest.rtrim();
  }
  return {};
}
