//===- SourceInput.cpp - ANTLR input over a SourceManager buffer ----------===//

#include "SourceInput.h"

using namespace tscc;
using namespace tscc::parse;

/// Decodes one UTF-8 sequence at \p I; returns its length (1 for an invalid
/// byte, which decodes to U+FFFD).
static unsigned decodeUTF8(llvm::StringRef S, size_t I, char32_t &CP) {
  auto Byte = [&](size_t K) { return static_cast<unsigned char>(S[K]); };
  unsigned char B = Byte(I);
  CP = 0xFFFD;
  unsigned Len = B >= 0xF0 && B <= 0xF4   ? 4
                 : B >= 0xE0 && B <= 0xEF ? 3
                 : B >= 0xC2 && B <= 0xDF ? 2
                                          : 0;
  if (B < 0x80) {
    CP = B;
    return 1;
  }
  if (Len == 0 || I + Len > S.size())
    return 1;
  char32_t V = B & (0x7F >> Len);
  for (unsigned K = 1; K < Len; ++K) {
    if ((Byte(I + K) & 0xC0) != 0x80)
      return 1;
    V = (V << 6) | (Byte(I + K) & 0x3F);
  }
  // Reject overlong forms and surrogates; the runtime cannot re-encode them.
  if ((Len == 3 && V < 0x800) || (Len == 4 && (V < 0x10000 || V > 0x10FFFF)) ||
      (V >= 0xD800 && V <= 0xDFFF))
    return 1;
  CP = V;
  return Len;
}

SourceInput::SourceInput(llvm::StringRef Bytes, llvm::StringRef Name)
    : Name(Name.str()) {
  NumBytes = Bytes.size();
  _data.clear();
  _data.reserve(Bytes.size());
  for (size_t I = 0; I < Bytes.size();) {
    char32_t CP;
    unsigned Len = decodeUTF8(Bytes, I, CP);
    if (Len != 1 || CP >= 0x80) {
      if (Identity) {
        // First non-ASCII character: materialise the map so far.
        Identity = false;
        Offsets.resize(_data.size());
        for (size_t K = 0; K < _data.size(); ++K)
          Offsets[K] = K;
      }
    }
    if (!Identity)
      Offsets.push_back(I);
    _data.push_back(CP);
    I += Len;
  }
  if (!Identity)
    Offsets.push_back(Bytes.size());
  p = 0;
}

/// Tokens conjured by error recovery have no position.
static bool isConjured(const antlr4::Token *T) {
  return T->getType() != antlr4::Token::EOF &&
         T->getStartIndex() == INVALID_INDEX;
}

SourceLocation TokenMap::loc(const antlr4::Token *T) const {
  if (!T || isConjured(T))
    return {};
  if (T->getType() == antlr4::Token::EOF)
    return SM.getLocForOffset(File, SM.getBufferData(File).size());
  return SM.getLocForOffset(File, In.byteOffset(T->getStartIndex()));
}

SourceLocation TokenMap::locAfter(const antlr4::Token *T) const {
  if (!T || isConjured(T))
    return {};
  if (T->getType() == antlr4::Token::EOF ||
      T->getStopIndex() < T->getStartIndex())
    return loc(T);
  return SM.getLocForOffset(File, In.byteOffset(T->getStopIndex() + 1));
}

SourceRange TokenMap::range(const antlr4::Token *First,
                            const antlr4::Token *Last) const {
  if (!First || isConjured(First))
    return {};
  if (!Last || isConjured(Last) ||
      Last->getTokenIndex() < First->getTokenIndex() ||
      Last->getType() == antlr4::Token::EOF)
    Last = First;
  return SourceRange(loc(First), loc(Last));
}

SourceRange TokenMap::range(const antlr4::ParserRuleContext *Ctx) const {
  if (!Ctx)
    return {};
  // ANTLR's accessors are not const.
  auto *C = const_cast<antlr4::ParserRuleContext *>(Ctx);
  return range(C->getStart(), C->getStop());
}

llvm::StringRef TokenMap::spelling(const antlr4::Token *T) const {
  if (!T || isConjured(T) || T->getType() == antlr4::Token::EOF ||
      T->getStopIndex() < T->getStartIndex())
    return {};
  return text(T, T);
}

llvm::StringRef TokenMap::text(const antlr4::Token *First,
                               const antlr4::Token *Last) const {
  if (isConjured(First) || isConjured(Last))
    return {};
  llvm::StringRef Buf = SM.getBufferData(File);
  unsigned B = In.byteOffset(First->getStartIndex());
  unsigned E = In.byteOffset(Last->getStopIndex() + 1);
  if (E < B)
    return {};
  return Buf.slice(B, E);
}
