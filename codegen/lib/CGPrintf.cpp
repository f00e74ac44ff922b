//===- CGPrintf.cpp - printf() and trace() records ------------------------===//
//
// Clause code does not format text. printf()/trace() build a record in a
// stack buffer -- a struct tscc_record header, then one field per value
// argument as the format's tscc_fields describe -- and hand it to
// helpers->emit. Scalars are 8 bytes, sign- or zero-extended by their own
// type; strings are a uint32 length and the bytes, padded to 8 with zeros.
//
//===----------------------------------------------------------------------===//

#include "CodeGenFunction.h"

#include "tscc/Sema/TypeContext.h"

#include "llvm/Support/MathExtras.h"

#include <cstddef>

using namespace llvm;
using namespace tscc;

/// Bytes a field can take in the argument area at most.
static uint64_t maxFieldBytes(const FieldInfo &F) {
  if (F.Kind == TSCC_FIELD_STRING)
    return alignTo(4 + uint64_t(F.Size), 8);
  return 8;
}

void CodeGenFunction::emitRecord(const CallExpr *E, bool IsTrace) {
  const FormatInfo *F = getInfo().formatFor(E);
  if (!F || E->getNumArgs() < 1) {
    errorUnsupported(E, IsTrace ? "this trace() call" : "this printf() call");
    return;
  }
  ArrayRef<Expr *> Values = E->getArgs().drop_front(1);
  if (Values.size() != F->Fields.size()) {
    errorUnsupported(E, "a format whose fields do not match its arguments");
    return;
  }
  uint64_t Max = sizeof(tscc_record);
  bool HasStrings = false;
  for (const FieldInfo &Fi : F->Fields) {
    Max += maxFieldBytes(Fi);
    HasStrings |= Fi.Kind == TSCC_FIELD_STRING;
  }
  AllocaInst *Buf = createTemp(Max, 8, IsTrace ? "trace.rec" : "printf.rec");
  // String padding must be zeros, not stack garbage: binary trace files
  // would otherwise differ from run to run.
  if (HasStrings)
    B.CreateMemSet(Buf, B.getInt8(0), Max, MaybeAlign(8));

  Value *Off = B.getInt64(sizeof(tscc_record));
  for (size_t I = 0; I != Values.size(); ++I) {
    const FieldInfo &Fi = F->Fields[I];
    const Expr *Arg = Values[I];
    Value *Dst = B.CreateInBoundsGEP(B.getInt8Ty(), Buf, Off, "field");
    if (Fi.Kind == TSCC_FIELD_STRING) {
      RValue S = emitExpr(Arg);
      if (!S || !S.V->getType()->isPointerTy()) {
        errorUnsupported(Arg, "a string field from a non-string value");
        return;
      }
      uint64_t Bound = Fi.Size ? Fi.Size - 1 : 0;
      if (S.Capacity)
        Bound = std::min(Bound, S.Capacity);
      Value *Len = emitStringLength(RValue::buffer(S.V, Bound));
      B.CreateStore(B.CreateTrunc(Len, B.getInt32Ty()), Dst);
      B.CreateMemCpy(byteGEP(Dst, 4), MaybeAlign(1), S.V, MaybeAlign(1), Len);
      Value *Size = B.CreateAnd(B.CreateAdd(Len, B.getInt64(4 + 7)),
                                B.getInt64(~uint64_t(7)), "field.size");
      Off = B.CreateAdd(Off, Size, "off");
      continue;
    }
    if (Fi.Kind == TSCC_FIELD_STACK) {
      errorUnsupported(Arg, "a stack field in a record");
      return;
    }
    Value *V;
    if (Fi.Kind == TSCC_FIELD_DOUBLE) {
      RValue R = emitExpr(Arg);
      if (!R || R.V->getType()->isPointerTy()) {
        errorUnsupported(Arg, "a floating-point field from this value");
        return;
      }
      V = R.V;
      if (V->getType()->isIntegerTy() && typeOf(Arg))
        V = convert(V, typeOf(Arg), typeOf(Arg)->getContext().getDouble());
      if (V->getType()->isFloatingPointTy())
        V = B.CreateBitCast(B.CreateFPCast(V, B.getDoubleTy()), B.getInt64Ty());
      else
        V = B.CreateSExtOrTrunc(V, B.getInt64Ty());
    } else {
      V = emitScalarAsI64(Arg);
    }
    B.CreateStore(V, Dst);
    Off = B.CreateAdd(Off, B.getInt64(8), "off");
  }

  Value *Id = IsTrace ? B.CreateTrunc(emitScalarAsI64(E->getArg(0)),
                                      B.getInt32Ty(), "hook")
                      : B.getInt32(F->Id);
  Value *Size32 = B.CreateTrunc(Off, B.getInt32Ty(), "rec.size");
  B.CreateStore(B.getInt16(IsTrace ? TSCC_REC_TRACE : TSCC_REC_PRINTF),
                byteGEP(Buf, offsetof(tscc_record, kind)));
  B.CreateStore(B.getInt16(0), byteGEP(Buf, offsetof(tscc_record, flags)));
  B.CreateStore(Size32, byteGEP(Buf, offsetof(tscc_record, size)));
  B.CreateStore(Id, byteGEP(Buf, offsetof(tscc_record, id)));
  B.CreateStore(B.getInt32(F->Id), byteGEP(Buf, offsetof(tscc_record, format)));
  callHelper(Helper::Emit, {Buf, Size32});
}
