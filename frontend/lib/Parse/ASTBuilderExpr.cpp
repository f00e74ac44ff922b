//===- ASTBuilderExpr.cpp - Expressions -----------------------------------===//

#include "ASTBuilder.h"
#include "Literals.h"

#include "llvm/ADT/StringExtras.h"

using namespace tscc;
using namespace tscc::parse;

Expr *ASTBuilder::buildExpr(P::ExpressionContext *C) {
  if (!C || C->exception)
    return nullptr;
  return as<Expr>(visit(C));
}

llvm::SmallVector<Expr *, 4> ASTBuilder::buildArgs(P::ArgumentListContext *C,
                                                   bool &OK) {
  llvm::SmallVector<Expr *, 4> Out;
  OK = true;
  if (!C)
    return Out;
  for (P::ExpressionContext *E : C->expression()) {
    Expr *X = buildExpr(E);
    if (!X)
      OK = false;
    else
      Out.push_back(X);
  }
  return Out;
}

antlrcpp::Any ASTBuilder::visitPrimaryExpr(P::PrimaryExprContext *C) {
  if (!C->primaryExpression())
    return wrap(nullptr);
  return visit(C->primaryExpression());
}

// expression '[' argumentList ']'
antlrcpp::Any ASTBuilder::visitSubscriptExpr(P::SubscriptExprContext *C) {
  Expr *Base = buildExpr(C->expression());
  bool OK;
  auto Idx = buildArgs(C->argumentList(), OK);
  if (!Base || !OK || Idx.empty())
    return wrap(nullptr);
  return wrap(Ctx.create<ArraySubscriptExpr>(
      range(C), Base, copy(llvm::ArrayRef<Expr *>(Idx))));
}

// expression ('.' | '->') Identifier
antlrcpp::Any ASTBuilder::visitMemberExpr(P::MemberExprContext *C) {
  Expr *Base = buildExpr(C->expression());
  P::MemberNameContext *M = C->memberName();
  if (!Base || !M || !M->getStart() || !C->op)
    return wrap(nullptr);
  return wrap(Ctx.create<MemberExpr>(
      range(C), Base, C->Arrow() != nullptr, loc(C->op),
      copy(Map.spelling(M->getStart())), loc(M->getStart())));
}

// expression ('++' | '--')
antlrcpp::Any ASTBuilder::visitPostfixExpr(P::PostfixExprContext *C) {
  Expr *Sub = buildExpr(C->expression());
  if (!Sub || !C->op)
    return wrap(nullptr);
  auto Op = C->op->getType() == P::PlusPlus ? UnaryOperator::Opcode::PostInc
                                            : UnaryOperator::Opcode::PostDec;
  return wrap(Ctx.create<UnaryOperator>(range(C), Op, loc(C->op), Sub));
}

// ('++' | '--') expression
antlrcpp::Any ASTBuilder::visitPrefixExpr(P::PrefixExprContext *C) {
  Expr *Sub = buildExpr(C->expression());
  if (!Sub || !C->op)
    return wrap(nullptr);
  auto Op = C->op->getType() == P::PlusPlus ? UnaryOperator::Opcode::PreInc
                                            : UnaryOperator::Opcode::PreDec;
  return wrap(Ctx.create<UnaryOperator>(range(C), Op, loc(C->op), Sub));
}

// ('+' | '-' | '!' | '~' | '*' | '&') expression
antlrcpp::Any ASTBuilder::visitUnaryExpr(P::UnaryExprContext *C) {
  Expr *Sub = buildExpr(C->expression());
  if (!Sub || !C->op)
    return wrap(nullptr);
  using Op = UnaryOperator::Opcode;
  Op K;
  switch (C->op->getType()) {
  case P::Plus:
    K = Op::Plus;
    break;
  case P::Minus:
    K = Op::Minus;
    break;
  case P::Not:
    K = Op::LNot;
    break;
  case P::Tilde:
    K = Op::Not;
    break;
  case P::Star:
    K = Op::Deref;
    break;
  default:
    K = Op::AddrOf;
    break;
  }
  return wrap(Ctx.create<UnaryOperator>(range(C), K, loc(C->op), Sub));
}

// {isCastAhead()}? '(' typeName ')' expression
antlrcpp::Any ASTBuilder::visitCastExpr(P::CastExprContext *C) {
  TypeSpec *T = buildTypeName(C->typeName());
  Expr *Sub = buildExpr(C->expression());
  if (!T || !Sub)
    return wrap(nullptr);
  return wrap(Ctx.create<CastExpr>(range(C), T, Sub));
}

// ('sizeof' | Alignof) '(' typeName ')'
antlrcpp::Any ASTBuilder::visitTraitTypeExpr(P::TraitTypeExprContext *C) {
  TypeSpec *T = buildTypeName(C->typeName());
  if (!T || !C->op)
    return wrap(nullptr);
  if (C->op->getType() == P::Sizeof)
    return wrap(Ctx.create<SizeofExpr>(range(C), T, nullptr));
  return wrap(Ctx.create<AlignofExpr>(range(C), T, nullptr,
                                      C->op->getText() == "__alignof__"));
}

// ('sizeof' | Alignof) expression
antlrcpp::Any ASTBuilder::visitTraitExprExpr(P::TraitExprExprContext *C) {
  Expr *E = buildExpr(C->expression());
  if (!E || !C->op)
    return wrap(nullptr);
  if (C->op->getType() == P::Sizeof)
    return wrap(Ctx.create<SizeofExpr>(range(C), nullptr, E));
  return wrap(Ctx.create<AlignofExpr>(range(C), nullptr, E,
                                      C->op->getText() == "__alignof__"));
}

static BinaryOperator::Opcode binaryOpcode(size_t TokenType) {
  using Op = BinaryOperator::Opcode;
  switch (TokenType) {
  case P::Star:
    return Op::Mul;
  case P::Slash:
    return Op::Div;
  case P::Percent:
    return Op::Rem;
  case P::Plus:
    return Op::Add;
  case P::Minus:
    return Op::Sub;
  case P::Shl:
    return Op::Shl;
  case P::Shr:
    return Op::Shr;
  case P::Less:
    return Op::LT;
  case P::Greater:
    return Op::GT;
  case P::LessEqual:
    return Op::LE;
  case P::GreaterEqual:
    return Op::GE;
  case P::EqualEqual:
    return Op::EQ;
  case P::NotEqual:
    return Op::NE;
  case P::Amp:
    return Op::And;
  case P::Caret:
    return Op::Xor;
  case P::Pipe:
    return Op::Or;
  case P::AmpAmp:
    return Op::LAnd;
  default:
    return Op::LOr;
  }
}

// expression op expression, for every binary operator
antlrcpp::Any ASTBuilder::visitBinaryExpr(P::BinaryExprContext *C) {
  auto Ops = C->expression();
  if (Ops.size() != 2 || !C->op)
    return wrap(nullptr);
  Expr *L = buildExpr(Ops[0]);
  Expr *R = buildExpr(Ops[1]);
  if (!L || !R)
    return wrap(nullptr);
  return wrap(Ctx.create<BinaryOperator>(
      range(C), binaryOpcode(C->op->getType()), loc(C->op), L, R));
}

// expression '?' expression? ':' expression
antlrcpp::Any ASTBuilder::visitConditionalExpr(P::ConditionalExprContext *C) {
  auto Ops = C->expression();
  if ((Ops.size() != 3 && Ops.size() != 2) || !C->Question() || !C->Colon())
    return wrap(nullptr);
  Expr *Cond = buildExpr(Ops[0]);
  Expr *L = nullptr;
  // GNU `x ?: y`: the value of x, evaluated once, when it is not zero.
  if (Cond && Ops.size() == 2)
    L = Ctx.create<OpaqueValueExpr>(Cond->getSourceRange(), Cond);
  else if (Ops.size() == 3)
    L = buildExpr(Ops[1]);
  Expr *R = buildExpr(Ops.back());
  if (!Cond || !L || !R)
    return wrap(nullptr);
  return wrap(Ctx.create<ConditionalOperator>(
      range(C), Cond, loc(C->Question()), L, loc(C->Colon()), R));
}

static AssignExpr::Opcode assignOpcode(size_t TokenType) {
  using Op = AssignExpr::Opcode;
  switch (TokenType) {
  case P::StarAssign:
    return Op::MulAssign;
  case P::SlashAssign:
    return Op::DivAssign;
  case P::PercentAssign:
    return Op::RemAssign;
  case P::PlusAssign:
    return Op::AddAssign;
  case P::MinusAssign:
    return Op::SubAssign;
  case P::ShlAssign:
    return Op::ShlAssign;
  case P::ShrAssign:
    return Op::ShrAssign;
  case P::AmpAssign:
    return Op::AndAssign;
  case P::CaretAssign:
    return Op::XorAssign;
  case P::PipeAssign:
    return Op::OrAssign;
  default:
    return Op::Assign;
  }
}

// expression assignmentOperator expression
antlrcpp::Any ASTBuilder::visitAssignExpr(P::AssignExprContext *C) {
  auto Ops = C->expression();
  if (Ops.size() != 2 || !C->op)
    return wrap(nullptr);
  Expr *L = buildExpr(Ops[0]);
  Expr *R = buildExpr(Ops[1]);
  if (!L || !R)
    return wrap(nullptr);
  return wrap(Ctx.create<AssignExpr>(range(C), assignOpcode(C->op->getType()),
                                     loc(C->op), L, R));
}

//===----------------------------------------------------------------------===//
// primaryExpression
//===----------------------------------------------------------------------===//

// Identifier '(' argumentList? ')'
antlrcpp::Any ASTBuilder::visitCallExpr(P::CallExprContext *C) {
  if (!C->Identifier() || !C->RParen())
    return wrap(nullptr);
  bool OK;
  auto Args = buildArgs(C->argumentList(), OK);
  if (!OK)
    return wrap(nullptr);
  return wrap(Ctx.create<CallExpr>(range(C), copy(text(C->Identifier())),
                                   loc(C->Identifier()),
                                   copy(llvm::ArrayRef<Expr *>(Args))));
}

// Identifier: names starting with "__" are reserved for built-ins.
antlrcpp::Any ASTBuilder::visitIdentifierExpr(P::IdentifierExprContext *C) {
  llvm::StringRef Name = text(C->Identifier());
  if (Name.empty())
    return wrap(nullptr);
  if (Name.starts_with("__"))
    return wrap(Ctx.create<BuiltinVarExpr>(range(C), copy(Name)));
  return wrap(Ctx.create<DeclRefExpr>(range(C), copy(Name)));
}

antlrcpp::Any ASTBuilder::visitNumberExpr(P::NumberExprContext *C) {
  IntegerValue V;
  // An invalid constant was diagnosed; a zero keeps the tree whole.
  if (!decodeInteger(text(C->Number()), loc(C->Number()), Diags, V))
    V = IntegerValue();
  return wrap(Ctx.create<IntegerLiteral>(range(C), V.Value, V.Radix, V.Unsigned,
                                         V.Size));
}

antlrcpp::Any ASTBuilder::visitCharExpr(P::CharExprContext *C) {
  int64_t V = 0;
  CharLiteralKind K;
  decodeCharLiteral(text(C->CharLiteral()), loc(C->CharLiteral()), Diags, V, K);
  return wrap(Ctx.create<CharLiteral>(range(C), V, K));
}

// StringLiteral+: adjacent literals are concatenated.
antlrcpp::Any ASTBuilder::visitStringExpr(P::StringExprContext *C) {
  std::string Bytes;
  for (antlr4::tree::TerminalNode *N : C->PrefixedStringLiteral()) {
    Diags.report(loc(N), diag::err_prefixed_string)
        << text(N).take_until([](char Ch) { return Ch == '"'; });
    return wrap(nullptr);
  }
  for (antlr4::tree::TerminalNode *N : C->StringLiteral())
    decodeStringLiteral(text(N), loc(N), Diags, Bytes);
  return wrap(Ctx.create<StringLiteral>(range(C), copy(Bytes)));
}

// Param: '$' followed by a parameter number from 1.
antlrcpp::Any ASTBuilder::visitParamExpr(P::ParamExprContext *C) {
  llvm::StringRef S = text(C->Param());
  llvm::StringRef Digits = S.drop_front();
  unsigned N = 0;
  if (Digits.empty() || !llvm::all_of(Digits, llvm::isDigit) ||
      Digits.getAsInteger(10, N) || N == 0) {
    Diags.report(range(C), diag::err_invalid_param) << S;
    return wrap(nullptr);
  }
  return wrap(Ctx.create<ParamExpr>(range(C), N));
}

// AggName ('[' argumentList? ']')?
antlrcpp::Any ASTBuilder::visitAggregationExpr(P::AggregationExprContext *C) {
  bool OK;
  auto Keys = buildArgs(C->argumentList(), OK);
  if (!OK)
    return wrap(nullptr);
  llvm::StringRef Name = text(C->AggName()).drop_front(); // '@'
  return wrap(Ctx.create<AggregationExpr>(range(C), copy(Name),
                                          copy(llvm::ArrayRef<Expr *>(Keys)),
                                          C->LBracket() != nullptr));
}

// 'offsetof' '(' typeName ',' offsetofDesignator ')'
// offsetofDesignator : memberName ('.' memberName | '[' expression ']')*
antlrcpp::Any ASTBuilder::visitOffsetofExpr(P::OffsetofExprContext *C) {
  TypeSpec *T = buildTypeName(C->typeName());
  P::OffsetofDesignatorContext *D = C->offsetofDesignator();
  if (!T || !D || D->exception)
    return wrap(nullptr);
  llvm::SmallVector<OffsetofComponent, 4> Path;
  // Walk the designator's children in order: identifiers and subscripts.
  for (antlr4::tree::ParseTree *Child : D->children) {
    if (auto *M = dynamic_cast<P::MemberNameContext *>(Child)) {
      antlr4::Token *T = M->getStart();
      if (!T || M->exception)
        return wrap(nullptr);
      OffsetofComponent F{OffsetofComponent::Kind::Field, copy(Map.spelling(T)),
                          nullptr, SourceRange(loc(T))};
      Path.push_back(F);
      continue;
    }
    if (auto *E = dynamic_cast<P::ExpressionContext *>(Child)) {
      Expr *Idx = buildExpr(E);
      if (!Idx)
        return wrap(nullptr);
      OffsetofComponent I{OffsetofComponent::Kind::Index, {}, Idx, range(E)};
      Path.push_back(I);
    }
  }
  if (Path.empty())
    return wrap(nullptr);
  return wrap(Ctx.create<OffsetofExpr>(
      range(C), T, copy(llvm::ArrayRef<OffsetofComponent>(Path))));
}

// Generic '(' expression (',' genericAssociation)+ ')'
// genericAssociation : (typeName | Default) ':' expression
antlrcpp::Any ASTBuilder::visitGenericExpr(P::GenericExprContext *C) {
  Expr *Ctrl = buildExpr(C->expression());
  if (!Ctrl || !C->RParen())
    return wrap(nullptr);
  llvm::SmallVector<GenericAssociation, 4> Assocs;
  for (P::GenericAssociationContext *A : C->genericAssociation()) {
    if (!A || A->exception)
      return wrap(nullptr);
    GenericAssociation G;
    if (A->typeName() && !(G.Type = buildTypeName(A->typeName())))
      return wrap(nullptr);
    if (!(G.Value = buildExpr(A->expression())))
      return wrap(nullptr);
    Assocs.push_back(G);
  }
  return wrap(Ctx.create<GenericSelectionExpr>(
      range(C), Ctrl, copy(llvm::ArrayRef<GenericAssociation>(Assocs))));
}

// '(' typeName ')' '{' (initializerList ','?)? '}'
antlrcpp::Any
ASTBuilder::visitCompoundLiteralExpr(P::CompoundLiteralExprContext *C) {
  TypeSpec *T = buildTypeName(C->typeName());
  if (!T || !C->RBrace())
    return wrap(nullptr);
  InitListExpr *Init = buildInitList(C, C->initializerList());
  if (!Init)
    return wrap(nullptr);
  return wrap(Ctx.create<CompoundLiteralExpr>(range(C), T, Init));
}

// initializerList : designatedInitializer (',' designatedInitializer)*
// designatedInitializer : (designator+ '=')? initializer
// designator : '[' expression ']' | '.' memberName
// initializer : expression | '{' (initializerList ','?)? '}'
InitListExpr *ASTBuilder::buildInitList(antlr4::ParserRuleContext *Braced,
                                        P::InitializerListContext *C) {
  llvm::SmallVector<InitItem, 4> Items;
  for (P::DesignatedInitializerContext *D :
       C ? C->designatedInitializer()
         : std::vector<P::DesignatedInitializerContext *>()) {
    if (!D || D->exception || !D->initializer())
      return nullptr;
    llvm::SmallVector<Designator, 2> Path;
    for (P::DesignatorContext *X : D->designator()) {
      Designator Des;
      Des.Range = range(X);
      if (X->memberName()) {
        Des.K = Designator::Kind::Field;
        Des.FieldName = copy(Map.spelling(X->memberName()->getStart()));
      } else if (!(Des.Index = buildExpr(X->expression()))) {
        return nullptr;
      } else {
        Des.K = Designator::Kind::Index;
      }
      Path.push_back(Des);
    }
    P::InitializerContext *I = D->initializer();
    InitItem Item;
    Item.Designators = copy(llvm::ArrayRef<Designator>(Path));
    Item.Value = I->expression() ? buildExpr(I->expression())
                                 : buildInitList(I, I->initializerList());
    if (!Item.Value)
      return nullptr;
    Items.push_back(Item);
  }
  SourceRange R = range(Braced);
  if (auto *CL = dynamic_cast<P::CompoundLiteralExprContext *>(Braced))
    R = SourceRange(loc(CL->LBrace()), loc(CL->RBrace()));
  return Ctx.create<InitListExpr>(R, copy(llvm::ArrayRef<InitItem>(Items)));
}

// '(' expression ')'
antlrcpp::Any ASTBuilder::visitParenExpr(P::ParenExprContext *C) {
  Expr *Sub = buildExpr(C->expression());
  if (!Sub || !C->RParen())
    return wrap(nullptr);
  return wrap(Ctx.create<ParenExpr>(range(C), Sub));
}
