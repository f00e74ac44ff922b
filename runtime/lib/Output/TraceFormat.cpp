//===- TraceFormat.cpp - Parse and apply trace() format files --------------===//

#include "tscc/Runtime/TraceFormat.h"

#include "tscc/Runtime/Format.h"
#include "tscc/Runtime/ProbeProgram.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace tscc::rt;

namespace {

class Parser {
public:
  Parser(std::string_view Name, std::string &Error)
      : Name(Name), Error(Error) {}

  bool line(std::string_view L, unsigned No,
            std::map<uint32_t, TraceFormatFile::Stanza> &Out);

private:
  bool fail(unsigned Line, size_t Col, const std::string &Msg) {
    Error = std::string(Name) + ":" + std::to_string(Line) + ":" +
            std::to_string(Col + 1) + ": error: " + Msg;
    return false;
  }
  bool stringLiteral(std::string_view L, size_t &I, unsigned No,
                     std::string &Out);

  std::string_view Name;
  std::string &Error;
};

bool isBlank(char C) { return C == ' ' || C == '\t' || C == '\r'; }

bool Parser::stringLiteral(std::string_view L, size_t &I, unsigned No,
                           std::string &Out) {
  size_t Start = I++;
  while (I < L.size() && L[I] != '"') {
    char C = L[I++];
    if (C != '\\') {
      Out += C;
      continue;
    }
    if (I >= L.size())
      break;
    char E = L[I++];
    switch (E) {
    case 'n':
      Out += '\n';
      break;
    case 't':
      Out += '\t';
      break;
    case 'r':
      Out += '\r';
      break;
    case 'a':
      Out += '\a';
      break;
    case 'b':
      Out += '\b';
      break;
    case 'f':
      Out += '\f';
      break;
    case 'v':
      Out += '\v';
      break;
    case '\\':
    case '"':
    case '\'':
    case '?':
      Out += E;
      break;
    case 'x': {
      size_t D = I;
      unsigned V = 0;
      while (I < L.size() && isxdigit(static_cast<unsigned char>(L[I])) &&
             I - D < 2)
        V = V * 16 + (isdigit(static_cast<unsigned char>(L[I]))
                          ? L[I] - '0'
                          : (tolower(L[I]) - 'a' + 10)),
        ++I;
      if (I == D)
        return fail(No, I, "\\x used with no following hex digits");
      Out += static_cast<char>(V);
      break;
    }
    default:
      if (E >= '0' && E <= '7') {
        unsigned V = E - '0';
        for (int K = 0; K < 2 && I < L.size() && L[I] >= '0' && L[I] <= '7';
             ++K)
          V = V * 8 + (L[I++] - '0');
        Out += static_cast<char>(V);
        break;
      }
      return fail(No, I - 2,
                  std::string("unknown escape sequence '\\") + E + "'");
    }
  }
  if (I >= L.size())
    return fail(No, Start, "missing terminating '\"' character");
  ++I;
  return true;
}

bool Parser::line(std::string_view L, unsigned No,
                  std::map<uint32_t, TraceFormatFile::Stanza> &Out) {
  size_t I = 0;
  while (I < L.size() && isBlank(L[I]))
    ++I;
  if (I == L.size() || L[I] == '#')
    return true;
  size_t IdStart = I;
  while (I < L.size() && !isBlank(L[I]) && L[I] != '"')
    ++I;
  std::string Id(L.substr(IdStart, I - IdStart));
  char *End = nullptr;
  errno = 0;
  unsigned long long V = strtoull(Id.c_str(), &End, 0);
  if (Id.empty() || *End || errno || V > UINT32_MAX || Id[0] == '-')
    return fail(No, IdStart,
                "expected a hook id (a 32-bit number), found '" + Id + "'");
  TraceFormatFile::Stanza S;
  S.Line = No;
  while (I < L.size() && isBlank(L[I]))
    ++I;
  if (I < L.size() && L[I] != '"') {
    size_t LabelStart = I;
    while (I < L.size() && !isBlank(L[I]) && L[I] != '"')
      ++I;
    S.Label = std::string(L.substr(LabelStart, I - LabelStart));
    while (I < L.size() && isBlank(L[I]))
      ++I;
  }
  if (I >= L.size() || L[I] != '"')
    return fail(No, I, "expected a format string in double quotes");
  if (!stringLiteral(L, I, No, S.Format))
    return false;
  while (I < L.size() && isBlank(L[I]))
    ++I;
  if (I < L.size() && L[I] != '#')
    return fail(No, I, "unexpected text after the format string");
  if (S.Format.empty() || S.Format.back() != '\n')
    S.Format += '\n';
  auto [It, New] = Out.emplace(static_cast<uint32_t>(V), S);
  if (!New) {
    char Hex[16];
    snprintf(Hex, sizeof(Hex), "0x%x", static_cast<unsigned>(V));
    return fail(No, IdStart,
                std::string("duplicate stanza for hook ") + Hex +
                    " (first at line " + std::to_string(It->second.Line) + ")");
  }
  return true;
}

} // namespace

std::unique_ptr<TraceFormatFile> TraceFormatFile::parse(std::string_view Text,
                                                        std::string_view Name,
                                                        std::string &Error) {
  auto F = std::make_unique<TraceFormatFile>();
  Parser P(Name, Error);
  unsigned No = 0;
  while (!Text.empty()) {
    size_t NL = Text.find('\n');
    std::string_view L = Text.substr(0, NL);
    Text =
        NL == std::string_view::npos ? std::string_view() : Text.substr(NL + 1);
    if (!P.line(L, ++No, F->Stanzas))
      return nullptr;
  }
  return F;
}

std::unique_ptr<TraceFormatFile> TraceFormatFile::load(const std::string &Path,
                                                       std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = Path + ": " + strerror(errno);
    return nullptr;
  }
  std::stringstream SS;
  SS << In.rdbuf();
  return parse(SS.str(), Path, Error);
}

const TraceFormatFile::Stanza *TraceFormatFile::find(uint32_t Hook) const {
  auto It = Stanzas.find(Hook);
  return It == Stanzas.end() ? nullptr : &It->second;
}

std::optional<std::string> TraceFormatFile::render(const ProbeProgram &P,
                                                   const RecordOrigin &O,
                                                   const RecordView &R) const {
  if (R.Header.kind != TSCC_REC_TRACE)
    return std::nullopt;
  const Stanza *S = find(R.Header.id);
  if (!S)
    return std::nullopt;
  std::vector<FormatArg> Args;
  decodeArgs(P.formatFields(R.Header.format), R.Args, Args);
  return formatPrintf(S->Format, Args, O.DM);
}
