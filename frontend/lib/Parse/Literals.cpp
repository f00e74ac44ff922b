//===- Literals.cpp - Decoding C literals ---------------------------------===//

#include "Literals.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace tscc;
using namespace tscc::parse;

static bool isDigitOfRadix(char C, unsigned Radix) {
  switch (Radix) {
  case 2:
    return C == '0' || C == '1';
  case 8:
    return C >= '0' && C <= '7';
  case 10:
    return llvm::isDigit(C);
  default:
    return llvm::isHexDigit(C);
  }
}

/// u, l, ll and their combinations, in either case (but not lL).
static bool parseIntegerSuffix(llvm::StringRef S, IntegerValue &Out) {
  bool SawU = false;
  while (!S.empty()) {
    if ((S[0] == 'u' || S[0] == 'U') && !SawU) {
      SawU = true;
      S = S.drop_front();
      continue;
    }
    if ((S.starts_with("ll") || S.starts_with("LL")) &&
        Out.Size == IntegerLiteral::SizeSuffix::None) {
      Out.Size = IntegerLiteral::SizeSuffix::LongLong;
      S = S.drop_front(2);
      continue;
    }
    if ((S[0] == 'l' || S[0] == 'L') &&
        Out.Size == IntegerLiteral::SizeSuffix::None) {
      Out.Size = IntegerLiteral::SizeSuffix::Long;
      S = S.drop_front();
      continue;
    }
    return false;
  }
  Out.Unsigned = SawU;
  return true;
}

static bool looksFloating(llvm::StringRef S, unsigned Radix) {
  if (S.contains('.'))
    return true;
  if (Radix == 16)
    return S.find_first_of("pP") != llvm::StringRef::npos;
  // A decimal exponent: digits then e/E then an optional sign and digits.
  size_t E = S.find_first_of("eE");
  return Radix != 2 && E != llvm::StringRef::npos &&
         S.take_front(E).find_first_not_of("0123456789") ==
             llvm::StringRef::npos &&
         E + 1 < S.size() &&
         (llvm::isDigit(S[E + 1]) || S[E + 1] == '+' || S[E + 1] == '-');
}

bool tscc::parse::decodeInteger(llvm::StringRef S, SourceLocation Loc,
                                DiagnosticsEngine &Diags, IntegerValue &Out) {
  Out = IntegerValue();
  size_t I = 0;
  if (S.size() >= 2 && S[0] == '0' && (S[1] == 'x' || S[1] == 'X')) {
    Out.Radix = 16;
    I = 2;
  } else if (S.size() >= 2 && S[0] == '0' && (S[1] == 'b' || S[1] == 'B')) {
    Out.Radix = 2;
    I = 2;
  } else if (S.size() >= 2 && S[0] == '0' && llvm::isDigit(S[1])) {
    // A lone "0" is formally octal; calling it decimal changes nothing.
    Out.Radix = 8;
  }
  if (looksFloating(S, Out.Radix)) {
    Diags.report(Loc, diag::err_floating_unsupported);
    return false;
  }
  size_t DigitsBegin = I;
  // Octal constants may contain 8 and 9 lexically; they are diagnosed.
  unsigned LexRadix = Out.Radix == 8 ? 10 : Out.Radix;
  while (I < S.size() && isDigitOfRadix(S[I], LexRadix))
    ++I;
  llvm::StringRef Digits = S.slice(DigitsBegin, I);
  if (Digits.empty() && Out.Radix != 8) {
    // "0x" alone: clang calls the 'x' an invalid suffix on "0".
    Diags.report(Loc, diag::err_invalid_suffix) << S.drop_front(1);
    return false;
  }
  if (!parseIntegerSuffix(S.substr(I), Out)) {
    Diags.report(Loc.getLocWithOffset(I), diag::err_invalid_suffix)
        << S.substr(I);
    return false;
  }
  for (size_t K = 0; K < Digits.size(); ++K)
    if (!isDigitOfRadix(Digits[K], Out.Radix)) {
      Diags.report(Loc.getLocWithOffset(DigitsBegin + K),
                   diag::err_invalid_digit)
          << Digits.substr(K, 1) << 0;
      return false;
    }
  if (Digits.empty()) // plain "0"
    return true;
  if (Digits.getAsInteger(Out.Radix, Out.Value)) {
    Diags.report(Loc, diag::err_integer_too_large);
    return false;
  }
  return true;
}

namespace {
/// Reads one possibly escaped character of a char/string literal body.
class EscapeReader {
public:
  /// \p Max is the largest value an escape may have: 0xFF for bytes,
  /// more for the code units of wide constants, whose plain characters are
  /// decoded from UTF-8 and which also take `\u` and `\U` names.
  EscapeReader(llvm::StringRef Body, SourceLocation BodyLoc,
               DiagnosticsEngine &Diags, uint32_t Max = 0xFF)
      : Body(Body), BodyLoc(BodyLoc), Diags(Diags), Max(Max) {}

  bool atEnd() const { return I >= Body.size(); }
  size_t pos() const { return I; }
  void skip(size_t N) { I = std::min(I + N, Body.size()); }

  /// Reads one character; false if it was malformed (already reported).
  bool next(uint32_t &C) {
    if (Body[I] != '\\') {
      if (Max > 0xFF && static_cast<unsigned char>(Body[I]) >= 0x80)
        return readUTF8(C);
      C = static_cast<unsigned char>(Body[I++]);
      return true;
    }
    size_t Start = I++;
    if (atEnd()) {
      C = '\\';
      return true;
    }
    char E = Body[I++];
    switch (E) {
    case 'n':
      C = '\n';
      return true;
    case 't':
      C = '\t';
      return true;
    case 'r':
      C = '\r';
      return true;
    case 'a':
      C = '\a';
      return true;
    case 'b':
      C = '\b';
      return true;
    case 'f':
      C = '\f';
      return true;
    case 'v':
      C = '\v';
      return true;
    case 'e':
      C = 0x1b;
      return true; // GNU extension, common in scripts
    case '\\':
    case '\'':
    case '"':
    case '?':
      C = E;
      return true;
    case 'x':
      return readHex(Start, C);
    case 'u':
    case 'U':
      if (Max > 0xFF)
        return readUCN(Start, E == 'u' ? 4 : 8, C);
      break;
    default:
      break;
    }
    if (E >= '0' && E <= '7') {
      uint32_t V = E - '0';
      for (int K = 0; K < 2 && !atEnd() && Body[I] >= '0' && Body[I] <= '7';
           ++K)
        V = V * 8 + (Body[I++] - '0');
      if (V > Max) {
        Diags.report(BodyLoc.getLocWithOffset(Start),
                     diag::err_escape_too_large)
            << 1;
        return false;
      }
      C = V;
      return true;
    }
    // Unknown escapes are a warning in C compilers: the character stands
    // for itself.
    Diags.report(BodyLoc.getLocWithOffset(Start), diag::warn_unknown_escape)
        << Body.substr(I - 1, 1);
    C = static_cast<unsigned char>(E);
    return true;
  }

private:
  bool readHex(size_t Start, uint32_t &C) {
    size_t B = I;
    uint64_t V = 0;
    bool Overflow = false;
    while (!atEnd() && llvm::isHexDigit(Body[I])) {
      V = V * 16 + llvm::hexDigitValue(Body[I++]);
      Overflow |= V > Max;
    }
    if (I == B) {
      Diags.report(BodyLoc.getLocWithOffset(Start),
                   diag::err_hex_escape_no_digits);
      return false;
    }
    if (Overflow) {
      Diags.report(BodyLoc.getLocWithOffset(Start), diag::err_escape_too_large)
          << 0;
      return false;
    }
    C = static_cast<uint32_t>(V);
    return true;
  }

  /// `\u00e9`, `\U0001F600`: exactly \p Digits hex digits.
  bool readUCN(size_t Start, unsigned Digits, uint32_t &C) {
    uint32_t V = 0;
    for (unsigned K = 0; K < Digits; ++K) {
      if (atEnd() || !llvm::isHexDigit(Body[I])) {
        Diags.report(BodyLoc.getLocWithOffset(Start),
                     diag::err_hex_escape_no_digits);
        return false;
      }
      V = V * 16 + llvm::hexDigitValue(Body[I++]);
    }
    if (V > Max || V > 0x10FFFF) {
      Diags.report(BodyLoc.getLocWithOffset(Start), diag::err_escape_too_large)
          << 0;
      return false;
    }
    C = V;
    return true;
  }

  /// One UTF-8 encoded character of a wide constant (gcc's source charset
  /// is UTF-8); an invalid sequence stands for its first byte.
  bool readUTF8(uint32_t &C) {
    unsigned char B0 = static_cast<unsigned char>(Body[I]);
    unsigned Len = B0 >= 0xF0 ? 4 : B0 >= 0xE0 ? 3 : B0 >= 0xC0 ? 2 : 1;
    uint32_t V = Len == 4 ? B0 & 0x07 : Len == 3 ? B0 & 0x0F : B0 & 0x1F;
    if (Len == 1 || I + Len > Body.size()) {
      C = B0;
      ++I;
      return true;
    }
    for (unsigned K = 1; K < Len; ++K) {
      unsigned char B = static_cast<unsigned char>(Body[I + K]);
      if ((B & 0xC0) != 0x80) {
        C = B0;
        ++I;
        return true;
      }
      V = (V << 6) | (B & 0x3F);
    }
    I += Len;
    if (V > Max) {
      Diags.report(BodyLoc.getLocWithOffset(I - Len),
                   diag::err_escape_too_large)
          << 0;
      return false;
    }
    C = V;
    return true;
  }

  llvm::StringRef Body;
  SourceLocation BodyLoc;
  DiagnosticsEngine &Diags;
  uint32_t Max;
  size_t I = 0;
};

/// The part between the quotes, honouring a missing closing quote.
llvm::StringRef literalBody(llvm::StringRef S, char Quote) {
  S = S.drop_front(); // opening quote
  // The body ends at the first unescaped quote.
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '\\') {
      ++I;
      continue;
    }
    if (S[I] == Quote)
      return S.take_front(I);
  }
  return S;
}
} // namespace

bool tscc::parse::decodeCharLiteral(llvm::StringRef S, SourceLocation Loc,
                                    DiagnosticsEngine &Diags, int64_t &Value,
                                    CharLiteralKind &Kind) {
  Value = 0;
  Kind = CharLiteralKind::Plain;
  if (!S.starts_with("'")) {
    Kind = S[0] == 'L'   ? CharLiteralKind::Wide
           : S[0] == 'u' ? CharLiteralKind::UTF16
                         : CharLiteralKind::UTF32;
    return decodeWideChar(S.drop_front(), Loc.getLocWithOffset(1), Diags,
                          Kind == CharLiteralKind::UTF16 ? 0xFFFF : 0xFFFFFFFF,
                          Value);
  }
  llvm::StringRef Body = literalBody(S, '\'');
  if (Body.empty()) {
    Diags.report(Loc, diag::err_empty_character);
    return false;
  }
  EscapeReader R(Body, Loc.getLocWithOffset(1), Diags);
  unsigned Count = 0;
  uint32_t Acc = 0, C = 0;
  bool OK = true;
  while (!R.atEnd()) {
    OK &= R.next(C);
    Acc = (Acc << 8) | (C & 0xFF);
    ++Count;
  }
  if (!OK)
    return false;
  // An unterminated constant was reported already; do not pile on.
  bool Terminated =
      S.size() >= 2 && S.ends_with("'") && Body.size() + 2 == S.size();
  if (Count > 1) {
    if (Terminated)
      Diags.report(Loc, diag::warn_multichar_character);
    Value = static_cast<int32_t>(Acc);
    return true;
  }
  // A plain char is signed on the targets we compile for (i386, x86-64).
  Value = static_cast<int8_t>(C & 0xFF);
  return true;
}

bool tscc::parse::decodeWideChar(llvm::StringRef S, SourceLocation Loc,
                                 DiagnosticsEngine &Diags, uint32_t Max,
                                 int64_t &Value) {
  // gcc: one code unit of the prefix's width; with several characters the
  // last one counts (a warning, as for 'ab').
  llvm::StringRef Body = literalBody(S, '\'');
  if (Body.empty()) {
    Diags.report(Loc, diag::err_empty_character);
    return false;
  }
  EscapeReader R(Body, Loc.getLocWithOffset(1), Diags, Max);
  unsigned Count = 0;
  uint32_t C = 0;
  bool OK = true;
  while (!R.atEnd()) {
    OK &= R.next(C);
    ++Count;
  }
  if (!OK)
    return false;
  if (Count > 1 && S.ends_with("'"))
    Diags.report(Loc, diag::warn_multichar_character);
  // wchar_t is a signed 32-bit type on both x86 models; char16_t and
  // char32_t are unsigned.
  Value = Max == 0xFFFFFFFF ? int64_t(C) : int64_t(C & Max);
  return true;
}

bool tscc::parse::decodeStringLiteral(llvm::StringRef S, SourceLocation Loc,
                                      DiagnosticsEngine &Diags,
                                      std::string &Out) {
  llvm::StringRef Body = literalBody(S, '"');
  EscapeReader R(Body, Loc.getLocWithOffset(1), Diags);
  bool OK = true;
  while (!R.atEnd()) {
    // A backslash-newline inside a literal is a line continuation.
    size_t P = R.pos();
    if (Body[P] == '\\' && P + 1 < Body.size() &&
        (Body[P + 1] == '\n' || Body[P + 1] == '\r')) {
      bool CRLF =
          Body[P + 1] == '\r' && P + 2 < Body.size() && Body[P + 2] == '\n';
      R.skip(CRLF ? 3 : 2);
      continue;
    }
    uint32_t C;
    if (R.next(C))
      Out += static_cast<char>(C);
    else
      OK = false;
  }
  return OK;
}
