//===- TypeContext.h - Owns and uniques the types of one model --*- C++ -*-===//
//
// One TypeContext per data model. It owns every Type of that model, knows
// the builtin sizes of the model's ABI (i386 System V for ILP32, x86-64
// System V for LP64) and uniques structural types, so two requests for
// `char *` return the same pointer and types compare by address.
//
// Records and enums are nominal: each create*() call makes a new type, which
// CDeclarations later completes with the layout Clang computed.
//
//===----------------------------------------------------------------------===//

#ifndef TSCC_SEMA_TYPECONTEXT_H
#define TSCC_SEMA_TYPECONTEXT_H

#include "tscc/Sema/DataModel.h"
#include "tscc/Sema/Type.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <array>
#include <map>
#include <memory>
#include <tuple>

namespace tscc {

class TypeContext {
public:
  explicit TypeContext(DataModel DM);
  TypeContext(const TypeContext &) = delete;
  TypeContext &operator=(const TypeContext &) = delete;

  DataModel getDataModel() const { return DM; }
  unsigned getPointerSize() const { return dataModelPointerSize(DM); }

  /// \p K must be a builtin kind (Void ... LongDouble).
  const BuiltinType *getBuiltin(Type::Kind K) const;
  const BuiltinType *getVoid() const { return getBuiltin(Type::Kind::Void); }
  const BuiltinType *getBool() const { return getBuiltin(Type::Kind::Bool); }
  const BuiltinType *getChar() const { return getBuiltin(Type::Kind::Char); }
  const BuiltinType *getInt() const { return getBuiltin(Type::Kind::Int); }
  const BuiltinType *getUInt() const { return getBuiltin(Type::Kind::UInt); }
  const BuiltinType *getLong() const { return getBuiltin(Type::Kind::Long); }
  const BuiltinType *getULong() const { return getBuiltin(Type::Kind::ULong); }
  const BuiltinType *getLongLong() const {
    return getBuiltin(Type::Kind::LongLong);
  }
  const BuiltinType *getULongLong() const {
    return getBuiltin(Type::Kind::ULongLong);
  }
  const BuiltinType *getDouble() const {
    return getBuiltin(Type::Kind::Double);
  }
  /// The signed/unsigned integer type with exactly \p Bytes bytes in this
  /// model, preferring int, then long, then long long; nullptr if none.
  const BuiltinType *getIntegerOfSize(uint64_t Bytes, bool Signed) const;
  /// The unsigned counterpart of an integer kind (`int` -> `unsigned int`);
  /// \p T itself if it is already unsigned. Enums map via their underlying
  /// type.
  const Type *getCorrespondingUnsigned(const Type *T) const;
  /// `size_t` and `ptrdiff_t` of the model, as gcc and glibc define them:
  /// unsigned int and int on i386, unsigned long and long on x86-64 (the
  /// same widths; `_Generic` and `__typeof__` tell them apart).
  const BuiltinType *getSizeType() const {
    return DM == DataModel::ILP32 ? getUInt() : getULong();
  }
  const BuiltinType *getPtrDiffType() const {
    return DM == DataModel::ILP32 ? getInt() : getLong();
  }

  const PointerType *getPointer(const Type *Pointee);
  /// \p Count nullopt makes the incomplete array `T[]`.
  const ArrayType *getArray(const Type *Element, std::optional<uint64_t> Count);
  const FunctionType *getFunction(const Type *Return,
                                  llvm::ArrayRef<const Type *> Params,
                                  bool Variadic, bool Prototyped = true);
  const StringType *getString(uint64_t Capacity = StringType::DefaultCapacity);
  /// Typedef names are unique in C: a second request for \p Name with the
  /// same underlying type returns the first typedef.
  const TypedefType *
  getTypedef(llvm::StringRef Name, const Type *Underlying,
             std::optional<uint64_t> AlignOverride = std::nullopt);
  const Type *getOpaque(llvm::StringRef Spelling, uint64_t Size,
                        uint64_t Align);
  /// gcc's type of a \p Width-bit bit-field (32 < Width < 64).
  const BitFieldIntType *getBitFieldInt(unsigned Width, bool Signed);

  /// Creates an incomplete struct/union; complete it with defineRecord().
  RecordType *createRecord(RecordType::TagKind Tag, llvm::StringRef Name,
                           llvm::StringRef UnnamedSpelling = {});
  /// Completes \p R with its fields and the size/alignment Clang computed.
  void defineRecord(RecordType *R, std::vector<Field> Fields, uint64_t Size,
                    uint64_t Align);

  EnumType *createEnum(llvm::StringRef Name, const Type *Underlying,
                       llvm::StringRef UnnamedSpelling = {});
  void defineEnum(EnumType *E, std::vector<Enumerator> Enumerators);

  /// Number of types owned (for tests of uniquing).
  size_t getNumTypes() const;

private:
  DataModel DM;
  std::vector<std::unique_ptr<BuiltinType>> Builtins;
  std::array<const BuiltinType *,
             static_cast<size_t>(Type::Kind::LongDouble) + 1>
      BuiltinByKind{};

  std::vector<std::unique_ptr<PointerType>> Pointers;
  std::vector<std::unique_ptr<ArrayType>> Arrays;
  std::vector<std::unique_ptr<FunctionType>> Functions;
  std::vector<std::unique_ptr<StringType>> Strings;
  std::vector<std::unique_ptr<TypedefType>> Typedefs;
  std::vector<std::unique_ptr<OpaqueType>> Opaques;
  std::vector<std::unique_ptr<RecordType>> Records;
  std::vector<std::unique_ptr<EnumType>> Enums;
  std::map<std::pair<unsigned, bool>, std::unique_ptr<BitFieldIntType>>
      BitFieldInts;

  llvm::DenseMap<const Type *, const PointerType *> PointerMap;
  // Incomplete arrays use UINT64_MAX as their count key.
  std::map<std::pair<const Type *, uint64_t>, const ArrayType *> ArrayMap;
  std::map<std::tuple<const Type *, std::vector<const Type *>, bool, bool>,
           const FunctionType *>
      FunctionMap;
  std::map<uint64_t, const StringType *> StringMap;
  llvm::StringMap<const TypedefType *> TypedefMap;
  std::map<std::tuple<std::string, uint64_t, uint64_t>, const OpaqueType *>
      OpaqueMap;
};

} // namespace tscc

#endif // TSCC_SEMA_TYPECONTEXT_H
