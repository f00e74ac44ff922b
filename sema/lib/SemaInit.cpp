//===- SemaInit.cpp - Compound literals and their initializers ------------===//
//
// `(struct s){ .a = 1, 2 }`, `(int[]){1, 2, 3}`, `(long){x}`: C's
// initialization rules (6.7.9) with designators, nested braces and brace
// elision, worked out per model into a list of scalar stores at bit offsets
// of a zeroed object that codegen performs in order (a later store
// overrides an earlier one, as a later initializer does in C).
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/SemaChecker.h"

#include "tscc/AST/ASTContext.h"

namespace tscc {

namespace {

/// A subobject being initialised: its type and where it starts.
struct SubObject {
  const Type *Ty = nullptr;
  uint64_t BitOffset = 0;
  std::optional<unsigned> BitWidth;
};

/// One aggregate whose members or elements the initializer walks through,
/// and the index of the next one.
struct Frame {
  const Type *Agg;
  uint64_t BitOffset;
  uint64_t Next = 0;
};

bool isAggregate(const Type *T) { return T->isRecord() || T->isArray(); }

/// A string literal initialising an array of a character type.
StringLiteral *charArrayString(const Type *T, Expr *Value) {
  const auto *A = T->getAs<ArrayType>();
  if (!A || A->getElementType()->getSize() != 1 ||
      !A->getElementType()->isInteger())
    return nullptr;
  return llvm::dyn_cast<StringLiteral>(Value->ignoreParens());
}

/// How many subobjects a sequence of initializers fills in \p T: every
/// member of a struct, the first of a union, every element of an array
/// (unbounded for `T[]`).
uint64_t subObjectCount(const Type *T) {
  if (const auto *R = T->getAs<RecordType>())
    return R->isUnionRecord() ? std::min<size_t>(1, R->fields().size())
                              : R->fields().size();
  const auto *A = T->getAs<ArrayType>();
  return A->getNumElements().value_or(UINT64_MAX);
}

SubObject subObject(const Frame &F, uint64_t I) {
  if (const auto *R = F.Agg->getAs<RecordType>()) {
    const Field &Fd = R->fields()[I];
    return {Fd.Ty, F.BitOffset + Fd.BitOffset, Fd.BitWidth};
  }
  const Type *E = F.Agg->getAs<ArrayType>()->getElementType();
  return {E, F.BitOffset + I * E->getSize() * 8, std::nullopt};
}

} // namespace

class InitBuilder {
public:
  InitBuilder(SemaChecker &S, std::vector<CompoundInitStore> &Out)
      : S(S), Out(Out) {}

  /// Initialises \p Obj from the braced list \p L; for a top-level `T[]`
  /// \p MaxCount receives the number of elements used.
  bool initList(const SubObject &Obj, InitListExpr *L, uint64_t *MaxCount);

private:
  bool initScalar(const SubObject &Obj, Expr *Value);
  bool initString(const SubObject &Obj, StringLiteral *Lit, uint64_t *Count);
  bool designate(std::vector<Frame> &Stack, const InitItem &Item,
                 uint64_t *MaxCount);
  bool nextSubObject(std::vector<Frame> &Stack, const InitItem &Item);

  SemaChecker &S;
  std::vector<CompoundInitStore> &Out;
};

bool InitBuilder::initScalar(const SubObject &Obj, Expr *Value) {
  if (auto *Nested = llvm::dyn_cast<InitListExpr>(Value)) {
    // `(int){ {5} }`: braces around a scalar, as C allows.
    if (Nested->getItems().size() != 1 ||
        !Nested->getItems()[0].Designators.empty()) {
      S.diag(Nested->getSourceRange(), diag::err_init_scalar_braces)
          << Obj.Ty->getName();
      return false;
    }
    return initScalar(Obj, Nested->getItems()[0].Value);
  }
  const Type *VT = S.promoteBitField(Value, S.rvalue(Value, S.check(Value)));
  if (!VT)
    return false;
  if (!Obj.Ty->isInteger() && !Obj.Ty->isPointer()) {
    S.diag(Value->getSourceRange(), diag::err_init_type) << Obj.Ty->getName();
    return false;
  }
  if (!S.checkConvertible(Value, VT, Obj.Ty, Value->getBeginLoc(),
                          "initializing"))
    return false;
  S.convertTo(Value, Obj.Ty);
  Out.push_back({Obj.BitOffset, Obj.BitWidth, Obj.Ty, Value});
  return true;
}

bool InitBuilder::initString(const SubObject &Obj, StringLiteral *Lit,
                             uint64_t *Count) {
  // `(char[]){"abc"}`: the bytes and the NUL, as far as the array goes.
  const auto *A = Obj.Ty->getAs<ArrayType>();
  llvm::StringRef Bytes = Lit->getBytes();
  uint64_t N = A->getNumElements().value_or(Bytes.size() + 1);
  if (Count)
    *Count = std::max(*Count, N);
  const Type *E = A->getElementType();
  ASTContext &AST = S.AST;
  for (uint64_t I = 0; I < N && I <= Bytes.size(); ++I) {
    int64_t V = I < Bytes.size() ? int64_t(int8_t(Bytes[I])) : 0;
    auto *C = AST.create<CharLiteral>(Lit->getSourceRange(), V);
    if (!initScalar({E, Obj.BitOffset + I * 8, std::nullopt}, C))
      return false;
  }
  return true;
}

bool InitBuilder::designate(std::vector<Frame> &Stack, const InitItem &Item,
                            uint64_t *MaxCount) {
  // A designation starts again from the braced list's own object.
  Stack.resize(1);
  for (size_t K = 0; K < Item.Designators.size(); ++K) {
    const Designator &D = Item.Designators[K];
    Frame &F = Stack.back();
    uint64_t Index = 0;
    if (D.K == Designator::Kind::Field) {
      const auto *R = F.Agg->getAs<RecordType>();
      std::optional<FieldPath> P =
          R ? R->lookupField(D.FieldName) : std::nullopt;
      if (!P) {
        S.diag(D.Range, diag::err_init_designator)
            << ("." + D.FieldName).str() << F.Agg->getName();
        return false;
      }
      // A member of an anonymous member: enter each anonymous level.
      for (size_t A = 0; A + 1 < P->Fields.size(); ++A) {
        const Field *Anon = P->Fields[A];
        Frame &Cur = Stack.back();
        const auto *CR = Cur.Agg->getAs<RecordType>();
        Cur.Next = uint64_t(Anon - CR->fields().data());
        Stack.push_back({Anon->Ty, Cur.BitOffset + Anon->BitOffset});
      }
      const auto *Inner = Stack.back().Agg->getAs<RecordType>();
      Index = uint64_t(P->Fields.back() - Inner->fields().data());
    } else {
      const auto *A = F.Agg->getAs<ArrayType>();
      std::optional<int64_t> V =
          A && S.check(D.Index) ? S.evaluate(D.Index) : std::nullopt;
      bool Bad = !V || *V < 0 ||
                 (A->getNumElements() && uint64_t(*V) >= *A->getNumElements());
      if (!A || Bad) {
        S.diag(D.Range, diag::err_init_designator) << "[]" << F.Agg->getName();
        return false;
      }
      Index = uint64_t(*V);
      if (Stack.size() == 1 && MaxCount)
        *MaxCount = std::max(*MaxCount, Index + 1);
    }
    Stack.back().Next = Index;
    if (K + 1 < Item.Designators.size()) {
      SubObject Sub = subObject(Stack.back(), Index);
      if (!isAggregate(Sub.Ty)) {
        S.diag(Item.Designators[K + 1].Range, diag::err_init_designator)
            << "" << Sub.Ty->getName();
        return false;
      }
      Stack.push_back({Sub.Ty, Sub.BitOffset});
    }
  }
  return true;
}

bool InitBuilder::nextSubObject(std::vector<Frame> &Stack,
                                const InitItem &Item) {
  // The next subobject in order: leave aggregates that are full (those
  // entered by brace elision or a designator), never the list's own.
  while (Stack.size() > 1 &&
         Stack.back().Next >= subObjectCount(Stack.back().Agg))
    Stack.pop_back();
  if (Stack.back().Next >= subObjectCount(Stack.back().Agg)) {
    S.diag(Item.Value->getSourceRange(), diag::err_init_excess);
    return false;
  }
  return true;
}

bool InitBuilder::initList(const SubObject &Obj, InitListExpr *L,
                           uint64_t *MaxCount) {
  if (!isAggregate(Obj.Ty)) {
    if (L->getItems().empty())
      return true; // `(int){}`: zero
    InitItem First = L->getItems()[0];
    if (L->getItems().size() > 1 || !First.Designators.empty()) {
      S.diag(L->getSourceRange(), diag::err_init_scalar_braces)
          << Obj.Ty->getName();
      return false;
    }
    return initScalar(Obj, First.Value);
  }
  if (L->getItems().size() == 1 && L->getItems()[0].Designators.empty())
    if (StringLiteral *Lit = charArrayString(Obj.Ty, L->getItems()[0].Value))
      return initString(Obj, Lit, MaxCount);
  std::vector<Frame> Stack{{Obj.Ty, Obj.BitOffset}};
  for (const InitItem &Item : L->getItems()) {
    if (!Item.Designators.empty()) {
      if (!designate(Stack, Item, MaxCount))
        return false;
    } else if (!nextSubObject(Stack, Item)) {
      return false;
    }
    SubObject Sub = subObject(Stack.back(), Stack.back().Next);
    auto *Braced = llvm::dyn_cast<InitListExpr>(Item.Value);
    bool OK;
    if (StringLiteral *Lit = charArrayString(Sub.Ty, Item.Value)) {
      OK = initString(Sub, Lit, nullptr);
    } else {
      // Brace elision: a scalar for an aggregate initialises its first
      // scalar, and the following ones continue inside it.
      while (!Braced && isAggregate(Sub.Ty) && subObjectCount(Sub.Ty)) {
        Stack.push_back({Sub.Ty, Sub.BitOffset});
        Sub = subObject(Stack.back(), 0);
      }
      OK = Braced && isAggregate(Sub.Ty) ? initList(Sub, Braced, nullptr)
                                         : initScalar(Sub, Item.Value);
    }
    if (!OK)
      return false;
    ++Stack.back().Next;
    if (Stack.size() == 1 && MaxCount)
      *MaxCount = std::max(*MaxCount, Stack.back().Next);
  }
  return true;
}

const Type *SemaChecker::checkCompoundLiteral(CompoundLiteralExpr *E) {
  const Type *T = resolveTypeSpec(E->getTypeSpec());
  if (!T)
    return nullptr;
  const auto *A = T->getAs<ArrayType>();
  bool Unsized = A && A->isIncompleteArray();
  if (T->isString() || T->isVoid() || T->isFunction() || T->isFloating() ||
      (!Unsized && !T->isComplete())) {
    diag(E->getTypeSpec()->getSourceRange(), diag::err_compound_literal_type)
        << T->getName();
    return nullptr;
  }
  CompoundLiteralInfo &CI = Info.CompoundLiterals[E][mi()];
  CI = CompoundLiteralInfo();
  InitBuilder B(*this, CI.Stores);
  uint64_t Count = 0;
  if (!B.initList({T, 0, std::nullopt}, E->getInitializer(),
                  Unsized ? &Count : nullptr))
    return nullptr;
  if (Unsized) {
    if (!Count) {
      diag(E->getSourceRange(), diag::err_compound_literal_type)
          << T->getName();
      return nullptr;
    }
    T = types().getArray(A->getElementType(), Count);
  }
  E->getInitializer()->setType(M, T);
  CI.Ty = T;
  return T;
}

} // namespace tscc
