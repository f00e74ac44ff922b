//===- TypeNames.cpp - The "lexer hack" -----------------------------------===//

#include "TypeNames.h"
#include "CDeclNames.h"

#include "TraceScriptParser.h"

#include "llvm/ADT/StringSet.h"

using namespace tscc;
using namespace tscc::parse;
using P = tscc_grammar::TraceScriptParser;
using antlr4::Token;

static CToken::Kind cKind(size_t Type) {
  switch (Type) {
  case P::Identifier:
  case P::TypeName:
    return CToken::Identifier;
  case P::LParen:
    return CToken::LParen;
  case P::RParen:
    return CToken::RParen;
  case P::LBracket:
    return CToken::LBracket;
  case P::RBracket:
    return CToken::RBracket;
  case P::LBrace:
    return CToken::LBrace;
  case P::RBrace:
    return CToken::RBrace;
  case P::Comma:
    return CToken::Comma;
  default:
    return CToken::Other;
  }
}

/// The names declared by `typedef ... ;` at the top level of the script.
static void collectTypedefs(const std::vector<Token *> &Toks,
                            const TokenMap &Map, llvm::StringSet<> &Names) {
  unsigned Depth = 0;
  for (size_t I = 0; I < Toks.size(); ++I) {
    size_t Type = Toks[I]->getType();
    if (Type == P::LBrace)
      ++Depth;
    else if (Type == P::RBrace && Depth)
      --Depth;
    if (Type != P::Typedef || Depth != 0)
      continue;
    std::vector<CToken> Decl;
    unsigned Inner = 0;
    size_t J = I + 1;
    for (; J < Toks.size(); ++J) {
      size_t T = Toks[J]->getType();
      if (T == Token::EOF || (T == P::Semi && Inner == 0))
        break;
      if (T == P::LBrace || T == P::LParen || T == P::LBracket)
        ++Inner;
      else if ((T == P::RBrace || T == P::RParen || T == P::RBracket) && Inner)
        --Inner;
      Decl.push_back(
          {cKind(T), Map.spelling(Toks[J]), static_cast<unsigned>(J)});
    }
    for (size_t K : findDeclaredNames(Decl))
      Names.insert(Decl[K].Text);
    I = J;
  }
}

static bool startsOperand(size_t Type) {
  switch (Type) {
  case P::Identifier:
  case P::TypeName:
  case P::Number:
  case P::CharLiteral:
  case P::StringLiteral:
  case P::Param:
  case P::AggName:
  case P::LParen:
  case P::Sizeof:
  case P::Alignof:
  case P::Offsetof:
  case P::Tilde:
  case P::Not:
    return true;
  default:
    return false;
  }
}

/// Whether a '(' after a token of type \p Prev can open a cast: not when it
/// is a call's or a statement's parenthesis (`f(x) y` is not a cast, nor is
/// `if (x) y = 1;`).
static bool parenCanBeCast(size_t Prev) {
  switch (Prev) {
  case P::Identifier:
  case P::TypeName:
  case P::RParen:
  case P::RBracket:
  case P::Number:
  case P::CharLiteral:
  case P::StringLiteral:
  case P::Param:
  case P::AggName:
  case P::If:
  case P::When:
  case P::While:
  case P::Switch:
  case P::For:
    return false;
  default:
    return true;
  }
}

/// `( x )` followed by an operand, or `( x *... )`: a cast of x.
static bool looksLikeCast(const std::vector<Token *> &Toks, size_t I) {
  if (I == 0 || Toks[I - 1]->getType() != P::LParen)
    return false;
  if (I >= 2 && !parenCanBeCast(Toks[I - 2]->getType()))
    return false;
  size_t J = I + 1;
  if (J < Toks.size() && Toks[J]->getType() == P::Star) {
    while (J < Toks.size() && Toks[J]->getType() == P::Star)
      ++J;
    return J < Toks.size() && Toks[J]->getType() == P::RParen;
  }
  return J + 1 < Toks.size() && Toks[J]->getType() == P::RParen &&
         startsOperand(Toks[J + 1]->getType());
}

void tscc::parse::markTypeNames(const std::vector<Token *> &Toks,
                                const TokenMap &Map, const ParseOptions &Opts) {
  llvm::StringSet<> Typedefs;
  collectTypedefs(Toks, Map, Typedefs);
  auto IsTypeName = [&](llvm::StringRef Name) {
    if (Typedefs.contains(Name))
      return true;
    if (Opts.IsTypeName)
      return Opts.IsTypeName(Name);
    return Name.size() > 2 && Name.ends_with("_t");
  };
  for (size_t I = 0; I < Toks.size(); ++I) {
    if (Toks[I]->getType() != P::Identifier)
      continue;
    if (I > 0) {
      size_t Prev = Toks[I - 1]->getType();
      if (Prev == P::Dot || Prev == P::Arrow || Prev == P::Struct ||
          Prev == P::Union || Prev == P::Enum)
        continue;
    }
    if (I + 1 < Toks.size() && Toks[I + 1]->getType() == P::LParen)
      continue;
    if (!IsTypeName(Map.spelling(Toks[I])) && !looksLikeCast(Toks, I))
      continue;
    if (auto *CT = dynamic_cast<antlr4::CommonToken *>(Toks[I]))
      CT->setType(P::TypeName);
  }
}
