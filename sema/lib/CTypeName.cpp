//===- CTypeName.cpp - C type names and member designators ----------------===//
//
// Type names written outside any C source (`--dump-layout 'struct stat'`,
// tests, tools) and offsetof designators. The grammar is C's type-name
// (6.7.7): specifiers and qualifiers, then an abstract declarator. Names
// resolve through the model's C declarations, so the result is that
// model's type.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/CDeclarations.h"
#include "tscc/Sema/TypeContext.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cctype>

using namespace tscc;

namespace {

struct Token {
  enum KindT { Ident, Number, Punct, End } Kind;
  std::string Text;
};

llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// Splits \p Text into identifiers, decimal/hex numbers and punctuators.
llvm::Expected<std::vector<Token>> tokenize(llvm::StringRef Text) {
  std::vector<Token> Toks;
  size_t I = 0;
  while (I < Text.size()) {
    char C = Text[I];
    if (std::isspace(static_cast<unsigned char>(C))) {
      ++I;
      continue;
    }
    size_t Start = I;
    if (std::isalpha(static_cast<unsigned char>(C)) || C == '_') {
      while (
          I < Text.size() &&
          (std::isalnum(static_cast<unsigned char>(Text[I])) || Text[I] == '_'))
        ++I;
      Toks.push_back({Token::Ident, Text.slice(Start, I).str()});
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(C))) {
      while (I < Text.size() &&
             std::isalnum(static_cast<unsigned char>(Text[I])))
        ++I;
      Toks.push_back({Token::Number, Text.slice(Start, I).str()});
      continue;
    }
    if (Text.substr(I).starts_with("...")) {
      Toks.push_back({Token::Punct, "..."});
      I += 3;
      continue;
    }
    if (llvm::StringRef("*[](),.").contains(C)) {
      Toks.push_back({Token::Punct, std::string(1, C)});
      ++I;
      continue;
    }
    return makeError(
        llvm::formatv("unexpected character '{0}' in '{1}'", C, Text));
  }
  Toks.push_back({Token::End, ""});
  return Toks;
}

llvm::Expected<uint64_t> parseNumber(const Token &T) {
  uint64_t V = 0;
  // C integer literal without suffix: decimal, 0x hex or 0 octal.
  if (llvm::StringRef(T.Text).getAsInteger(0, V))
    return makeError("invalid number '" + T.Text + "'");
  return V;
}

class TypeNameParser {
public:
  TypeNameParser(CDeclarations &Decls, std::vector<Token> Toks)
      : Decls(Decls), Types(Decls.getTypes()), Toks(std::move(Toks)) {}

  llvm::Expected<const Type *> parseComplete() {
    auto T = parseTypeName();
    if (!T)
      return T.takeError();
    if (peek().Kind != Token::End)
      return makeError("unexpected '" + peek().Text + "' after type name");
    return T;
  }

private:
  const Token &peek(size_t Ahead = 0) const {
    return Toks[std::min(Pos + Ahead, Toks.size() - 1)];
  }
  bool consumePunct(llvm::StringRef P) {
    if (peek().Kind != Token::Punct || peek().Text != P)
      return false;
    ++Pos;
    return true;
  }

  llvm::Expected<const Type *> parseTypeName();
  llvm::Expected<const Type *> parseSpecifiers();
  llvm::Expected<const Type *> parseTag(llvm::StringRef Keyword);
  llvm::Expected<const Type *> parseAbstractDeclarator(const Type *Base);
  llvm::Expected<const Type *> parseSuffixes(const Type *Base);
  llvm::Expected<const Type *> parseParams(const Type *Return);

  CDeclarations &Decls;
  TypeContext &Types;
  std::vector<Token> Toks;
  size_t Pos = 0;
};

// type-name: specifier-qualifier-list abstract-declarator?
llvm::Expected<const Type *> TypeNameParser::parseTypeName() {
  auto Base = parseSpecifiers();
  if (!Base)
    return Base.takeError();
  return parseAbstractDeclarator(*Base);
}

static bool isQualifier(llvm::StringRef S) {
  return S == "const" || S == "volatile" || S == "restrict" ||
         S == "__restrict" || S == "_Atomic";
}

// specifier-qualifier-list: the builtin keywords in any order, or one tag,
// typedef name or String.
llvm::Expected<const Type *> TypeNameParser::parseSpecifiers() {
  using K = Type::Kind;
  unsigned Longs = 0;
  bool Signed = false, Unsigned = false, SawAny = false;
  std::optional<K> Base;
  while (peek().Kind == Token::Ident) {
    llvm::StringRef W = peek().Text;
    if (isQualifier(W)) {
      ++Pos;
      continue;
    }
    if (W == "struct" || W == "union" || W == "enum") {
      if (SawAny)
        return makeError("'" + W +
                         "' cannot be combined with other type "
                         "specifiers");
      ++Pos;
      auto T = parseTag(W);
      while (peek().Kind == Token::Ident && isQualifier(peek().Text))
        ++Pos;
      return T;
    }
    std::optional<K> Kw = llvm::StringSwitch<std::optional<K>>(W)
                              .Case("void", K::Void)
                              .Cases("_Bool", "bool", K::Bool)
                              .Case("char", K::Char)
                              .Case("short", K::Short)
                              .Case("int", K::Int)
                              .Case("float", K::Float)
                              .Case("double", K::Double)
                              .Case("__int128", K::Int128)
                              .Default(std::nullopt);
    if (W == "long") {
      ++Longs;
    } else if (W == "signed" || W == "__signed__") {
      Signed = true;
    } else if (W == "unsigned") {
      Unsigned = true;
    } else if (Kw) {
      // Only `short int` / `int short` combine two base keywords.
      bool ShortInt = Base && ((*Base == K::Short && *Kw == K::Int) ||
                               (*Base == K::Int && *Kw == K::Short));
      if (Base && !ShortInt)
        return makeError("cannot combine '" + W +
                         "' with a previous type specifier");
      Base = ShortInt ? K::Short : *Kw;
    } else if (!SawAny) {
      // A typedef name or String stands alone.
      ++Pos;
      if (W == "String")
        return static_cast<const Type *>(Types.getString());
      if (const Type *T = Decls.lookupTypedef(W))
        return T;
      return makeError("unknown type name '" + W + "'");
    } else {
      break;
    }
    SawAny = true;
    ++Pos;
  }
  if (!SawAny)
    return makeError("expected a type name");
  if (Signed && Unsigned)
    return makeError("cannot combine 'signed' and 'unsigned'");
  K Kind = Base.value_or(K::Int);
  if (Longs) {
    if (Kind == K::Double && Longs == 1)
      return static_cast<const Type *>(Types.getBuiltin(K::LongDouble));
    if (Kind != K::Int || Longs > 2)
      return makeError("invalid use of 'long'");
    Kind = Longs == 1 ? K::Long : K::LongLong;
  }
  if (Kind == K::Char && (Signed || Unsigned))
    Kind = Unsigned ? K::UChar : K::SChar;
  else if (Unsigned)
    Kind = Types.getCorrespondingUnsigned(Types.getBuiltin(Kind))->getKind();
  if ((Signed || Unsigned) && !Types.getBuiltin(Kind)->isInteger())
    return makeError("'signed'/'unsigned' applied to a non-integer type");
  return static_cast<const Type *>(Types.getBuiltin(Kind));
}

llvm::Expected<const Type *> TypeNameParser::parseTag(llvm::StringRef Kw) {
  if (peek().Kind != Token::Ident)
    return makeError("expected a tag name after '" + Kw + "'");
  std::string Name = peek().Text;
  ++Pos;
  const Type *T = nullptr;
  if (Kw == "struct")
    T = Decls.lookupStruct(Name);
  else if (Kw == "union")
    T = Decls.lookupUnion(Name);
  else
    T = Decls.lookupEnum(Name);
  if (!T)
    return makeError("unknown type '" + Kw + " " + Name + "'");
  return T;
}

// abstract-declarator: pointer | pointer? direct-abstract-declarator
llvm::Expected<const Type *>
TypeNameParser::parseAbstractDeclarator(const Type *Base) {
  while (consumePunct("*")) {
    Base = Types.getPointer(Base);
    while (peek().Kind == Token::Ident && isQualifier(peek().Text))
      ++Pos;
  }
  // `( abstract-declarator )`: the parenthesised part binds tighter, so
  // the suffixes after it apply first: int (*)[4] is pointer to int[4].
  if (peek().Kind == Token::Punct && peek().Text == "(" &&
      peek(1).Kind == Token::Punct &&
      (peek(1).Text == "*" || peek(1).Text == "(" || peek(1).Text == "[")) {
    ++Pos;
    size_t InnerStart = Pos;
    for (unsigned Depth = 1; Depth;) {
      if (peek().Kind == Token::End)
        return makeError("expected ')'");
      if (peek().Kind == Token::Punct)
        Depth += peek().Text == "(" ? 1 : peek().Text == ")" ? -1 : 0;
      ++Pos;
    }
    auto Outer = parseSuffixes(Base);
    if (!Outer)
      return Outer.takeError();
    size_t After = Pos;
    Pos = InnerStart;
    auto Inner = parseAbstractDeclarator(*Outer);
    if (!Inner)
      return Inner.takeError();
    if (!consumePunct(")"))
      return makeError("expected ')' in declarator");
    Pos = After;
    return Inner;
  }
  return parseSuffixes(Base);
}

// Array and function suffixes; `T[2][3]` is an array of 2 arrays of 3.
llvm::Expected<const Type *> TypeNameParser::parseSuffixes(const Type *Base) {
  if (consumePunct("(")) {
    auto F = parseParams(Base);
    if (!F)
      return F.takeError();
    return parseSuffixes(*F);
  }
  if (!consumePunct("["))
    return Base;
  std::optional<uint64_t> Count;
  if (peek().Kind == Token::Number) {
    auto N = parseNumber(peek());
    if (!N)
      return N.takeError();
    Count = *N;
    ++Pos;
  }
  if (!consumePunct("]"))
    return makeError("expected ']'");
  auto Elem = parseSuffixes(Base);
  if (!Elem)
    return Elem.takeError();
  if (!(*Elem)->isComplete())
    return makeError("array has incomplete element type '" +
                     (*Elem)->getName() + "'");
  return static_cast<const Type *>(Types.getArray(*Elem, Count));
}

llvm::Expected<const Type *> TypeNameParser::parseParams(const Type *Return) {
  std::vector<const Type *> Params;
  bool Variadic = false;
  if (peek().Kind == Token::Ident && peek().Text == "void" &&
      peek(1).Kind == Token::Punct && peek(1).Text == ")") {
    Pos += 2;
    return static_cast<const Type *>(Types.getFunction(Return, {}, false));
  }
  if (consumePunct(")"))
    return static_cast<const Type *>(
        Types.getFunction(Return, {}, false, /*Prototyped=*/false));
  do {
    if (consumePunct("...")) {
      Variadic = true;
      break;
    }
    auto P = parseTypeName();
    if (!P)
      return P.takeError();
    Params.push_back(*P);
  } while (consumePunct(","));
  if (!consumePunct(")"))
    return makeError("expected ')' after parameters");
  return static_cast<const Type *>(Types.getFunction(Return, Params, Variadic));
}

} // namespace

llvm::Expected<const Type *>
CDeclarations::parseTypeName(llvm::StringRef Text) {
  auto Toks = tokenize(Text);
  if (!Toks)
    return Toks.takeError();
  return TypeNameParser(*this, std::move(*Toks)).parseComplete();
}

llvm::Expected<uint64_t> CDeclarations::evaluateSizeof(llvm::StringRef Name) {
  auto T = parseTypeName(Name);
  if (!T)
    return T.takeError();
  if ((*T)->isFunction())
    return makeError("invalid application of 'sizeof' to a function type");
  if (!(*T)->isComplete())
    return makeError("invalid application of 'sizeof' to an incomplete type '" +
                     (*T)->getName() + "'");
  return (*T)->getSize();
}

llvm::Expected<std::vector<DesignatorStep>>
CDeclarations::parseDesignator(llvm::StringRef Text) {
  auto Toks = tokenize(Text);
  if (!Toks)
    return Toks.takeError();
  std::vector<DesignatorStep> Steps;
  size_t I = 0;
  auto At = [&](size_t N) -> const Token & {
    return (*Toks)[std::min(N, Toks->size() - 1)];
  };
  for (bool First = true; At(I).Kind != Token::End; First = false) {
    const Token &T = At(I);
    if (T.Kind == Token::Punct && T.Text == "[") {
      if (First || At(I + 1).Kind != Token::Number || At(I + 2).Text != "]")
        return makeError("expected '[index]' in designator '" + Text + "'");
      auto N = parseNumber(At(I + 1));
      if (!N)
        return N.takeError();
      Steps.push_back({"", *N});
      I += 3;
      continue;
    }
    if (!First) {
      if (T.Kind != Token::Punct || T.Text != ".")
        return makeError("expected '.' or '[' in designator '" + Text + "'");
      ++I;
    }
    if (At(I).Kind != Token::Ident)
      return makeError("expected a member name in designator '" + Text + "'");
    Steps.push_back({At(I).Text, 0});
    ++I;
  }
  if (Steps.empty())
    return makeError("empty member designator");
  return Steps;
}

llvm::Expected<uint64_t>
CDeclarations::evaluateOffsetof(const Type *T,
                                llvm::ArrayRef<DesignatorStep> Steps) {
  uint64_t Offset = 0;
  for (const DesignatorStep &S : Steps) {
    if (S.isIndex()) {
      const auto *A = T->getAs<ArrayType>();
      if (!A)
        return makeError("subscript of non-array type '" + T->getName() + "'");
      T = A->getElementType();
      Offset += S.Index * T->getSize();
      continue;
    }
    const auto *R = T->getAs<RecordType>();
    if (!R)
      return makeError("member reference '" + S.Member +
                       "' into non-record type '" + T->getName() + "'");
    if (!R->hasDefinition())
      return makeError("offsetof into incomplete type '" + R->getName() + "'");
    std::optional<FieldPath> F = R->lookupField(S.Member);
    if (!F)
      return makeError("no member named '" + S.Member + "' in '" +
                       R->getName() + "'");
    if (F->isBitField())
      return makeError("cannot compute offset of bit-field '" + S.Member + "'");
    Offset += F->getByteOffset();
    T = F->getType();
  }
  return Offset;
}
