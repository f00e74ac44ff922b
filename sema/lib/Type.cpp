//===- Type.cpp - Types of one data model ---------------------------------===//

#include "tscc/Sema/Type.h"
#include "tscc/Sema/TypeContext.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace tscc;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

DataModel Type::getDataModel() const { return Ctx.getDataModel(); }

const Type *Type::getCanonical() const {
  const Type *T = this;
  while (const auto *TD = dyn_cast<TypedefType>(T))
    T = TD->getUnderlying();
  return T;
}

uint64_t Type::getSize() const {
  const Type *T = getCanonical();
  switch (T->getKind()) {
  case Kind::Pointer:
    return Ctx.getPointerSize();
  case Kind::Array: {
    const auto *A = cast<ArrayType>(T);
    return A->getNumElements().value_or(0) * A->getElementType()->getSize();
  }
  case Kind::Record:
    return cast<RecordType>(T)->getRecordSize();
  case Kind::Enum:
    return cast<EnumType>(T)->getIntegerType()->getSize();
  case Kind::Function:
    return 0;
  case Kind::String:
    return cast<StringType>(T)->getCapacity();
  case Kind::Opaque:
    return cast<OpaqueType>(T)->Size;
  case Kind::BitFieldInt:
    return 8;
  case Kind::Typedef:
    llvm_unreachable("canonical type is never a typedef");
  default:
    return cast<BuiltinType>(T)->Size;
  }
}

uint64_t Type::getAlign() const {
  // The outermost aligned typedef wins, as in C.
  for (const Type *S = this; const auto *TD = dyn_cast<TypedefType>(S);
       S = TD->getUnderlying())
    if (std::optional<uint64_t> A = TD->getAlignOverride())
      return *A;
  const Type *T = getCanonical();
  switch (T->getKind()) {
  case Kind::Pointer:
    return Ctx.getPointerSize();
  case Kind::Array:
    return cast<ArrayType>(T)->getElementType()->getAlign();
  case Kind::Record:
    return cast<RecordType>(T)->getRecordAlign();
  case Kind::Enum:
    return cast<EnumType>(T)->getIntegerType()->getAlign();
  case Kind::Function:
  case Kind::String:
    return 1;
  case Kind::Opaque:
    return cast<OpaqueType>(T)->Align;
  case Kind::BitFieldInt:
    return 8;
  case Kind::Typedef:
    llvm_unreachable("canonical type is never a typedef");
  default:
    return cast<BuiltinType>(T)->Align;
  }
}

bool Type::isComplete() const {
  const Type *T = getCanonical();
  switch (T->getKind()) {
  case Kind::Void:
  case Kind::Function:
    return false;
  case Kind::Array: {
    const auto *A = cast<ArrayType>(T);
    return !A->isIncompleteArray() && A->getElementType()->isComplete();
  }
  case Kind::Record:
    return cast<RecordType>(T)->hasDefinition();
  case Kind::Enum:
    return cast<EnumType>(T)->hasDefinition();
  default:
    return true;
  }
}

bool Type::isInteger() const {
  const Type *T = getCanonical();
  Kind K = T->getKind();
  return (K >= Kind::Bool && K <= Kind::UInt128) || K == Kind::Enum ||
         K == Kind::BitFieldInt;
}

bool Type::isSigned() const {
  const Type *T = getCanonical();
  if (const auto *E = dyn_cast<EnumType>(T))
    return E->getIntegerType()->isSigned();
  if (const auto *B = dyn_cast<BitFieldIntType>(T))
    return B->isSignedBitField();
  switch (T->getKind()) {
  case Kind::Char: // x86 psABI: plain char is signed on i386 and x86-64
  case Kind::SChar:
  case Kind::Short:
  case Kind::Int:
  case Kind::Long:
  case Kind::LongLong:
  case Kind::Int128:
    return true;
  default:
    return false;
  }
}

bool Type::isFloating() const {
  Kind K = getCanonical()->getKind();
  return K >= Kind::Float && K <= Kind::LongDouble;
}

bool Type::isStruct() const {
  const auto *R = getAs<RecordType>();
  return R && !R->isUnionRecord();
}

bool Type::isUnion() const {
  const auto *R = getAs<RecordType>();
  return R && R->isUnionRecord();
}

bool Type::isFunctionPointer() const {
  const auto *P = getAs<PointerType>();
  return P && P->getPointee()->isFunction();
}

unsigned Type::getIntegerRank() const {
  const Type *T = getCanonical();
  if (const auto *E = dyn_cast<EnumType>(T))
    return E->getIntegerType()->getIntegerRank();
  switch (T->getKind()) {
  case Kind::Bool:
    return 1;
  case Kind::Char:
  case Kind::SChar:
  case Kind::UChar:
    return 2;
  case Kind::Short:
  case Kind::UShort:
    return 3;
  case Kind::Int:
  case Kind::UInt:
    return 4;
  case Kind::Long:
  case Kind::ULong:
    return 5;
  case Kind::LongLong:
  case Kind::ULongLong:
  case Kind::BitFieldInt:
    return 6;
  case Kind::Int128:
  case Kind::UInt128:
    return 7;
  default:
    return 0;
  }
}

unsigned Type::getIntegerWidth() const {
  if (const auto *B = dyn_cast<BitFieldIntType>(getCanonical()))
    return B->getWidth();
  return unsigned(getSize() * 8);
}

//===----------------------------------------------------------------------===//
// Printing: C declarator syntax, spelled the way Clang prints types.
//===----------------------------------------------------------------------===//

static llvm::StringRef builtinName(Type::Kind K) {
  switch (K) {
  case Type::Kind::Void:
    return "void";
  case Type::Kind::Bool:
    return "_Bool";
  case Type::Kind::Char:
    return "char";
  case Type::Kind::SChar:
    return "signed char";
  case Type::Kind::UChar:
    return "unsigned char";
  case Type::Kind::Short:
    return "short";
  case Type::Kind::UShort:
    return "unsigned short";
  case Type::Kind::Int:
    return "int";
  case Type::Kind::UInt:
    return "unsigned int";
  case Type::Kind::Long:
    return "long";
  case Type::Kind::ULong:
    return "unsigned long";
  case Type::Kind::LongLong:
    return "long long";
  case Type::Kind::ULongLong:
    return "unsigned long long";
  case Type::Kind::Int128:
    return "__int128";
  case Type::Kind::UInt128:
    return "unsigned __int128";
  case Type::Kind::Float:
    return "float";
  case Type::Kind::Double:
    return "double";
  case Type::Kind::LongDouble:
    return "long double";
  default:
    llvm_unreachable("not a builtin kind");
  }
}

static std::string tagSpelling(llvm::StringRef Keyword, llvm::StringRef Name,
                               llvm::StringRef UnnamedSpelling) {
  if (!Name.empty())
    return (llvm::Twine(Keyword) + " " + Name).str();
  if (!UnnamedSpelling.empty())
    return UnnamedSpelling.str();
  return (llvm::Twine(Keyword) + " (unnamed)").str();
}

/// The specifier part of a type that has no declarator of its own.
static std::string baseSpelling(const Type *T) {
  if (const auto *R = dyn_cast<RecordType>(T))
    return tagSpelling(R->isUnionRecord() ? "union" : "struct", R->getTagName(),
                       R->getUnnamedSpelling());
  if (const auto *E = dyn_cast<EnumType>(T))
    return tagSpelling("enum", E->getTagName(), E->getUnnamedSpelling());
  if (const auto *TD = dyn_cast<TypedefType>(T))
    return TD->getTypedefName().str();
  if (const auto *S = dyn_cast<StringType>(T))
    return S->getCapacity() == StringType::DefaultCapacity
               ? std::string("String")
               : "String[" + std::to_string(S->getCapacity()) + "]";
  if (const auto *O = dyn_cast<OpaqueType>(T))
    return O->getSpelling().str();
  if (const auto *B = dyn_cast<BitFieldIntType>(T))
    return (llvm::Twine(B->isSignedBitField() ? "long long"
                                              : "unsigned long long") +
            ":" + llvm::Twine(B->getWidth()))
        .str();
  return builtinName(T->getKind()).str();
}

/// Prints \p T around the already-built declarator \p Inner, inside out:
/// `int (*)[4]` is array-of-4-int around `(*)`.
static std::string spell(const Type *T, std::string Inner) {
  if (const auto *P = dyn_cast<PointerType>(T)) {
    const Type *Pointee = P->getPointee();
    if (isa<ArrayType>(Pointee) || isa<FunctionType>(Pointee))
      return spell(Pointee, "(*" + Inner + ")");
    return spell(Pointee, "*" + Inner);
  }
  if (const auto *A = dyn_cast<ArrayType>(T)) {
    std::string Dim = A->getNumElements()
                          ? "[" + std::to_string(*A->getNumElements()) + "]"
                          : std::string("[]");
    return spell(A->getElementType(), Inner + Dim);
  }
  if (const auto *F = dyn_cast<FunctionType>(T)) {
    std::string Params = "(";
    llvm::ArrayRef<const Type *> Ps = F->getParams();
    for (size_t I = 0; I != Ps.size(); ++I)
      Params += (I ? ", " : "") + spell(Ps[I], "");
    if (F->isVariadic())
      Params += Ps.empty() ? "..." : ", ...";
    else if (Ps.empty() && F->hasPrototype())
      Params += "void";
    Params += ")";
    return spell(F->getReturnType(), Inner + Params);
  }
  std::string Base = baseSpelling(T);
  if (Inner.empty())
    return Base;
  // Clang writes `char[16]` but `char *`, `int (*)(void)`.
  return Inner.front() == '[' ? Base + Inner : Base + " " + Inner;
}

std::string Type::getName() const { return spell(this, ""); }

void Type::print(llvm::raw_ostream &OS) const { OS << getName(); }

//===----------------------------------------------------------------------===//
// Records
//===----------------------------------------------------------------------===//

static bool lookupFieldIn(const RecordType *R, llvm::StringRef Name,
                          FieldPath &Path) {
  if (!R->hasDefinition())
    return false;
  // Named members first: C forbids a clash with an anonymous member's
  // member, so order only matters for speed.
  for (const Field &F : R->fields()) {
    if (F.Name == Name) {
      Path.Fields.push_back(&F);
      Path.BitOffset += F.BitOffset;
      return true;
    }
  }
  for (const Field &F : R->fields()) {
    if (!F.isAnonymousMember())
      continue;
    const auto *Inner = F.Ty->getAs<RecordType>();
    if (!Inner)
      continue;
    Path.Fields.push_back(&F);
    Path.BitOffset += F.BitOffset;
    if (lookupFieldIn(Inner, Name, Path))
      return true;
    Path.Fields.pop_back();
    Path.BitOffset -= F.BitOffset;
  }
  return false;
}

std::optional<FieldPath> RecordType::lookupField(llvm::StringRef Name) const {
  if (Name.empty())
    return std::nullopt;
  FieldPath Path;
  if (!lookupFieldIn(this, Name, Path))
    return std::nullopt;
  return Path;
}
