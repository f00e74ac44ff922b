//===- TypeContext.cpp - Owns and uniques the types of one model ----------===//

#include "tscc/Sema/TypeContext.h"

#include <cassert>

using namespace tscc;
using Kind = Type::Kind;

namespace {
struct BuiltinLayout {
  Kind K;
  unsigned Size32, Align32; // i386 System V psABI (as gcc -m32 lays out)
  unsigned Size64, Align64; // x86-64 System V psABI
};
} // namespace

// Member alignments: on i386, long long and double align to 4 inside
// structs and _Alignof reports 4 (gcc >= 4.9 and Clang agree); long double
// is 12 bytes aligned to 4.
static constexpr BuiltinLayout BuiltinLayouts[] = {
    {Kind::Void, 1, 1, 1, 1},        {Kind::Bool, 1, 1, 1, 1},
    {Kind::Char, 1, 1, 1, 1},        {Kind::SChar, 1, 1, 1, 1},
    {Kind::UChar, 1, 1, 1, 1},       {Kind::Short, 2, 2, 2, 2},
    {Kind::UShort, 2, 2, 2, 2},      {Kind::Int, 4, 4, 4, 4},
    {Kind::UInt, 4, 4, 4, 4},        {Kind::Long, 4, 4, 8, 8},
    {Kind::ULong, 4, 4, 8, 8},       {Kind::LongLong, 8, 4, 8, 8},
    {Kind::ULongLong, 8, 4, 8, 8},   {Kind::Int128, 16, 16, 16, 16},
    {Kind::UInt128, 16, 16, 16, 16}, {Kind::Float, 4, 4, 4, 4},
    {Kind::Double, 8, 4, 8, 8},      {Kind::LongDouble, 12, 4, 16, 16},
};

TypeContext::TypeContext(DataModel DM) : DM(DM) {
  bool Is32 = DM == DataModel::ILP32;
  for (const BuiltinLayout &L : BuiltinLayouts) {
    unsigned Size = Is32 ? L.Size32 : L.Size64;
    unsigned Align = Is32 ? L.Align32 : L.Align64;
    if (L.K == Kind::Void)
      Size = 0;
    Builtins.emplace_back(new BuiltinType(L.K, *this, Size, Align));
    BuiltinByKind[static_cast<size_t>(L.K)] = Builtins.back().get();
  }
}

const BuiltinType *TypeContext::getBuiltin(Type::Kind K) const {
  assert(K <= Kind::LongDouble && "not a builtin kind");
  return BuiltinByKind[static_cast<size_t>(K)];
}

const BuiltinType *TypeContext::getIntegerOfSize(uint64_t Bytes,
                                                 bool Signed) const {
  static constexpr Kind SignedOrder[] = {Kind::Int,      Kind::Long,
                                         Kind::LongLong, Kind::Short,
                                         Kind::SChar,    Kind::Int128};
  static constexpr Kind UnsignedOrder[] = {Kind::UInt,      Kind::ULong,
                                           Kind::ULongLong, Kind::UShort,
                                           Kind::UChar,     Kind::UInt128};
  for (Kind K :
       Signed ? llvm::ArrayRef(SignedOrder) : llvm::ArrayRef(UnsignedOrder))
    if (getBuiltin(K)->getSize() == Bytes)
      return getBuiltin(K);
  return nullptr;
}

const Type *TypeContext::getCorrespondingUnsigned(const Type *T) const {
  const Type *C = T->getCanonical();
  if (const auto *E = llvm::dyn_cast<EnumType>(C))
    C = E->getIntegerType()->getCanonical();
  switch (C->getKind()) {
  case Kind::Char:
  case Kind::SChar:
    return getBuiltin(Kind::UChar);
  case Kind::Short:
    return getBuiltin(Kind::UShort);
  case Kind::Int:
    return getBuiltin(Kind::UInt);
  case Kind::Long:
    return getBuiltin(Kind::ULong);
  case Kind::LongLong:
    return getBuiltin(Kind::ULongLong);
  case Kind::Int128:
    return getBuiltin(Kind::UInt128);
  default:
    return C;
  }
}

const PointerType *TypeContext::getPointer(const Type *Pointee) {
  assert(&Pointee->getContext() == this && "type from another data model");
  auto [It, Inserted] = PointerMap.try_emplace(Pointee, nullptr);
  if (!Inserted)
    return It->second;
  Pointers.emplace_back(new PointerType(*this, Pointee));
  It->second = Pointers.back().get();
  return It->second;
}

const ArrayType *TypeContext::getArray(const Type *Element,
                                       std::optional<uint64_t> Count) {
  assert(&Element->getContext() == this && "type from another data model");
  auto Key = std::make_pair(Element, Count.value_or(UINT64_MAX));
  auto [It, Inserted] = ArrayMap.try_emplace(Key, nullptr);
  if (!Inserted)
    return It->second;
  Arrays.emplace_back(new ArrayType(*this, Element, Count));
  It->second = Arrays.back().get();
  return It->second;
}

const FunctionType *
TypeContext::getFunction(const Type *Return,
                         llvm::ArrayRef<const Type *> Params, bool Variadic,
                         bool Prototyped) {
  std::vector<const Type *> Ps(Params.begin(), Params.end());
  auto Key = std::make_tuple(Return, Ps, Variadic, Prototyped);
  auto [It, Inserted] = FunctionMap.try_emplace(Key, nullptr);
  if (!Inserted)
    return It->second;
  Functions.emplace_back(
      new FunctionType(*this, Return, std::move(Ps), Variadic, Prototyped));
  It->second = Functions.back().get();
  return It->second;
}

const StringType *TypeContext::getString(uint64_t Capacity) {
  auto [It, Inserted] = StringMap.try_emplace(Capacity, nullptr);
  if (!Inserted)
    return It->second;
  Strings.emplace_back(new StringType(*this, Capacity));
  It->second = Strings.back().get();
  return It->second;
}

const TypedefType *
TypeContext::getTypedef(llvm::StringRef Name, const Type *Underlying,
                        std::optional<uint64_t> AlignOverride) {
  auto [It, Inserted] = TypedefMap.try_emplace(Name, nullptr);
  if (!Inserted && It->second->getCanonical() == Underlying->getCanonical() &&
      It->second->getAlignOverride() == AlignOverride)
    return It->second;
  Typedefs.emplace_back(
      new TypedefType(*this, Name.str(), Underlying, AlignOverride));
  // A conflicting redefinition (which Clang has diagnosed) gets its own
  // type; the name keeps meaning the first one.
  if (Inserted)
    It->second = Typedefs.back().get();
  return Typedefs.back().get();
}

const BitFieldIntType *TypeContext::getBitFieldInt(unsigned Width,
                                                   bool Signed) {
  std::unique_ptr<BitFieldIntType> &Slot = BitFieldInts[{Width, Signed}];
  if (!Slot)
    Slot.reset(new BitFieldIntType(*this, Width, Signed));
  return Slot.get();
}

const Type *TypeContext::getOpaque(llvm::StringRef Spelling, uint64_t Size,
                                   uint64_t Align) {
  auto Key = std::make_tuple(Spelling.str(), Size, Align);
  auto [It, Inserted] = OpaqueMap.try_emplace(Key, nullptr);
  if (!Inserted)
    return It->second;
  Opaques.emplace_back(new OpaqueType(*this, Spelling.str(), Size, Align));
  It->second = Opaques.back().get();
  return It->second;
}

RecordType *TypeContext::createRecord(RecordType::TagKind Tag,
                                      llvm::StringRef Name,
                                      llvm::StringRef UnnamedSpelling) {
  Records.emplace_back(
      new RecordType(*this, Tag, Name.str(), UnnamedSpelling.str()));
  return Records.back().get();
}

void TypeContext::defineRecord(RecordType *R, std::vector<Field> Fields,
                               uint64_t Size, uint64_t Align) {
  assert(!R->Defined && "record defined twice");
  R->Fields = std::move(Fields);
  R->Size = Size;
  R->Align = Align ? Align : 1;
  R->Defined = true;
}

EnumType *TypeContext::createEnum(llvm::StringRef Name, const Type *Underlying,
                                  llvm::StringRef UnnamedSpelling) {
  Enums.emplace_back(new EnumType(*this, Name.str(), UnnamedSpelling.str(),
                                  Underlying ? Underlying : getUInt()));
  return Enums.back().get();
}

void TypeContext::defineEnum(EnumType *E, std::vector<Enumerator> Enums) {
  E->Enumerators = std::move(Enums);
  E->Defined = true;
}

size_t TypeContext::getNumTypes() const {
  return Builtins.size() + Pointers.size() + Arrays.size() + Functions.size() +
         Strings.size() + Typedefs.size() + Opaques.size() + Records.size() +
         Enums.size();
}
