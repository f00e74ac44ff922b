//===- Format.cpp - printf for a given data model ---------------------------===//
//
// Each conversion is parsed into its parts, the argument is truncated and
// sign- or zero-extended the way the target's C library would see it, and
// the host snprintf does the padding with the widest type (long long /
// unsigned long long / double), so the result matches C byte for byte.
//
//===----------------------------------------------------------------------===//

#include "tscc/Runtime/Format.h"

#include "tscc/PrintfLength.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>

using namespace tscc::rt;

namespace {

using Length = tscc::PrintfLength;

struct Spec {
  std::string Flags;
  int Width = -1;     ///< -1: none
  int Precision = -1; ///< -1: none
  Length Len = Length::None;
  char Conv = 0;
};

/// Bits of an integer argument under a length modifier and data model.
unsigned intBits(Length L, DataModel DM) {
  return tscc::printfLengthBits(L, DM);
}

int64_t signExtend(uint64_t V, unsigned Bits) {
  return signExtendBits(V, Bits);
}

uint64_t truncate(uint64_t V, unsigned Bits) { return truncateBits(V, Bits); }

// Widths and precisions are clamped: a hostile format must not make the
// consumer allocate gigabytes.
constexpr int MaxWidth = 4096;

/// The C format of S with length modifier LenMod, into Buf (large enough:
/// flags, two clamped numbers, a modifier and the conversion).
const char *cFormat(const Spec &S, const char *LenMod, char (&Buf)[48]) {
  char *P = Buf;
  *P++ = '%';
  for (char F : S.Flags)
    *P++ = F;
  if (S.Width >= 0)
    P = std::to_chars(P, Buf + sizeof(Buf), S.Width).ptr;
  if (S.Precision >= 0) {
    *P++ = '.';
    P = std::to_chars(P, Buf + sizeof(Buf), S.Precision).ptr;
  }
  while (*LenMod)
    *P++ = *LenMod++;
  *P++ = S.Conv;
  *P = 0;
  return Buf;
}

/// Appends snprintf(F, V) to Out, formatted in place at its end.
template <typename T>
void appendSnprintf(std::string &Out, const char *F, T V) {
  size_t At = Out.size();
  Out.resize(At + 128);
  int N = snprintf(Out.data() + At, 128, F, V);
  if (N < 0) {
    Out.resize(At);
    return;
  }
  if (N >= 128) {
    Out.resize(At + N + 1);
    snprintf(Out.data() + At, N + 1, F, V);
  }
  Out.resize(At + N);
}

/// Appends V in decimal (or hex) the way %lld / %llu / %llx / %llX print it.
template <typename T>
void appendInt(std::string &Out, T V, int Base, bool Upper) {
  char Buf[24];
  char *End = std::to_chars(Buf, Buf + sizeof(Buf), V, Base).ptr;
  if (Upper)
    for (char *C = Buf; C != End; ++C)
      if (*C >= 'a' && *C <= 'f')
        *C = static_cast<char>(*C - 'a' + 'A');
  Out.append(Buf, End);
}

class Formatter {
public:
  Formatter(std::string &Out, std::string_view Fmt,
            std::span<const FormatArg> Args, DataModel DM)
      : Fmt(Fmt), Args(Args), DM(DM), Out(Out) {}
  void run();
  /// Lists the arguments Fmt consumes instead of formatting them.
  std::vector<ArgConversion> scan() {
    std::vector<ArgConversion> Conversions;
    Scan = &Conversions;
    run();
    Scan = nullptr;
    return Conversions;
  }

private:
  bool parseSpec(size_t &I, Spec &S);
  int starArg();
  const FormatArg *next() {
    return NextArg < Args.size() ? &Args[NextArg++] : nullptr;
  }
  void convert(const Spec &S, std::string_view Text);

  std::string_view Fmt;
  std::span<const FormatArg> Args;
  DataModel DM;
  size_t NextArg = 0;
  std::string &Out;
  std::vector<ArgConversion> *Scan = nullptr;
};

int Formatter::starArg() {
  if (Scan)
    Scan->push_back({'*', {32, 32}});
  const FormatArg *A = next();
  if (!A)
    return 0;
  int64_t V = signExtend(A->Bits, 32);
  return static_cast<int>(
      std::max<int64_t>(-MaxWidth, std::min<int64_t>(V, MaxWidth)));
}

/// printf's flag characters (a switch: strchr per character of every
/// record's format is a cost the live reader notices).
bool isFlag(char C) {
  switch (C) {
  case '-':
  case '+':
  case ' ':
  case '#':
  case '0':
  case '\'':
    return true;
  default:
    return false;
  }
}

/// The conversions formatted (the others, %n among them, print as is).
bool isConversion(char C) {
  switch (C) {
  case 'd':
  case 'i':
  case 'u':
  case 'o':
  case 'x':
  case 'X':
  case 'c':
  case 's':
  case 'p':
  case 'f':
  case 'F':
  case 'e':
  case 'E':
  case 'g':
  case 'G':
  case 'a':
  case 'A':
  case '%':
    return true;
  default:
    return false;
  }
}

bool Formatter::parseSpec(size_t &I, Spec &S) {
  // I is just past the '%'.
  while (I < Fmt.size() && isFlag(Fmt[I])) {
    if (Fmt[I] != '\'' && S.Flags.find(Fmt[I]) == std::string::npos)
      S.Flags += Fmt[I];
    ++I;
  }
  auto Number = [&](int &Into) {
    long V = 0;
    while (I < Fmt.size() && Fmt[I] >= '0' && Fmt[I] <= '9')
      V = std::min<long>(V * 10 + (Fmt[I++] - '0'), MaxWidth);
    Into = static_cast<int>(V);
  };
  if (I < Fmt.size() && Fmt[I] == '*') {
    ++I;
    S.Width = starArg();
    if (S.Width < 0) { // negative width: '-' flag and its magnitude
      if (S.Flags.find('-') == std::string::npos)
        S.Flags += '-';
      S.Width = -S.Width;
    }
  } else if (I < Fmt.size() && Fmt[I] >= '1' && Fmt[I] <= '9') {
    Number(S.Width);
  }
  if (I < Fmt.size() && Fmt[I] == '.') {
    ++I;
    if (I < Fmt.size() && Fmt[I] == '*') {
      ++I;
      S.Precision = starArg();
      if (S.Precision < 0)
        S.Precision = -1; // negative precision: as if omitted
    } else {
      S.Precision = 0;
      Number(S.Precision);
    }
  }
  S.Len = tscc::parsePrintfLength(Fmt, I);
  if (I >= Fmt.size())
    return false;
  S.Conv = Fmt[I++];
  return isConversion(S.Conv);
}

void Formatter::convert(const Spec &S, std::string_view Text) {
  if (S.Conv == '%') {
    Out += '%';
    return;
  }
  const FormatArg *A = next();
  if (!A) {
    Out += "(missing)";
    return;
  }
  // The common conversions without flags, width or precision skip
  // snprintf (the output is the same).
  bool Plain = S.Flags.empty() && S.Width < 0 && S.Precision < 0;
  char F[48];
  switch (S.Conv) {
  case 'd':
  case 'i': {
    int64_t V = signExtend(A->Bits, intBits(S.Len, DM));
    if (Plain)
      return appendInt(Out, V, 10, false);
    appendSnprintf(Out, cFormat(S, "ll", F), static_cast<long long>(V));
    return;
  }
  case 'u':
  case 'o':
  case 'x':
  case 'X': {
    uint64_t V = truncate(A->Bits, intBits(S.Len, DM));
    if (Plain)
      return appendInt(Out, V,
                       S.Conv == 'u'   ? 10
                       : S.Conv == 'o' ? 8
                                       : 16,
                       S.Conv == 'X');
    appendSnprintf(Out, cFormat(S, "ll", F),
                   static_cast<unsigned long long>(V));
    return;
  }
  case 'c': {
    Spec C = S;
    C.Precision = -1;
    appendSnprintf(Out, cFormat(C, "", F), static_cast<int>(A->Bits & 0xff));
    return;
  }
  case 's': {
    if (A->Kind != TSCC_FIELD_STRING) {
      Out += "(not a string)";
      return;
    }
    // Strings may hold NULs from fixed-size buffers; C stops at the first.
    if (Plain) {
      Out += A->Str.c_str();
      return;
    }
    appendSnprintf(Out, cFormat(S, "", F), A->Str.c_str());
    return;
  }
  case 'p': {
    uint64_t V = truncate(A->Bits, dataModelBits(DM));
    Spec P = S;
    P.Flags.erase(std::remove_if(P.Flags.begin(), P.Flags.end(),
                                 [](char C) { return C != '-'; }),
                  P.Flags.end());
    P.Precision = -1;
    appendSnprintf(Out, cFormat(P, "", F),
                   reinterpret_cast<void *>(static_cast<uintptr_t>(V)));
    return;
  }
  default: { // floating point
    double D;
    if (A->Kind == TSCC_FIELD_DOUBLE)
      memcpy(&D, &A->Bits, sizeof(D));
    else
      D = static_cast<double>(static_cast<int64_t>(A->Bits));
    appendSnprintf(Out, cFormat(S, "", F), D);
    return;
  }
  }
}

void Formatter::run() {
  for (size_t I = 0; I < Fmt.size();) {
    size_t Pct = Fmt.find('%', I);
    if (Pct == std::string_view::npos) {
      Out.append(Fmt.substr(I));
      break;
    }
    Out.append(Fmt.substr(I, Pct - I));
    size_t J = Pct + 1;
    Spec S;
    if (!parseSpec(J, S)) {
      // Unknown or unsupported conversion (including %n): print it as is.
      Out.append(Fmt.substr(Pct, J - Pct));
      I = J;
      continue;
    }
    if (Scan && S.Conv != '%')
      Scan->push_back({S.Conv,
                       {intBits(S.Len, DataModel::ILP32),
                        intBits(S.Len, DataModel::LP64)}});
    else if (!Scan)
      convert(S, Fmt.substr(Pct, J - Pct));
    I = J;
  }
}

} // namespace

bool tscc::rt::decodeArgs(std::span<const tscc_field> Fields,
                          std::span<const uint8_t> Bytes,
                          std::vector<FormatArg> &Out) {
  size_t Pos = 0;
  auto Need = [&](size_t N) {
    return Bytes.size() >= Pos && Bytes.size() - Pos >= N;
  };
  for (const tscc_field &F : Fields) {
    FormatArg A;
    A.Kind = F.kind;
    if (F.kind == TSCC_FIELD_STRING) {
      uint32_t Len;
      if (!Need(4))
        return false;
      memcpy(&Len, Bytes.data() + Pos, 4);
      if (!Need(4 + size_t(Len)))
        return false;
      A.Str.assign(reinterpret_cast<const char *>(Bytes.data() + Pos + 4), Len);
      size_t Nul = A.Str.find('\0');
      if (Nul != std::string::npos)
        A.Str.resize(Nul);
      Pos += (4 + size_t(Len) + 7) & ~size_t(7);
    } else if (F.kind == TSCC_FIELD_STACK) {
      uint32_t Count;
      if (!Need(8))
        return false;
      memcpy(&Count, Bytes.data() + Pos, 4);
      memcpy(&A.StackEndWord, Bytes.data() + Pos + 4, 4);
      Pos += 8;
      if (Count > (Bytes.size() - Pos) / 8)
        return false;
      A.Stack.resize(Count);
      if (Count) // an empty vector's data() may be null: no memcpy at all
        memcpy(A.Stack.data(), Bytes.data() + Pos, size_t(Count) * 8);
      Pos += size_t(Count) * 8;
    } else {
      if (!Need(8))
        return false;
      memcpy(&A.Bits, Bytes.data() + Pos, 8);
      Pos += 8;
    }
    Out.push_back(std::move(A));
  }
  return true;
}

void tscc::rt::appendPrintf(std::string &Out, std::string_view Fmt,
                            std::span<const FormatArg> Args, DataModel DM) {
  Formatter(Out, Fmt, Args, DM).run();
}

std::string tscc::rt::formatPrintf(std::string_view Fmt,
                                   std::span<const FormatArg> Args,
                                   DataModel DM) {
  std::string Out;
  appendPrintf(Out, Fmt, Args, DM);
  return Out;
}

std::vector<ArgConversion>
tscc::rt::formatArgConversions(std::string_view Fmt) {
  std::string Unused;
  return Formatter(Unused, Fmt, {}, DataModel::LP64).scan();
}

int64_t tscc::rt::signExtendBits(uint64_t V, unsigned Bits) {
  if (Bits == 0 || Bits >= 64)
    return static_cast<int64_t>(V);
  uint64_t M = 1ull << (Bits - 1);
  V &= (1ull << Bits) - 1;
  return static_cast<int64_t>((V ^ M) - M);
}

uint64_t tscc::rt::truncateBits(uint64_t V, unsigned Bits) {
  return Bits >= 64 ? V : V & ((1ull << Bits) - 1);
}

std::string tscc::rt::escapeForDisplay(std::string_view S) {
  std::string Out;
  for (unsigned char C : S) {
    if (C >= 0x20 && C < 0x7f && C != '\\') {
      Out += static_cast<char>(C);
      continue;
    }
    char Buf[8];
    snprintf(Buf, sizeof(Buf), "\\x%02x", C);
    Out += Buf;
  }
  return Out;
}
