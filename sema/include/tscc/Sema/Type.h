//===- Type.h - Types of one data model -------------------------*- C++ -*-===//
//
// tscc types. A Type belongs to exactly one TypeContext, and there is one
// TypeContext per data model, so every Type knows its size and alignment for
// that model: `long` is 4 bytes in the ILP32 context and 8 in the LP64 one.
// Records carry the layout Clang computed for the model.
//
// Types are immutable once complete and compared by pointer: structural
// types (pointer, array, function, String) are uniqued by their context,
// records and enums are nominal. Typedefs are sugar over their underlying
// type; the is*() predicates and getAs<>() look through them.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_SEMA_TYPE_H
#define TSCC_SEMA_TYPE_H

#include "tscc/Sema/DataModel.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tscc {

class TypeContext;

class Type {
public:
  enum class Kind : uint8_t {
    // Builtins. The integer kinds are ordered by rank so range checks work.
    Void,
    Bool,
    Char, // plain char: signed on both x86 models
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Int128,
    UInt128,
    Float,
    Double,
    LongDouble,
    // Derived and user-defined types.
    Pointer,
    Array,
    Record,
    Enum,
    Function,
    Typedef,
    String,
    // A C type tscc does not model (vector, _Complex, _Float128, ...): it
    // keeps its spelling, size and alignment so layouts stay exact.
    Opaque,
    // gcc's N-bit integer type of a bit-field wider than int and narrower
    // than its declared type (`unsigned long long b : 48`).
    BitFieldInt,
  };

  Kind getKind() const { return TheKind; }
  TypeContext &getContext() const { return Ctx; }
  DataModel getDataModel() const;

  /// Size in bytes in this type's data model; 0 for void, functions and
  /// incomplete types.
  uint64_t getSize() const;
  /// Alignment in bytes as a member of a struct (C11 `_Alignof`). On i386
  /// this is 4 for `long long` and `double`, matching gcc -m32.
  uint64_t getAlign() const;
  /// False for void, forward-declared records/enums and `T[]`.
  bool isComplete() const;

  /// The type with all typedef sugar removed.
  const Type *getCanonical() const;
  /// dyn_cast on the canonical type: `T->getAs<PointerType>()`.
  template <typename T> const T *getAs() const {
    return llvm::dyn_cast<T>(getCanonical());
  }

  bool isVoid() const { return getCanonical()->TheKind == Kind::Void; }
  bool isBool() const { return getCanonical()->TheKind == Kind::Bool; }
  /// Integer types in the C sense: bool, the char types, short..__int128
  /// and enums.
  bool isInteger() const;
  bool isSigned() const;
  bool isUnsigned() const { return isInteger() && !isSigned(); }
  bool isFloating() const;
  bool isArithmetic() const { return isInteger() || isFloating(); }
  bool isPointer() const { return getCanonical()->TheKind == Kind::Pointer; }
  bool isArray() const { return getCanonical()->TheKind == Kind::Array; }
  bool isRecord() const { return getCanonical()->TheKind == Kind::Record; }
  bool isStruct() const;
  bool isUnion() const;
  bool isEnum() const { return getCanonical()->TheKind == Kind::Enum; }
  bool isFunction() const { return getCanonical()->TheKind == Kind::Function; }
  bool isString() const { return getCanonical()->TheKind == Kind::String; }
  bool isTypedef() const { return TheKind == Kind::Typedef; }
  /// Arithmetic or pointer (C 6.2.5p21).
  bool isScalar() const { return isArithmetic() || isPointer(); }
  /// A pointer to a function type.
  bool isFunctionPointer() const;

  /// C integer conversion rank (6.3.1.1): bool 1, char 2, short 3, int 4,
  /// long 5, long long 6, __int128 7; an enum has its underlying type's
  /// rank. 0 for non-integers. gcc's bit-field types rank with long long
  /// (the usual arithmetic conversions compare their widths first).
  unsigned getIntegerRank() const;
  /// The number of value bits of an integer type: its size in bits, or N
  /// for gcc's N-bit bit-field type.
  unsigned getIntegerWidth() const;

  /// The C spelling, as Clang would print it: `struct sigaction`,
  /// `unsigned long *`, `char[16]`, `void (*)(int)`, `pid_t`.
  std::string getName() const;
  void print(llvm::raw_ostream &OS) const;

protected:
  Type(Kind K, TypeContext &Ctx) : TheKind(K), Ctx(Ctx) {}
  Type(const Type &) = delete;
  Type &operator=(const Type &) = delete;
  ~Type() = default;

private:
  Kind TheKind;
  TypeContext &Ctx;
};

/// void, bool, the integer and the floating types.
class BuiltinType : public Type {
public:
  static bool classof(const Type *T) {
    return T->getKind() <= Kind::LongDouble;
  }

private:
  friend class TypeContext;
  BuiltinType(Kind K, TypeContext &Ctx, unsigned Size, unsigned Align)
      : Type(K, Ctx), Size(Size), Align(Align) {}

  unsigned Size, Align;
  friend class Type;
};

class PointerType : public Type {
public:
  const Type *getPointee() const { return Pointee; }
  static bool classof(const Type *T) { return T->getKind() == Kind::Pointer; }

private:
  friend class TypeContext;
  PointerType(TypeContext &Ctx, const Type *Pointee)
      : Type(Kind::Pointer, Ctx), Pointee(Pointee) {}
  const Type *Pointee;
};

class ArrayType : public Type {
public:
  const Type *getElementType() const { return Element; }
  /// The number of elements, or nullopt for an incomplete array `T[]`
  /// (e.g. a flexible array member).
  std::optional<uint64_t> getNumElements() const { return Count; }
  bool isIncompleteArray() const { return !Count; }
  static bool classof(const Type *T) { return T->getKind() == Kind::Array; }

private:
  friend class TypeContext;
  ArrayType(TypeContext &Ctx, const Type *Element,
            std::optional<uint64_t> Count)
      : Type(Kind::Array, Ctx), Element(Element), Count(Count) {}
  const Type *Element;
  std::optional<uint64_t> Count;
};

/// One member of a struct or union, as Clang laid it out for the model.
struct Field {
  /// Empty for an anonymous struct/union member (C11 6.7.2.1p13).
  std::string Name;
  const Type *Ty = nullptr;
  /// Offset from the start of the enclosing record, in bits.
  uint64_t BitOffset = 0;
  /// The declared width of a bit-field; nullopt for ordinary members.
  std::optional<unsigned> BitWidth;
  /// The member's own alignment in bytes as gcc gives it (DECL_ALIGN): its
  /// type's alignment as a member, 1 if packed, raised by an `aligned`
  /// attribute on the member. `__alignof__(s.m)` answers it.
  uint64_t Align = 1;

  bool isBitField() const { return BitWidth.has_value(); }
  /// An unnamed member of record type whose own members are accessed as if
  /// they belonged to the enclosing record.
  bool isAnonymousMember() const { return Name.empty(); }
  uint64_t getByteOffset() const { return BitOffset / 8; }
};

/// The result of a member lookup: the chain of fields from the record to the
/// named member (more than one when the name lives in anonymous members) and
/// the accumulated offset.
struct FieldPath {
  llvm::SmallVector<const Field *, 2> Fields;
  uint64_t BitOffset = 0;

  const Field &getField() const { return *Fields.back(); }
  const Type *getType() const { return Fields.back()->Ty; }
  uint64_t getByteOffset() const { return BitOffset / 8; }
  bool isBitField() const { return Fields.back()->isBitField(); }
};

class RecordType : public Type {
public:
  enum class TagKind : uint8_t { Struct, Union };

  TagKind getTagKind() const { return Tag; }
  bool isUnionRecord() const { return Tag == TagKind::Union; }
  /// The tag, or empty for an unnamed struct/union.
  llvm::StringRef getTagName() const { return TagName; }
  /// How an unnamed record prints, as Clang spells it: the typedef that
  /// names it (`siginfo_t`) or `union (unnamed at file:3:5)`.
  llvm::StringRef getUnnamedSpelling() const { return UnnamedSpelling; }

  bool hasDefinition() const { return Defined; }
  llvm::ArrayRef<Field> fields() const { return Fields; }
  uint64_t getRecordSize() const { return Size; }
  uint64_t getRecordAlign() const { return Align; }

  /// Finds member \p Name, looking through anonymous members. Returns
  /// nullopt if there is no such member or the record is incomplete.
  std::optional<FieldPath> lookupField(llvm::StringRef Name) const;

  static bool classof(const Type *T) { return T->getKind() == Kind::Record; }

private:
  friend class TypeContext;
  RecordType(TypeContext &Ctx, TagKind Tag, std::string TagName,
             std::string UnnamedSpelling)
      : Type(Kind::Record, Ctx), Tag(Tag), TagName(std::move(TagName)),
        UnnamedSpelling(std::move(UnnamedSpelling)) {}

  TagKind Tag;
  bool Defined = false;
  std::string TagName;
  std::string UnnamedSpelling;
  std::vector<Field> Fields;
  uint64_t Size = 0, Align = 1;
};

struct Enumerator {
  std::string Name;
  int64_t Value;
};

class EnumType : public Type {
public:
  llvm::StringRef getTagName() const { return TagName; }
  /// See RecordType::getUnnamedSpelling().
  llvm::StringRef getUnnamedSpelling() const { return UnnamedSpelling; }
  /// The underlying integer type (`unsigned int` for most C enums).
  const Type *getIntegerType() const { return Underlying; }
  bool hasDefinition() const { return Defined; }
  llvm::ArrayRef<Enumerator> enumerators() const { return Enumerators; }

  static bool classof(const Type *T) { return T->getKind() == Kind::Enum; }

private:
  friend class TypeContext;
  EnumType(TypeContext &Ctx, std::string TagName, std::string UnnamedSpelling,
           const Type *Underlying)
      : Type(Kind::Enum, Ctx), TagName(std::move(TagName)),
        UnnamedSpelling(std::move(UnnamedSpelling)), Underlying(Underlying) {}

  std::string TagName;
  std::string UnnamedSpelling;
  const Type *Underlying;
  bool Defined = false;
  std::vector<Enumerator> Enumerators;
};

class FunctionType : public Type {
public:
  const Type *getReturnType() const { return Return; }
  llvm::ArrayRef<const Type *> getParams() const { return Params; }
  bool isVariadic() const { return Variadic; }
  /// False for an old-style declaration `int f();`, whose parameters are
  /// unknown.
  bool hasPrototype() const { return Prototyped; }

  static bool classof(const Type *T) { return T->getKind() == Kind::Function; }

private:
  friend class TypeContext;
  FunctionType(TypeContext &Ctx, const Type *Return,
               std::vector<const Type *> Params, bool Variadic, bool Prototyped)
      : Type(Kind::Function, Ctx), Return(Return), Params(std::move(Params)),
        Variadic(Variadic), Prototyped(Prototyped) {}

  const Type *Return;
  std::vector<const Type *> Params;
  bool Variadic, Prototyped;
};

class TypedefType : public Type {
public:
  llvm::StringRef getTypedefName() const { return Name; }
  /// The type the typedef names (itself possibly a typedef).
  const Type *getUnderlying() const { return Underlying; }
  /// `typedef int a8 __attribute__((aligned(8)));` changes the alignment
  /// (but not the size) of the named type; nullopt if it does not.
  std::optional<uint64_t> getAlignOverride() const { return AlignOverride; }

  static bool classof(const Type *T) { return T->getKind() == Kind::Typedef; }

private:
  friend class TypeContext;
  TypedefType(TypeContext &Ctx, std::string Name, const Type *Underlying,
              std::optional<uint64_t> AlignOverride)
      : Type(Kind::Typedef, Ctx), Name(std::move(Name)), Underlying(Underlying),
        AlignOverride(AlignOverride) {}
  std::string Name;
  const Type *Underlying;
  std::optional<uint64_t> AlignOverride;
};

/// The script's bounded `String` (a NUL-terminated buffer of Capacity bytes).
class StringType : public Type {
public:
  static constexpr uint64_t DefaultCapacity = 128;
  uint64_t getCapacity() const { return Capacity; }

  static bool classof(const Type *T) { return T->getKind() == Kind::String; }

private:
  friend class TypeContext;
  StringType(TypeContext &Ctx, uint64_t Capacity)
      : Type(Kind::String, Ctx), Capacity(Capacity) {}
  uint64_t Capacity;
};

class OpaqueType : public Type {
public:
  llvm::StringRef getSpelling() const { return Spelling; }

  static bool classof(const Type *T) { return T->getKind() == Kind::Opaque; }

private:
  friend class TypeContext;
  OpaqueType(TypeContext &Ctx, std::string Spelling, uint64_t Size,
             uint64_t Align)
      : Type(Kind::Opaque, Ctx), Spelling(std::move(Spelling)), Size(Size),
        Align(Align) {}
  std::string Spelling;
  uint64_t Size, Align;
  friend class Type;
};

/// The type gcc gives a bit-field of width N when int < N < its declared
/// type's width (`unsigned long long b : 48` is `unsigned long long:48`):
/// arithmetic on it wraps at N bits, and it wins the usual arithmetic
/// conversions against narrower types and loses against wider ones. It
/// has 8 bytes of storage, as a value of it has in gcc.
class BitFieldIntType : public Type {
public:
  unsigned getWidth() const { return Width; }
  bool isSignedBitField() const { return Signed; }

  static bool classof(const Type *T) {
    return T->getKind() == Kind::BitFieldInt;
  }

private:
  friend class TypeContext;
  BitFieldIntType(TypeContext &Ctx, unsigned Width, bool Signed)
      : Type(Kind::BitFieldInt, Ctx), Width(Width), Signed(Signed) {}
  unsigned Width;
  bool Signed;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &OS, const Type &T) {
  T.print(OS);
  return OS;
}

} // namespace tscc

#endif // TSCC_SEMA_TYPE_H
