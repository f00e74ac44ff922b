//===- SemaPrintf.cpp - printf format checking ----------------------------===//

#include "tscc/Sema/SemaPrintf.h"

#include "tscc/PrintfLength.h"

#include "llvm/ADT/StringExtras.h"

namespace tscc {
namespace {

using Length = PrintfLength;

std::string expectedName(Length L, bool Signed) {
  switch (L) {
  case Length::None:
    return Signed ? "int" : "unsigned int";
  case Length::HH:
    return Signed ? "char" : "unsigned char";
  case Length::H:
    return Signed ? "short" : "unsigned short";
  case Length::L:
    return Signed ? "long" : "unsigned long";
  case Length::LL:
  case Length::BigL:
    return Signed ? "long long" : "unsigned long long";
  case Length::J:
    return Signed ? "intmax_t" : "uintmax_t";
  case Length::Z:
    return Signed ? "ssize_t" : "size_t";
  case Length::T:
    return "ptrdiff_t";
  }
  return "int";
}

unsigned promotedBits(const FormatArgType &T) {
  return T.Bits < 32 ? 32 : T.Bits;
}

class FormatChecker {
public:
  FormatChecker(llvm::StringRef Fmt, llvm::ArrayRef<FormatArg> Args,
                uint8_t Models)
      : Fmt(Fmt), Args(Args), Models(Models) {}

  FormatCheckResult run();

private:
  llvm::StringRef Fmt;
  llvm::ArrayRef<FormatArg> Args;
  uint8_t Models;
  unsigned NextArg = 0;
  FormatCheckResult R;

  // The specifier being checked.
  unsigned SpecStart = 0, SpecLen = 0;

  FormatIssue &issue(FormatIssueKind K, bool Warning, int Arg = -1) {
    FormatIssue I;
    I.Kind = K;
    I.IsWarning = Warning;
    I.Offset = SpecStart;
    I.Length = SpecLen;
    I.ArgIndex = Arg;
    R.Issues.push_back(std::move(I));
    return R.Issues.back();
  }
  llvm::StringRef spec() const { return Fmt.substr(SpecStart, SpecLen); }

  /// Takes the next argument, or reports too few arguments.
  const FormatArg *takeArg() {
    if (NextArg < Args.size())
      return &Args[NextArg++];
    issue(FormatIssueKind::TooFewArgs, false).Arg0 = spec().str();
    return nullptr;
  }
  /// Any model of \p A had an error already: stay quiet about it.
  bool hasError(const FormatArg &A) const {
    for (unsigned M = 0; M < TSCC_DM_COUNT; ++M)
      if ((Models & (1u << M)) && A.Types[M].C == FormatArgType::Error)
        return true;
    return false;
  }
  const FormatArgType &anyModel(const FormatArg &A) const {
    return A.Types[(Models & FMM_LP64) ? TSCC_DM_LP64 : TSCC_DM_ILP32];
  }

  void checkStar(llvm::StringRef What);
  void checkInteger(Length L, char Conv);
  void checkString(Length L);
  void checkChar(Length L);
  void checkPointer(Length L);
  /// A non-integer argument for an integer-like conversion: errors for
  /// strings and aggregates. Returns true when it reported something.
  bool rejectNonScalar(const FormatArg &A, unsigned Idx,
                       llvm::StringRef Expected);
  void lengthNoEffect(Length L, char Conv) {
    FormatIssue &I = issue(FormatIssueKind::LengthNoEffect, true);
    I.Arg0 = printfLengthSpelling(L);
    I.Arg1 = std::string(1, Conv);
  }
};

void FormatChecker::checkStar(llvm::StringRef What) {
  unsigned Idx = NextArg;
  const FormatArg *A = takeArg();
  R.Fields.push_back({TSCC_FIELD_S64, 8});
  if (!A || hasError(*A))
    return;
  if (rejectNonScalar(*A, Idx, "int"))
    return;
  for (unsigned M = 0; M < TSCC_DM_COUNT; ++M) {
    const FormatArgType &T = A->Types[M];
    if (!(Models & (1u << M)))
      continue;
    if (T.C != FormatArgType::Integer || promotedBits(T) != 32) {
      FormatIssue &I = issue(FormatIssueKind::StarNotInt, true, Idx);
      I.Arg0 = What.str();
      I.Arg1 = T.Name;
      return;
    }
  }
}

bool FormatChecker::rejectNonScalar(const FormatArg &A, unsigned Idx,
                                    llvm::StringRef Expected) {
  const FormatArgType &T = anyModel(A);
  if (T.C == FormatArgType::String) {
    issue(FormatIssueKind::StringForInteger, false, Idx).Arg0 = Expected.str();
    return true;
  }
  if (T.C == FormatArgType::Other) {
    issue(FormatIssueKind::NotFormattable, false, Idx).Arg0 = T.Name;
    return true;
  }
  return false;
}

void FormatChecker::checkInteger(Length L, char Conv) {
  bool Signed = Conv == 'd' || Conv == 'i';
  if (L == Length::BigL)
    lengthNoEffect(L, Conv);
  unsigned Idx = NextArg;
  const FormatArg *A = takeArg();
  R.Fields.push_back({Signed ? TSCC_FIELD_S64 : TSCC_FIELD_U64, 8});
  if (!A || hasError(*A))
    return;
  std::string Expected = expectedName(L, Signed);
  if (rejectNonScalar(*A, Idx, Expected))
    return;
  uint8_t Bad = 0;
  std::string Actual;
  for (unsigned M = 0; M < TSCC_DM_COUNT; ++M) {
    if (!(Models & (1u << M)))
      continue;
    const FormatArgType &T = A->Types[M];
    // A pointer printed with %x/%lx is common and meaningful; it still has
    // to have the conversion's width.
    if (promotedBits(T) == printfArgumentBits(L, AllDataModels[M]))
      continue;
    if (T.Const && T.C == FormatArgType::Integer) {
      unsigned Bits = printfArgumentBits(L, AllDataModels[M]);
      int64_t V = *T.Const;
      bool Fits = Bits >= 64 ||
                  (Signed ? V >= -(int64_t(1) << (Bits - 1)) &&
                                V < (int64_t(1) << (Bits - 1))
                          : V >= 0 && uint64_t(V) < (uint64_t(1) << Bits));
      if (Fits)
        continue;
    }
    if (!Bad)
      Actual = T.Name;
    Bad |= 1u << M;
  }
  if (!Bad)
    return;
  FormatIssue &I = issue(FormatIssueKind::TypeMismatch, true, Idx);
  I.Models = Bad == Models ? uint8_t(FMM_Both) : Bad;
  I.Arg0 = Expected;
  I.Arg1 = Actual;
}

void FormatChecker::checkString(Length L) {
  if (L != Length::None)
    lengthNoEffect(L, 's');
  unsigned Idx = NextArg;
  const FormatArg *A = takeArg();
  if (!A) {
    R.Fields.push_back({TSCC_FIELD_STRING, 0});
    return;
  }
  const FormatArgType &T = anyModel(*A);
  R.Fields.push_back({TSCC_FIELD_STRING,
                      T.C == FormatArgType::String ? T.Capacity : uint32_t(0)});
  if (hasError(*A) || T.C == FormatArgType::String)
    return;
  FormatIssue &I = issue(FormatIssueKind::NeedString, false, Idx);
  I.Arg0 = T.Name;
  I.CharPointer = T.C == FormatArgType::Pointer && T.IsCharPointer;
}

void FormatChecker::checkChar(Length L) {
  if (L != Length::None)
    lengthNoEffect(L, 'c');
  unsigned Idx = NextArg;
  const FormatArg *A = takeArg();
  R.Fields.push_back({TSCC_FIELD_CHAR, 8});
  if (!A || hasError(*A))
    return;
  if (rejectNonScalar(*A, Idx, "int"))
    return;
  const FormatArgType &T = anyModel(*A);
  if (T.C != FormatArgType::Integer || promotedBits(T) != 32) {
    FormatIssue &I = issue(FormatIssueKind::TypeMismatch, true, Idx);
    I.Arg0 = "int";
    I.Arg1 = T.Name;
  }
}

void FormatChecker::checkPointer(Length L) {
  if (L != Length::None)
    lengthNoEffect(L, 'p');
  unsigned Idx = NextArg;
  const FormatArg *A = takeArg();
  R.Fields.push_back({TSCC_FIELD_PTR, 8});
  if (!A || hasError(*A))
    return;
  if (rejectNonScalar(*A, Idx, "void *"))
    return;
  const FormatArgType &T = anyModel(*A);
  if (T.C != FormatArgType::Pointer)
    issue(FormatIssueKind::PointerNotPointer, true, Idx).Arg0 = T.Name;
}

FormatCheckResult FormatChecker::run() {
  bool Stop = false; // after an invalid specifier arguments can't be matched
  for (size_t I = 0; I < Fmt.size() && !Stop; ++I) {
    if (Fmt[I] != '%')
      continue;
    SpecStart = I++;
    auto Finish = [&] { SpecLen = std::min(I + 1, Fmt.size()) - SpecStart; };
    if (I < Fmt.size() && Fmt[I] == '%')
      continue;
    while (I < Fmt.size() && llvm::StringRef("-+ #0'").contains(Fmt[I]))
      ++I;
    // Field width and precision, each a number or '*'.
    bool WidthStar = false, PrecStar = false;
    if (I < Fmt.size() && Fmt[I] == '*') {
      WidthStar = true;
      ++I;
    }
    while (I < Fmt.size() && llvm::isDigit(Fmt[I]))
      ++I;
    if (I < Fmt.size() && Fmt[I] == '.') {
      ++I;
      if (I < Fmt.size() && Fmt[I] == '*') {
        PrecStar = true;
        ++I;
      }
      while (I < Fmt.size() && llvm::isDigit(Fmt[I]))
        ++I;
    }
    Length L = parsePrintfLength(Fmt, I);
    Finish();
    if (I >= Fmt.size()) {
      issue(FormatIssueKind::Incomplete, false);
      break;
    }
    if (WidthStar)
      checkStar("field width");
    if (PrecStar)
      checkStar("precision");
    char Conv = Fmt[I];
    switch (Conv) {
    case 'd':
    case 'i':
    case 'u':
    case 'o':
    case 'x':
    case 'X':
      checkInteger(L, Conv);
      break;
    case 's':
      checkString(L);
      break;
    case 'c':
      checkChar(L);
      break;
    case 'p':
      checkPointer(L);
      break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      issue(FormatIssueKind::FloatConversion, false).Arg0 = spec().str();
      if (takeArg())
        R.Fields.push_back({TSCC_FIELD_S64, 8});
      break;
    case 'n':
      issue(FormatIssueKind::NConversion, false);
      if (takeArg())
        R.Fields.push_back({TSCC_FIELD_S64, 8});
      break;
    default:
      issue(FormatIssueKind::InvalidConversion, false).Arg0 =
          std::string(1, Conv);
      Stop = true;
      break;
    }
  }
  if (!Stop && NextArg < Args.size()) {
    SpecStart = 0;
    SpecLen = 0;
    issue(FormatIssueKind::TooManyArgs, true, NextArg);
  }
  return std::move(R);
}

} // namespace

FormatCheckResult checkFormat(llvm::StringRef Format,
                              llvm::ArrayRef<FormatArg> Args, uint8_t Models) {
  return FormatChecker(Format, Args, Models).run();
}

FieldInfo fieldForValue(const FormatArgType &T) {
  switch (T.C) {
  case FormatArgType::Integer:
    return {T.Signed ? TSCC_FIELD_S64 : TSCC_FIELD_U64, 8};
  case FormatArgType::Pointer:
    return {TSCC_FIELD_PTR, 8};
  case FormatArgType::String:
    return {TSCC_FIELD_STRING, T.Capacity};
  case FormatArgType::Error:
  case FormatArgType::Other:
    break;
  }
  return {TSCC_FIELD_S64, 8};
}

} // namespace tscc
