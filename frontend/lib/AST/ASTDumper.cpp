//===- ASTDumper.cpp - Textual AST dumps ----------------------------------===//
//
// The output is a tree like clang -ast-dump's, without addresses or colours
// so that it is byte-for-byte deterministic:
//
//   Clause <3:1, 5:1> index=0
//   |-ProbeSpec <3:1, 3:1> '@@BEGIN' provider=BEGIN
//   | `-ProbeField <3:3, 3:7> 'BEGIN'
//   `-CompoundStmt <3:9, 5:1>
//
//===----------------------------------------------------------------------===//

#include "tscc/AST/ASTDumper.h"
#include "tscc/AST/AST.h"
#include "tscc/Basic/SourceManager.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Format.h"

#include <string>
#include <vector>

using namespace tscc;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace {

/// One line of the tree and what hangs below it.
struct Item {
  const Node *N = nullptr; ///< Null for synthetic lines.
  std::string Text;        ///< For synthetic lines: the full line.
  std::vector<Item> Kids;  ///< For synthetic lines only.
};

class Dumper {
public:
  Dumper(const SourceManager &SM, llvm::raw_ostream &OS) : SM(SM), OS(OS) {}

  void dumpTree(const Item &I, const std::string &Prefix, bool IsRoot,
                bool IsLast) {
    if (!IsRoot)
      OS << Prefix << (IsLast ? "`-" : "|-");
    std::vector<Item> Kids;
    if (I.N) {
      OS << header(I.N) << '\n';
      Kids = children(I.N);
    } else {
      OS << I.Text << '\n';
      Kids = I.Kids;
    }
    std::string Next = IsRoot ? Prefix : Prefix + (IsLast ? "  " : "| ");
    for (size_t K = 0; K < Kids.size(); ++K)
      dumpTree(Kids[K], Next, /*IsRoot=*/false, K + 1 == Kids.size());
  }

private:
  std::string loc(SourceLocation L) const {
    if (L.isInvalid())
      return "<invalid>";
    return std::to_string(SM.getLineNumber(L)) + ":" +
           std::to_string(SM.getColumnNumber(L));
  }
  std::string range(SourceRange R) const {
    return "<" + loc(R.getBegin()) + ", " + loc(R.getEnd()) + ">";
  }
  static std::string quoted(llvm::StringRef S, char Q = '\'') {
    std::string Out(1, Q);
    for (unsigned char C : S) {
      switch (C) {
      case '\n':
        Out += "\\n";
        break;
      case '\t':
        Out += "\\t";
        break;
      case '\r':
        Out += "\\r";
        break;
      case '\\':
        Out += "\\\\";
        break;
      default:
        if (C == static_cast<unsigned char>(Q)) {
          Out += '\\';
          Out += static_cast<char>(C);
        } else if (C < 0x20 || C >= 0x7F) {
          Out += "\\x";
          Out += llvm::hexdigit(C >> 4, true);
          Out += llvm::hexdigit(C & 15, true);
        } else
          Out += static_cast<char>(C);
      }
    }
    return Out + Q;
  }

  static Item item(const Node *N) {
    Item I;
    I.N = N;
    return I;
  }
  static Item line(std::string Text) {
    Item I;
    I.Text = std::move(Text);
    return I;
  }

  std::string header(const Node *N) const;
  std::string details(const Node *N) const;
  std::vector<Item> children(const Node *N) const;
  /// A declarator level's array dimensions and function suffix.
  void addDeclarator(std::vector<Item> &K, llvm::ArrayRef<Expr *> Dims,
                     const FunctionSuffix *F) const;
  std::string designator(const OffsetofExpr *E) const;

  const SourceManager &SM;
  llvm::raw_ostream &OS;
};

std::string Dumper::header(const Node *N) const {
  std::string H = N->getKindName().str() + " " + range(N->getSourceRange());
  std::string D = details(N);
  if (!D.empty())
    H += " " + D;
  return H;
}

static llvm::StringRef chunkKindName(CDeclChunk::Kind K) {
  switch (K) {
  case CDeclChunk::Kind::Directive:
    return "directive";
  case CDeclChunk::Kind::Typedef:
    return "typedef";
  case CDeclChunk::Kind::Tag:
    return "tag";
  case CDeclChunk::Kind::Prototype:
    return "prototype";
  }
  return "?";
}

static std::string suffixName(const IntegerLiteral *L) {
  std::string S = L->hasUnsignedSuffix() ? "u" : "";
  if (L->getSizeSuffix() == IntegerLiteral::SizeSuffix::Long)
    S += "l";
  else if (L->getSizeSuffix() == IntegerLiteral::SizeSuffix::LongLong)
    S += "ll";
  return S;
}

std::string Dumper::designator(const OffsetofExpr *E) const {
  std::string S;
  for (const OffsetofComponent &C : E->getComponents()) {
    if (C.K == OffsetofComponent::Kind::Field) {
      if (!S.empty())
        S += '.';
      S += C.FieldName.str();
      continue;
    }
    const auto *IL = llvm::dyn_cast_or_null<IntegerLiteral>(C.Index);
    S +=
        "[" + (IL ? std::to_string(IL->getValue()) : std::string("expr")) + "]";
  }
  return S;
}

std::string Dumper::details(const Node *N) const {
  switch (N->getKind()) {
  case NodeKind::Script:
    return quoted(SM.getBufferName(cast<Script>(N)->getFileID()));
  case NodeKind::Clause: {
    const auto *C = cast<Clause>(N);
    std::string S = "index=" + std::to_string(C->getIndex());
    if (C->getPredicate())
      S += " when=" + loc(C->getWhenLoc());
    return S;
  }
  case NodeKind::ProbeSpec: {
    const auto *P = cast<ProbeSpec>(N);
    return quoted(P->getText()) +
           " provider=" + getProbeProviderName(P->getProvider()).str();
  }
  case NodeKind::TypeSpec:
    return quoted(cast<TypeSpec>(N)->getAsString());
  case NodeKind::VarDecl: {
    const auto *V = cast<VarDecl>(N);
    std::string S = V->getName().str() + " " +
                    getStorageClassName(V->getStorageClass()).str();
    if (!V->isStorageClassExplicit())
      S += " implicit";
    if (V->isAssociativeArray())
      S += " keys=" + std::to_string(V->getKeyTypes().size());
    if (V->getInit())
      S += " init";
    return S;
  }
  case NodeKind::IfStmt:
    return cast<IfStmt>(N)->getElse() ? "has_else" : "";
  case NodeKind::IntegerLiteral: {
    const auto *L = cast<IntegerLiteral>(N);
    std::string S = std::to_string(L->getValue());
    if (L->getRadix() != 10)
      S += " radix=" + std::to_string(L->getRadix());
    std::string Suf = suffixName(L);
    if (!Suf.empty())
      S += " suffix=" + Suf;
    return S;
  }
  case NodeKind::CharLiteral: {
    const auto *C = cast<CharLiteral>(N);
    static const char *const Prefix[] = {"", " L", " u", " U"};
    return std::to_string(C->getValue()) +
           Prefix[static_cast<unsigned>(C->getCharKind())];
  }
  case NodeKind::StringLiteral:
    return quoted(cast<StringLiteral>(N)->getBytes(), '"');
  case NodeKind::DeclRefExpr:
    return quoted(cast<DeclRefExpr>(N)->getName());
  case NodeKind::BuiltinVarExpr:
    return quoted(cast<BuiltinVarExpr>(N)->getName());
  case NodeKind::ParamExpr:
    return "$" + std::to_string(cast<ParamExpr>(N)->getIndex());
  case NodeKind::AggregationExpr: {
    const auto *A = cast<AggregationExpr>(N);
    return quoted("@" + A->getName().str()) +
           (A->hasBrackets() ? " keys=" + std::to_string(A->getKeys().size())
                             : "");
  }
  case NodeKind::UnaryOperator: {
    const auto *U = cast<UnaryOperator>(N);
    return std::string(U->isPostfix() ? "postfix " : "prefix ") +
           quoted(UnaryOperator::getOpcodeStr(U->getOpcode()));
  }
  case NodeKind::BinaryOperator:
    return quoted(
        BinaryOperator::getOpcodeStr(cast<BinaryOperator>(N)->getOpcode()));
  case NodeKind::AssignExpr:
    return quoted(AssignExpr::getOpcodeStr(cast<AssignExpr>(N)->getOpcode()));
  case NodeKind::SizeofExpr:
    return cast<TypeOrExprTraitExpr>(N)->isTypeOperand() ? "type" : "expr";
  case NodeKind::AlignofExpr:
    return std::string(cast<AlignofExpr>(N)->isGNUSpelling() ? "__alignof__ "
                                                             : "") +
           (cast<TypeOrExprTraitExpr>(N)->isTypeOperand() ? "type" : "expr");
  case NodeKind::OffsetofExpr:
    return quoted(designator(cast<OffsetofExpr>(N)));
  case NodeKind::MemberExpr: {
    const auto *M = cast<MemberExpr>(N);
    return (M->isArrow() ? "->" : ".") + M->getMemberName().str();
  }
  case NodeKind::CallExpr:
    return quoted(cast<CallExpr>(N)->getCalleeName());
  case NodeKind::CompoundStmt:
  case NodeKind::ExprStmt:
  case NodeKind::ReturnStmt:
  case NodeKind::DeclStmt:
  case NodeKind::NullStmt:
  case NodeKind::ConditionalOperator:
  case NodeKind::CastExpr:
  case NodeKind::ArraySubscriptExpr:
  case NodeKind::ParenExpr:
  case NodeKind::OpaqueValueExpr:
  case NodeKind::GenericSelectionExpr:
  case NodeKind::InitListExpr:
  case NodeKind::CompoundLiteralExpr:
    return "";
  }
  llvm_unreachable("unknown node kind");
}

void Dumper::addDeclarator(std::vector<Item> &K, llvm::ArrayRef<Expr *> Dims,
                           const FunctionSuffix *F) const {
  for (const Expr *D : Dims) {
    if (!D) {
      K.push_back(line("dimension <unspecified>"));
      continue;
    }
    Item Dim = line("dimension");
    Dim.Kids.push_back(item(D));
    K.push_back(Dim);
  }
  if (!F)
    return;
  Item Fn = line(std::string("function") + (F->Variadic ? " variadic" : "") +
                 (F->Prototyped ? "" : " unprototyped"));
  for (const TypeSpec *P : F->Params)
    Fn.Kids.push_back(item(P));
  K.push_back(Fn);
}

std::vector<Item> Dumper::children(const Node *N) const {
  std::vector<Item> K;
  auto Add = [&](const Node *C) {
    if (C)
      K.push_back(item(C));
  };
  switch (N->getKind()) {
  case NodeKind::Script: {
    const auto *S = cast<Script>(N);
    for (const CDeclChunk &C : S->getCDecls()) {
      std::string T =
          "CDecl " + range(C.Range) + " " + chunkKindName(C.K).str();
      if (!C.Name.empty())
        T += " " + quoted(C.Name);
      K.push_back(line(T));
    }
    for (const PrototypeName &P : S->getPrototypeNames())
      K.push_back(line("PrototypeName <" + loc(P.Loc) + "> " + quoted(P.Name)));
    for (const VarDecl *V : S->getVars())
      Add(V);
    for (const Clause *C : S->getClauses())
      Add(C);
    break;
  }
  case NodeKind::Clause: {
    const auto *C = cast<Clause>(N);
    for (const ProbeSpec *P : C->getProbes())
      Add(P);
    Add(C->getPredicate());
    Add(C->getBody());
    break;
  }
  case NodeKind::ProbeSpec:
    for (const ProbeField &F : cast<ProbeSpec>(N)->getFields())
      K.push_back(line("ProbeField " + range(F.Range) + " " + quoted(F.Text) +
                       (F.IsRegex ? " regex" : "")));
    break;
  case NodeKind::TypeSpec: {
    const auto *T = cast<TypeSpec>(N);
    if (T->getStringCapacity()) {
      Item Cap = line("capacity");
      Cap.Kids.push_back(item(T->getStringCapacity()));
      K.push_back(Cap);
    }
    if (T->getTypeofType() || T->getTypeofExpr()) {
      Item Of = line("typeof");
      Of.Kids.push_back(T->getTypeofType() ? item(T->getTypeofType())
                                           : item(T->getTypeofExpr()));
      K.push_back(Of);
    }
    addDeclarator(K, T->getArrayDims(), T->getFunction());
    for (const DeclaratorLevel *L = T->getNested(); L; L = L->Nested) {
      Item Level = line("nested " + range(L->Range) +
                        " pointers=" + std::to_string(L->PointerDepth));
      addDeclarator(Level.Kids, L->ArrayDims, L->Function);
      K.push_back(Level);
    }
    break;
  }
  case NodeKind::VarDecl: {
    const auto *V = cast<VarDecl>(N);
    Add(V->getTypeSpec());
    for (const TypeSpec *T : V->getKeyTypes()) {
      Item Key = line("key");
      Key.Kids.push_back(item(T));
      K.push_back(Key);
    }
    Add(V->getInit());
    break;
  }
  case NodeKind::CompoundStmt:
    for (const Stmt *S : cast<CompoundStmt>(N)->body())
      Add(S);
    break;
  case NodeKind::ExprStmt:
    Add(cast<ExprStmt>(N)->getExpr());
    break;
  case NodeKind::IfStmt: {
    const auto *I = cast<IfStmt>(N);
    Add(I->getCond());
    Add(I->getThen());
    Add(I->getElse());
    break;
  }
  case NodeKind::DeclStmt:
    for (const VarDecl *V : cast<DeclStmt>(N)->decls())
      Add(V);
    break;
  case NodeKind::AggregationExpr:
    for (const Expr *E : cast<AggregationExpr>(N)->getKeys())
      Add(E);
    break;
  case NodeKind::UnaryOperator:
    Add(cast<UnaryOperator>(N)->getSubExpr());
    break;
  case NodeKind::BinaryOperator:
    Add(cast<BinaryOperator>(N)->getLHS());
    Add(cast<BinaryOperator>(N)->getRHS());
    break;
  case NodeKind::AssignExpr:
    Add(cast<AssignExpr>(N)->getLHS());
    Add(cast<AssignExpr>(N)->getRHS());
    break;
  case NodeKind::ConditionalOperator: {
    const auto *C = cast<ConditionalOperator>(N);
    Add(C->getCond());
    Add(C->getTrueExpr());
    Add(C->getFalseExpr());
    break;
  }
  case NodeKind::CastExpr:
    Add(cast<CastExpr>(N)->getTypeSpec());
    Add(cast<CastExpr>(N)->getSubExpr());
    break;
  case NodeKind::SizeofExpr:
  case NodeKind::AlignofExpr:
    Add(cast<TypeOrExprTraitExpr>(N)->getTypeOperand());
    Add(cast<TypeOrExprTraitExpr>(N)->getExprOperand());
    break;
  case NodeKind::OffsetofExpr: {
    const auto *O = cast<OffsetofExpr>(N);
    Add(O->getTypeSpec());
    for (const OffsetofComponent &C : O->getComponents())
      Add(C.Index);
    break;
  }
  case NodeKind::MemberExpr:
    Add(cast<MemberExpr>(N)->getBase());
    break;
  case NodeKind::ArraySubscriptExpr:
    Add(cast<ArraySubscriptExpr>(N)->getBase());
    for (const Expr *E : cast<ArraySubscriptExpr>(N)->getIndices())
      Add(E);
    break;
  case NodeKind::CallExpr:
    for (const Expr *E : cast<CallExpr>(N)->getArgs())
      Add(E);
    break;
  case NodeKind::ParenExpr:
    Add(cast<ParenExpr>(N)->getSubExpr());
    break;
  case NodeKind::OpaqueValueExpr:
    K.push_back(line(
        "source " +
        range(cast<OpaqueValueExpr>(N)->getSourceExpr()->getSourceRange())));
    break;
  case NodeKind::GenericSelectionExpr: {
    const auto *G = cast<GenericSelectionExpr>(N);
    Add(G->getControllingExpr());
    for (const GenericAssociation &A : G->getAssociations()) {
      Item Assoc = line(A.Type ? "association" : "default");
      if (A.Type)
        Assoc.Kids.push_back(item(A.Type));
      Assoc.Kids.push_back(item(A.Value));
      K.push_back(Assoc);
    }
    break;
  }
  case NodeKind::InitListExpr:
    for (const InitItem &I : cast<InitListExpr>(N)->getItems()) {
      if (I.Designators.empty()) {
        Add(I.Value);
        continue;
      }
      std::string D = "designated ";
      for (const Designator &X : I.Designators)
        D += X.K == Designator::Kind::Field ? "." + X.FieldName.str() : "[]";
      Item Des = line(D);
      for (const Designator &X : I.Designators)
        if (X.Index)
          Des.Kids.push_back(item(X.Index));
      Des.Kids.push_back(item(I.Value));
      K.push_back(Des);
    }
    break;
  case NodeKind::CompoundLiteralExpr:
    Add(cast<CompoundLiteralExpr>(N)->getTypeSpec());
    Add(cast<CompoundLiteralExpr>(N)->getInitializer());
    break;
  case NodeKind::ReturnStmt:
  case NodeKind::NullStmt:
  case NodeKind::IntegerLiteral:
  case NodeKind::CharLiteral:
  case NodeKind::StringLiteral:
  case NodeKind::DeclRefExpr:
  case NodeKind::BuiltinVarExpr:
  case NodeKind::ParamExpr:
    break;
  }
  return K;
}

} // namespace

void tscc::dumpAST(const Node *N, const SourceManager &SM,
                   llvm::raw_ostream &OS) {
  if (!N)
    return;
  Item Root;
  Root.N = N;
  Dumper(SM, OS).dumpTree(Root, "", /*IsRoot=*/true, /*IsLast=*/true);
}
