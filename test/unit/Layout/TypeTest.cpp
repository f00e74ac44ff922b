//===- TypeTest.cpp - Types, uniquing and printing ------------------------===//

#include "tscc/Sema/TypeContext.h"

#include "gtest/gtest.h"

using namespace tscc;
using K = Type::Kind;

namespace {

TEST(TypeTest, BuiltinSizesFollowTheModel) {
  TypeContext C32(DataModel::ILP32), C64(DataModel::LP64);
  EXPECT_EQ(C32.getLong()->getSize(), 4u);
  EXPECT_EQ(C64.getLong()->getSize(), 8u);
  EXPECT_EQ(C32.getPointer(C32.getChar())->getSize(), 4u);
  EXPECT_EQ(C64.getPointer(C64.getChar())->getSize(), 8u);
  // i386: long long and double are 8 bytes but align to 4 as members.
  EXPECT_EQ(C32.getLongLong()->getSize(), 8u);
  EXPECT_EQ(C32.getLongLong()->getAlign(), 4u);
  EXPECT_EQ(C32.getDouble()->getAlign(), 4u);
  EXPECT_EQ(C64.getLongLong()->getAlign(), 8u);
  EXPECT_EQ(C32.getBuiltin(K::LongDouble)->getSize(), 12u);
  EXPECT_EQ(C32.getBuiltin(K::LongDouble)->getAlign(), 4u);
  EXPECT_EQ(C64.getBuiltin(K::LongDouble)->getSize(), 16u);
  EXPECT_EQ(C64.getBuiltin(K::LongDouble)->getAlign(), 16u);
  EXPECT_EQ(C32.getVoid()->getSize(), 0u);
  EXPECT_FALSE(C32.getVoid()->isComplete());
  EXPECT_EQ(C32.getDataModel(), DataModel::ILP32);
  EXPECT_EQ(C64.getInt()->getDataModel(), DataModel::LP64);
}

TEST(TypeTest, StructuralTypesAreUniqued) {
  TypeContext C(DataModel::LP64);
  const Type *P1 = C.getPointer(C.getChar());
  EXPECT_EQ(P1, C.getPointer(C.getChar()));
  EXPECT_NE(P1, C.getPointer(C.getInt()));
  EXPECT_EQ(C.getArray(C.getInt(), 4), C.getArray(C.getInt(), 4));
  EXPECT_NE(C.getArray(C.getInt(), 4), C.getArray(C.getInt(), 5));
  EXPECT_NE(C.getArray(C.getInt(), 0), C.getArray(C.getInt(), std::nullopt));
  const Type *Ps[] = {C.getInt(), P1};
  EXPECT_EQ(C.getFunction(C.getInt(), Ps, false),
            C.getFunction(C.getInt(), Ps, false));
  EXPECT_NE(C.getFunction(C.getInt(), Ps, false),
            C.getFunction(C.getInt(), Ps, true));
  EXPECT_EQ(C.getString(), C.getString(StringType::DefaultCapacity));
  EXPECT_NE(C.getString(), C.getString(256));
  EXPECT_EQ(C.getTypedef("pid_t", C.getInt()),
            C.getTypedef("pid_t", C.getInt()));
  size_t N = C.getNumTypes();
  C.getPointer(C.getChar());
  C.getArray(C.getInt(), 4);
  EXPECT_EQ(C.getNumTypes(), N);
  // Records are nominal: two `struct x` definitions are different types.
  EXPECT_NE(C.createRecord(RecordType::TagKind::Struct, "x"),
            C.createRecord(RecordType::TagKind::Struct, "x"));
}

TEST(TypeTest, SizesOfDerivedTypes) {
  TypeContext C(DataModel::ILP32);
  const Type *A = C.getArray(C.getArray(C.getBuiltin(K::Short), 3), 2);
  EXPECT_EQ(A->getSize(), 12u);
  EXPECT_EQ(A->getAlign(), 2u);
  const Type *Flex = C.getArray(C.getInt(), std::nullopt);
  EXPECT_EQ(Flex->getSize(), 0u);
  EXPECT_FALSE(Flex->isComplete());
  EXPECT_EQ(C.getString()->getSize(), 128u);
  EXPECT_EQ(C.getString(256)->getSize(), 256u);
  EXPECT_EQ(C.getTypedef("u64", C.getULongLong())->getSize(), 8u);
}

TEST(TypeTest, PredicatesLookThroughTypedefs) {
  TypeContext C(DataModel::LP64);
  const Type *PidT = C.getTypedef("pid_t", C.getInt());
  EXPECT_TRUE(PidT->isTypedef());
  EXPECT_TRUE(PidT->isInteger());
  EXPECT_TRUE(PidT->isSigned());
  EXPECT_TRUE(PidT->isScalar());
  EXPECT_EQ(PidT->getCanonical(), C.getInt());
  const Type *Handler = C.getTypedef(
      "handler_t",
      C.getPointer(C.getFunction(C.getVoid(), {C.getInt()}, false)));
  EXPECT_TRUE(Handler->isPointer());
  EXPECT_TRUE(Handler->isFunctionPointer());
  EXPECT_NE(Handler->getAs<PointerType>(), nullptr);
  EXPECT_TRUE(C.getChar()->isSigned());
  EXPECT_TRUE(C.getBuiltin(K::UChar)->isUnsigned());
  EXPECT_TRUE(C.getBool()->isInteger());
  EXPECT_FALSE(C.getDouble()->isInteger());
  EXPECT_TRUE(C.getDouble()->isArithmetic());
  EXPECT_FALSE(C.getString()->isScalar());
  EXPECT_TRUE(C.getString()->isString());
}

TEST(TypeTest, IntegerRanks) {
  TypeContext C(DataModel::ILP32);
  EXPECT_LT(C.getBool()->getIntegerRank(), C.getChar()->getIntegerRank());
  EXPECT_LT(C.getChar()->getIntegerRank(),
            C.getBuiltin(K::Short)->getIntegerRank());
  EXPECT_LT(C.getInt()->getIntegerRank(), C.getLong()->getIntegerRank());
  // Same size in ILP32, still different ranks.
  EXPECT_LT(C.getLong()->getIntegerRank(), C.getLongLong()->getIntegerRank());
  EXPECT_EQ(C.getInt()->getIntegerRank(), C.getUInt()->getIntegerRank());
  EnumType *E = C.createEnum("color", C.getUInt());
  C.defineEnum(E, {{"RED", 0}});
  EXPECT_EQ(E->getIntegerRank(), C.getUInt()->getIntegerRank());
  EXPECT_TRUE(E->isInteger());
  EXPECT_FALSE(E->isSigned());
  EXPECT_EQ(C.getDouble()->getIntegerRank(), 0u);
}

TEST(TypeTest, HelpersForConversions) {
  TypeContext C32(DataModel::ILP32), C64(DataModel::LP64);
  EXPECT_EQ(C32.getIntegerOfSize(8, true), C32.getLongLong());
  EXPECT_EQ(C64.getIntegerOfSize(8, true), C64.getLong());
  EXPECT_EQ(C64.getIntegerOfSize(4, false), C64.getUInt());
  EXPECT_EQ(C64.getIntegerOfSize(3, false), nullptr);
  EXPECT_EQ(C64.getCorrespondingUnsigned(C64.getLong()), C64.getULong());
  EXPECT_EQ(C64.getCorrespondingUnsigned(C64.getChar()),
            C64.getBuiltin(K::UChar));
}

TEST(TypeTest, NamesAreSpelledLikeClang) {
  TypeContext C(DataModel::LP64);
  EXPECT_EQ(C.getPointer(C.getULong())->getName(), "unsigned long *");
  EXPECT_EQ(C.getPointer(C.getPointer(C.getChar()))->getName(), "char **");
  EXPECT_EQ(C.getArray(C.getChar(), 16)->getName(), "char[16]");
  EXPECT_EQ(C.getArray(C.getArray(C.getInt(), 3), 2)->getName(), "int[2][3]");
  EXPECT_EQ(C.getArray(C.getPointer(C.getChar()), 4)->getName(), "char *[4]");
  EXPECT_EQ(C.getPointer(C.getArray(C.getInt(), 4))->getName(), "int (*)[4]");
  const FunctionType *F = C.getFunction(C.getInt(), {C.getInt()}, false);
  EXPECT_EQ(F->getName(), "int (int)");
  EXPECT_EQ(C.getPointer(F)->getName(), "int (*)(int)");
  EXPECT_EQ(C.getPointer(C.getFunction(C.getVoid(), {}, false))->getName(),
            "void (*)(void)");
  EXPECT_EQ(
      C.getFunction(C.getInt(), {C.getPointer(C.getChar())}, true)->getName(),
      "int (char *, ...)");
  EXPECT_EQ(C.getFunction(C.getInt(), {}, false, false)->getName(), "int ()");
  RecordType *R = C.createRecord(RecordType::TagKind::Struct, "sigaction");
  EXPECT_EQ(C.getPointer(R)->getName(), "struct sigaction *");
  RecordType *U = C.createRecord(RecordType::TagKind::Union, "",
                                 "union (unnamed at x.h:3:5)");
  EXPECT_EQ(U->getName(), "union (unnamed at x.h:3:5)");
  EXPECT_EQ(C.getTypedef("sigset_t", C.getInt())->getName(), "sigset_t");
  EXPECT_EQ(C.getString()->getName(), "String");
  EXPECT_EQ(C.getString(256)->getName(), "String[256]");
}

TEST(TypeTest, FieldLookupGoesThroughAnonymousMembers) {
  TypeContext C(DataModel::LP64);
  // struct s { int a; union { long b; struct { char c; int d; }; }; };
  RecordType *Inner = C.createRecord(RecordType::TagKind::Struct, "");
  C.defineRecord(Inner, {{"c", C.getChar(), 0, {}}, {"d", C.getInt(), 32, {}}},
                 8, 4);
  RecordType *U = C.createRecord(RecordType::TagKind::Union, "");
  C.defineRecord(U, {{"b", C.getLong(), 0, {}}, {"", Inner, 0, {}}}, 8, 8);
  RecordType *S = C.createRecord(RecordType::TagKind::Struct, "s");
  C.defineRecord(S, {{"a", C.getInt(), 0, {}}, {"", U, 64, {}}}, 16, 8);

  std::optional<FieldPath> D = S->lookupField("d");
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Fields.size(), 3u);
  EXPECT_EQ(D->getByteOffset(), 12u);
  EXPECT_EQ(D->getType(), C.getInt());
  std::optional<FieldPath> B = S->lookupField("b");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->getByteOffset(), 8u);
  EXPECT_FALSE(S->lookupField("nope"));
  EXPECT_FALSE(S->lookupField(""));
  EXPECT_TRUE(S->isComplete());
  EXPECT_EQ(S->getSize(), 16u);
  // An incomplete record has no members.
  RecordType *Fwd = C.createRecord(RecordType::TagKind::Struct, "fwd");
  EXPECT_FALSE(Fwd->isComplete());
  EXPECT_FALSE(Fwd->lookupField("a"));
}

} // namespace

namespace {

TEST(TypeTest, GccBitFieldTypesHaveTheirOwnWidth) {
  TypeContext C(DataModel::ILP32);
  const BitFieldIntType *U48 = C.getBitFieldInt(48, /*Signed=*/false);
  EXPECT_EQ(U48, C.getBitFieldInt(48, false)); // uniqued
  EXPECT_NE(U48, C.getBitFieldInt(48, true));
  EXPECT_NE(U48, C.getBitFieldInt(40, false));
  EXPECT_TRUE(U48->isInteger());
  EXPECT_FALSE(U48->isSigned());
  EXPECT_TRUE(C.getBitFieldInt(40, true)->isSigned());
  // 48 value bits in 8 bytes, as gcc's sizeof(b48 + 1) is 8.
  EXPECT_EQ(U48->getIntegerWidth(), 48u);
  EXPECT_EQ(U48->getSize(), 8u);
  EXPECT_EQ(C.getLongLong()->getIntegerWidth(), 64u);
  EXPECT_EQ(C.getLong()->getIntegerWidth(), 32u);
  EXPECT_EQ(U48->getName(), "unsigned long long:48");
  EXPECT_EQ(C.getBitFieldInt(33, true)->getName(), "long long:33");
}

TEST(TypeTest, SizeTypesFollowGlibc) {
  TypeContext C32(DataModel::ILP32), C64(DataModel::LP64);
  EXPECT_EQ(C32.getSizeType(), C32.getUInt());
  EXPECT_EQ(C32.getPtrDiffType(), C32.getInt());
  EXPECT_EQ(C64.getSizeType(), C64.getULong());
  EXPECT_EQ(C64.getPtrDiffType(), C64.getLong());
}

} // namespace
