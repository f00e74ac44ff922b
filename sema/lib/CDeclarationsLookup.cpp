//===- CDeclarationsLookup.cpp - Answer lookups from the Clang AST --------===//
//
// Converts Clang types into tscc Types of one model, lazily and once: each
// record is laid out by ASTContext::getASTRecordLayout the first time it is
// needed and the result lives in the RecordType. Macros are expanded by
// Clang's own preprocessor, so `##`, nested and function-like macros inside
// an object-like macro behave exactly as in C.
//
//===----------------------------------------------------------------------===//

#include "CDeclarationsImpl.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/IdentifierTable.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include <type_traits>

using namespace tscc;
using llvm::dyn_cast;

/// The last \p DeclT named \p DN inside the records and enums of \p DC,
/// at any depth.
template <typename DeclT>
static DeclT *findNested(const clang::DeclContext *DC,
                         clang::DeclarationName DN) {
  DeclT *Found = nullptr;
  for (clang::Decl *D : DC->decls()) {
    if (!llvm::isa<clang::RecordDecl, clang::EnumDecl>(D))
      continue;
    const auto *Inner = llvm::cast<clang::DeclContext>(D);
    for (clang::Decl *Member : Inner->decls())
      if (auto *T = dyn_cast<DeclT>(Member); T && T->getDeclName() == DN)
        Found = T;
    if (DeclT *Deeper = findNested<DeclT>(Inner, DN))
      Found = Deeper;
  }
  return Found;
}

template <typename DeclT>
DeclT *CDeclarations::Impl::lookupDecl(llvm::StringRef Name) const {
  if (!Parsed || Name.empty())
    return nullptr;
  clang::ASTContext &Ctx = CI->getASTContext();
  // find() rather than get(): a lookup must not invent identifiers.
  auto It = Ctx.Idents.find(Name);
  if (It == Ctx.Idents.end())
    return nullptr;
  clang::DeclarationName DN(It->getValue());
  // C has one file scope; the TU's lookup also sees enumerators and tags
  // declared inside other tags. Prefer the most recent declaration.
  DeclT *Found = nullptr;
  for (clang::NamedDecl *ND : Ctx.getTranslationUnitDecl()->lookup(DN))
    if (auto *D = dyn_cast<DeclT>(ND))
      Found = D;
  if constexpr (std::is_base_of_v<clang::TagDecl, DeclT> ||
                std::is_same_v<clang::EnumConstantDecl, DeclT>) {
    // In C a tag first named inside a struct (`struct a { struct b *p; }`),
    // and the enumerators of an enum defined there, have file scope; Clang
    // files them under the struct.
    if (!Found)
      Found = findNested<DeclT>(Ctx.getTranslationUnitDecl(), DN);
  }
  return Found;
}

//===----------------------------------------------------------------------===//
// Type conversion
//===----------------------------------------------------------------------===//

const Type *CDeclarations::Impl::convert(clang::QualType QT) {
  // Qualifiers do not change layout or how values are read.
  const clang::Type *T = QT.getTypePtrOrNull();
  if (!T)
    return Types.getInt();
  if (auto It = TypeCache.find(T); It != TypeCache.end())
    return It->second;
  const Type *R = convertUncached(T);
  TypeCache[T] = R;
  return R;
}

const Type *CDeclarations::Impl::convertUncached(const clang::Type *T) {
  if (const auto *TT = dyn_cast<clang::TypedefType>(T)) {
    const clang::TypedefNameDecl *TD = TT->getDecl();
    const Type *Underlying = convert(TD->getUnderlyingType());
    std::optional<uint64_t> Align;
    if (!T->isIncompleteType() && !T->isFunctionType()) {
      uint64_t A = CI->getASTContext()
                       .getTypeAlignInChars(clang::QualType(T, 0))
                       .getQuantity();
      if (A != Underlying->getAlign())
        Align = A;
    }
    return Types.getTypedef(TD->getName(), Underlying, Align);
  }
  // Other sugar (elaborated `struct x`, parentheses, attributes, typeof,
  // decayed parameters) carries nothing tscc needs.
  clang::QualType Desugared = T->getLocallyUnqualifiedSingleStepDesugaredType();
  if (Desugared.getTypePtrOrNull() != T)
    return convert(Desugared);
  if (const auto *BT = dyn_cast<clang::BuiltinType>(T))
    return convertBuiltin(BT);
  if (const auto *PT = dyn_cast<clang::PointerType>(T))
    return Types.getPointer(convert(PT->getPointeeType()));
  if (const auto *AT = dyn_cast<clang::ConstantArrayType>(T))
    return Types.getArray(convert(AT->getElementType()),
                          AT->getSize().getZExtValue());
  if (const auto *AT = dyn_cast<clang::IncompleteArrayType>(T))
    return Types.getArray(convert(AT->getElementType()), std::nullopt);
  if (const auto *RT = dyn_cast<clang::RecordType>(T))
    return convertRecord(RT->getDecl());
  if (const auto *ET = dyn_cast<clang::EnumType>(T))
    return convertEnum(ET->getDecl());
  if (const auto *FT = dyn_cast<clang::FunctionProtoType>(T)) {
    std::vector<const Type *> Params;
    for (clang::QualType P : FT->getParamTypes())
      Params.push_back(convert(P));
    return Types.getFunction(convert(FT->getReturnType()), Params,
                             FT->isVariadic(), /*Prototyped=*/true);
  }
  if (const auto *FT = dyn_cast<clang::FunctionNoProtoType>(T))
    return Types.getFunction(convert(FT->getReturnType()), {}, false,
                             /*Prototyped=*/false);
  return convertOpaque(T);
}

const Type *CDeclarations::Impl::convertBuiltin(const clang::BuiltinType *BT) {
  using K = Type::Kind;
  switch (BT->getKind()) {
  case clang::BuiltinType::Void:
    return Types.getBuiltin(K::Void);
  case clang::BuiltinType::Bool:
    return Types.getBuiltin(K::Bool);
  case clang::BuiltinType::Char_S:
  case clang::BuiltinType::Char_U:
    return Types.getBuiltin(K::Char);
  case clang::BuiltinType::SChar:
    return Types.getBuiltin(K::SChar);
  case clang::BuiltinType::UChar:
    return Types.getBuiltin(K::UChar);
  case clang::BuiltinType::Short:
    return Types.getBuiltin(K::Short);
  case clang::BuiltinType::UShort:
    return Types.getBuiltin(K::UShort);
  case clang::BuiltinType::Int:
    return Types.getBuiltin(K::Int);
  case clang::BuiltinType::UInt:
    return Types.getBuiltin(K::UInt);
  case clang::BuiltinType::Long:
    return Types.getBuiltin(K::Long);
  case clang::BuiltinType::ULong:
    return Types.getBuiltin(K::ULong);
  case clang::BuiltinType::LongLong:
    return Types.getBuiltin(K::LongLong);
  case clang::BuiltinType::ULongLong:
    return Types.getBuiltin(K::ULongLong);
  case clang::BuiltinType::Int128:
    return Types.getBuiltin(K::Int128);
  case clang::BuiltinType::UInt128:
    return Types.getBuiltin(K::UInt128);
  case clang::BuiltinType::Float:
    return Types.getBuiltin(K::Float);
  case clang::BuiltinType::Double:
    return Types.getBuiltin(K::Double);
  case clang::BuiltinType::LongDouble:
    return Types.getBuiltin(K::LongDouble);
  default:
    return convertOpaque(BT);
  }
}

const Type *CDeclarations::Impl::convertOpaque(const clang::Type *T) {
  clang::ASTContext &Ctx = CI->getASTContext();
  clang::QualType QT(T, 0);
  uint64_t Size = 0, Align = 1;
  if (!T->isIncompleteType() && !T->isDependentType()) {
    Size = Ctx.getTypeSizeInChars(QT).getQuantity();
    Align = Ctx.getTypeAlignInChars(QT).getQuantity();
  }
  return Types.getOpaque(QT.getAsString(Ctx.getPrintingPolicy()), Size, Align);
}

std::string CDeclarations::Impl::spellUnnamed(const clang::TagDecl *TD) const {
  if (TD->getDeclName())
    return {};
  if (const clang::TypedefNameDecl *TN = TD->getTypedefNameForAnonDecl())
    return TN->getName().str();
  // Clang's own spelling: `union (unnamed at /usr/include/...:30:5)`.
  clang::ASTContext &Ctx = CI->getASTContext();
  clang::PrintingPolicy Policy = Ctx.getPrintingPolicy();
  // C has no scopes for tags: not `union sigaction::(unnamed at ...)`.
  Policy.SuppressScope = true;
  return Ctx.getTagDeclType(TD).getAsString(Policy);
}

/// gcc's DECL_ALIGN of a member, which `__alignof__(s.m)` reports: the
/// type's alignment as a member (4 for an i386 `long long`), 1 when the
/// member or its record is packed, raised by the member's own `aligned`
/// attribute, capped by `#pragma pack`. (Clang's getDeclAlign() also caps
/// it by the member's offset, which gcc does not.)
static uint64_t memberAlign(clang::ASTContext &Ctx, const clang::RecordDecl *RD,
                            const clang::FieldDecl *FD) {
  uint64_t Align = Ctx.getTypeAlignInChars(FD->getType()).getQuantity();
  if (FD->hasAttr<clang::PackedAttr>() || RD->hasAttr<clang::PackedAttr>())
    Align = 1;
  if (const auto *Pack = RD->getAttr<clang::MaxFieldAlignmentAttr>())
    Align = std::min<uint64_t>(Align, Pack->getAlignment() / 8);
  if (unsigned Max = FD->getMaxAlignment())
    Align = std::max<uint64_t>(Align, Max / 8);
  return Align ? Align : 1;
}

const Type *CDeclarations::Impl::convertRecord(const clang::RecordDecl *RD) {
  const auto *Canon = llvm::cast<clang::RecordDecl>(RD->getCanonicalDecl());
  if (auto It = TagCache.find(Canon); It != TagCache.end())
    return It->second;
  const clang::RecordDecl *Def = RD->getDefinition();
  const clang::RecordDecl *Named = Def ? Def : RD;
  RecordType *R = Types.createRecord(
      RD->isUnion() ? RecordType::TagKind::Union : RecordType::TagKind::Struct,
      Named->getName(), spellUnnamed(Named));
  // Cache before converting members: `struct list { struct list *next; }`.
  TagCache[Canon] = R;
  if (!Def || Def->isInvalidDecl())
    return R;

  clang::ASTContext &Ctx = CI->getASTContext();
  const clang::ASTRecordLayout &Layout = Ctx.getASTRecordLayout(Def);
  std::vector<Field> Fields;
  for (const clang::FieldDecl *FD : Def->fields()) {
    // `int : 3;` pads but is not a member.
    if (FD->isUnnamedBitField())
      continue;
    Field F;
    if (!FD->isAnonymousStructOrUnion())
      F.Name = FD->getName().str();
    F.Ty = convert(FD->getType());
    F.BitOffset = Layout.getFieldOffset(FD->getFieldIndex());
    if (FD->isBitField())
      F.BitWidth = FD->getBitWidthValue(Ctx);
    F.Align = memberAlign(Ctx, Def, FD);
    Fields.push_back(std::move(F));
  }
  Types.defineRecord(R, std::move(Fields), Layout.getSize().getQuantity(),
                     Layout.getAlignment().getQuantity());
  return R;
}

const Type *CDeclarations::Impl::convertEnum(const clang::EnumDecl *ED) {
  const auto *Canon = llvm::cast<clang::EnumDecl>(ED->getCanonicalDecl());
  if (auto It = TagCache.find(Canon); It != TagCache.end())
    return It->second;
  const clang::EnumDecl *Def = ED->getDefinition();
  const clang::EnumDecl *Named = Def ? Def : ED;
  const Type *Underlying = nullptr;
  if (Def && !Def->getIntegerType().isNull())
    Underlying = convert(Def->getIntegerType());
  EnumType *E =
      Types.createEnum(Named->getName(), Underlying, spellUnnamed(Named));
  TagCache[Canon] = E;
  if (!Def)
    return E;
  std::vector<Enumerator> Values;
  for (const clang::EnumConstantDecl *ECD : Def->enumerators()) {
    llvm::APSInt V = ECD->getInitVal();
    int64_t Value = V.isSigned() ? V.getSExtValue()
                                 : static_cast<int64_t>(V.getZExtValue());
    Values.push_back({ECD->getName().str(), Value});
  }
  Types.defineEnum(E, std::move(Values));
  return E;
}

//===----------------------------------------------------------------------===//
// Macros
//===----------------------------------------------------------------------===//

class CDeclarations::Impl::ExpansionRecorder : public clang::PPCallbacks {
public:
  void MacroExpands(const clang::Token &, const clang::MacroDefinition &MD,
                    clang::SourceRange, const clang::MacroArgs *) override {
    if (Active)
      if (clang::MacroInfo *MI = MD.getMacroInfo())
        Entered.insert(MI);
  }
  bool Active = false;
  llvm::SmallPtrSet<clang::MacroInfo *, 16> Entered;
};

std::optional<std::string>
CDeclarations::Impl::expandMacro(llvm::StringRef Name) {
  if (!Parsed || Name.empty())
    return std::nullopt;
  auto Cached = Expansions.find(Name);
  if (Cached != Expansions.end())
    return Cached->second;
  clang::Preprocessor &PP = CI->getPreprocessor();
  auto It = PP.getIdentifierTable().find(Name);
  if (It == PP.getIdentifierTable().end())
    return std::nullopt;
  clang::IdentifierInfo *II = It->getValue();
  const clang::MacroInfo *MI = PP.getMacroInfo(II);
  if (!MI || MI->isFunctionLike())
    return std::nullopt;
  if (!Recorder) {
    auto R = std::make_unique<ExpansionRecorder>();
    Recorder = R.get();
    PP.addPPCallbacks(std::move(R));
  }

  // Feed `Name <eof>` through the live preprocessor: it expands nested,
  // function-like and pasted macros exactly as the C compiler would. Our
  // own eof token marks the end, so the parser's finished state is never
  // touched.
  clang::SourceLocation Loc = MI->getDefinitionLoc();
  clang::Token Toks[2];
  Toks[0].startToken();
  Toks[0].setKind(clang::tok::identifier);
  Toks[0].setIdentifierInfo(II);
  Toks[0].setLocation(Loc);
  Toks[0].setLength(Name.size());
  Toks[1].startToken();
  Toks[1].setKind(clang::tok::eof);
  Toks[1].setLocation(Loc);
  unsigned ErrorsBefore = Forwarder.getNumErrors();
  PP.EnterTokenStream(Toks, /*DisableMacroExpansion=*/false,
                      /*IsReinject=*/false);

  Recorder->Active = true;
  Recorder->Entered.clear();
  std::string Text;
  unsigned NumTokens = 0;
  bool Oversized = false;
  clang::Token Tok;
  for (;;) {
    PP.Lex(Tok);
    if (Tok.is(clang::tok::eof))
      break;
    if (++NumTokens > CDeclarations::MaxMacroExpansionTokens) {
      Oversized = true;
      abandonExpansion();
      break;
    }
    if (!Text.empty() && Tok.hasLeadingSpace())
      Text += ' ';
    Text += PP.getSpelling(Tok);
  }
  Recorder->Active = false;
  // The exhausted token stream is still the top lexer; drop it so repeated
  // lookups do not grow the include stack.
  PP.RemoveTopOfLexerStack();
  std::optional<std::string> Result;
  if (Oversized)
    OversizedMacros.insert(Name);
  // Clang has said what is wrong (e.g. an unterminated macro call); the
  // partial text is not an expression anyone should see.
  else if (Forwarder.getNumErrors() == ErrorsBefore)
    Result = std::move(Text);
  Expansions[Name] = Result;
  return Result;
}

void CDeclarations::Impl::abandonExpansion() {
  // The preprocessor expands lazily: the lexers of the macros being
  // expanded are still stacked above our token stream, and finishing them
  // would cost the whole expansion (2^39 tokens for a 939-byte script).
  // Clang offers no way to pop exactly those lexers, so drain them with
  // every macro disabled, which makes each remaining identifier a plain
  // token. A stacked macro is re-enabled when its lexer ends and could be
  // entered again by the lexers below it; disabling the recorded ones again
  // after every token keeps the drain to the tokens already stacked.
  clang::Preprocessor &PP = CI->getPreprocessor();
  std::vector<clang::MacroInfo *> Disabled;
  auto DisableIfEnabled = [&](clang::MacroInfo *MI) {
    if (MI && MI->isEnabled()) {
      MI->DisableMacro();
      Disabled.push_back(MI);
    }
  };
  for (const auto &Entry : PP.macros())
    DisableIfEnabled(PP.getMacroInfo(Entry.first));
  clang::Token Tok;
  do {
    PP.Lex(Tok);
    for (clang::MacroInfo *MI : Recorder->Entered)
      DisableIfEnabled(MI);
  } while (!Tok.is(clang::tok::eof));
  for (clang::MacroInfo *MI : Disabled)
    if (!MI->isEnabled())
      MI->EnableMacro();
}

//===----------------------------------------------------------------------===//
// Public lookups
//===----------------------------------------------------------------------===//

const Type *CDeclarations::lookupTypedef(llvm::StringRef Name) {
  const auto *TD = P->lookupDecl<clang::TypedefNameDecl>(Name);
  if (!TD)
    return nullptr;
  return P->convert(P->CI->getASTContext().getTypedefType(TD));
}

bool CDeclarations::isTypedefName(llvm::StringRef Name) const {
  return P->lookupDecl<clang::TypedefNameDecl>(Name) != nullptr;
}

static const clang::RecordDecl *findRecord(const CDeclarations::Impl &I,
                                           llvm::StringRef Name, bool Union) {
  const auto *RD = I.lookupDecl<clang::RecordDecl>(Name);
  if (!RD || RD->isUnion() != Union)
    return nullptr;
  return RD;
}

const RecordType *CDeclarations::lookupStruct(llvm::StringRef Name) {
  const clang::RecordDecl *RD = findRecord(*P, Name, /*Union=*/false);
  return RD ? llvm::cast<RecordType>(P->convertRecord(RD)) : nullptr;
}

const RecordType *CDeclarations::lookupUnion(llvm::StringRef Name) {
  const clang::RecordDecl *RD = findRecord(*P, Name, /*Union=*/true);
  return RD ? llvm::cast<RecordType>(P->convertRecord(RD)) : nullptr;
}

const EnumType *CDeclarations::lookupEnum(llvm::StringRef Name) {
  const auto *ED = P->lookupDecl<clang::EnumDecl>(Name);
  return ED ? llvm::cast<EnumType>(P->convertEnum(ED)) : nullptr;
}

std::optional<EnumeratorValue>
CDeclarations::lookupEnumerator(llvm::StringRef Name) {
  const auto *ECD = P->lookupDecl<clang::EnumConstantDecl>(Name);
  if (!ECD)
    return std::nullopt;
  EnumeratorValue V;
  llvm::APSInt I = ECD->getInitVal();
  V.Value =
      I.isSigned() ? I.getSExtValue() : static_cast<int64_t>(I.getZExtValue());
  V.Ty = P->convert(ECD->getType());
  if (const auto *ED = dyn_cast<clang::EnumDecl>(ECD->getDeclContext()))
    V.Enum = llvm::cast<EnumType>(P->convertEnum(ED));
  return V;
}

const FunctionType *CDeclarations::lookupFunction(llvm::StringRef Name) {
  const auto *FD = P->lookupDecl<clang::FunctionDecl>(Name);
  if (!FD)
    return nullptr;
  return dyn_cast<FunctionType>(P->convert(FD->getType())->getCanonical());
}

std::optional<std::string> CDeclarations::lookupMacro(llvm::StringRef Name) {
  return P->expandMacro(Name);
}

bool CDeclarations::isOversizedMacro(llvm::StringRef Name) const {
  return P->isOversizedMacro(Name);
}

bool CDeclarations::isFunctionLikeMacro(llvm::StringRef Name) const {
  if (!P->Parsed)
    return false;
  clang::Preprocessor &PP = P->CI->getPreprocessor();
  auto It = PP.getIdentifierTable().find(Name);
  if (It == PP.getIdentifierTable().end())
    return false;
  const clang::MacroInfo *MI = PP.getMacroInfo(It->getValue());
  return MI && MI->isFunctionLike();
}

std::optional<FieldPath> CDeclarations::lookupMember(const RecordType *R,
                                                     llvm::StringRef Name) {
  if (std::optional<FieldPath> Direct = R->lookupField(Name))
    return Direct;
  // `act->sa_handler` is `act->__sigaction_handler.sa_handler` in C.
  std::optional<std::string> Expansion = lookupMacro(Name);
  if (!Expansion)
    return std::nullopt;
  llvm::Expected<std::vector<DesignatorStep>> Steps =
      parseDesignator(*Expansion);
  if (!Steps) {
    llvm::consumeError(Steps.takeError());
    return std::nullopt;
  }
  FieldPath Path;
  const Type *Cur = R;
  for (const DesignatorStep &S : *Steps) {
    const auto *Rec = Cur->getAs<RecordType>();
    // Only plain member paths: an index would not be a member access.
    if (S.isIndex() || !Rec)
      return std::nullopt;
    std::optional<FieldPath> Step = Rec->lookupField(S.Member);
    if (!Step)
      return std::nullopt;
    Path.Fields.append(Step->Fields.begin(), Step->Fields.end());
    Path.BitOffset += Step->BitOffset;
    Cur = Step->getType();
  }
  if (Path.Fields.empty())
    return std::nullopt;
  return Path;
}
