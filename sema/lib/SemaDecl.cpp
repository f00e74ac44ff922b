//===- SemaDecl.cpp - Script variables, type names and storage ------------===//
//
// Storage classes and the width rules of LANGUAGE.md section 2:
//   - `__global` variables live in one block laid out with LP64 widths; in
//     the ILP32 stream an integer global is widened to its LP64 width, so a
//     `__global long` is 64-bit storage and arithmetic in both streams;
//   - `__thread` variables follow the firing process: one thread block
//     layout per model, after a bitmap of "written" bits;
//   - `__auto` variables live in the clause's frame.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/SemaChecker.h"

#include "llvm/Support/MathExtras.h"

namespace tscc {

namespace {
/// The largest String capacity a declaration may ask for. Strings travel in
/// records and map keys, so they stay small.
constexpr uint64_t MaxStringCapacity = 4096;

Type::Kind builtinKind(BuiltinTypeKind K) {
  switch (K) {
  case BuiltinTypeKind::Void:
    return Type::Kind::Void;
  case BuiltinTypeKind::Bool:
    return Type::Kind::Bool;
  case BuiltinTypeKind::Char:
    return Type::Kind::Char;
  case BuiltinTypeKind::SChar:
    return Type::Kind::SChar;
  case BuiltinTypeKind::UChar:
    return Type::Kind::UChar;
  case BuiltinTypeKind::Short:
    return Type::Kind::Short;
  case BuiltinTypeKind::UShort:
    return Type::Kind::UShort;
  case BuiltinTypeKind::Int:
    return Type::Kind::Int;
  case BuiltinTypeKind::UInt:
    return Type::Kind::UInt;
  case BuiltinTypeKind::Long:
    return Type::Kind::Long;
  case BuiltinTypeKind::ULong:
    return Type::Kind::ULong;
  case BuiltinTypeKind::LongLong:
    return Type::Kind::LongLong;
  case BuiltinTypeKind::ULongLong:
    return Type::Kind::ULongLong;
  case BuiltinTypeKind::Float:
    return Type::Kind::Float;
  case BuiltinTypeKind::Double:
    return Type::Kind::Double;
  case BuiltinTypeKind::LongDouble:
    return Type::Kind::LongDouble;
  }
  return Type::Kind::Int;
}

VarStorage storageOf(StorageClass SC) {
  switch (SC) {
  case StorageClass::Global:
    return VarStorage::Global;
  case StorageClass::Thread:
    return VarStorage::Thread;
  case StorageClass::Auto:
    return VarStorage::Auto;
  }
  return VarStorage::Auto;
}
} // namespace

const Type *SemaChecker::resolveBaseType(TypeSpec *T) {
  SourceLocation Loc =
      T->getNameLoc().isValid() ? T->getNameLoc() : T->getBeginLoc();
  switch (T->getSpecKind()) {
  case TypeSpec::SpecKind::Builtin:
    return types().getBuiltin(builtinKind(T->getBuiltinKind()));
  case TypeSpec::SpecKind::Struct:
  case TypeSpec::SpecKind::Union:
  case TypeSpec::SpecKind::Enum: {
    const Type *R = nullptr;
    unsigned Sel = 0;
    if (T->getSpecKind() == TypeSpec::SpecKind::Struct)
      R = cdecls().lookupStruct(T->getName());
    else if (T->getSpecKind() == TypeSpec::SpecKind::Union) {
      R = cdecls().lookupUnion(T->getName());
      Sel = 1;
    } else {
      R = cdecls().lookupEnum(T->getName());
      Sel = 2;
    }
    if (!R)
      diag(Loc, diag::err_unknown_tag) << Sel << T->getName();
    return R;
  }
  case TypeSpec::SpecKind::Typedef: {
    const Type *R = cdecls().lookupTypedef(T->getName());
    if (!R)
      diag(Loc, diag::err_unknown_type_name) << T->getName();
    return R;
  }
  case TypeSpec::SpecKind::String: {
    uint64_t Cap = StringType::DefaultCapacity;
    if (Expr *E = T->getStringCapacity()) {
      const Type *CT = check(E);
      std::optional<int64_t> V = CT ? evaluate(E) : std::nullopt;
      if (CT && (!V || *V < 1 || uint64_t(*V) > MaxStringCapacity)) {
        diag(E->getSourceRange(), diag::err_string_capacity)
            << MaxStringCapacity;
        return nullptr;
      }
      if (!CT)
        return nullptr;
      Cap = uint64_t(*V);
    }
    return types().getString(Cap);
  }
  case TypeSpec::SpecKind::Typeof:
    if (TypeSpec *Of = T->getTypeofType())
      return resolveTypeSpec(Of);
    return checkTypeofExpr(T);
  }
  return nullptr;
}

const Type *SemaChecker::resolveTypeSpec(TypeSpec *T) {
  const Type *Base = resolveBaseType(T);
  if (!Base)
    return nullptr;
  if (Base->isString() &&
      (T->getPointerDepth() || T->getFunction() || T->getNested())) {
    diag(T->getBeginLoc(), diag::err_string_pointer);
    return nullptr;
  }
  Base = applyDeclaratorLevel(Base, T->getPointerDepth(), T->getArrayDims(),
                              T->getFunction(), T->getBeginLoc());
  // `int (*)[3]`: the parenthesised level applies to what is outside it.
  for (const DeclaratorLevel *L = T->getNested(); L && Base; L = L->Nested)
    Base = applyDeclaratorLevel(Base, L->PointerDepth, L->ArrayDims,
                                L->Function, L->Range.getBegin());
  return Base;
}

const Type *SemaChecker::applyDeclaratorLevel(const Type *Base,
                                              unsigned Pointers,
                                              llvm::ArrayRef<Expr *> Dims,
                                              const FunctionSuffix *F,
                                              SourceLocation Loc) {
  for (unsigned I = 0; I < Pointers; ++I)
    Base = types().getPointer(Base);
  if (F)
    return resolveFunctionSuffix(Base, *F, Loc);
  // `int a[2][3]` is an array of 2 arrays of 3: apply the last one first.
  for (auto It = Dims.rbegin(); It != Dims.rend(); ++It) {
    if (Base->isFunction() || !Base->isComplete()) {
      diag(Loc, diag::err_declarator_invalid)
          << (Base->isFunction() ? 0 : 3) << Base->getName();
      return nullptr;
    }
    Expr *D = *It;
    if (!D) {
      // `int[]`: complete only where an initializer gives the length.
      if (It + 1 != Dims.rend()) {
        diag(Loc, diag::err_array_dim_not_constant);
        return nullptr;
      }
      Base = types().getArray(Base, std::nullopt);
      continue;
    }
    if (!check(D))
      return nullptr;
    std::optional<int64_t> N = evaluate(D);
    if (!N) {
      diag(D->getSourceRange(), diag::err_array_dim_not_constant);
      return nullptr;
    }
    if (*N <= 0) {
      diag(D->getSourceRange(), diag::err_array_dim_not_positive) << *N;
      return nullptr;
    }
    Base = types().getArray(Base, uint64_t(*N));
  }
  return Base;
}

const Type *SemaChecker::resolveFunctionSuffix(const Type *Return,
                                               const FunctionSuffix &F,
                                               SourceLocation Loc) {
  if (Return->isArray() || Return->isFunction()) {
    diag(Loc, diag::err_declarator_invalid)
        << (Return->isArray() ? 1 : 2) << Return->getName();
    return nullptr;
  }
  std::vector<const Type *> Params;
  for (TypeSpec *P : F.Params) {
    const Type *PT = resolveTypeSpec(P);
    if (!PT)
      return nullptr;
    if (PT->isVoid()) {
      // `(void)`: no parameters.
      if (F.Params.size() != 1 || P->getPointerDepth() || F.Variadic) {
        diag(P->getBeginLoc(), diag::err_function_param_void);
        return nullptr;
      }
      break;
    }
    // A parameter of array or function type is a pointer (6.7.6.3p7-8).
    if (const auto *A = PT->getAs<ArrayType>())
      PT = types().getPointer(A->getElementType());
    else if (PT->isFunction())
      PT = types().getPointer(PT);
    Params.push_back(PT);
  }
  return types().getFunction(Return, Params, F.Variadic, F.Prototyped);
}

bool SemaChecker::checkScriptValueType(const Type *T, SourceLocation Loc,
                                       llvm::StringRef Name) {
  if (T->isFloating()) {
    diag(Loc, diag::err_floating_value) << T->getName();
    return false;
  }
  if (T->isVoid() || T->isFunction()) {
    diag(Loc, diag::err_var_bad_type) << Name << T->getName();
    return false;
  }
  if (!T->isComplete() || T->getSize() == 0) {
    diag(Loc, diag::err_var_incomplete) << Name << T->getName();
    return false;
  }
  return true;
}

const Type *SemaChecker::storageType(const Type *T, VarStorage SC) {
  if (!T || SC != VarStorage::Global || M != DataModel::ILP32)
    return T;
  // A global integer keeps its LP64 width in the ILP32 stream: widen every
  // integer that is narrower here than in LP64 (long, size_t, ...).
  if (!T->isInteger() || T->isBool())
    return T;
  // `long`/`unsigned long` and the typedefs over them are the only integers
  // whose width differs; find the LP64 width through the spelling.
  const Type *C = T->getCanonical();
  if (C->getKind() == Type::Kind::Long)
    return types().getLongLong();
  if (C->getKind() == Type::Kind::ULong)
    return types().getULongLong();
  if (auto *TD = llvm::dyn_cast<TypedefType>(T)) {
    if (const Type *L =
            CDecls[TSCC_DM_LP64]->lookupTypedef(TD->getTypedefName()))
      if (L->isInteger() && L->getSize() > T->getSize())
        return types().getIntegerOfSize(L->getSize(), T->isSigned());
  }
  return T;
}

VarDecl *SemaChecker::lookupVar(llvm::StringRef Name) {
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
    auto F = It->find(Name);
    if (F != It->end())
      return F->second;
  }
  auto F = Globals.find(Name);
  return F == Globals.end() ? nullptr : F->second;
}

VariableInfo &SemaChecker::varInfo(const VarDecl *D) {
  auto It = Info.VariableOfDecl.find(D);
  if (It != Info.VariableOfDecl.end())
    return Info.Variables[It->second];
  VariableInfo V;
  V.Id = Info.Variables.size();
  V.Name = D->getName().str();
  V.Storage = storageOf(D->getStorageClass());
  PresumedLoc P = SM.getPresumedLoc(D->getNameLoc());
  V.Loc = {P.Line, P.Column};
  if (V.Storage == VarStorage::Auto && Cur)
    V.Clause = Cur->Index;
  Info.VariableOfDecl[D] = V.Id;
  Info.Variables.push_back(std::move(V));
  return Info.Variables.back();
}

/// Declares \p D in the current scope (or the globals), diagnosing a
/// redefinition in the same scope.
void SemaChecker::declareVar(VarDecl *D, bool TopLevel) {
  llvm::StringMap<VarDecl *> &Scope = TopLevel ? Globals : Scopes.back();
  auto [It, New] = Scope.try_emplace(D->getName(), D);
  if (New)
    return;
  diag(D->getNameLoc(), diag::err_redefinition) << D->getName();
  note(It->second->getNameLoc(), diag::note_previous_definition);
}

/// Resolves key and value types of an associative array in the current
/// model and fills its MapInfo.
static bool isMapKeyType(const Type *T) {
  return T->isInteger() || T->isPointer() || T->isString();
}

void SemaChecker::checkTopLevelVars() {
  for (VarDecl *D : S.getVars()) {
    beginBuffer();
    M = DataModel::LP64;
    if (D->getStorageClass() == StorageClass::Auto) {
      diag(D->getStorageClassLoc().isValid() ? D->getStorageClassLoc()
                                             : D->getBeginLoc(),
           diag::err_auto_at_top_level);
      flushBuffer();
      continue;
    }
    declareVar(D, /*TopLevel=*/true);
    const unsigned VId = varInfo(D).Id;
    const VarStorage SC = Info.Variables[VId].Storage;
    bool IsMap = D->isAssociativeArray();
    bool Ok = true;
    HaveOtherModel = true;
    for (DataModel X : AllDataModels) {
      M = X;
      InModelPass = true;
      const Type *T = resolveTypeSpec(D->getTypeSpec());
      if (!T) {
        Ok = false;
        continue;
      }
      if (IsMap && !(isMapKeyType(T))) {
        diag(D->getTypeSpec()->getBeginLoc(), diag::err_map_value_type)
            << T->getName();
        Ok = false;
        continue;
      }
      if (!checkScriptValueType(T, D->getNameLoc(), D->getName())) {
        Ok = false;
        continue;
      }
      Info.Variables[VId].Types[mi()] = storageType(T, SC);
    }
    InModelPass = false;
    if (IsMap)
      Ok &= [&] {
        llvm::ArrayRef<TypeSpec *> Keys = D->getKeyTypes();
        if (Keys.size() > MaxMapKeys) {
          diag(Keys[MaxMapKeys]->getBeginLoc(), diag::err_map_key_count_decl)
              << unsigned(Keys.size()) << MaxMapKeys;
          return false;
        }
        MapInfo MI;
        MI.KeyTypes.resize(Keys.size());
        MI.Id = Info.Maps.size();
        MI.Variable = VId;
        MI.Name = Info.Variables[VId].Name;
        MI.Flags = SC == VarStorage::Thread ? TSCC_MAP_THREAD : 0;
        bool KeyOk = true;
        for (DataModel X : AllDataModels) {
          M = X;
          InModelPass = true;
          for (size_t KI = 0; KI < Keys.size(); ++KI) {
            const Type *K = resolveTypeSpec(Keys[KI]);
            if (K && !isMapKeyType(K)) {
              diag(Keys[KI]->getBeginLoc(), diag::err_map_key_type)
                  << K->getName();
              K = nullptr;
            }
            if (!K) {
              KeyOk = false;
              continue;
            }
            MI.KeyTypes[KI][mi()] = K;
          }
          MI.ValueTypes[mi()] = Info.Variables[VId].Types[mi()];
        }
        InModelPass = false;
        if (!KeyOk || !MI.ValueTypes[TSCC_DM_LP64])
          return false;
        M = DataModel::LP64;
        MI.KeySize = 0;
        for (const PerModel<const Type *> &KT : MI.KeyTypes) {
          MI.Keys.push_back(fieldForValue(formatArgType(KT[TSCC_DM_LP64])));
          MI.KeySize += MI.Keys.back().Size;
        }
        FieldInfo V = fieldForValue(formatArgType(MI.ValueTypes[TSCC_DM_LP64]));
        MI.ValueKind = V.Kind;
        MI.ValueSize = V.Size;
        Info.Variables[VId].MapId = MI.Id;
        Info.Maps.push_back(std::move(MI));
        return true;
      }();
    if (Expr *Init = D->getInit()) {
      if (IsMap)
        diag(Init->getBeginLoc(), diag::err_map_init);
      else if (SC == VarStorage::Thread)
        diag(Init->getBeginLoc(), diag::err_thread_init);
      else if (Ok)
        checkGlobalInit(D);
    }
    flushBuffer();
  }
}

void SemaChecker::checkGlobalInit(VarDecl *D) {
  VariableInfo &VI = varInfo(D);
  Expr *Init = D->getInit();
  PerModel<std::optional<int64_t>> Values;
  bool IsString = VI.Types[TSCC_DM_LP64]->isString();
  struct ModelPass {
    bool &Flag;
    ~ModelPass() { Flag = false; }
  } Guard{InModelPass};
  for (DataModel X : AllDataModels) {
    M = X;
    InModelPass = true;
    const Type *T = rvalue(Init, check(Init));
    if (!T || !checkConvertible(Init, T, VI.Types[mi()], Init->getBeginLoc(),
                                "initializing"))
      return;
    convertTo(Init, VI.Types[mi()]);
    if (IsString) {
      if (!llvm::isa<StringLiteral>(Init->ignoreParens())) {
        diag(Init->getSourceRange(), diag::err_global_init_not_constant);
        return;
      }
      continue;
    }
    Values[mi()] = evaluate(Init);
    if (!Values[mi()]) {
      diag(Init->getSourceRange(), diag::err_global_init_not_constant);
      return;
    }
  }
  M = DataModel::LP64;
  InModelPass = false;
  warnModelDependentStore(Init, VI.Types, Init->getBeginLoc());
  ConstantInit CI;
  if (IsString) {
    CI.IsString = true;
    auto *Lit = llvm::cast<StringLiteral>(Init->ignoreParens());
    uint64_t Cap =
        llvm::cast<StringType>(VI.Types[TSCC_DM_LP64]->getCanonical())
            ->getCapacity();
    CI.Str = Lit->getBytes().take_front(Cap - 1).str();
  } else {
    int64_t IL = normalize(*Values[TSCC_DM_ILP32], VI.Types[TSCC_DM_ILP32]);
    int64_t LP = normalize(*Values[TSCC_DM_LP64], VI.Types[TSCC_DM_LP64]);
    if (IL != LP)
      diagNeutral(Init->getBeginLoc(), diag::warn_global_init_differs)
          << D->getName() << IL << LP;
    CI.Int = LP;
  }
  VI.Init = std::move(CI);
}

void SemaChecker::layoutStorage() {
  uint64_t GlobalOff = 0, GlobalAlign = 8;
  unsigned ThreadVars = 0;
  for (const VariableInfo &V : Info.Variables)
    if (V.Storage == VarStorage::Thread && V.MapId < 0 && V.Types[TSCC_DM_LP64])
      ++ThreadVars;
  uint64_t Bitmap = llvm::alignTo((ThreadVars + 7) / 8, 8);
  Info.ThreadBitmapSize = Bitmap;
  PerModel<uint64_t> ThreadOff{Bitmap, Bitmap};
  uint64_t ThreadAlign = 8;
  unsigned Bit = 0;

  for (VariableInfo &V : Info.Variables) {
    if (V.MapId >= 0 || V.Storage == VarStorage::Auto ||
        !V.Types[TSCC_DM_LP64] || !V.Types[TSCC_DM_ILP32])
      continue;
    if (V.Storage == VarStorage::Global) {
      // One slot for both streams: big enough and aligned enough for either
      // model's view (records and arrays may differ; integers are widened).
      uint64_t Size = std::max(V.Types[0]->getSize(), V.Types[1]->getSize());
      uint64_t Align = std::max<uint64_t>(
          {V.Types[0]->getAlign(), V.Types[1]->getAlign(), 1});
      GlobalOff = llvm::alignTo(GlobalOff, Align);
      V.Offsets = {uint32_t(GlobalOff), uint32_t(GlobalOff)};
      V.Sizes = {uint32_t(Size), uint32_t(Size)};
      V.Aligns = {uint32_t(Align), uint32_t(Align)};
      GlobalOff += Size;
      GlobalAlign = std::max(GlobalAlign, Align);
      continue;
    }
    V.WrittenBit = Bit++;
    for (unsigned X = 0; X < TSCC_DM_COUNT; ++X) {
      uint64_t Size = V.Types[X]->getSize();
      uint64_t Align = std::max<uint64_t>(V.Types[X]->getAlign(), 1);
      ThreadOff[X] = llvm::alignTo(ThreadOff[X], Align);
      V.Offsets[X] = uint32_t(ThreadOff[X]);
      V.Sizes[X] = uint32_t(Size);
      V.Aligns[X] = uint32_t(Align);
      ThreadOff[X] += Size;
      ThreadAlign = std::max(ThreadAlign, Align);
    }
  }
  for (VariableInfo &V : Info.Variables) {
    if (V.Storage != VarStorage::Auto || V.MapId >= 0)
      continue;
    for (unsigned X = 0; X < TSCC_DM_COUNT; ++X)
      if (V.Types[X]) {
        V.Sizes[X] = uint32_t(V.Types[X]->getSize());
        V.Aligns[X] = uint32_t(V.Types[X]->getAlign());
      }
  }
  Info.GlobalSize = uint32_t(llvm::alignTo(GlobalOff, GlobalAlign));
  Info.GlobalAlign = uint32_t(GlobalAlign);
  for (unsigned X = 0; X < TSCC_DM_COUNT; ++X)
    Info.ThreadSize[X] =
        ThreadVars ? uint32_t(llvm::alignTo(ThreadOff[X], ThreadAlign)) : 0;
  Info.ThreadAlign = uint32_t(ThreadAlign);
}

} // namespace tscc
