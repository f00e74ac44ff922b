//===- tscc/Sema/SemaChecker.h - Sema's internal checker --------*- C++ -*-===//
//
// Internal to the sema library (the public entry point is Sema.h). The
// checker's methods are split over SemaDecl.cpp, SemaProbe.cpp,
// SemaExpr.cpp, SemaMember.cpp, SemaBuiltins.cpp, SemaFormat.cpp,
// SemaStmt.cpp and SemaConstant.cpp by construct.
//
// Every clause is checked once per data model (ILP32 first, then LP64; only
// LP64 for clauses without a process). Diagnostics of one clause are held
// by the DiagnosticsEngine's PerModelDiagnosticMerger and merged: one found
// in both passes is reported once; one found in only one pass is tagged
// with the model (" [ILP32 only]").
// Warnings about behaviour that differs between the models are produced in
// the LP64 pass, where both models' types are known, and name the model
// themselves.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_SEMA_SEMACHECKER_H
#define TSCC_SEMA_SEMACHECKER_H

#include "tscc/AST/AST.h"
#include "tscc/Basic/Diagnostic.h"
#include "tscc/Basic/PerModelDiagnosticMerger.h"
#include "tscc/Basic/SourceManager.h"
#include "tscc/Sema/CDeclarations.h"
#include "tscc/Sema/Sema.h"
#include "tscc/Sema/SemaPrintf.h"
#include "tscc/Sema/SemaProbeSpec.h"
#include "tscc/Sema/Type.h"
#include "tscc/Sema/TypeContext.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace tscc {

/// What the probes of the clause being checked allow.
struct ClauseContext {
  Clause *C = nullptr;
  unsigned Index = 0;
  bool NoProcess = false;
  bool AllExit = false;  ///< every probe is an exit probe
  bool AllEntry = false; ///< every probe is a uft/syscall entry
  bool AllSyscallExit = false;
  bool AllSyscall = false;
  bool AnyOffset = false;
  bool AllUsdt = false;   ///< every probe is a USDT probe
  bool MixedUsdt = false; ///< USDT and other probes: no one `__argN`
  /// `__argN` types: the common prototype, or null when none / conflicting.
  PerModel<const FunctionType *> Proto{};
  bool ProtoConflict = false;
  /// For messages ("BEGIN", "handle"). A copy: the probe table it comes
  /// from grows (and moves) while later clauses are set up.
  std::string FirstProbeName;
  bool InPredicate = false;
};

/// Integer constant with the type it was computed in.
struct ConstValue {
  int64_t V = 0;
};

class SemaChecker {
public:
  SemaChecker(const SemaInputs &In, ScriptInfo &Info);
  void run();

  //===--- State --------------------------------------------------------===//
  Script &S;
  ASTContext &AST;
  SourceManager &SM;
  DiagnosticsEngine &Diags;
  std::array<CDeclarations *, NumDataModels> CDecls;
  ScriptInfo &Info;

  DataModel M = DataModel::LP64; ///< model of the current pass
  /// The LP64 pass, the last one: both models' types are known, so checks
  /// that compare the models run here. (Tables are the collector's.)
  bool LastPass = true;
  bool HaveOtherModel = false; ///< ILP32 types of this clause are set
  ClauseContext *Cur = nullptr;

  unsigned mi() const { return modelIndex(M); }
  CDeclarations &cdecls() const { return *CDecls[mi()]; }
  TypeContext &types() const { return CDecls[mi()]->getTypes(); }
  TypeContext &types(DataModel X) const {
    return CDecls[modelIndex(X)]->getTypes();
  }

  //===--- Diagnostics ----------------------------------------------------===//
  /// Set while checking something once per model (diag() then records the
  /// model); clear for checks made once for both models.
  bool InModelPass = false;

  /// Reports \p ID in the current model pass.
  DiagnosticBuilder diag(SourceLocation Loc, diag::ID ID);
  DiagnosticBuilder diag(SourceRange R, diag::ID ID);
  /// A note attached to the diagnostic reported just before it.
  DiagnosticBuilder note(SourceLocation Loc, diag::ID ID);
  /// A diagnostic that is the same for every model (or names its model).
  DiagnosticBuilder diagNeutral(SourceLocation Loc, diag::ID ID);
  /// Hold diagnostics until flushBuffer() merges the models' passes.
  void beginBuffer();
  void flushBuffer();

  //===--- Declarations (SemaDecl.cpp) ------------------------------------===//
  llvm::StringMap<VarDecl *> Globals;
  std::vector<llvm::StringMap<VarDecl *>> Scopes;

  void checkTopLevelVars();
  void declareVar(VarDecl *D, bool TopLevel);
  /// Resolves \p T in the current model; null after a diagnostic.
  const Type *resolveTypeSpec(TypeSpec *T);
  const Type *resolveBaseType(TypeSpec *T);
  /// Applies one declarator level (pointers, then array dimensions or a
  /// function suffix) to \p Base; null after a diagnostic.
  const Type *applyDeclaratorLevel(const Type *Base, unsigned Pointers,
                                   llvm::ArrayRef<Expr *> Dims,
                                   const FunctionSuffix *F, SourceLocation Loc);
  const Type *resolveFunctionSuffix(const Type *Return, const FunctionSuffix &F,
                                    SourceLocation Loc);
  /// The type a variable of declared type \p T has in the current model
  /// given its storage (globals widen integers to their LP64 width).
  const Type *storageType(const Type *T, VarStorage SC);
  void layoutStorage();
  VarDecl *lookupVar(llvm::StringRef Name);
  VariableInfo &varInfo(const VarDecl *D);
  bool checkScriptValueType(const Type *T, SourceLocation Loc,
                            llvm::StringRef What);
  void checkGlobalInit(VarDecl *D);

  //===--- Probes and clauses (SemaProbe.cpp) -----------------------------===//
  std::vector<ClauseContext> Contexts;
  void checkProbes();
  void setUpClauseContext(Clause *C, ClauseContext &Ctx);
  void checkClauses();
  void checkClause(ClauseContext &Ctx);

  //===--- Statements (SemaStmt.cpp) -------------------------------------===//
  void checkStmt(Stmt *St);
  void checkCompound(CompoundStmt *CS, bool NewScope);
  void checkLocalDecl(VarDecl *D);
  void checkCondition(Expr *E);

  //===--- Expressions (SemaExpr.cpp) -------------------------------------===//
  /// Types \p E in the current model, records the type on the node and
  /// returns it; null means "erroneous, already diagnosed".
  const Type *check(Expr *E);
  /// The type \p E has where C needs a value: arrays in the traced process
  /// decay to pointers, functions to function pointers. Records, script
  /// arrays and void are diagnosed (null result).
  const Type *rvalue(Expr *E, const Type *T);
  /// `$N` is an integer unless the script uses it as a string: compared
  /// with a string, converted to one (assignment, key, argument) or
  /// printed with %s. If E is such a `$N` (in parentheses or not), types
  /// it as a String and returns that type; else returns null.
  const Type *paramAsString(Expr *E);
  const Type *checkIntegerLiteral(IntegerLiteral *E);
  const Type *checkDeclRef(DeclRefExpr *E);
  const Type *checkIdentifierConstant(DeclRefExpr *E);
  const Type *checkUnary(UnaryOperator *E);
  const Type *checkBinary(BinaryOperator *E);
  const Type *checkArithmetic(BinaryOperator::Opcode Op, Expr *L, Expr *R,
                              const Type *LT, const Type *RT,
                              SourceLocation OpLoc, SourceRange Range);
  const Type *checkAssign(AssignExpr *E);
  const Type *checkConditional(ConditionalOperator *E);
  const Type *checkCast(CastExpr *E);
  const Type *checkCharLiteral(CharLiteral *E);

  //===--- _Generic, __typeof__, x ?: y (SemaGeneric.cpp) -----------------===//
  const Type *checkGenericSelection(GenericSelectionExpr *E);
  /// The type of \p E's value as a _Generic controlling expression.
  const Type *controllingType(Expr *E, const Type *T);
  /// gcc's type of a \p Width-bit bit-field declared with type \p T.
  const Type *gnuBitFieldType(unsigned Width, const Type *T);
  const Type *checkTypeofExpr(TypeSpec *T);
  const Type *checkOpaqueValue(OpaqueValueExpr *E);

  //===--- Compound literals (SemaInit.cpp) -------------------------------===//
  const Type *checkCompoundLiteral(CompoundLiteralExpr *E);
  /// C's integer promotions in the current model.
  const Type *promote(const Type *T);
  /// \p T, or the type a bit-field \p E of type \p T promotes to in the
  /// current model (int or unsigned int when it is no wider than int).
  /// Operators apply it to their operands before promote() and
  /// usualArithmetic(), which only see types.
  const Type *promoteBitField(const Expr *E, const Type *T);
  /// C's usual arithmetic conversions in the current model.
  const Type *usualArithmetic(const Type *A, const Type *B);
  /// Records on \p E, for the current model, that its value (after any
  /// decay) is implicitly converted to \p To where its parent uses it.
  /// Nothing is recorded when the types agree or are not scalars.
  void convertTo(Expr *E, const Type *To);
  /// Records the implicit conversions of a binary operator's operands
  /// (types \p LT and \p RT, already decayed) for operator \p O. With
  /// \p LHSIsPlace (a compound assignment) only the right operand is
  /// recorded; the left one's conversion is the computation type.
  void convertOperands(BinaryOperator::Opcode O, Expr *L, Expr *R,
                       const Type *LT, const Type *RT, bool LHSIsPlace);
  /// Checks that a value of type \p From (expression \p E) can be stored
  /// into something of type \p To; diagnoses and returns false otherwise.
  bool checkConvertible(Expr *E, const Type *From, const Type *To,
                        SourceLocation Loc, llvm::StringRef Context);
  /// In the last pass: warns when storing \p E into \p Dest (per-model
  /// types) behaves differently in the two models.
  void warnModelDependentStore(Expr *E, const PerModel<const Type *> &Dest,
                               SourceLocation Loc);
  bool isScriptLValue(Expr *E, std::string *Why = nullptr);
  bool isTargetLValue(Expr *E);
  bool hasSideEffects(Expr *E);
  llvm::StringRef typeName(const Type *T);
  std::string typeStr(const Type *T) { return T ? T->getName() : "<error>"; }

  //===--- Members, subscripts, sizeof (SemaMember.cpp) -------------------===//
  const Type *checkMember(MemberExpr *E);
  const Type *checkSubscript(ArraySubscriptExpr *E);
  const Type *checkMapAccess(ArraySubscriptExpr *E, VarDecl *Map);
  /// Puts the operands of `i[arr]` in the order `arr[i]`; true if it did.
  bool swapSubscriptOperands(ArraySubscriptExpr *E);
  const Type *checkStringLiteralSubscript(ArraySubscriptExpr *E,
                                          StringLiteral *Lit);
  const Type *checkSizeofAlignof(TypeOrExprTraitExpr *E, bool IsSizeof);
  const Type *checkOffsetof(OffsetofExpr *E);
  /// gcc's alignment of `__alignof__ expr` (also `_Alignof expr`) whose
  /// operand has type \p T; nullopt after a diagnostic.
  std::optional<uint64_t> gnuExprAlign(TypeOrExprTraitExpr *E, const Type *T);

  //===--- Built-ins (SemaBuiltins.cpp) -----------------------------------===//
  const Type *checkBuiltinVar(BuiltinVarExpr *E);
  const Type *checkArgOrRv(BuiltinVarExpr *E, BuiltinVar V, unsigned N);
  const Type *builtinResultType(BuiltinResult R);
  const Type *checkAggregationAssign(AssignExpr *E, AggregationExpr *A);
  const Type *checkAggregationRef(AggregationExpr *E);

  //===--- Built-in function calls (SemaBuiltinCalls.cpp) -----------------===//
  const Type *checkCall(CallExpr *E);
  /// The checks particular to \p Fn, after checkCall's generic ones from
  /// Builtins.def; \p StringResult receives the type of a String result.
  bool checkBuiltinCallArgs(CallExpr *E, BuiltinFunction Fn,
                            const Type *&StringResult);
  bool checkArgCount(CallExpr *E, unsigned Min, unsigned Max);
  /// Checks arguments From.. of \p E; false if any is erroneous.
  bool checkCallArgs(CallExpr *E, unsigned From);
  /// Argument \p I (already checked) is an integer / an address (integer or
  /// pointer) / a String or a `$N` used as one; diagnoses it otherwise.
  bool checkIntArg(CallExpr *E, unsigned I);
  bool checkAddressArg(CallExpr *E, unsigned I);
  bool checkStringArg(CallExpr *E, unsigned I);
  void callArgError(CallExpr *E, unsigned I, llvm::StringRef Expected);
  bool checkDiffTime(CallExpr *E);
  const Type *checkGetUserString(CallExpr *E); ///< the String's type
  bool checkCopyUserData(CallExpr *E);
  bool checkWithin(CallExpr *E);
  /// print(@a [, n]) and clear(@a).
  bool checkAggregationOperand(CallExpr *E);
  /// exists(m[k...]) and delete(m[k...]): the element's type, or null.
  const Type *checkMapElementOperand(CallExpr *E);

  //===--- printf / trace (SemaFormat.cpp) --------------------------------===//
  const Type *checkPrintf(CallExpr *E);
  const Type *checkTrace(CallExpr *E);
  FormatArg formatArgOf(Expr *E);
  static FormatArgType formatArgType(const Type *T);
  SourceLocation formatLoc(StringLiteral *Lit, unsigned Offset);

  //===--- Constants (SemaConstant.cpp) -----------------------------------===//
  /// Folds \p E in the current model if it is an integer constant
  /// expression. Types must have been checked.
  std::optional<int64_t> evaluate(const Expr *E);
  /// evaluate() of an operand, then the implicit conversion sema recorded
  /// on it: the value its parent computes with.
  std::optional<int64_t> evaluateOperand(const Expr *E);
  std::optional<int64_t> evaluateBinary(const BinaryOperator *B);
  std::optional<int64_t> evaluateIn(const Expr *E, DataModel X);
  /// Truncates/extends \p V to the width and signedness of \p T.
  static int64_t normalize(int64_t V, const Type *T);
  /// \p V of type \p From converted to \p To as gcc converts it (a
  /// pointer widened to an integer is sign-extended).
  static int64_t convertValue(int64_t V, const Type *From, const Type *To);
  void recordConstant(const Expr *E, int64_t V);
  /// After \p E is typed: records its value if it is an operator over
  /// constants, or remembers that it is not constant.
  void foldConstant(Expr *E);
  /// Operators foldConstant() found not to be constant, per model (so that
  /// folding a long chain of operators stays linear).
  PerModel<llvm::DenseSet<const Expr *>> NotConstant;
  /// Parses and checks an object-like macro's expansion as a constant.
  const Type *checkMacro(DeclRefExpr *E, const std::string &Expansion);
  llvm::DenseMap<const Expr *, Expr *> MacroExprs;
  unsigned MacroDepth = 0;
};

} // namespace tscc

#endif // TSCC_SEMA_SEMACHECKER_H
