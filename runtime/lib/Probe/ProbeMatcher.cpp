//===- ProbeMatcher.cpp - Which probes apply where ------------------------===//
//
// Module names follow what users of ldd, gdb and bpftrace type: `a.out` is
// the main executable; a name without a slash matches the soname, the file
// name, or a soname/file name with a version suffix (`libc.so` matches
// `libc.so.6`); a name with a slash is a path, compared after resolving
// symlinks on both sides.
//
//===----------------------------------------------------------------------===//
#include "tscc/Runtime/ProbeMatcher.h"

#include "tscc/Runtime/ProbeCoverage.h"
#include "tscc/Runtime/ProbeProgram.h"
#include "tscc/Runtime/X86Insn.h"
#include "tscc/SyscallTable.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <elf.h>
#include <fnmatch.h>
#include <map>
#include <regex.h>
#include <tuple>

using namespace tscc::rt;

struct ProbeMatcher::Pattern {
  uint32_t Kind = TSCC_MATCH_ANY;
  std::string Text;
  std::string RealPath; ///< EXACT paths: resolved once
  bool Valid = true;
  bool HasRegex = false;
  regex_t Regex{};
};

ProbeMatcher::ProbeMatcher(const ProbeProgram &Program)
    : ProbeMatcher(
          Program.probes(),
          std::string_view(Program.strtab().data(), Program.strtab().size())) {}

ProbeMatcher::ProbeMatcher(std::span<const tscc_probe> Probes,
                           std::string_view Strtab)
    : Probes(Probes), Strtab(Strtab) {
  compile();
}

ProbeMatcher::~ProbeMatcher() {
  for (auto *V : {&ModulePatterns, &FunctionPatterns, &ProviderPatterns})
    for (Pattern &P : *V)
      if (P.HasRegex)
        regfree(&P.Regex);
}

std::string_view ProbeMatcher::string(uint32_t Offset) const {
  if (Offset >= Strtab.size())
    return {};
  std::string_view S = Strtab.substr(Offset);
  return S.substr(0, S.find('\0'));
}

/// Probes that live in a module: user functions and USDT sites.
void ProbeMatcher::compile() {
  ModulePatterns.resize(Probes.size());
  FunctionPatterns.resize(Probes.size());
  ProviderPatterns.resize(Probes.size());
  for (size_t I = 0; I < Probes.size(); ++I) {
    const tscc_probe &P = Probes[I];
    auto Setup = [&](Pattern &Pat, uint32_t Kind, uint32_t Str) {
      Pat.Kind = Kind;
      Pat.Text = std::string(string(Str));
      if (Kind == TSCC_MATCH_EXACT && Pat.Text.find('/') != std::string::npos) {
        char Buf[PATH_MAX];
        if (realpath(Pat.Text.c_str(), Buf))
          Pat.RealPath = Buf;
      }
      if (Kind != TSCC_MATCH_REGEX)
        return;
      int Rc = regcomp(&Pat.Regex, Pat.Text.c_str(), REG_EXTENDED | REG_NOSUB);
      if (Rc != 0) {
        char Msg[256];
        regerror(Rc, &Pat.Regex, Msg, sizeof(Msg));
        Errors.push_back("probe '" + std::string(spec(I)) +
                         "': invalid regular expression '" + Pat.Text +
                         "': " + Msg);
        Pat.Valid = false;
        return;
      }
      Pat.HasRegex = true;
    };
    if (isModuleProbeKind(P.kind))
      Setup(ModulePatterns[I], P.module_match, P.module);
    if (P.kind == TSCC_PROBE_USDT)
      Setup(ProviderPatterns[I], TSCC_USDT_PROVIDER_MATCH(P.offset),
            TSCC_USDT_PROVIDER(P.offset));
    if (isModuleProbeKind(P.kind) || P.kind == TSCC_PROBE_SYSCALL_ENTRY ||
        P.kind == TSCC_PROBE_SYSCALL_EXIT)
      Setup(FunctionPatterns[I], P.function_match, P.function);
  }
}

bool ProbeMatcher::matches(const Pattern &P, std::string_view S) const {
  if (!P.Valid)
    return false;
  switch (P.Kind) {
  case TSCC_MATCH_ANY:
    return true;
  case TSCC_MATCH_EXACT:
    return S == P.Text;
  case TSCC_MATCH_GLOB:
    return fnmatch(P.Text.c_str(), std::string(S).c_str(), 0) == 0;
  case TSCC_MATCH_REGEX:
    return regexec(&P.Regex, std::string(S).c_str(), 0, nullptr, 0) == 0;
  default:
    return false;
  }
}

bool ProbeMatcher::hasKind(uint32_t Kind) const {
  for (const tscc_probe &P : Probes)
    if (P.kind == Kind)
      return true;
  return false;
}

static std::string_view baseName(std::string_view Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string_view::npos ? Path : Path.substr(Slash + 1);
}

/// "libc.so" names "libc.so.6" and "libc.so.6.1": a prefix followed only by
/// dot-separated version numbers.
static bool matchesWithVersion(std::string_view Want, std::string_view Have) {
  if (Have == Want)
    return true;
  if (Want.empty() || Have.size() <= Want.size() ||
      Have.substr(0, Want.size()) != Want || Have[Want.size()] != '.')
    return false;
  for (char C : Have.substr(Want.size()))
    if (C != '.' && !std::isdigit(static_cast<unsigned char>(C)))
      return false;
  return true;
}

bool ProbeMatcher::moduleMatches(uint32_t Probe, const ModuleRef &M) const {
  if (Probe >= Probes.size() || !isModuleProbeKind(Probes[Probe].kind))
    return false;
  const Pattern &P = ModulePatterns[Probe];
  if (P.Kind == TSCC_MATCH_ANY)
    return true;
  std::string_view Base = baseName(M.Path);
  if (P.Kind == TSCC_MATCH_EXACT) {
    if (P.Text == "a.out")
      return M.IsMain;
    if (P.Text.find('/') != std::string::npos) {
      if (M.Path == P.Text || (!P.RealPath.empty() && M.Path == P.RealPath))
        return true;
      char Buf[PATH_MAX];
      std::string Have(M.Path);
      return realpath(Have.c_str(), Buf) &&
             (P.Text == Buf || P.RealPath == Buf);
    }
    return matchesWithVersion(P.Text, Base) ||
           (!M.Soname.empty() && matchesWithVersion(P.Text, M.Soname));
  }
  // Globs and regexes: the soname, the file name or the whole path.
  if (M.IsMain && matches(P, "a.out"))
    return true;
  return matches(P, Base) || (!M.Soname.empty() && matches(P, M.Soname)) ||
         matches(P, M.Path);
}

bool ProbeMatcher::anyModuleMatches(const ModuleRef &M) const {
  for (uint32_t I = 0; I < Probes.size(); ++I)
    if (moduleMatches(I, M))
      return true;
  return false;
}

bool ProbeMatcher::functionMatches(uint32_t Probe,
                                   std::string_view Name) const {
  if (Probe >= Probes.size())
    return false;
  return matches(FunctionPatterns[Probe], Name);
}

bool ProbeMatcher::usdtMatches(uint32_t Probe, const UsdtProbe &U) const {
  return Probe < Probes.size() && Probes[Probe].kind == TSCC_PROBE_USDT &&
         matches(ProviderPatterns[Probe], U.Provider) &&
         matches(FunctionPatterns[Probe], U.Name);
}

std::vector<ProbeSite>
ProbeMatcher::matchModule(const ElfFile &File, const ModuleRef &M,
                          std::vector<std::string> &Problems,
                          std::vector<int> *Found) const {
  std::vector<ProbeSite> Sites;
  X86Mode Mode = File.is64() ? X86Mode::Bits64 : X86Mode::Bits32;
  if (Found)
    Found->assign(Probes.size(), NotSearched);
  for (uint32_t I = 0; I < Probes.size(); ++I) {
    const tscc_probe &P = Probes[I];
    if (!moduleMatches(I, M))
      continue;
    if (P.kind == TSCC_PROBE_USDT) {
      int Count = 0;
      for (const UsdtProbe &U : File.usdtProbes())
        if (usdtMatches(I, U)) {
          Sites.push_back(
              {I, P.kind, File.functionContaining(U.Address), U.Address, &U});
          ++Count;
        }
      if (Found)
        (*Found)[I] = Count;
      continue;
    }
    const Pattern &F = FunctionPatterns[I];
    // An exact name is a lookup; only patterns scan the whole table.
    std::vector<const ElfSymbol *> Cands;
    if (F.Kind == TSCC_MATCH_EXACT) {
      for (const ElfSymbol &S : File.functions())
        if (S.Name == F.Text)
          Cands.push_back(&S);
    } else {
      for (const ElfSymbol &S : File.functions())
        if (matches(F, S.Name))
          Cands.push_back(&S);
    }
    if (Found)
      (*Found)[I] = static_cast<int>(Cands.size());
    for (const ElfSymbol *S : Cands) {
      ProbeSite Site{I, P.kind, S, S->Value};
      if (P.kind == TSCC_PROBE_UFT_OFFSET) {
        if (S->Size && P.offset >= S->Size) {
          Problems.push_back("probe '" + std::string(spec(I)) + "': offset " +
                             std::to_string(P.offset) + " is past the end of " +
                             S->Name + " (size " + std::to_string(S->Size) +
                             ") in " + std::string(M.Path));
          continue;
        }
        uint64_t Len = S->Size ? S->Size : P.offset + 16;
        std::vector<uint8_t> Code(Len);
        if ((File.machine() == EM_X86_64 || File.machine() == EM_386) &&
            (!File.readVAddr(S->Value, Code.data(), Len) ||
             !isX86InsnBoundary(Code.data(), Len, P.offset, Mode))) {
          Problems.push_back("probe '" + std::string(spec(I)) +
                             "': " + S->Name + "+" + std::to_string(P.offset) +
                             " is not an instruction boundary in " +
                             std::string(M.Path));
          continue;
        }
        Site.Address = S->Value + P.offset;
      }
      Sites.push_back(Site);
    }
  }
  return dropAliases(std::move(Sites));
}

/// How well a symbol names its address, for users: an exported name beats
/// a local one, and `malloc` beats `__libc_malloc`.
static auto nameRank(const ElfSymbol &S) {
  size_t Underscores = S.Name.find_first_not_of('_');
  return std::make_tuple(!(S.Global && S.Dynamic), !S.Global,
                         Underscores == std::string::npos ? S.Name.size()
                                                          : Underscores,
                         S.Name.size(), std::string_view(S.Name));
}

std::vector<ProbeSite>
ProbeMatcher::dropAliases(std::vector<ProbeSite> Sites) const {
  // A clause fires once per hit, whatever the number of names the address
  // has (`*malloc` matches `malloc` and `__libc_malloc`; a clause may list
  // both `open` and `open64`): one site per (clause, kind, address), named
  // by its best name.
  std::map<std::tuple<uint32_t, uint32_t, uint64_t>, size_t> Kept;
  std::vector<ProbeSite> Out;
  for (const ProbeSite &Site : Sites) {
    auto Key =
        std::make_tuple(Probes[Site.Probe].clause, Site.Kind, Site.Address);
    auto [It, New] = Kept.try_emplace(Key, Out.size());
    if (New) {
      Out.push_back(Site);
      continue;
    }
    ProbeSite &Have = Out[It->second];
    if (Site.Usdt || !Site.Symbol || !Have.Symbol)
      continue;
    if (nameRank(*Site.Symbol) < nameRank(*Have.Symbol))
      Have.Symbol = Site.Symbol;
  }
  return Out;
}

std::vector<SyscallSite>
ProbeMatcher::matchSyscalls(DataModel DM,
                            std::vector<std::string> &Problems) const {
  std::vector<SyscallSite> Out;
  for (uint32_t I = 0; I < Probes.size(); ++I) {
    const tscc_probe &P = Probes[I];
    if (P.kind != TSCC_PROBE_SYSCALL_ENTRY && P.kind != TSCC_PROBE_SYSCALL_EXIT)
      continue;
    bool Exit = P.kind == TSCC_PROBE_SYSCALL_EXIT;
    const Pattern &F = FunctionPatterns[I];
    if (F.Kind == TSCC_MATCH_EXACT) {
      std::optional<uint32_t> Nr = syscallNumber(DM, F.Text);
      if (!Nr) {
        Problems.push_back("probe '" + std::string(spec(I)) +
                           "': unknown system call '" + F.Text + "' for " +
                           dataModelArchName(DM));
        continue;
      }
      Out.push_back({I, Exit, *Nr, syscallName(DM, *Nr)});
      continue;
    }
    for (const auto &[Name, Nr] : syscallTable(DM))
      if (matches(F, Name))
        Out.push_back({I, Exit, Nr, Name});
  }
  return Out;
}

namespace {
/// One model's view of tscc/SyscallTable.h: (name, number) in number
/// order, and the names indexed by number.
struct ModelSyscalls {
  std::vector<std::pair<std::string_view, uint32_t>> ByNumber;
  std::vector<std::string_view> Names;

  explicit ModelSyscalls(DataModel DM) {
    for (const SyscallInfo &S : allSyscalls())
      if (std::optional<uint32_t> Nr = S.number(DM))
        ByNumber.emplace_back(S.Name, *Nr);
    std::sort(ByNumber.begin(), ByNumber.end(),
              [](const auto &A, const auto &B) { return A.second < B.second; });
    Names.resize(ByNumber.empty() ? 0 : ByNumber.back().second + 1);
    for (const auto &[Name, Nr] : ByNumber)
      Names[Nr] = Name;
  }
};

const ModelSyscalls &modelSyscalls(DataModel DM) {
  static const ModelSyscalls Tables[NumDataModels] = {
      ModelSyscalls(DataModel::ILP32), ModelSyscalls(DataModel::LP64)};
  return Tables[modelIndex(DM)];
}
} // namespace

std::span<const std::pair<std::string_view, uint32_t>>
tscc::rt::syscallTable(DataModel DM) {
  return modelSyscalls(DM).ByNumber;
}

std::optional<uint32_t> tscc::rt::syscallNumber(DataModel DM,
                                                std::string_view Name) {
  const SyscallInfo *S = findSyscall(Name);
  return S ? S->number(DM) : std::nullopt;
}

std::string_view tscc::rt::syscallName(DataModel DM, uint64_t Nr) {
  const std::vector<std::string_view> &Names = modelSyscalls(DM).Names;
  return Nr < Names.size() ? Names[Nr] : std::string_view();
}
