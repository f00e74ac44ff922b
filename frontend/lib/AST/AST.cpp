//===- AST.cpp - AST node helpers -----------------------------------------===//

#include "tscc/AST/AST.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace tscc;

llvm::StringRef tscc::getNodeKindName(NodeKind K) {
  switch (K) {
#define NODE(CLASS, PARENT)                                                    \
  case NodeKind::CLASS:                                                        \
    return #CLASS;
#include "tscc/AST/ASTNodes.def"
  }
  llvm_unreachable("unknown node kind");
}

llvm::StringRef tscc::getImplicitCastKindName(ImplicitCastKind K) {
  switch (K) {
  case ImplicitCastKind::ArrayToPointerDecay:
    return "ArrayToPointerDecay";
  case ImplicitCastKind::FunctionToPointerDecay:
    return "FunctionToPointerDecay";
  case ImplicitCastKind::IntegralCast:
    return "IntegralCast";
  case ImplicitCastKind::IntegralToBoolean:
    return "IntegralToBoolean";
  case ImplicitCastKind::PointerToBoolean:
    return "PointerToBoolean";
  case ImplicitCastKind::IntegralToPointer:
    return "IntegralToPointer";
  case ImplicitCastKind::PointerToIntegral:
    return "PointerToIntegral";
  case ImplicitCastKind::BitCast:
    return "BitCast";
  }
  llvm_unreachable("unknown implicit cast kind");
}

llvm::StringRef tscc::getBuiltinTypeName(BuiltinTypeKind K) {
  switch (K) {
  case BuiltinTypeKind::Void:
    return "void";
  case BuiltinTypeKind::Bool:
    return "_Bool";
  case BuiltinTypeKind::Char:
    return "char";
  case BuiltinTypeKind::SChar:
    return "signed char";
  case BuiltinTypeKind::UChar:
    return "unsigned char";
  case BuiltinTypeKind::Short:
    return "short";
  case BuiltinTypeKind::UShort:
    return "unsigned short";
  case BuiltinTypeKind::Int:
    return "int";
  case BuiltinTypeKind::UInt:
    return "unsigned int";
  case BuiltinTypeKind::Long:
    return "long";
  case BuiltinTypeKind::ULong:
    return "unsigned long";
  case BuiltinTypeKind::LongLong:
    return "long long";
  case BuiltinTypeKind::ULongLong:
    return "unsigned long long";
  case BuiltinTypeKind::Float:
    return "float";
  case BuiltinTypeKind::Double:
    return "double";
  case BuiltinTypeKind::LongDouble:
    return "long double";
  }
  llvm_unreachable("unknown builtin type");
}

llvm::StringRef tscc::getStorageClassName(StorageClass SC) {
  switch (SC) {
  case StorageClass::Global:
    return "__global";
  case StorageClass::Thread:
    return "__thread";
  case StorageClass::Auto:
    return "__auto";
  }
  llvm_unreachable("unknown storage class");
}

/// A dimension or capacity: the literal value if it is one.
static std::string dimToString(const Expr *E) {
  if (!E)
    return "";
  if (const auto *IL = llvm::dyn_cast<IntegerLiteral>(E->ignoreParens()))
    return std::to_string(IL->getValue());
  if (const auto *DR = llvm::dyn_cast<DeclRefExpr>(E->ignoreParens()))
    return DR->getName().str();
  return "N";
}

std::string TypeSpec::getBaseAsString() const {
  std::string S;
  if (Const)
    S += "const ";
  if (Volatile)
    S += "volatile ";
  switch (SK) {
  case SpecKind::Builtin:
    return S + getBuiltinTypeName(BK).str();
  case SpecKind::Struct:
    return S + "struct " + Name.str();
  case SpecKind::Union:
    return S + "union " + Name.str();
  case SpecKind::Enum:
    return S + "enum " + Name.str();
  case SpecKind::Typedef:
    return S + Name.str();
  case SpecKind::String:
    return S + "String";
  case SpecKind::Typeof:
    return S + "__typeof__(" +
           (TypeofType ? TypeofType->getAsString() : std::string("expr")) + ")";
  }
  llvm_unreachable("unknown TypeSpec kind");
}

/// One declarator level as written: `*`, `(*)[3]`, `(int, ...)`.
static std::string spellLevel(unsigned Pointers, llvm::ArrayRef<Expr *> Dims,
                              const FunctionSuffix *F,
                              const DeclaratorLevel *Nested) {
  std::string S(Pointers, '*');
  if (Nested)
    S += "(" +
         spellLevel(Nested->PointerDepth, Nested->ArrayDims, Nested->Function,
                    Nested->Nested) +
         ")";
  for (const Expr *D : Dims)
    S += "[" + dimToString(D) + "]";
  if (F) {
    S += "(";
    for (size_t I = 0; I < F->Params.size(); ++I)
      S += (I ? ", " : "") + F->Params[I]->getAsString();
    if (F->Variadic)
      S += F->Params.empty() ? "..." : ", ...";
    else if (F->Params.empty() && F->Prototyped)
      S += "void";
    S += ")";
  }
  return S;
}

std::string TypeSpec::getAsString() const {
  std::string S = getBaseAsString();
  if (SK == SpecKind::String && StringCapacity)
    S += "[" + dimToString(StringCapacity) + "]";
  std::string D = spellLevel(PointerDepth, ArrayDims, Function, Nested);
  if (!D.empty())
    S += ' ' + D;
  return S;
}

Expr *Expr::ignoreParens() {
  Expr *E = this;
  while (auto *P = llvm::dyn_cast<ParenExpr>(E))
    E = P->getSubExpr();
  return E;
}

const Expr *Expr::ignoreParens() const {
  return const_cast<Expr *>(this)->ignoreParens();
}

std::optional<unsigned> BuiltinVarExpr::getArgIndex() const {
  llvm::StringRef Digits = Name;
  if (!Digits.consume_front("__arg") || Digits.empty() || Digits[0] == '0' ||
      Digits.size() > 3 || !llvm::all_of(Digits, llvm::isDigit))
    return std::nullopt;
  unsigned N = 0;
  Digits.getAsInteger(10, N);
  return N;
}

llvm::StringRef UnaryOperator::getOpcodeStr(Opcode Op) {
  switch (Op) {
  case Opcode::Plus:
    return "+";
  case Opcode::Minus:
    return "-";
  case Opcode::LNot:
    return "!";
  case Opcode::Not:
    return "~";
  case Opcode::Deref:
    return "*";
  case Opcode::AddrOf:
    return "&";
  case Opcode::PreInc:
  case Opcode::PostInc:
    return "++";
  case Opcode::PreDec:
  case Opcode::PostDec:
    return "--";
  }
  llvm_unreachable("unknown unary opcode");
}

llvm::StringRef BinaryOperator::getOpcodeStr(Opcode Op) {
  static const char *const Names[] = {
      "*",  "/",  "%",  "+",  "-", "<<", ">>", "<",  ">",
      "<=", ">=", "==", "!=", "&", "^",  "|",  "&&", "||"};
  return Names[static_cast<unsigned>(Op)];
}

llvm::StringRef AssignExpr::getOpcodeStr(Opcode Op) {
  static const char *const Names[] = {
      "=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|="};
  return Names[static_cast<unsigned>(Op)];
}

BinaryOperator::Opcode AssignExpr::getBinaryOpcode() const {
  using B = BinaryOperator::Opcode;
  switch (Op) {
  case Opcode::Assign:
    break;
  case Opcode::MulAssign:
    return B::Mul;
  case Opcode::DivAssign:
    return B::Div;
  case Opcode::RemAssign:
    return B::Rem;
  case Opcode::AddAssign:
    return B::Add;
  case Opcode::SubAssign:
    return B::Sub;
  case Opcode::ShlAssign:
    return B::Shl;
  case Opcode::ShrAssign:
    return B::Shr;
  case Opcode::AndAssign:
    return B::And;
  case Opcode::XorAssign:
    return B::Xor;
  case Opcode::OrAssign:
    return B::Or;
  }
  llvm_unreachable("plain assignment has no binary opcode");
}

llvm::StringRef tscc::getProbeProviderName(ProbeProvider P) {
  switch (P) {
  case ProbeProvider::Begin:
    return "BEGIN";
  case ProbeProvider::End:
    return "END";
  case ProbeProvider::Uft:
    return "uft";
  case ProbeProvider::Syscall:
    return "syscall";
  case ProbeProvider::Interval:
    return "interval";
  case ProbeProvider::Unknown:
    return "unknown";
  }
  llvm_unreachable("unknown provider");
}

ProbeProvider ProbeSpec::getProvider() const {
  if (Fields.empty())
    return ProbeProvider::Unknown;
  return llvm::StringSwitch<ProbeProvider>(Fields.front().Text)
      .Case("BEGIN", ProbeProvider::Begin)
      .Case("END", ProbeProvider::End)
      .Case("uft", ProbeProvider::Uft)
      .Case("syscall", ProbeProvider::Syscall)
      .Case("interval", ProbeProvider::Interval)
      .Default(ProbeProvider::Unknown);
}
