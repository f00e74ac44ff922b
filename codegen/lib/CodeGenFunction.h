//===- CodeGenFunction.h - IR generation for one clause function -*- C++ -*-===//
//
// One CodeGenFunction emits one of a clause's four functions: its predicate
// or its action, for one stream. The stream decides the function's name and
// section; the *type model* decides every width and layout. They differ only
// for BEGIN/END/interval clauses, whose ILP32 entry mirrors the LP64 code.
//
// The implementation is split by construct: CGExpr (scalars, conversions,
// operators), CGLValue (places: target memory, variables, map slots),
// CGStmt, CGVariables (globals, thread-locals, autos, maps), CGBuiltins,
// CGPrintf, CGProbeArgs (__argN, __rv and the other built-in values) and
// CGClause (function creation and the clause driver).
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_CODEGEN_LIB_CODEGENFUNCTION_H
#define TSCC_CODEGEN_LIB_CODEGENFUNCTION_H

#include "CodeGenModule.h"

#include "tscc/AST/AST.h"
#include "tscc/Sema/Type.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace tscc {

/// A value of a script expression. Scalars (integers, enums, bool, target
/// pointers, floating point) are SSA values of their model width; target
/// pointers are integers, never LLVM pointers, because they are addresses in
/// another process. Strings and aggregates are host pointers to a buffer.
struct RValue {
  llvm::Value *V = nullptr;
  /// Strings: the buffer's capacity in bytes (NUL included).
  uint64_t Capacity = 0;

  static RValue scalar(llvm::Value *V) { return {V, 0}; }
  static RValue buffer(llvm::Value *P, uint64_t Cap) { return {P, Cap}; }
  explicit operator bool() const { return V != nullptr; }
};

/// A place an expression designates.
struct LValue {
  enum Kind : uint8_t {
    Target,  ///< target memory; Addr is a model-width integer address
    Host,    ///< tracer memory (autos, globals, map slots); Addr is a ptr
    Thread,  ///< a thread-local: Host plus the "written" bit
    MapElem, ///< an associative-array element; the slot is looked up lazily
  };
  Kind K = Host;
  const Type *Ty = nullptr;
  llvm::Value *Addr = nullptr;
  /// Bytes the value occupies in host storage when wider than its type
  /// (globals and map values keep every scalar in 8 bytes).
  unsigned StorageSize = 0;
  /// Bit-fields: bit offset from Addr and width.
  unsigned BitOffset = 0;
  unsigned BitWidth = 0;
  /// Thread: the variable's bit in the thread block's bitmap.
  uint32_t WrittenBit = 0;
  /// Global scalars are updated with atomic read-modify-write operations.
  bool IsGlobal = false;
  /// MapElem: the map and its serialised key (a host buffer).
  const MapInfo *Map = nullptr;
  llvm::Value *Key = nullptr;

  bool isBitField() const { return BitWidth != 0; }
  /// False after an error: there is nothing to read or write.
  bool isValid() const {
    return Ty && (K == MapElem ? Key != nullptr : Addr != nullptr);
  }
};

class CodeGenFunction {
public:
  CodeGenFunction(CodeGenModule &CGM, const Clause &C, tscc_data_model Stream,
                  bool IsPredicate);

  /// Creates and fills the function; null after a reported error.
  llvm::Function *emit();

  // Models and types ---------------------------------------------------------
  DataModel typeModel() const { return TypeDM; }
  tscc_data_model stream() const { return Stream; }
  unsigned pointerBytes() const;
  const Type *typeOf(const Expr *E) const;
  /// The LLVM type of a scalar of type \p T (iN, float, double); ptr for
  /// strings and aggregates.
  llvm::Type *convertType(const Type *T);
  llvm::IntegerType *intPtrTy();
  llvm::IRBuilder<> &builder() { return B; }
  CodeGenModule &getCGM() { return CGM; }

  // Expressions (CGExpr.cpp) -------------------------------------------------
  RValue emitExpr(const Expr *E);
  /// The value of \p E after the implicit conversion sema recorded for the
  /// type model (Expr::getConversion): what its parent computes with.
  RValue emitConverted(const Expr *E);
  /// emitConverted(), then stored as \p To (a no-op when sema converted the
  /// value to \p To, as it does for assignments and initializers).
  llvm::Value *emitScalarAs(const Expr *E, const Type *To);
  /// A scalar widened to i64 by its own signedness (records and keys).
  llvm::Value *emitScalarAsI64(const Expr *E);
  /// Truth value (i1) of a scalar condition.
  llvm::Value *emitCondition(const Expr *E);
  llvm::Value *convert(llvm::Value *V, const Type *From, const Type *To);
  /// An arithmetic/bitwise operator on operands already in type \p Ty
  /// (division and shifts are made total: no input can trap).
  llvm::Value *emitBinaryArith(BinaryOperator::Opcode Op, llvm::Value *L,
                               llvm::Value *R, const Type *Ty);
  llvm::Value *toBool(llvm::Value *V, const Type *From);
  llvm::Value *extendToI64(llvm::Value *V, const Type *From);

  // Places (CGLValue.cpp) ----------------------------------------------------
  LValue emitLValue(const Expr *E);
  RValue emitLoad(const LValue &LV);
  void emitStore(const LValue &LV, RValue V);
  /// Copies \p Size bytes of target memory at \p Addr (model width) into
  /// \p Dst through helpers->read_mem.
  void emitReadTarget(llvm::Value *Addr, llvm::Value *Dst, uint64_t Size);
  /// A scalar of type \p Ty read from target address \p Addr.
  llvm::Value *emitReadTargetScalar(llvm::Value *Addr, const Type *Ty);
  /// A record/array/String-typed rvalue: host buffer of the type's bytes.
  llvm::Value *materialize(const LValue &LV);

  // Variables (CGVariables.cpp) ----------------------------------------------
  LValue emitVariable(const VariableInfo &V, const Expr *Ref);
  LValue emitMapElement(const VariableInfo &V, const ArraySubscriptExpr *E);
  llvm::Value *emitMapSlot(const LValue &LV, bool Create);
  /// i1: the thread-local's written bit (false without a thread block).
  llvm::Value *emitThreadWritten(const LValue &LV);
  void emitSetThreadWritten(const LValue &LV);
  /// Serialises keys into a fresh zeroed buffer of \p Size bytes, each key
  /// in \p Fields order: scalars as 8 bytes, strings NUL-padded.
  llvm::Value *emitKeyBuffer(llvm::ArrayRef<const Expr *> Keys,
                             llvm::ArrayRef<FieldInfo> Fields, uint32_t Size);
  void emitDeclStmt(const DeclStmt *S);
  void emitGlobalInitializers();

  // Statements (CGStmt.cpp) --------------------------------------------------
  void emitStmt(const Stmt *S);
  void emitAssign(const AssignExpr *E, RValue *Result);
  RValue emitIncDec(const UnaryOperator *E);

  // Built-ins (CGBuiltins.cpp, CGPrintf.cpp, CGProbeArgs.cpp) ----------------
  RValue emitCall(const CallExpr *E);
  void emitAggregationUpdate(const AssignExpr *E);
  void emitRecord(const CallExpr *E, bool IsTrace);
  RValue emitBuiltinVar(const BuiltinVarExpr *E);
  RValue emitParam(const ParamExpr *E);

  // Strings ------------------------------------------------------------------
  RValue emitStringTemp(uint64_t Capacity);
  void emitStringCopy(llvm::Value *Dst, uint64_t DstCap, RValue Src);
  llvm::Value *emitStringEqual(RValue A, RValue Bv);
  llvm::Value *emitStringLength(RValue S);
  /// i32: <0, 0 or >0 as A sorts before, with or after B (bytes unsigned).
  llvm::Value *emitStringCompare(RValue A, RValue Bv);
  /// i64: where Needle first occurs in Hay, or -1.
  llvm::Value *emitStringFind(RValue Hay, RValue Needle);
  /// Count bytes of S from Start (both i64, within S's length).
  RValue emitSubstring(RValue S, llvm::Value *Start, llvm::Value *Count);

  // Plumbing -----------------------------------------------------------------
  llvm::Value *callHelper(Helper H, llvm::ArrayRef<llvm::Value *> Args);
  /// When \p Cond (i1) holds, counts a fault of \p Kind (tscc_fault_kind)
  /// for the clause, if the runtime's helper table has fault() (ABI 1.2).
  /// i1: the runtime's helper table is long enough to hold H (helpers
  /// added by a minor ABI version).
  llvm::Value *emitHasHelper(Helper H);
  void emitFaultIf(llvm::Value *Cond, uint32_t Kind);
  /// The i64 stack id of an aggregation key `stktrace([depth])`.
  llvm::Value *emitStackId(const Expr *Key);
  llvm::Value *ctxField(uint32_t Offset, llvm::Type *Ty, llvm::StringRef Name);
  llvm::Value *ctxReg(unsigned Reg);
  llvm::Value *getCtx() const { return Ctx; }
  /// An alloca in the entry block (so LLVM promotes and reuses it).
  llvm::AllocaInst *createTemp(uint64_t Size, uint64_t Align,
                               llvm::StringRef Name);
  llvm::Value *byteGEP(llvm::Value *Base, uint64_t Offset,
                       const llvm::Twine &Name = "");
  llvm::Value *targetAddrToI64(llvm::Value *Addr);

  /// In a predicate, reading a never-written thread-local makes the whole
  /// predicate false: branch to the function's "return 0" block.
  bool isPredicate() const { return IsPredicate; }
  llvm::BasicBlock *getFalseBlock();
  llvm::BasicBlock *getReturnBlock() { return ReturnBlock; }
  bool isTerminated() const;
  /// Starts a fresh block after a terminator so that dead code still has a
  /// place to go.
  void ensureInsertPoint();

  void errorUnsupported(const Node *N, llvm::StringRef What);
  const Clause &getClause() const { return C; }
  const ScriptInfo &getInfo() const { return CGM.getInfo(); }

private:
  void emitPrologue();

  CodeGenModule &CGM;
  const Clause &C;
  tscc_data_model Stream;
  DataModel TypeDM;
  bool IsPredicate;
  llvm::IRBuilder<> B;
  llvm::Function *Fn = nullptr;
  llvm::Value *Ctx = nullptr;
  llvm::Value *Helpers = nullptr;
  llvm::BasicBlock *ReturnBlock = nullptr;
  llvm::BasicBlock *FalseBlock = nullptr;
  llvm::Instruction *AllocaPoint = nullptr;
  /// Autos of this clause, by variable index.
  llvm::DenseMap<unsigned, llvm::AllocaInst *> Autos;
  /// Values of the OpaqueValueExprs being emitted (the condition of GNU
  /// `x ?: y`, evaluated once).
  llvm::DenseMap<const Expr *, RValue> OpaqueValues;

public:
  /// Binds \p E (an OpaqueValueExpr) to \p V while its parent emits it.
  void bindOpaqueValue(const Expr *E, RValue V) { OpaqueValues[E] = V; }
  /// A compound literal's object: a zeroed temporary initialised in order.
  LValue emitCompoundLiteral(const CompoundLiteralExpr *E);

  friend class ClauseEmitter;
};

} // namespace tscc

#endif // TSCC_CODEGEN_LIB_CODEGENFUNCTION_H
