//===- CGClause.cpp - Clause functions and their plumbing -----------------===//
//
// Creates a clause's predicate or action function with the abi.h signature,
// in its stream's text section, and provides the plumbing every construct
// uses: context fields, helper calls, temporaries.
//
//===----------------------------------------------------------------------===//

#include "CodeGenFunction.h"

#include "tscc/Sema/DataModel.h"

#include "llvm/IR/MDBuilder.h"

#include <cstddef>

using namespace llvm;
using namespace tscc;

static bool clauseRunsWithoutProcess(const ScriptInfo &Info, unsigned Id) {
  if (Id >= Info.Clauses.size())
    return true; // the synthesised initialiser clause is a BEGIN clause
  const ClauseInfo &CI = Info.Clauses[Id];
  if (CI.noProcess())
    return true;
  if (CI.ProbeCount == 0)
    return false;
  for (unsigned P = CI.ProbeFirst; P != CI.ProbeFirst + CI.ProbeCount; ++P) {
    if (P >= Info.Probes.size())
      return false;
    tscc_probe_kind K = Info.Probes[P].Kind;
    if (K != TSCC_PROBE_BEGIN && K != TSCC_PROBE_END &&
        K != TSCC_PROBE_INTERVAL)
      return false;
  }
  return true;
}

CodeGenFunction::CodeGenFunction(CodeGenModule &CGM, const Clause &C,
                                 tscc_data_model Stream, bool IsPredicate)
    : CGM(CGM), C(C), Stream(Stream), IsPredicate(IsPredicate),
      B(CGM.getLLVMContext()) {
  // BEGIN/END/interval code has LP64 semantics in both entries (abi.h,
  // TSCC_CLAUSE_NO_PROCESS): the ILP32 function mirrors the LP64 one.
  TypeDM = Stream == TSCC_DM_LP64 ||
                   clauseRunsWithoutProcess(CGM.getInfo(), C.getIndex())
               ? DataModel::LP64
               : DataModel::ILP32;
}

unsigned CodeGenFunction::pointerBytes() const {
  return dataModelPointerSize(TypeDM);
}

IntegerType *CodeGenFunction::intPtrTy() {
  return B.getIntNTy(pointerBytes() * 8);
}

Function *CodeGenFunction::emit() {
  LLVMContext &Ctx_ = CGM.getLLVMContext();
  llvm::Type *Ret = IsPredicate ? B.getInt32Ty() : B.getVoidTy();
  auto *FT =
      llvm::FunctionType::get(Ret, {llvm::PointerType::get(Ctx_, 0)}, false);
  std::string Name = clauseFunctionName(C.getIndex(), IsPredicate, Stream);
  Fn =
      Function::Create(FT, GlobalValue::ExternalLinkage, Name, CGM.getModule());
  Fn->setSection(textSectionName(Stream));
  Fn->setVisibility(GlobalValue::HiddenVisibility);
  Fn->setDSOLocal(true);
  // No unwinding: no .eh_frame, nothing for the loader to relocate there.
  Fn->addFnAttr(Attribute::NoUnwind);
  // The loader resolves memcpy/memset/memmove only; never let the optimiser
  // turn code into other library calls.
  Fn->addFnAttr("no-builtins");
  Fn->addFnAttr("frame-pointer", "all");
  Ctx = Fn->getArg(0);
  Ctx->setName("ctx");
  Fn->addParamAttr(0, Attribute::NonNull);
  Fn->addParamAttr(0, Attribute::NoUndef);

  BasicBlock *Entry = BasicBlock::Create(Ctx_, "entry", Fn);
  ReturnBlock = BasicBlock::Create(Ctx_, "return", Fn);
  B.SetInsertPoint(Entry);
  emitPrologue();

  if (C.getIndex() == CGM.getInitClause() && (IsPredicate || !C.getPredicate()))
    emitGlobalInitializers();

  if (IsPredicate) {
    Value *Cond = emitCondition(C.getPredicate());
    Value *Result =
        Cond ? B.CreateZExt(Cond, B.getInt32Ty(), "pred") : B.getInt32(0);
    B.CreateRet(Result);
    ReturnBlock->eraseFromParent();
    ReturnBlock = nullptr;
  } else {
    if (const CompoundStmt *Body = C.getBody())
      emitStmt(Body);
    if (!isTerminated())
      B.CreateBr(ReturnBlock);
    ReturnBlock->moveAfter(&Fn->back());
    B.SetInsertPoint(ReturnBlock);
    B.CreateRetVoid();
  }
  if (FalseBlock)
    FalseBlock->moveAfter(&Fn->back());
  return Fn;
}

void CodeGenFunction::emitPrologue() {
  Value *Slot = byteGEP(Ctx, offsetof(tscc_ctx, helpers), "helpers.addr");
  auto *Load = B.CreateLoad(B.getPtrTy(), Slot, "helpers");
  // The helper table is the runtime's constant for the whole session.
  Load->setMetadata(LLVMContext::MD_invariant_load,
                    MDNode::get(CGM.getLLVMContext(), {}));
  Helpers = Load;
}

BasicBlock *CodeGenFunction::getFalseBlock() {
  if (FalseBlock)
    return FalseBlock;
  FalseBlock = BasicBlock::Create(CGM.getLLVMContext(), "pred.false", Fn);
  IRBuilder<> FB(FalseBlock);
  FB.CreateRet(FB.getInt32(0));
  return FalseBlock;
}

bool CodeGenFunction::isTerminated() const {
  BasicBlock *BB = B.GetInsertBlock();
  return BB && BB->getTerminator();
}

void CodeGenFunction::ensureInsertPoint() {
  if (!isTerminated())
    return;
  B.SetInsertPoint(BasicBlock::Create(CGM.getLLVMContext(), "dead", Fn));
}

Value *CodeGenFunction::byteGEP(Value *Base, uint64_t Offset,
                                const Twine &Name) {
  if (Offset == 0)
    return Base;
  return B.CreateInBoundsGEP(B.getInt8Ty(), Base, B.getInt64(Offset), Name);
}

/// Whether a helper reaches state other threads share. Listed the other way
/// round, so that a helper added later counts as shared until someone has
/// looked: only these touch nothing but the caller's thread and target
/// memory. Records are shared too: their sequence number orders them
/// across threads only as long as it is taken under the session lock
/// (docs/internals.md, RingReader).
static bool touchesSharedState(Helper H) {
  switch (H) {
  case Helper::ReadMem:
  case Helper::ReadStr:
  case Helper::ClockNs:
  case Helper::RequestExit:
  case Helper::Within:
  case Helper::Fault:
  case Helper::Comm:
    return false;
  default:
    return true;
  }
}

Value *CodeGenFunction::callHelper(Helper H, ArrayRef<Value *> Args) {
  // The runtime keeps clauses that need these on the tracer's side when
  // the rest runs inside targets (docs/object-format.md).
  if (H == Helper::StackTrace)
    CGM.addClauseFlags(C.getIndex(),
                       TSCC_CLAUSE_CALLS_STACK_TRACE | TSCC_CLAUSE_CTX_REGS);
  else if (H == Helper::AggPrint)
    CGM.addClauseFlags(C.getIndex(), TSCC_CLAUSE_CALLS_AGG_PRINT);
  else if (H == Helper::StackId) // walked from the registers
    CGM.addClauseFlags(C.getIndex(),
                       TSCC_CLAUSE_CALLS_STACK_ID | TSCC_CLAUSE_CTX_REGS);
  // An aggregation update goes to the thread's own part of the
  // aggregation in a runtime that keeps one (TSCC_CLAUSE_THREAD_OWN_AGGS).
  if (H == Helper::AggUpdate)
    CGM.noteAggUpdate(C.getIndex());
  else if (touchesSharedState(H))
    CGM.noteSharedState(C.getIndex());
  StringRef Name = CodeGenModule::getHelperName(H);
  Value *Slot =
      byteGEP(Helpers, CodeGenModule::getHelperOffset(H), Name + ".addr");
  auto *FP = B.CreateLoad(B.getPtrTy(), Slot, Name);
  FP->setMetadata(LLVMContext::MD_invariant_load,
                  MDNode::get(CGM.getLLVMContext(), {}));
  llvm::FunctionType *FT = CGM.getHelperType(H);
  SmallVector<Value *, 6> All;
  All.push_back(Ctx);
  All.append(Args.begin(), Args.end());
  CallInst *Call = B.CreateCall(FT, FP, All);
  return Call;
}

Value *CodeGenFunction::emitHasHelper(Helper H) {
  // An object is run by runtimes of its own minor version or later, but a
  // newer object may meet an older runtime: a helper added by a minor
  // version is called only when the runtime's table is long enough to
  // have it.
  Value *Size = B.CreateLoad(
      B.getInt32Ty(),
      byteGEP(Helpers, offsetof(tscc_helpers, size), "helpers.size.addr"),
      "helpers.size");
  return B.CreateICmpUGE(
      Size, B.getInt32(CodeGenModule::getHelperOffset(H) + sizeof(void *)),
      "has." + CodeGenModule::getHelperName(H));
}

void CodeGenFunction::emitFaultIf(Value *Cond, uint32_t Kind) {
  Value *Has = emitHasHelper(Helper::Fault);
  llvm::LLVMContext &LC = CGM.getLLVMContext();
  BasicBlock *Then = BasicBlock::Create(LC, "fault", Fn);
  BasicBlock *Cont = BasicBlock::Create(LC, "fault.cont", Fn);
  B.CreateCondBr(B.CreateAnd(Cond, Has), Then, Cont);
  B.SetInsertPoint(Then);
  callHelper(Helper::Fault, {B.getInt32(Kind)});
  B.CreateBr(Cont);
  B.SetInsertPoint(Cont);
}

/// The TSCC_CLAUSE_CTX_* group of the context field at Offset; 0 for the
/// fields a runtime always fills in.
static uint32_t ctxFieldGroup(uint32_t Offset) {
  auto In = [Offset](size_t Begin, size_t End) {
    return Offset >= Begin && Offset < End;
  };
  if (In(offsetof(tscc_ctx, regs), offsetof(tscc_ctx, pid)))
    return TSCC_CLAUSE_CTX_REGS;
  if (In(offsetof(tscc_ctx, pid), offsetof(tscc_ctx, data_model)))
    return TSCC_CLAUSE_CTX_IDS;
  if (Offset == offsetof(tscc_ctx, err) ||
      Offset == offsetof(tscc_ctx, syscall_nr))
    return TSCC_CLAUSE_CTX_SYSCALL;
  if (In(offsetof(tscc_ctx, pname), offsetof(tscc_ctx, params)))
    return TSCC_CLAUSE_CTX_NAMES;
  if (In(offsetof(tscc_ctx, params), offsetof(tscc_ctx, usdt_args)))
    return TSCC_CLAUSE_CTX_PARAMS;
  if (Offset >= offsetof(tscc_ctx, usdt_args))
    return TSCC_CLAUSE_CTX_USDT;
  return 0;
}

Value *CodeGenFunction::ctxField(uint32_t Offset, llvm::Type *Ty,
                                 StringRef Name) {
  // Every access to a script global goes through ctx->globals.
  if (Offset == offsetof(tscc_ctx, globals))
    CGM.noteSharedState(C.getIndex());
  // Every read of the context comes through here: the clause's flags list
  // what it reads (TSCC_CLAUSE_CTX_LISTED, set for every clause).
  if (uint32_t Group = ctxFieldGroup(Offset))
    CGM.addClauseFlags(C.getIndex(), Group);
  return B.CreateLoad(Ty, byteGEP(Ctx, Offset, Name + ".addr"), Name);
}

Value *CodeGenFunction::ctxReg(unsigned Reg) {
  static const char *const Names[TSCC_REG_COUNT] = {
      "rax", "rbx", "rcx", "rdx",    "rsi",     "rdi", "rbp",
      "rsp", "r8",  "r9",  "r10",    "r11",     "r12", "r13",
      "r14", "r15", "rip", "eflags", "orig_rax"};
  return ctxField(offsetof(tscc_ctx, regs) + 8 * Reg, B.getInt64Ty(),
                  Names[Reg]);
}

AllocaInst *CodeGenFunction::createTemp(uint64_t Size, uint64_t Alignment,
                                        StringRef Name) {
  BasicBlock &Entry = Fn->getEntryBlock();
  IRBuilder<> EB(&Entry, Entry.begin());
  auto *A = EB.CreateAlloca(
      llvm::ArrayType::get(EB.getInt8Ty(), Size ? Size : 1), nullptr, Name);
  A->setAlignment(Align(std::max<uint64_t>(Alignment, 1)));
  return A;
}

Value *CodeGenFunction::targetAddrToI64(Value *Addr) {
  if (Addr->getType()->isIntegerTy(64))
    return Addr;
  return B.CreateZExtOrTrunc(Addr, B.getInt64Ty(), "addr64");
}

void CodeGenFunction::errorUnsupported(const Node *N, StringRef What) {
  CGM.errorUnsupported(N ? N->getSourceRange() : SourceRange(), What);
}
