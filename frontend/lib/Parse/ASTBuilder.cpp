//===- ASTBuilder.cpp - Script, C declarations, clauses, probes -----------===//

#include "ASTBuilder.h"

#include "llvm/Support/raw_ostream.h"

using namespace tscc;
using namespace tscc::parse;

std::vector<CToken> ASTBuilder::cTokens(antlr4::ParserRuleContext *C) const {
  std::vector<CToken> Out;
  if (!C || !C->getStart() || !C->getStop())
    return Out;
  size_t B = C->getStart()->getTokenIndex(), E = C->getStop()->getTokenIndex();
  if (B == INVALID_INDEX || E == INVALID_INDEX)
    return Out;
  for (size_t I = B; I <= E && I < Tokens.size(); ++I) {
    antlr4::Token *T = Tokens.get(I);
    CToken::Kind K;
    switch (T->getType()) {
    case P::Identifier:
    case P::TypeName:
      K = CToken::Identifier;
      break;
    case P::LParen:
      K = CToken::LParen;
      break;
    case P::RParen:
      K = CToken::RParen;
      break;
    case P::LBracket:
      K = CToken::LBracket;
      break;
    case P::RBracket:
      K = CToken::RBracket;
      break;
    case P::LBrace:
      K = CToken::LBrace;
      break;
    case P::RBrace:
      K = CToken::RBrace;
      break;
    case P::Comma:
      K = CToken::Comma;
      break;
    case antlr4::Token::EOF:
      continue;
    default:
      K = CToken::Other;
      break;
    }
    Out.push_back({K, Map.spelling(T), static_cast<unsigned>(I)});
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// script : topLevelItem* EOF
//===----------------------------------------------------------------------===//

Script *ASTBuilder::buildScript(P::ScriptContext *C, FileID File) {
  for (P::TopLevelItemContext *Item : C->topLevelItem()) {
    if (auto *D = dynamic_cast<P::DirectiveItemContext *>(Item))
      addDirective(D->Directive() ? D->Directive()->getSymbol() : nullptr);
    else if (auto *T = dynamic_cast<P::TypedefItemContext *>(Item))
      addCDecl(CDeclChunk::Kind::Typedef, T->typedefDeclaration());
    else if (auto *G = dynamic_cast<P::TagItemContext *>(Item))
      addCDecl(CDeclChunk::Kind::Tag, G->tagDefinition());
    else if (auto *Pr = dynamic_cast<P::PrototypeItemContext *>(Item))
      addCDecl(CDeclChunk::Kind::Prototype, Pr->prototype());
    else if (auto *V = dynamic_cast<P::VarItemContext *>(Item)) {
      for (VarDecl *D : buildVarDecls(V->varDeclaration(), /*TopLevel=*/true))
        Vars.push_back(D);
    } else if (auto *Cl = dynamic_cast<P::ClauseItemContext *>(Item)) {
      if (Clause *X = buildClause(Cl->clause()))
        Clauses.push_back(X);
    }
  }

  SourceManager const &SM = Map.getSourceManager();
  llvm::StringRef Buf = SM.getBufferData(File);
  SourceRange R(SM.getLocForStartOfFile(File),
                SM.getLocForOffset(File, Buf.size()));
  Script *S = Ctx.create<Script>(R, File);
  S->setCDecls(copy(llvm::ArrayRef<CDeclChunk>(CDecls)));
  S->setCPrelude(copy(buildPrelude(File)));
  S->setVars(copy(llvm::ArrayRef<VarDecl *>(Vars)));
  S->setClauses(copy(llvm::ArrayRef<Clause *>(Clauses)));
  S->setPrototypeNames(copy(llvm::ArrayRef<PrototypeName>(Protos)));
  return S;
}

//===----------------------------------------------------------------------===//
// C declarations
//===----------------------------------------------------------------------===//

void ASTBuilder::addDirective(antlr4::Token *T) {
  if (!T)
    return;
  CDeclChunk Chunk;
  Chunk.K = CDeclChunk::Kind::Directive;
  Chunk.Range = Map.range(T, T);
  Chunk.Text = copy(Map.spelling(T));
  Chunk.Name = copy(findDirectiveName(Chunk.Text));
  CDecls.push_back(Chunk);
}

void ASTBuilder::addCDecl(CDeclChunk::Kind K, antlr4::ParserRuleContext *C) {
  if (!C || C->exception || !C->getStop())
    return;
  std::vector<CToken> Toks = cTokens(C);
  if (Toks.empty())
    return;
  CDeclChunk Chunk;
  Chunk.K = K;
  Chunk.Range = range(C);
  Chunk.Text = copy(Map.text(C->getStart(), C->getStop()));
  llvm::ArrayRef<CToken> Decl(Toks);
  if (!Decl.empty() && Decl.back().Text == ";")
    Decl = Decl.drop_back();
  switch (K) {
  case CDeclChunk::Kind::Typedef: {
    auto Names = findDeclaredNames(Decl.drop_front()); // 'typedef'
    if (!Names.empty())
      Chunk.Name = copy(Decl[Names.front() + 1].Text);
    break;
  }
  case CDeclChunk::Kind::Tag:
    Chunk.Name = copy(findTagName(Decl));
    break;
  case CDeclChunk::Kind::Prototype:
    for (size_t I : findDeclaredNames(Decl)) {
      PrototypeName PN;
      PN.Name = copy(Decl[I].Text);
      PN.Loc = loc(Tokens.get(Decl[I].Index));
      Protos.push_back(PN);
      if (Chunk.Name.empty())
        Chunk.Name = PN.Name;
    }
    break;
  case CDeclChunk::Kind::Directive:
    break;
  }
  CDecls.push_back(Chunk);
}

/// `#line` wants a C string literal.
static void writeQuoted(llvm::raw_ostream &OS, llvm::StringRef S) {
  OS << '"';
  for (char C : S) {
    if (C == '"' || C == '\\')
      OS << '\\';
    OS << C;
  }
  OS << '"';
}

std::string ASTBuilder::buildPrelude(FileID File) const {
  const SourceManager &SM = Map.getSourceManager();
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  for (const CDeclChunk &C : CDecls) {
    PresumedLoc P = SM.getPresumedLoc(C.Range.getBegin());
    if (!P.isValid())
      continue;
    OS << "#line " << P.Line << ' ';
    writeQuoted(OS, P.Filename);
    OS << '\n';
    // Same column as in the script, so Clang's columns are the script's. A
    // directive must start its line, which it does after spaces too.
    OS.indent(P.Column - 1);
    OS << C.Text << '\n';
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// clause : ProbeSpec (',' ProbeSpec)* ('when' '(' expression ')')?
//          compoundStatement
//===----------------------------------------------------------------------===//

Clause *ASTBuilder::buildClause(P::ClauseContext *C) {
  if (!C)
    return nullptr;
  llvm::SmallVector<ProbeSpec *, 2> Probes;
  for (antlr4::tree::TerminalNode *N : C->ProbeSpec())
    if (ProbeSpec *PS = buildProbeSpec(N->getSymbol()))
      Probes.push_back(PS);
  Expr *Pred = nullptr;
  SourceLocation WhenLoc;
  if (C->When()) {
    WhenLoc = loc(C->When());
    Pred = buildExpr(C->expression());
  }
  CompoundStmt *Body = buildCompound(C->compoundStatement());
  if (Probes.empty() || !Body)
    return nullptr;
  return Ctx.create<Clause>(range(C), Clauses.size(),
                            copy(llvm::ArrayRef(Probes)), Pred, WhenLoc, Body);
}

ProbeSpec *ASTBuilder::buildProbeSpec(antlr4::Token *T) {
  if (!T || T->getStartIndex() == INVALID_INDEX)
    return nullptr;
  llvm::StringRef Text = Map.spelling(T);
  SourceLocation Begin = loc(T);
  if (Text.size() <= 2) {
    Diags.report(Begin, diag::err_empty_probe_spec);
    return nullptr;
  }
  llvm::SmallVector<ProbeField, 6> Fields;
  size_t I = 2; // "@@"
  bool OK = true;
  for (;;) {
    ProbeField F;
    size_t Start = I;
    // A field written /.../ followed by ':' or the end is a regex and may
    // contain ':' (the lexer applies the same rule).
    if (I < Text.size() && Text[I] == '/') {
      size_t J = I + 1;
      while (J < Text.size() && Text[J] != '/')
        J += Text[J] == '\\' ? 2 : 1;
      if (J < Text.size() && (J + 1 == Text.size() || Text[J + 1] == ':')) {
        F.IsRegex = true;
        I = J + 1;
      }
    }
    if (!F.IsRegex)
      while (I < Text.size() && Text[I] != ':')
        ++I;
    F.Text = copy(Text.slice(Start, I));
    F.Range = SourceRange(Begin.getLocWithOffset(Start),
                          Begin.getLocWithOffset(I > Start ? I - 1 : Start));
    if (F.Text.empty()) {
      Diags.report(Begin.getLocWithOffset(Start), diag::err_probe_empty_field)
          << static_cast<unsigned>(Fields.size() + 1);
      OK = false;
    }
    Fields.push_back(F);
    if (I >= Text.size())
      break;
    ++I; // ':'
  }
  if (!OK)
    return nullptr;
  return Ctx.create<ProbeSpec>(Map.range(T, T), copy(Text),
                               copy(llvm::ArrayRef<ProbeField>(Fields)));
}
