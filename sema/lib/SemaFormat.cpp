//===- SemaFormat.cpp - printf() and trace() calls ------------------------===//
//
// Connects call sites to the model-independent format checker
// (SemaPrintf.cpp): argument types of both models go in, diagnostics placed
// on the offending conversion inside the format literal come out. The
// collector (ScriptInfoCollector.cpp) gives each valid call its FormatInfo.
//
//===----------------------------------------------------------------------===//

#include "tscc/Sema/SemaChecker.h"

#include "tscc/Basic/SourceManager.h"

#include "llvm/ADT/StringExtras.h"

namespace tscc {

FormatArgType SemaChecker::formatArgType(const Type *T) {
  if (!T)
    return FormatArgType{};
  if (const auto *A = T->getAs<ArrayType>()) {
    const Type *E = A->getElementType()->getCanonical();
    bool CharLike = E->getKind() == Type::Kind::Char ||
                    E->getKind() == Type::Kind::SChar ||
                    E->getKind() == Type::Kind::UChar;
    return FormatArgType::pointer(T->getContext().getPointerSize() * 8,
                                  T->getName(), CharLike);
  }
  if (T->isInteger())
    return FormatArgType::integer(unsigned(T->getSize() * 8), T->isSigned(),
                                  T->getName());
  if (const auto *P = T->getAs<PointerType>()) {
    const Type *E = P->getPointee()->getCanonical();
    bool CharLike = E->getKind() == Type::Kind::Char ||
                    E->getKind() == Type::Kind::SChar ||
                    E->getKind() == Type::Kind::UChar;
    return FormatArgType::pointer(unsigned(T->getSize() * 8), T->getName(),
                                  CharLike);
  }
  if (const auto *S = T->getAs<StringType>())
    return FormatArgType::string(uint32_t(S->getCapacity()));
  return FormatArgType::other(T->getName());
}

FormatArg SemaChecker::formatArgOf(Expr *E) {
  FormatArg A;
  for (DataModel X : AllDataModels) {
    FormatArgType &T = A.Types[modelIndex(X)];
    T = formatArgType(E->getType(X));
    if (T.C == FormatArgType::Integer)
      T.Const = evaluateIn(E, X);
  }
  return A;
}

/// Maps an offset in the decoded format back to the source: walks the
/// literal's spelling, decoding escapes, across adjacent literals.
SourceLocation SemaChecker::formatLoc(StringLiteral *Lit, unsigned Offset) {
  SourceLocation Begin = Lit->getBeginLoc();
  const char *P = SM.getCharacterData(Begin);
  if (!P || *P != '"')
    return Begin;
  const char *Start = P;
  ++P;
  unsigned Decoded = 0;
  // Bound the walk by the literal's own range.
  while (*P) {
    if (*P == '"') {
      // End of one piece: skip whitespace to an adjacent literal, if any.
      const char *Q = P + 1;
      while (*Q == ' ' || *Q == '\t' || *Q == '\n' || *Q == '\r')
        ++Q;
      if (*Q != '"')
        break;
      P = Q + 1;
      continue;
    }
    if (Decoded == Offset)
      return Begin.getLocWithOffset(int(P - Start));
    if (*P == '\\') {
      ++P;
      if (*P == 'x') {
        ++P;
        while (llvm::isHexDigit(*P))
          ++P;
      } else if (*P >= '0' && *P <= '7') {
        for (int I = 0; I < 3 && *P >= '0' && *P <= '7'; ++I)
          ++P;
      } else if (*P) {
        ++P;
      }
    } else {
      ++P;
    }
    ++Decoded;
  }
  return Begin;
}

const Type *SemaChecker::checkPrintf(CallExpr *E) {
  auto *Lit = llvm::dyn_cast<StringLiteral>(E->getArg(0)->ignoreParens());
  if (!Lit) {
    check(E->getArg(0));
    diag(E->getArg(0)->getSourceRange(), diag::err_format_not_literal)
        << E->getCalleeName();
    return nullptr;
  }
  check(E->getArg(0));
  llvm::SmallVector<Expr *, 8> Values(E->getArgs().drop_front());
  for (Expr *A : Values) {
    // Records and void are reported by the format checker ("cannot be
    // formatted"); arrays are sent as their address.
    const Type *T = check(A);
    if (T && !T->isRecord() && !T->isVoid())
      rvalue(A, T);
  }
  llvm::SmallVector<FormatArg, 8> Args;
  for (Expr *A : Values)
    Args.push_back(formatArgOf(A));
  uint8_t Models = HaveOtherModel ? FMM_Both : FMM_LP64;
  FormatCheckResult R = checkFormat(Lit->getBytes(), Args, Models);
  // A `$N` printed with %s is the parameter's text (every argument,
  // '*' widths included, has one field, in order).
  bool Retyped = false;
  for (size_t I = 0; I < Values.size() && I < R.Fields.size(); ++I)
    if (R.Fields[I].Kind == TSCC_FIELD_STRING && paramAsString(Values[I])) {
      Args[I] = formatArgOf(Values[I]);
      Retyped = true;
    }
  // The format is checked once, with both models' argument types.
  if (!LastPass)
    return types().getVoid();
  if (Retyped)
    R = checkFormat(Lit->getBytes(), Args, Models);
  for (const FormatIssue &I : R.Issues) {
    SourceLocation Loc = formatLoc(Lit, I.Offset);
    auto ArgRange = [&]() -> SourceRange {
      return I.ArgIndex >= 0 && unsigned(I.ArgIndex) < Values.size()
                 ? Values[I.ArgIndex]->getSourceRange()
                 : SourceRange();
    };
    switch (I.Kind) {
    case FormatIssueKind::Incomplete:
      diagNeutral(Loc, diag::err_format_incomplete);
      break;
    case FormatIssueKind::InvalidConversion:
      diagNeutral(Loc, diag::err_format_invalid_conversion) << I.Arg0;
      break;
    case FormatIssueKind::FloatConversion:
      diagNeutral(Loc, diag::err_format_float) << I.Arg0;
      break;
    case FormatIssueKind::NConversion:
      diagNeutral(Loc, diag::err_format_n);
      break;
    case FormatIssueKind::LengthNoEffect:
      diagNeutral(Loc, diag::warn_format_length_no_effect) << I.Arg0 << I.Arg1;
      break;
    case FormatIssueKind::TooFewArgs:
      diagNeutral(Loc, diag::err_format_too_few) << I.Arg0;
      break;
    case FormatIssueKind::TooManyArgs:
      diagNeutral(ArgRange().getBegin(), diag::warn_format_too_many);
      break;
    case FormatIssueKind::TypeMismatch:
      if (I.Models == FMM_Both || Models != FMM_Both)
        diagNeutral(Loc, diag::warn_format_mismatch) << I.Arg0 << I.Arg1;
      else
        diagNeutral(Loc, diag::warn_format_mismatch_model)
            << I.Arg0 << I.Arg1 << (I.Models == FMM_ILP32 ? 0 : 1);
      break;
    case FormatIssueKind::NeedString:
      diagNeutral(Loc, diag::err_format_need_string) << I.Arg0;
      if (I.CharPointer)
        note(ArgRange().getBegin(), diag::note_use_get_userstring);
      break;
    case FormatIssueKind::StringForInteger:
      diagNeutral(Loc, diag::err_format_string_for_int) << I.Arg0;
      break;
    case FormatIssueKind::NotFormattable:
      diagNeutral(ArgRange().getBegin(), diag::err_format_not_formattable)
          << I.Arg0;
      break;
    case FormatIssueKind::StarNotInt:
      diagNeutral(Loc, diag::warn_format_star) << I.Arg0 << I.Arg1;
      break;
    case FormatIssueKind::PointerNotPointer:
      diagNeutral(Loc, diag::warn_format_pointer) << I.Arg0;
      break;
    }
  }
  // The collector numbers the format and records its fields.
  return types().getVoid();
}

const Type *SemaChecker::checkTrace(CallExpr *E) {
  const Type *Hook = rvalue(E->getArg(0), check(E->getArg(0)));
  if (Hook && !Hook->isInteger())
    diag(E->getArg(0)->getSourceRange(), diag::err_call_arg_type)
        << "1"
        << "trace"
        << "an integer hook id" << Hook->getName();
  for (Expr *A : E->getArgs().drop_front()) {
    const Type *T = check(A);
    if (T && !T->isRecord() && !T->isVoid())
      T = rvalue(A, T);
    if (T && !T->isInteger() && !T->isPointer() && !T->isString())
      diag(A->getSourceRange(), diag::err_trace_arg) << T->getName();
  }
  // The collector numbers the call and records its fields.
  return types().getVoid();
}

} // namespace tscc
