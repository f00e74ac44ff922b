//===- SyntaxErrors.cpp - ANTLR errors as tscc diagnostics ----------------===//

#include "SyntaxErrors.h"

#include "TraceScriptLexer.h"
#include "TraceScriptParser.h"

#include "llvm/Support/Format.h"

using namespace tscc;
using namespace tscc::parse;
using antlr4::ParserRuleContext;
using antlr4::Token;
using antlr4::misc::IntervalSet;
using tscc_grammar::TraceScriptLexer;
using tscc_grammar::TraceScriptParser;

//===----------------------------------------------------------------------===//
// Lexical errors
//===----------------------------------------------------------------------===//

/// How a stray character is shown: itself if printable, else "\xNN".
static std::string printableChar(llvm::StringRef Bytes) {
  if (Bytes.size() == 1) {
    unsigned char C = Bytes[0];
    if (C < 0x20 || C >= 0x7F) {
      std::string S;
      llvm::raw_string_ostream OS(S);
      OS << "\\x" << llvm::format_hex_no_prefix(C, 2);
      return S;
    }
  }
  return Bytes.str();
}

static void retype(Token *T, size_t Type) {
  if (auto *CT = dynamic_cast<antlr4::CommonToken *>(T))
    CT->setType(Type);
}

std::unique_ptr<Token> DiagnosingTokenSource::nextToken() {
  for (;;) {
    std::unique_ptr<Token> T = L.nextToken();
    switch (T->getType()) {
    case TraceScriptLexer::ErrorChar:
      Diags.report(Map.loc(T.get()), diag::err_invalid_character)
          << printableChar(Map.spelling(T.get()));
      continue;
    case TraceScriptLexer::UnterminatedBlockComment:
      Diags.report(Map.loc(T.get()), diag::err_unterminated_comment);
      continue;
    case TraceScriptLexer::UnterminatedStringLiteral:
      Diags.report(Map.loc(T.get()), diag::err_unterminated_string);
      retype(T.get(), TraceScriptLexer::StringLiteral);
      return T;
    case TraceScriptLexer::UnterminatedCharLiteral:
      Diags.report(Map.loc(T.get()), diag::err_unterminated_char);
      retype(T.get(), TraceScriptLexer::CharLiteral);
      return T;
    default:
      return T;
    }
  }
}

//===----------------------------------------------------------------------===//
// Fallback listener
//===----------------------------------------------------------------------===//

void DiagnosticErrorListener::syntaxError(antlr4::Recognizer *,
                                          Token *Offending, size_t Line,
                                          size_t Col, const std::string &Msg,
                                          std::exception_ptr) {
  SourceLocation Loc = Offending ? Map.loc(Offending) : SourceLocation();
  if (Loc.isInvalid())
    // ANTLR columns are 0-based.
    Loc = Map.getSourceManager().getLocation(Map.getFileID(), Line, Col + 1);
  Diags.report(Loc, diag::err_syntax) << Msg;
}

//===----------------------------------------------------------------------===//
// Parse errors
//===----------------------------------------------------------------------===//

static bool has(const IntervalSet &S, size_t Type) { return S.contains(Type); }

template <typename T> static T *enclosing(ParserRuleContext *Ctx) {
  for (antlr4::tree::ParseTree *C = Ctx; C; C = C->parent)
    if (auto *X = dynamic_cast<T *>(C))
      return X;
  return nullptr;
}

static bool isExpressionStartSet(const IntervalSet &S) {
  return has(S, TraceScriptParser::Identifier) &&
         has(S, TraceScriptParser::Number) && has(S, TraceScriptParser::LParen);
}

static bool isTopLevelStart(size_t Type) {
  switch (Type) {
  case TraceScriptParser::ProbeSpec:
  case TraceScriptParser::Directive:
  case TraceScriptParser::Global:
  case TraceScriptParser::Thread:
  case TraceScriptParser::Auto:
  case TraceScriptParser::Typedef:
  case TraceScriptParser::Struct:
  case TraceScriptParser::Union:
  case TraceScriptParser::Enum:
  case TraceScriptParser::StringKw:
  case Token::EOF:
    return true;
  default:
    return false;
  }
}

/// Tokens that show a statement where a declaration was expected.
static bool isAssignmentOrCall(size_t Type) {
  switch (Type) {
  case TraceScriptParser::Assign:
  case TraceScriptParser::PlusAssign:
  case TraceScriptParser::MinusAssign:
  case TraceScriptParser::StarAssign:
  case TraceScriptParser::SlashAssign:
  case TraceScriptParser::PercentAssign:
  case TraceScriptParser::ShlAssign:
  case TraceScriptParser::ShrAssign:
  case TraceScriptParser::AmpAssign:
  case TraceScriptParser::CaretAssign:
  case TraceScriptParser::PipeAssign:
  case TraceScriptParser::PlusPlus:
  case TraceScriptParser::MinusMinus:
  case TraceScriptParser::Arrow:
  case TraceScriptParser::Dot:
    return true;
  default:
    return false;
  }
}

std::string SyntaxErrorStrategy::describe(Token *T) const {
  if (!T || T->getType() == Token::EOF)
    return "end of file";
  return "'" + Map.spelling(T).str() + "'";
}

Token *SyntaxErrorStrategy::previousToken(antlr4::Parser *P, Token *T) const {
  size_t I = T->getTokenIndex();
  if (I == 0 || I == INVALID_INDEX)
    return nullptr;
  return P->getTokenStream()->get(I - 1);
}

bool SyntaxErrorStrategy::alreadyReported(Token *T) {
  size_t I = T ? T->getTokenIndex() : INVALID_INDEX;
  if (I == LastReportedIndex)
    return true;
  LastReportedIndex = I;
  return false;
}

void SyntaxErrorStrategy::reportMissingSemi(antlr4::Parser *P, Token *Offending,
                                            ParserRuleContext *Ctx) {
  diag::ID ID = diag::err_expected_semi_decl;
  if (enclosing<TraceScriptParser::ReturnStmtContext>(Ctx))
    ID = diag::err_expected_semi_after_return;
  else if (enclosing<TraceScriptParser::ExprStmtContext>(Ctx))
    ID = diag::err_expected_semi_after_expr;
  else if (enclosing<TraceScriptParser::VarDeclarationContext>(Ctx) &&
           !enclosing<TraceScriptParser::StatementContext>(Ctx))
    ID = diag::err_expected_semi_top_level;
  Token *Prev = previousToken(P, Offending);
  SourceLocation Loc = Prev ? Map.locAfter(Prev) : Map.loc(Offending);
  Diags.report(Loc, ID) << FixItHint::createInsertion(Loc, ";");
}

void SyntaxErrorStrategy::reportMissingCloser(antlr4::Parser *P, size_t Closer,
                                              Token *Offending,
                                              ParserRuleContext *Ctx) {
  size_t Opener =
      Closer == TraceScriptParser::RParen     ? TraceScriptParser::LParen
      : Closer == TraceScriptParser::RBracket ? TraceScriptParser::LBracket
                                              : TraceScriptParser::LBrace;
  const char *Spelling = Closer == TraceScriptParser::RParen     ? "')'"
                         : Closer == TraceScriptParser::RBracket ? "']'"
                                                                 : "'}'";
  diag::ID ID = Closer == TraceScriptParser::RParen ? diag::err_expected_rparen
                : Closer == TraceScriptParser::RBracket
                    ? diag::err_expected_rbracket
                    : diag::err_expected_rbrace;
  Diags.report(Map.loc(Offending), ID);
  // Find the unmatched opener, like Clang's "to match this '('".
  antlr4::TokenStream *TS = P->getTokenStream();
  size_t I = Offending->getTokenIndex();
  if (I == INVALID_INDEX)
    return;
  unsigned Depth = 0;
  while (I-- > 0) {
    Token *T = TS->get(I);
    if (T->getType() == Closer)
      ++Depth;
    else if (T->getType() == Opener && Depth-- == 0) {
      std::string What(Spelling);
      What[1] = static_cast<char>(Map.spelling(T).front());
      Diags.report(Map.loc(T), diag::note_to_match_this) << What;
      return;
    }
  }
}

bool SyntaxErrorStrategy::reportSpecialToken(antlr4::Parser *P,
                                             Token *Offending,
                                             ParserRuleContext *Ctx) {
  bool InBlock = enclosing<TraceScriptParser::CompoundStatementContext>(Ctx);
  bool InClause = enclosing<TraceScriptParser::ClauseContext>(Ctx);
  switch (Offending->getType()) {
  case TraceScriptParser::Directive:
    if (!InClause)
      return false;
    Diags.report(Map.loc(Offending), diag::err_directive_in_action);
    return true;
  case TraceScriptParser::RBrace:
    if (InClause || enclosing<TraceScriptParser::CBodyContext>(Ctx))
      return false;
    Diags.report(Map.loc(Offending), diag::err_extraneous_closing_brace);
    return true;
  case TraceScriptParser::ProbeSpec:
  case Token::EOF:
    // A new clause (or the end) inside an action: the '}' is missing.
    if (!InBlock)
      return false;
    reportMissingCloser(P, TraceScriptParser::RBrace, Offending, Ctx);
    return true;
  default:
    return false;
  }
}

void SyntaxErrorStrategy::reportExpected(antlr4::Parser *P,
                                         const IntervalSet &Expected,
                                         Token *Offending,
                                         ParserRuleContext *Ctx) {
  if (alreadyReported(Offending) || reportSpecialToken(P, Offending, Ctx))
    return;
  // Nothing of the statement parsed yet: what is there cannot start one.
  auto *Stmt = dynamic_cast<TraceScriptParser::StatementContext *>(Ctx);
  if (Stmt && Stmt->getStart() == Offending) {
    Diags.report(Map.loc(Offending), diag::err_expected_expression);
    return;
  }
  // After '{', '}' or ';' nothing is waiting for a ';': the offending
  // token cannot start a statement (a stray 'else', say).
  Token *Before = previousToken(P, Offending);
  size_t BeforeType = Before ? Before->getType() : Token::EOF;
  if (enclosing<TraceScriptParser::CompoundStatementContext>(Ctx) &&
      (BeforeType == TraceScriptParser::LBrace ||
       BeforeType == TraceScriptParser::RBrace ||
       BeforeType == TraceScriptParser::Semi)) {
    Diags.report(Map.loc(Offending), diag::err_expected_expression);
    return;
  }
  if (has(Expected, TraceScriptParser::Semi)) {
    reportMissingSemi(P, Offending, Ctx);
    return;
  }
  if (Expected.size() == 1 && has(Expected, TraceScriptParser::ProbeSpec)) {
    Diags.report(Map.loc(Offending), diag::err_expected_probe_spec);
    return;
  }
  if (has(Expected, TraceScriptParser::LBrace) &&
      enclosing<TraceScriptParser::ClauseContext>(Ctx)) {
    Diags.report(Map.loc(Offending), diag::err_expected_lbrace_action);
    return;
  }
  bool ExprStart = isExpressionStartSet(Expected);
  if (!ExprStart) {
    for (size_t Closer :
         {TraceScriptParser::RParen, TraceScriptParser::RBracket,
          TraceScriptParser::RBrace})
      if (has(Expected, Closer)) {
        reportMissingCloser(P, Closer, Offending, Ctx);
        return;
      }
  }
  if (ExprStart) {
    Diags.report(Map.loc(Offending), diag::err_expected_expression);
    return;
  }
  if (has(Expected, TraceScriptParser::Identifier)) {
    Token *Prev = previousToken(P, Offending);
    if (Prev && (Prev->getType() == TraceScriptParser::Dot ||
                 Prev->getType() == TraceScriptParser::Arrow))
      Diags.report(Map.loc(Offending), diag::err_expected_member_name)
          << Map.spelling(Prev);
    else
      Diags.report(Map.loc(Offending), diag::err_expected_identifier);
    return;
  }
  if (Expected.size() == 1) {
    size_t Type = Expected.getMinElement();
    Token *Prev = previousToken(P, Offending);
    if (Type == TraceScriptParser::LParen && Prev) {
      Diags.report(Map.loc(Offending), diag::err_expected_lparen_after)
          << Map.spelling(Prev);
      return;
    }
    Diags.report(Map.loc(Offending), diag::err_expected)
        << P->getVocabulary().getDisplayName(Type);
    return;
  }
  Diags.report(Map.loc(Offending), diag::err_unexpected_token)
      << describe(Offending);
}

void SyntaxErrorStrategy::reportNoViableAlternative(
    antlr4::Parser *P, const antlr4::NoViableAltException &E) {
  Token *Offending = E.getOffendingToken();
  auto *Ctx = dynamic_cast<ParserRuleContext *>(E.getCtx());
  if (!Ctx)
    Ctx = P->getContext();
  bool TopLevel = dynamic_cast<TraceScriptParser::TopLevelItemContext *>(Ctx) ||
                  dynamic_cast<TraceScriptParser::ScriptContext *>(Ctx);
  if (!TopLevel) {
    reportExpected(P, E.getExpectedTokens(), Offending, Ctx);
    return;
  }
  if (alreadyReported(Offending) || reportSpecialToken(P, Offending, Ctx))
    return;
  // A declaration that ran into the next item lacks its ';'.
  Token *Prev = previousToken(P, Offending);
  Token *Start = E.getStartToken();
  if (Prev && Start != Offending && isTopLevelStart(Offending->getType()) &&
      (Prev->getType() == TraceScriptParser::Identifier ||
       Prev->getType() == TraceScriptParser::RBracket ||
       Prev->getType() == TraceScriptParser::RParen ||
       Prev->getType() == TraceScriptParser::RBrace)) {
    SourceLocation Loc = Map.locAfter(Prev);
    Diags.report(Loc, diag::err_expected_semi_top_level)
        << FixItHint::createInsertion(Loc, ";");
    return;
  }
  if (isAssignmentOrCall(Offending->getType()) && Start != Offending)
    Diags.report(Map.loc(Start), diag::err_statement_at_top_level);
  else if (Start == Offending)
    Diags.report(Map.loc(Offending), diag::err_expected_top_level);
  else
    Diags.report(Map.loc(Offending), diag::err_unexpected_token)
        << describe(Offending);
}

void SyntaxErrorStrategy::reportInputMismatch(
    antlr4::Parser *P, const antlr4::InputMismatchException &E) {
  auto *Ctx = dynamic_cast<ParserRuleContext *>(E.getCtx());
  reportExpected(P, E.getExpectedTokens(), E.getOffendingToken(),
                 Ctx ? Ctx : P->getContext());
}

void SyntaxErrorStrategy::reportFailedPredicate(
    antlr4::Parser *P, const antlr4::FailedPredicateException &E) {
  Token *T = E.getOffendingToken();
  if (alreadyReported(T))
    return;
  Diags.report(Map.loc(T), diag::err_unexpected_token) << describe(T);
}

void SyntaxErrorStrategy::reportUnwantedToken(antlr4::Parser *P) {
  if (inErrorRecoveryMode(P))
    return;
  beginErrorCondition(P);
  reportExpected(P, getExpectedTokens(P), P->getCurrentToken(),
                 P->getContext());
}

void SyntaxErrorStrategy::reportMissingToken(antlr4::Parser *P) {
  if (inErrorRecoveryMode(P))
    return;
  beginErrorCondition(P);
  reportExpected(P, getExpectedTokens(P), P->getCurrentToken(),
                 P->getContext());
}
