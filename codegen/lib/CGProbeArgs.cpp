//===- CGProbeArgs.cpp - __argN, __rv and the other built-in values -------===//
//
// Where a probe's arguments live depends on the probe and the data model
// (docs/internals.md, "Clause calling convention"):
//   - LP64 functions: rdi, rsi, rdx, rcx, r8, r9, then [rsp + 8*(N-6)];
//   - ILP32 functions: target memory at esp + 4 + slot, slot being the sum of
//     the 4-byte-rounded sizes of the earlier parameters of the prototype;
//   - system calls: rdi, rsi, rdx, r10, r8, r9 (LP64) or ebx, ecx, edx, esi,
//     edi, ebp (ILP32);
//   - USDT probes: tscc_ctx::usdt_args, which the runtime fills from the
//     note's argument specifications.
// __rv is rax, or eax (edx:eax for 64-bit types) in ILP32.
//
//===----------------------------------------------------------------------===//

#include "CodeGenFunction.h"

#include "tscc/Sema/SemaBuiltins.h"
#include "tscc/Sema/TypeContext.h"

#include "llvm/Support/MathExtras.h"

#include <cstddef>

using namespace llvm;
using namespace tscc;

static const unsigned FunctionArgRegsLP64[] = {TSCC_REG_RDI, TSCC_REG_RSI,
                                               TSCC_REG_RDX, TSCC_REG_RCX,
                                               TSCC_REG_R8,  TSCC_REG_R9};
static const unsigned SyscallArgRegsLP64[] = {TSCC_REG_RDI, TSCC_REG_RSI,
                                              TSCC_REG_RDX, TSCC_REG_R10,
                                              TSCC_REG_R8,  TSCC_REG_R9};
static const unsigned SyscallArgRegsILP32[] = {TSCC_REG_RBX, TSCC_REG_RCX,
                                               TSCC_REG_RDX, TSCC_REG_RSI,
                                               TSCC_REG_RDI, TSCC_REG_RBP};

/// Byte offset of argument \p N (1-based) above the ILP32 return address.
static uint64_t ilp32StackSlot(const tscc::FunctionType *Proto, unsigned N) {
  uint64_t Slot = 0;
  for (unsigned I = 1; I < N; ++I) {
    uint64_t Size = 4;
    if (Proto && Proto->hasPrototype() && I <= Proto->getParams().size())
      Size = alignTo(
          std::max<uint64_t>(Proto->getParams()[I - 1]->getSize(), 1), 4);
    Slot += Size;
  }
  return Slot;
}

/// A register value narrowed (or widened) to \p T.
static Value *fromRegister(CodeGenFunction &CGF, Value *Reg,
                           const tscc::Type *T, bool SignExtend32 = false) {
  IRBuilder<> &B = CGF.builder();
  llvm::Type *Ty = CGF.convertType(T);
  if (!Ty->isIntegerTy())
    return nullptr;
  if (SignExtend32) // ILP32 syscall results: eax is a signed 32-bit value
    Reg = B.CreateSExt(B.CreateTrunc(Reg, B.getInt32Ty()), B.getInt64Ty());
  return B.CreateTrunc(Reg, Ty, "reg.val");
}

static RValue emitArg(CodeGenFunction &CGF, const BuiltinVarExpr *E,
                      unsigned N) {
  IRBuilder<> &B = CGF.builder();
  const ScriptInfo &Info = CGF.getInfo();
  const ClauseInfo &CI = Info.Clauses[CGF.getClause().getIndex()];
  const tscc::Type *T = CGF.typeOf(E);
  bool ILP32 = CGF.typeModel() == DataModel::ILP32;
  if (!T || N == 0 || !CGF.convertType(T)->isIntegerTy()) {
    CGF.errorUnsupported(E, "'" + E->getName().str() + "' of this type");
    return {};
  }
  if (CI.IsUsdt) {
    // The runtime evaluated the note's argument specifications at the hit.
    if (N > TSCC_USDT_MAX_ARGS)
      return RValue::scalar(ConstantInt::get(CGF.convertType(T), 0));
    Value *V = CGF.ctxField(offsetof(tscc_ctx, usdt_args) + 8 * (N - 1),
                            B.getInt64Ty(), "usdt.arg");
    return RValue::scalar(fromRegister(CGF, V, T));
  }
  if (CI.IsSyscall) {
    if (N > 6)
      return RValue::scalar(ConstantInt::get(CGF.convertType(T), 0));
    unsigned Reg =
        ILP32 ? SyscallArgRegsILP32[N - 1] : SyscallArgRegsLP64[N - 1];
    return RValue::scalar(fromRegister(CGF, CGF.ctxReg(Reg), T));
  }
  if (!ILP32) {
    if (N <= 6)
      return RValue::scalar(
          fromRegister(CGF, CGF.ctxReg(FunctionArgRegsLP64[N - 1]), T));
    // At the entry breakpoint rsp points at the return address.
    Value *Addr = B.CreateAdd(CGF.ctxReg(TSCC_REG_RSP), B.getInt64(8 * (N - 6)),
                              "arg.addr");
    return RValue::scalar(CGF.emitReadTargetScalar(Addr, T));
  }
  const tscc::FunctionType *Proto = CI.Prototype[modelIndex(DataModel::ILP32)];
  Value *Esp = B.CreateTrunc(CGF.ctxReg(TSCC_REG_RSP), B.getInt32Ty(), "esp");
  Value *Addr =
      B.CreateAdd(Esp, B.getInt32(4 + ilp32StackSlot(Proto, N)), "arg.addr");
  return RValue::scalar(CGF.emitReadTargetScalar(Addr, T));
}

static RValue emitRv(CodeGenFunction &CGF, const BuiltinVarExpr *E) {
  IRBuilder<> &B = CGF.builder();
  const ClauseInfo &CI = CGF.getInfo().Clauses[CGF.getClause().getIndex()];
  const tscc::Type *T = CGF.typeOf(E);
  if (!T || !CGF.convertType(T)->isIntegerTy()) {
    CGF.errorUnsupported(E, "'__rv' of this type");
    return {};
  }
  bool ILP32 = CGF.typeModel() == DataModel::ILP32;
  Value *Rax = CGF.ctxReg(TSCC_REG_RAX);
  if (CI.IsSyscall)
    return RValue::scalar(fromRegister(CGF, Rax, T, /*SignExtend32=*/ILP32));
  if (ILP32 && T->getSize() == 8) {
    Value *Lo =
        B.CreateZExt(B.CreateTrunc(Rax, B.getInt32Ty()), B.getInt64Ty());
    Value *Hi = B.CreateShl(CGF.ctxReg(TSCC_REG_RDX), 32);
    return RValue::scalar(B.CreateOr(Hi, Lo, "edx.eax"));
  }
  return RValue::scalar(fromRegister(CGF, Rax, T));
}

/// __pname and friends: NUL-terminated strings in tracer memory owned by
/// the runtime. A missing one (null) reads as "".
static RValue emitCtxString(CodeGenFunction &CGF, const BuiltinVarExpr *E,
                            uint32_t Offset, StringRef Name) {
  IRBuilder<> &B = CGF.builder();
  Value *P = CGF.ctxField(Offset, B.getPtrTy(), Name);
  Value *Empty = CGF.getCGM().getStringLiteral("");
  Value *Safe =
      B.CreateSelect(B.CreateIsNull(P), Empty, P, Name.str() + ".str");
  const auto *ST = CGF.typeOf(E) ? CGF.typeOf(E)->getAs<StringType>() : nullptr;
  return RValue::buffer(Safe,
                        ST ? ST->getCapacity() : StringType::DefaultCapacity);
}

/// __comm: the firing thread's kernel name, into a 16-byte buffer by the
/// comm() helper; "" with a runtime older than ABI 1.5.
static RValue emitComm(CodeGenFunction &CGF) {
  IRBuilder<> &B = CGF.builder();
  llvm::LLVMContext &LC = B.getContext();
  constexpr uint64_t Size = 16; // TASK_COMM_LEN
  Value *Buf = CGF.createTemp(Size, 1, "comm.buf");
  B.CreateStore(B.getInt8(0), Buf);
  Value *Has = CGF.emitHasHelper(Helper::Comm);
  llvm::Function *Fn = B.GetInsertBlock()->getParent();
  BasicBlock *Then = BasicBlock::Create(LC, "comm", Fn);
  BasicBlock *Cont = BasicBlock::Create(LC, "comm.cont", Fn);
  B.CreateCondBr(Has, Then, Cont);
  B.SetInsertPoint(Then);
  CGF.callHelper(Helper::Comm, {Buf, B.getInt64(Size)});
  B.CreateBr(Cont);
  B.SetInsertPoint(Cont);
  return RValue::buffer(Buf, Size);
}

RValue CodeGenFunction::emitBuiltinVar(const BuiltinVarExpr *E) {
  unsigned N = 0;
  std::optional<BuiltinVar> V = classifyBuiltinVar(E->getName(), &N);
  const tscc::Type *T = typeOf(E);
  if (!V || !T) {
    errorUnsupported(E, "'" + E->getName().str() + "'");
    return {};
  }
  llvm::Type *Ty = convertType(T);
  auto Int64Field = [&](uint32_t Offset, StringRef Name) {
    Value *X = ctxField(Offset, B.getInt64Ty(), Name);
    return RValue::scalar(B.CreateTrunc(X, Ty, Name));
  };
  switch (*V) {
  case BuiltinVar::Pid:
    return Int64Field(offsetof(tscc_ctx, pid), "pid");
  case BuiltinVar::Tid:
    return Int64Field(offsetof(tscc_ctx, tid), "tid");
  case BuiltinVar::Ppid:
    return Int64Field(offsetof(tscc_ctx, ppid), "ppid");
  case BuiltinVar::Uid:
    return Int64Field(offsetof(tscc_ctx, uid), "uid");
  case BuiltinVar::Pname:
    return emitCtxString(*this, E, offsetof(tscc_ctx, pname), "pname");
  case BuiltinVar::Comm:
    return emitComm(*this);
  case BuiltinVar::Func:
    return emitCtxString(*this, E, offsetof(tscc_ctx, func), "func");
  case BuiltinVar::Module:
    return emitCtxString(*this, E, offsetof(tscc_ctx, module), "module");
  case BuiltinVar::Probe:
    return emitCtxString(*this, E, offsetof(tscc_ctx, probe_spec), "probe");
  case BuiltinVar::Ip:
    return RValue::scalar(B.CreateTrunc(ctxReg(TSCC_REG_RIP), Ty, "ip"));
  case BuiltinVar::DataModel:
    // Per stream; the mirrored ILP32 entry of a BEGIN/END clause is LP64.
    return RValue::scalar(ConstantInt::get(Ty, dataModelBits(TypeDM)));
  case BuiltinVar::Arg:
    return emitArg(*this, E, N);
  case BuiltinVar::Rv:
    return emitRv(*this, E);
  case BuiltinVar::Errno: {
    Value *Err = ctxField(offsetof(tscc_ctx, err), B.getInt32Ty(), "err");
    return RValue::scalar(B.CreateSExtOrTrunc(Err, Ty, "errno"));
  }
  }
  // A Builtins.def line without a case above (-Wswitch says so too).
  errorUnsupported(E, "'" + E->getName().str() + "'");
  return {};
}

RValue CodeGenFunction::emitParam(const ParamExpr *E) {
  unsigned N = E->getIndex();
  const tscc::Type *T = typeOf(E);
  if (!T || N == 0) {
    errorUnsupported(E, "this script parameter");
    return {};
  }
  // A parameter the runtime did not get reads as 0 / "".
  Value *Count =
      ctxField(offsetof(tscc_ctx, param_count), B.getInt32Ty(), "param_count");
  Value *Have = B.CreateICmpULE(B.getInt32(N), Count, "param.given");
  if (const auto *ST = T->getAs<StringType>()) {
    Value *Arr = ctxField(offsetof(tscc_ctx, param_strings), B.getPtrTy(),
                          "param_strings");
    Value *Empty = CGM.getStringLiteral("");
    Function *Fn = B.GetInsertBlock()->getParent();
    BasicBlock *From = B.GetInsertBlock();
    BasicBlock *Load = BasicBlock::Create(B.getContext(), "param.load", Fn);
    BasicBlock *Done = BasicBlock::Create(B.getContext(), "param.done", Fn);
    B.CreateCondBr(B.CreateAnd(Have, B.CreateIsNotNull(Arr)), Load, Done);
    B.SetInsertPoint(Load);
    // 8-byte slots in every stream (abi.h, TSCC_PTR_SLOT): the i386 stream
    // loads the low half of each.
    Value *Slot = B.CreateInBoundsGEP(B.getInt8Ty(), Arr,
                                      B.getInt64(8 * (N - 1)), "slot");
    Value *P = B.CreateLoad(B.getPtrTy(), Slot, "param.str");
    Value *SafeP = B.CreateSelect(B.CreateIsNull(P), Empty, P);
    B.CreateBr(Done);
    B.SetInsertPoint(Done);
    PHINode *Phi = B.CreatePHI(B.getPtrTy(), 2, "param");
    Phi->addIncoming(Empty, From);
    Phi->addIncoming(SafeP, Load);
    return RValue::buffer(Phi, ST->getCapacity());
  }
  Value *Arr = ctxField(offsetof(tscc_ctx, params), B.getPtrTy(), "params");
  Function *Fn = B.GetInsertBlock()->getParent();
  BasicBlock *From = B.GetInsertBlock();
  BasicBlock *Load = BasicBlock::Create(B.getContext(), "param.load", Fn);
  BasicBlock *Done = BasicBlock::Create(B.getContext(), "param.done", Fn);
  B.CreateCondBr(B.CreateAnd(Have, B.CreateIsNotNull(Arr)), Load, Done);
  B.SetInsertPoint(Load);
  Value *Slot = B.CreateInBoundsGEP(B.getInt64Ty(), Arr, B.getInt64(N - 1));
  Value *V = B.CreateLoad(B.getInt64Ty(), Slot, "param.val");
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  PHINode *Phi = B.CreatePHI(B.getInt64Ty(), 2, "param");
  Phi->addIncoming(B.getInt64(0), From);
  Phi->addIncoming(V, Load);
  // $N is a 64-bit integer; convert like a `long long` to the sema type.
  return RValue::scalar(convert(Phi, T->getContext().getLongLong(), T));
}
