//===- TargetXml.cpp - GDB target descriptions ----------------------------===//
#include "TargetXml.h"

#include <algorithm>
#include <cstdlib>

using namespace tscc::rt;
using namespace tscc::rt::rsp;

namespace {

std::string decodeEntities(std::string_view S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] != '&') {
      Out.push_back(S[I]);
      continue;
    }
    static const std::pair<std::string_view, char> Map[] = {{"&lt;", '<'},
                                                            {"&gt;", '>'},
                                                            {"&amp;", '&'},
                                                            {"&quot;", '"'},
                                                            {"&apos;", '\''}};
    bool Done = false;
    for (auto [Ent, C] : Map)
      if (S.substr(I, Ent.size()) == Ent) {
        Out.push_back(C);
        I += Ent.size() - 1;
        Done = true;
        break;
      }
    if (!Done)
      Out.push_back('&');
  }
  return Out;
}

// What a description may contain. Real ones (gdbserver x86-64 with AVX-512)
// have a dozen parts and about 150 registers of at most 512 bits; the limits
// only keep a hostile stub from making us fetch parts forever (a part that
// includes itself many times grows exponentially with the nesting depth)
// or from sizing registers, and the 'g'/'P' packets built from them, to
// gigabytes.
constexpr unsigned MaxParts = 64;
constexpr size_t MaxRegisters = 4096;
constexpr unsigned long MaxRegisterBits = 8192;
constexpr unsigned long MaxRegisterNumber = 65535;

struct Walker {
  const XmlFetcher &Fetch;
  TargetDescription &Out;
  std::string &Error;
  unsigned NextNumber = 0;
  std::vector<RspRegister> Found;
  unsigned Parts = 0;

  bool walk(std::string_view Xml, unsigned Depth) {
    if (Depth > 8) {
      Error = "target description includes nest too deeply";
      return false;
    }
    size_t Pos = 0;
    while ((Pos = Xml.find('<', Pos)) != std::string_view::npos) {
      if (Xml.substr(Pos, 4) == "<!--") {
        size_t End = Xml.find("-->", Pos);
        if (End == std::string_view::npos)
          break;
        Pos = End + 3;
        continue;
      }
      size_t End = Xml.find('>', Pos);
      if (End == std::string_view::npos)
        break;
      std::string_view Tag = Xml.substr(Pos + 1, End - Pos - 1);
      Pos = End + 1;
      if (!handleTag(Xml, Tag, Pos, Depth))
        return false;
    }
    return true;
  }

  bool handleTag(std::string_view Xml, std::string_view Tag, size_t &Pos,
                 unsigned Depth) {
    auto NameEnd = Tag.find_first_of(" \t\r\n/");
    std::string_view Name = Tag.substr(0, NameEnd);
    if (Name == "architecture") {
      size_t Close = Xml.find('<', Pos);
      if (Close != std::string_view::npos)
        Out.Architecture = decodeEntities(Xml.substr(Pos, Close - Pos));
      return true;
    }
    if (Name == "xi:include" || Name == "include") {
      std::optional<std::string> Href = xmlAttribute(Tag, "href");
      if (!Href)
        return true;
      if (++Parts > MaxParts) {
        Error = "target description has more than " + std::to_string(MaxParts) +
                " parts";
        return false;
      }
      std::optional<std::string> Sub = Fetch(*Href);
      if (!Sub) {
        Error = "cannot read target description part '" + *Href + "'";
        return false;
      }
      return walk(*Sub, Depth + 1);
    }
    if (Name != "reg")
      return true;
    RspRegister R;
    std::optional<std::string> RName = xmlAttribute(Tag, "name");
    std::optional<std::string> Bits = xmlAttribute(Tag, "bitsize");
    if (!RName || !Bits)
      return true;
    R.Name = *RName;
    char *End = nullptr;
    unsigned long BitSize = std::strtoul(Bits->c_str(), &End, 10);
    if (Bits->empty() || *End || BitSize == 0 || BitSize > MaxRegisterBits) {
      Error =
          "register '" + R.Name + "' has an invalid bitsize '" + *Bits + "'";
      return false;
    }
    R.BitSize = static_cast<unsigned>(BitSize);
    if (std::optional<std::string> Num = xmlAttribute(Tag, "regnum")) {
      unsigned long N = std::strtoul(Num->c_str(), &End, 10);
      if (Num->empty() || *End || N > MaxRegisterNumber) {
        Error =
            "register '" + R.Name + "' has an invalid regnum '" + *Num + "'";
        return false;
      }
      NextNumber = static_cast<unsigned>(N);
    }
    if (Found.size() >= MaxRegisters || NextNumber > MaxRegisterNumber) {
      Error = "target description has more than " +
              std::to_string(MaxRegisters) + " registers";
      return false;
    }
    R.Number = NextNumber++;
    Found.push_back(std::move(R));
    return true;
  }
};

} // namespace

std::optional<std::string> rsp::xmlAttribute(std::string_view Tag,
                                             std::string_view Name) {
  size_t Pos = 0;
  while ((Pos = Tag.find(Name, Pos)) != std::string_view::npos) {
    bool StartOk = Pos > 0 && (Tag[Pos - 1] == ' ' || Tag[Pos - 1] == '\t' ||
                               Tag[Pos - 1] == '\n' || Tag[Pos - 1] == '\r');
    size_t Eq = Pos + Name.size();
    while (Eq < Tag.size() && Tag[Eq] == ' ')
      ++Eq;
    if (!StartOk || Eq >= Tag.size() || Tag[Eq] != '=') {
      Pos += Name.size();
      continue;
    }
    size_t Q = Eq + 1;
    while (Q < Tag.size() && Tag[Q] == ' ')
      ++Q;
    if (Q >= Tag.size() || (Tag[Q] != '"' && Tag[Q] != '\''))
      return std::nullopt;
    size_t Close = Tag.find(Tag[Q], Q + 1);
    if (Close == std::string_view::npos)
      return std::nullopt;
    return decodeEntities(Tag.substr(Q + 1, Close - Q - 1));
  }
  return std::nullopt;
}

bool rsp::parseTargetDescription(std::string_view Xml, const XmlFetcher &Fetch,
                                 TargetDescription &Out, std::string &Error) {
  Walker W{Fetch, Out, Error, 0, {}};
  if (!W.walk(Xml, 0))
    return false;
  if (W.Found.empty()) {
    Error = "target description has no registers";
    return false;
  }
  std::stable_sort(W.Found.begin(), W.Found.end(),
                   [](const RspRegister &A, const RspRegister &B) {
                     return A.Number < B.Number;
                   });
  // The 'g' packet carries registers in number order with no gaps.
  size_t Offset = 0;
  for (RspRegister &R : W.Found) {
    R.Offset = Offset;
    Offset += (R.BitSize + 7) / 8;
  }
  Out.Registers = std::move(W.Found);
  return true;
}
