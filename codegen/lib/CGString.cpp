//===- CGString.cpp - Bounded String copy, compare and length -------------===//
//
// Script Strings are fixed-capacity NUL-terminated buffers. Copies and
// comparisons are bounded loops in small internal functions, one set per
// stream (each in its stream's text section); no libc is involved, so the
// object references no string functions the loader would have to provide.
//
//===----------------------------------------------------------------------===//

#include "CodeGenFunction.h"

using namespace llvm;
using namespace tscc;

namespace {

Function *createSupport(Module &M, StringRef Base, tscc_data_model Stream,
                        llvm::FunctionType *FT) {
  auto *F = Function::Create(FT, GlobalValue::InternalLinkage,
                             Base + "_" + dataModelSuffix(Stream), M);
  F->setSection(textSectionName(Stream));
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr("no-builtins");
  // One out-of-line copy per stream: inlining the loops into every clause
  // grows the code and the compile time for no measurable gain at runtime
  // (a string copy already costs more than the call).
  F->addFnAttr(Attribute::NoInline);
  return F;
}

/// i64 strnlen(ptr s, i64 cap)
void buildStrLen(Function *F) {
  LLVMContext &C = F->getContext();
  Value *S = F->getArg(0), *Cap = F->getArg(1);
  S->setName("s");
  Cap->setName("cap");
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Loop = BasicBlock::Create(C, "loop", F);
  auto *Check = BasicBlock::Create(C, "check", F);
  auto *Next = BasicBlock::Create(C, "next", F);
  auto *Exit = BasicBlock::Create(C, "exit", F);
  IRBuilder<> B(Entry);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(B.getInt64Ty(), 2, "i");
  I->addIncoming(B.getInt64(0), Entry);
  B.CreateCondBr(B.CreateICmpUGE(I, Cap), Exit, Check);
  B.SetInsertPoint(Check);
  Value *Ch = B.CreateLoad(B.getInt8Ty(), B.CreateGEP(B.getInt8Ty(), S, I));
  B.CreateCondBr(B.CreateIsNull(Ch), Exit, Next);
  B.SetInsertPoint(Next);
  Value *I1 = B.CreateAdd(I, B.getInt64(1), "i.next");
  I->addIncoming(I1, Next);
  B.CreateBr(Loop);
  B.SetInsertPoint(Exit);
  PHINode *Len = B.CreatePHI(B.getInt64Ty(), 2, "len");
  Len->addIncoming(I, Loop);
  Len->addIncoming(I, Check);
  B.CreateRet(Len);
}

/// void strcopy(ptr dst, i64 dstcap, ptr src, i64 srccap): copies at most
/// dstcap-1 bytes (and no more than srccap), always NUL-terminates.
void buildStrCopy(Function *F) {
  LLVMContext &C = F->getContext();
  Value *Dst = F->getArg(0), *DstCap = F->getArg(1), *Src = F->getArg(2),
        *SrcCap = F->getArg(3);
  Dst->setName("dst");
  DstCap->setName("dstcap");
  Src->setName("src");
  SrcCap->setName("srccap");
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Start = BasicBlock::Create(C, "start", F);
  auto *Loop = BasicBlock::Create(C, "loop", F);
  auto *Body = BasicBlock::Create(C, "body", F);
  auto *Next = BasicBlock::Create(C, "next", F);
  auto *Term = BasicBlock::Create(C, "term", F);
  auto *Ret = BasicBlock::Create(C, "ret", F);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateIsNull(DstCap), Ret, Start);
  B.SetInsertPoint(Start);
  Value *Limit = B.CreateBinaryIntrinsic(Intrinsic::umin,
                                         B.CreateSub(DstCap, B.getInt64(1)),
                                         SrcCap, nullptr, "limit");
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(B.getInt64Ty(), 2, "i");
  I->addIncoming(B.getInt64(0), Start);
  B.CreateCondBr(B.CreateICmpUGE(I, Limit), Term, Body);
  B.SetInsertPoint(Body);
  Value *Ch = B.CreateLoad(B.getInt8Ty(), B.CreateGEP(B.getInt8Ty(), Src, I));
  B.CreateStore(Ch, B.CreateGEP(B.getInt8Ty(), Dst, I));
  B.CreateCondBr(B.CreateIsNull(Ch), Ret, Next);
  B.SetInsertPoint(Next);
  Value *I1 = B.CreateAdd(I, B.getInt64(1), "i.next");
  I->addIncoming(I1, Next);
  B.CreateBr(Loop);
  B.SetInsertPoint(Term);
  B.CreateStore(B.getInt8(0), B.CreateGEP(B.getInt8Ty(), Dst, I));
  B.CreateBr(Ret);
  B.SetInsertPoint(Ret);
  B.CreateRetVoid();
}

/// i1 strequal(ptr a, i64 acap, ptr b, i64 bcap): a string ends at its NUL
/// or at its capacity, whichever comes first.
void buildStrEqual(Function *F) {
  LLVMContext &C = F->getContext();
  Value *A = F->getArg(0), *ACap = F->getArg(1), *Bp = F->getArg(2),
        *BCap = F->getArg(3);
  A->setName("a");
  ACap->setName("acap");
  Bp->setName("b");
  BCap->setName("bcap");
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Loop = BasicBlock::Create(C, "loop", F);
  auto *Body = BasicBlock::Create(C, "body", F);
  auto *Same = BasicBlock::Create(C, "same", F);
  auto *Next = BasicBlock::Create(C, "next", F);
  auto *Tail = BasicBlock::Create(C, "tail", F);
  auto *TailA = BasicBlock::Create(C, "tail.a", F);
  auto *TailB = BasicBlock::Create(C, "tail.b", F);
  auto *Yes = BasicBlock::Create(C, "equal", F);
  auto *No = BasicBlock::Create(C, "differ", F);
  IRBuilder<> B(Entry);
  Value *N = B.CreateBinaryIntrinsic(Intrinsic::umin, ACap, BCap, nullptr, "n");
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(B.getInt64Ty(), 2, "i");
  I->addIncoming(B.getInt64(0), Entry);
  B.CreateCondBr(B.CreateICmpUGE(I, N), Tail, Body);
  B.SetInsertPoint(Body);
  Value *CA = B.CreateLoad(B.getInt8Ty(), B.CreateGEP(B.getInt8Ty(), A, I));
  Value *CB = B.CreateLoad(B.getInt8Ty(), B.CreateGEP(B.getInt8Ty(), Bp, I));
  B.CreateCondBr(B.CreateICmpEQ(CA, CB), Same, No);
  B.SetInsertPoint(Same);
  B.CreateCondBr(B.CreateIsNull(CA), Yes, Next);
  B.SetInsertPoint(Next);
  I->addIncoming(B.CreateAdd(I, B.getInt64(1), "i.next"), Next);
  B.CreateBr(Loop);
  // One side hit its capacity: equal iff the other ends here too.
  B.SetInsertPoint(Tail);
  Value *AEnded = B.CreateICmpUGE(I, ACap);
  B.CreateCondBr(AEnded, TailB, TailA);
  B.SetInsertPoint(TailB); // a ended; b must end at i (or at its capacity)
  Value *BEnded = B.CreateICmpUGE(I, BCap);
  auto *LoadB = BasicBlock::Create(C, "tail.b.load", F);
  B.CreateCondBr(BEnded, Yes, LoadB);
  B.SetInsertPoint(LoadB);
  Value *NB = B.CreateLoad(B.getInt8Ty(), B.CreateGEP(B.getInt8Ty(), Bp, I));
  B.CreateCondBr(B.CreateIsNull(NB), Yes, No);
  B.SetInsertPoint(TailA); // b ended, a did not reach its capacity
  Value *NA = B.CreateLoad(B.getInt8Ty(), B.CreateGEP(B.getInt8Ty(), A, I));
  B.CreateCondBr(B.CreateIsNull(NA), Yes, No);
  B.SetInsertPoint(Yes);
  B.CreateRet(B.getTrue());
  B.SetInsertPoint(No);
  B.CreateRet(B.getFalse());
}

/// The byte at S[I], or 0 at or past the capacity (a string ends at its
/// NUL or at its capacity, whichever comes first).
Value *byteAt(IRBuilder<> &B, Value *S, Value *Cap, Value *I) {
  Value *In = B.CreateICmpULT(I, Cap);
  Value *Safe = B.CreateSelect(In, I, B.getInt64(0));
  Value *Ch = B.CreateLoad(B.getInt8Ty(), B.CreateGEP(B.getInt8Ty(), S, Safe));
  return B.CreateSelect(In, Ch, B.getInt8(0));
}

/// i32 strcompare(ptr a, i64 acap, ptr b, i64 bcap): strcmp's sign,
/// comparing bytes as unsigned.
void buildStrCompare(Function *F) {
  LLVMContext &C = F->getContext();
  Value *A = F->getArg(0), *ACap = F->getArg(1), *Bp = F->getArg(2),
        *BCap = F->getArg(3);
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Loop = BasicBlock::Create(C, "loop", F);
  auto *Same = BasicBlock::Create(C, "same", F);
  auto *Differ = BasicBlock::Create(C, "differ", F);
  auto *Equal = BasicBlock::Create(C, "equal", F);
  IRBuilder<> B(Entry);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(B.getInt64Ty(), 2, "i");
  I->addIncoming(B.getInt64(0), Entry);
  Value *CA = byteAt(B, A, ACap, I), *CB = byteAt(B, Bp, BCap, I);
  B.CreateCondBr(B.CreateICmpEQ(CA, CB), Same, Differ);
  B.SetInsertPoint(Same);
  I->addIncoming(B.CreateAdd(I, B.getInt64(1), "i.next"), Same);
  B.CreateCondBr(B.CreateIsNull(CA), Equal, Loop);
  B.SetInsertPoint(Differ);
  B.CreateRet(
      B.CreateSelect(B.CreateICmpULT(CA, CB), B.getInt32(-1), B.getInt32(1)));
  B.SetInsertPoint(Equal);
  B.CreateRet(B.getInt32(0));
}

/// i64 strfind(ptr hay, i64 hcap, ptr needle, i64 ncap): the index of the
/// first occurrence of needle in hay, or -1. Both are bounded by their
/// capacities (at most 4096 bytes each), so the naive search is bounded.
void buildStrFind(Function *F) {
  LLVMContext &C = F->getContext();
  Value *H = F->getArg(0), *HCap = F->getArg(1), *N = F->getArg(2),
        *NCap = F->getArg(3);
  auto *Entry = BasicBlock::Create(C, "entry", F);
  auto *Outer = BasicBlock::Create(C, "outer", F);
  auto *Inner = BasicBlock::Create(C, "inner", F);
  auto *Match = BasicBlock::Create(C, "match", F);
  auto *NextI = BasicBlock::Create(C, "next.start", F);
  auto *Found = BasicBlock::Create(C, "found", F);
  auto *CheckEnd = BasicBlock::Create(C, "check.end", F);
  auto *NotFound = BasicBlock::Create(C, "not.found", F);
  IRBuilder<> B(Entry);
  B.CreateBr(Outer);
  // for (i = 0;; ++i) { for (j = 0;; ++j) { if (!n[j]) return i;
  //   if (h[i+j] != n[j]) break; } if (!h[i]) return -1; }
  B.SetInsertPoint(Outer);
  PHINode *I = B.CreatePHI(B.getInt64Ty(), 2, "i");
  I->addIncoming(B.getInt64(0), Entry);
  B.CreateBr(Inner);
  B.SetInsertPoint(Inner);
  PHINode *J = B.CreatePHI(B.getInt64Ty(), 2, "j");
  J->addIncoming(B.getInt64(0), Outer);
  Value *CN = byteAt(B, N, NCap, J);
  auto *Compare = BasicBlock::Create(C, "compare", F);
  B.CreateCondBr(B.CreateIsNull(CN), Found, Compare);
  B.SetInsertPoint(Compare);
  Value *CH = byteAt(B, H, HCap, B.CreateAdd(I, J));
  B.CreateCondBr(B.CreateICmpEQ(CH, CN), Match, CheckEnd);
  B.SetInsertPoint(Match);
  J->addIncoming(B.CreateAdd(J, B.getInt64(1), "j.next"), Match);
  B.CreateBr(Inner);
  B.SetInsertPoint(CheckEnd);
  B.CreateCondBr(B.CreateIsNull(byteAt(B, H, HCap, I)), NotFound, NextI);
  B.SetInsertPoint(NextI);
  I->addIncoming(B.CreateAdd(I, B.getInt64(1), "i.next"), NextI);
  B.CreateBr(Outer);
  B.SetInsertPoint(Found);
  B.CreateRet(I);
  B.SetInsertPoint(NotFound);
  B.CreateRet(B.getInt64(-1));
}

} // namespace

Function *CodeGenModule::getSupportFunction(SupportFn Kind,
                                            tscc_data_model Stream) {
  Function *&F = Support[static_cast<unsigned>(Kind)][Stream];
  if (F)
    return F;
  LLVMContext &C = getLLVMContext();
  llvm::Type *Ptr = llvm::PointerType::get(C, 0),
             *I64 = llvm::Type::getInt64Ty(C);
  switch (Kind) {
  case SupportFn::StrLen:
    F = createSupport(M, "tscc_strlen", Stream,
                      llvm::FunctionType::get(I64, {Ptr, I64}, false));
    buildStrLen(F);
    break;
  case SupportFn::StrCopy:
    F = createSupport(M, "tscc_strcopy", Stream,
                      llvm::FunctionType::get(llvm::Type::getVoidTy(C),
                                              {Ptr, I64, Ptr, I64}, false));
    buildStrCopy(F);
    break;
  case SupportFn::StrEqual:
    F = createSupport(M, "tscc_strequal", Stream,
                      llvm::FunctionType::get(llvm::Type::getInt1Ty(C),
                                              {Ptr, I64, Ptr, I64}, false));
    buildStrEqual(F);
    break;
  case SupportFn::StrCompare:
    F = createSupport(M, "tscc_strcompare", Stream,
                      llvm::FunctionType::get(llvm::Type::getInt32Ty(C),
                                              {Ptr, I64, Ptr, I64}, false));
    buildStrCompare(F);
    break;
  case SupportFn::StrFind:
    F = createSupport(
        M, "tscc_strfind", Stream,
        llvm::FunctionType::get(I64, {Ptr, I64, Ptr, I64}, false));
    buildStrFind(F);
    break;
  }
  return F;
}

RValue CodeGenFunction::emitStringTemp(uint64_t Capacity) {
  AllocaInst *Buf = createTemp(Capacity ? Capacity : 1, 8, "str");
  B.CreateStore(B.getInt8(0), Buf);
  return RValue::buffer(Buf, Capacity ? Capacity : 1);
}

void CodeGenFunction::emitStringCopy(Value *Dst, uint64_t DstCap, RValue Src) {
  if (!Src || !Src.V->getType()->isPointerTy())
    return;
  Function *F = CGM.getSupportFunction(SupportFn::StrCopy, Stream);
  uint64_t SrcCap = Src.Capacity ? Src.Capacity : DstCap;
  B.CreateCall(F, {Dst, B.getInt64(DstCap), Src.V, B.getInt64(SrcCap)});
}

Value *CodeGenFunction::emitStringEqual(RValue A, RValue Bv) {
  Function *F = CGM.getSupportFunction(SupportFn::StrEqual, Stream);
  return B.CreateCall(
      F, {A.V, B.getInt64(A.Capacity), Bv.V, B.getInt64(Bv.Capacity)},
      "str.eq");
}

Value *CodeGenFunction::emitStringCompare(RValue A, RValue Bv) {
  Function *F = CGM.getSupportFunction(SupportFn::StrCompare, Stream);
  return B.CreateCall(
      F, {A.V, B.getInt64(A.Capacity), Bv.V, B.getInt64(Bv.Capacity)},
      "str.cmp");
}

Value *CodeGenFunction::emitStringFind(RValue Hay, RValue Needle) {
  Function *F = CGM.getSupportFunction(SupportFn::StrFind, Stream);
  return B.CreateCall(
      F,
      {Hay.V, B.getInt64(Hay.Capacity), Needle.V, B.getInt64(Needle.Capacity)},
      "str.find");
}

RValue CodeGenFunction::emitSubstring(RValue S, Value *Start, Value *Count) {
  // The bytes [Start, Start + Count) of S, Start and Count already within
  // S's length: a copy of Count bytes into a fresh String of S's capacity.
  RValue Out = emitStringTemp(S.Capacity);
  Value *From = B.CreateGEP(B.getInt8Ty(), S.V, Start, "substr.from");
  Value *DstCap = B.CreateAdd(Count, B.getInt64(1), "substr.cap");
  Function *F = CGM.getSupportFunction(SupportFn::StrCopy, Stream);
  B.CreateCall(F, {Out.V, DstCap, From, Count});
  return Out;
}

Value *CodeGenFunction::emitStringLength(RValue S) {
  Function *F = CGM.getSupportFunction(SupportFn::StrLen, Stream);
  return B.CreateCall(F, {S.V, B.getInt64(S.Capacity)}, "str.len");
}
