//===- ListProbes.cpp - tsrun -l: what a probe specification matches ------===//
#include "ListProbes.h"

#include "tscc/ClosestName.h"
#include "tscc/ProbeSpecFields.h"
#include "tscc/Runtime/CommandPath.h"
#include "tscc/Runtime/ElfFile.h"
#include "tscc/Runtime/LinkMap.h"
#include "tscc/Runtime/ProbeMatcher.h"
#include "tscc/Runtime/Usdt.h"
#include "tscc/SyscallTable.h"

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <elf.h>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

using namespace tscc::rt;

namespace {

/// A specification as the session's matcher sees it: one probe, its strings.
struct ParsedSpec {
  tscc_probe Probe{};
  std::string Strtab{'\0'};
  std::string Location; ///< ":entry", ":exit" or "+OFFSET", as printed

  uint32_t add(const std::string &S) {
    uint32_t At = static_cast<uint32_t>(Strtab.size());
    Strtab += S;
    Strtab += '\0';
    return At;
  }
};

void setMatch(ParsedSpec &P, const std::string &Field, uint32_t &Str,
              uint32_t &Match) {
  if (Field == "*") {
    Match = TSCC_MATCH_ANY;
    Str = P.add("*");
  } else if (Field.size() >= 2 && Field.front() == '/' && Field.back() == '/') {
    Match = TSCC_MATCH_REGEX;
    Str = P.add(Field.substr(1, Field.size() - 2));
  } else {
    Match = Field.find_first_of("*?[") == std::string::npos ? TSCC_MATCH_EXACT
                                                            : TSCC_MATCH_GLOB;
    Str = P.add(Field);
  }
}

bool parseSpec(std::string Text, ParsedSpec &P, std::string &Error) {
  if (Text.rfind("@@", 0) == 0)
    Text.erase(0, 2);
  auto Bad = [&](const std::string &Why) {
    Error = "invalid probe specification '" + Text + "': " + Why;
    return false;
  };
  // Split as the compiler splits (tscc/ProbeSpecFields.h).
  std::vector<ProbeSpecField> Split;
  if (!splitProbeSpecFields(Text, Split))
    return Bad("unterminated regular expression");
  std::vector<std::string> F;
  for (const ProbeSpecField &Field : Split)
    F.emplace_back(Field.Text);
  for (const std::string &Field : F)
    if (Field.empty())
      return Bad("empty field");
  P.Probe.spec = P.add("@@" + Text);
  P.Probe.pid_kind = TSCC_PID_ANY;
  if (F[0] == "uft") {
    // The location may be left out: a listing shows the functions.
    if (F.size() != 4 && F.size() != 5)
      return Bad("expected uft:PID:MODULE:FUNC[:entry|:exit] or "
                 "uft:PID:MODULE:FUNC+OFFSET");
    setMatch(P, F[2], P.Probe.module, P.Probe.module_match);
    std::string Func = F[3];
    size_t Plus = Func.rfind('+');
    bool Regex = Func.size() > 1 && Func.front() == '/';
    if (Plus != std::string::npos && !(Regex && Plus < Func.rfind('/'))) {
      char *End = nullptr;
      P.Probe.offset = strtoull(Func.c_str() + Plus + 1, &End, 0);
      if (Plus + 1 == Func.size() || *End)
        return Bad("bad offset '" + Func.substr(Plus + 1) + "'");
      P.Probe.kind = TSCC_PROBE_UFT_OFFSET;
      P.Location = Func.substr(Plus);
      Func.resize(Plus);
    } else {
      std::string Where = F.size() == 5 ? F[4] : "entry";
      if (Where != "entry" && Where != "exit")
        return Bad("expected entry or exit, not '" + Where + "'");
      P.Probe.kind =
          Where == "exit" ? TSCC_PROBE_UFT_EXIT : TSCC_PROBE_UFT_ENTRY;
      P.Location = ":" + Where;
    }
    setMatch(P, Func, P.Probe.function, P.Probe.function_match);
    return true;
  }
  if (F[0] == "syscall") {
    if (F.size() != 3 && F.size() != 4)
      return Bad("expected syscall:PID:NAME[:entry|:exit]");
    std::string Where = F.size() == 4 ? F[3] : "entry";
    if (Where != "entry" && Where != "exit")
      return Bad("expected entry or exit, not '" + Where + "'");
    P.Probe.kind =
        Where == "exit" ? TSCC_PROBE_SYSCALL_EXIT : TSCC_PROBE_SYSCALL_ENTRY;
    P.Location = ":" + Where;
    setMatch(P, F[2], P.Probe.function, P.Probe.function_match);
    return true;
  }
  if (F[0] == "usdt") {
    if (F.size() != 5)
      return Bad("expected usdt:PID:MODULE:PROVIDER:NAME");
    P.Probe.kind = TSCC_PROBE_USDT;
    setMatch(P, F[2], P.Probe.module, P.Probe.module_match);
    uint32_t Provider = 0, ProviderMatch = 0;
    setMatch(P, F[3], Provider, ProviderMatch);
    P.Probe.offset = TSCC_USDT_MAKE_OFFSET(Provider, ProviderMatch);
    setMatch(P, F[4], P.Probe.function, P.Probe.function_match);
    return true;
  }
  return Bad("tsrun -l lists uft, usdt and syscall probes, not '" + F[0] + "'");
}

struct Module {
  std::string Path;
  bool IsMain = false;
  std::shared_ptr<const ElfFile> Elf;
};

std::string dirName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? "." : Path.substr(0, Slash ? Slash : 1);
}

bool isFile(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode);
}

/// Where the dynamic loader looks for Name needed by From (ld.so(8)):
/// DT_RUNPATH/DT_RPATH with $ORIGIN, LD_LIBRARY_PATH, then the system
/// directories of the object's class.
std::string findLibrary(const std::string &Name, const ElfFile &From) {
  if (Name.find('/') != std::string::npos)
    return isFile(Name) ? Name : std::string();
  std::vector<std::string> Dirs;
  auto AddList = [&](std::string List) {
    size_t I = 0;
    while (I <= List.size()) {
      size_t End = List.find(':', I);
      if (End == std::string::npos)
        End = List.size();
      std::string D = List.substr(I, End - I);
      for (const char *Origin : {"$ORIGIN", "${ORIGIN}"})
        if (size_t At = D.find(Origin); At != std::string::npos)
          D.replace(At, strlen(Origin), dirName(From.path()));
      if (!D.empty())
        Dirs.push_back(D);
      I = End + 1;
    }
  };
  AddList(From.runPath());
  if (const char *Env = getenv("LD_LIBRARY_PATH"))
    AddList(Env);
  if (From.is64())
    AddList("/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/"
            "lib64:/lib:/usr/lib");
  else
    AddList("/lib/i386-linux-gnu:/usr/lib/i386-linux-gnu:/lib32:/usr/lib32:"
            "/lib:/usr/lib");
  for (const std::string &D : Dirs) {
    std::string P = D + "/" + Name;
    if (!isFile(P))
      continue;
    // A library of the other class (a 32-bit one in a shared directory) is
    // skipped, as the loader skips it.
    std::string Ignored;
    if (auto E = ElfFile::open(P, Ignored); E && E->is64() == From.is64())
      return P;
  }
  return {};
}

/// The interpreter line of a script ("/bin/sh", "/usr/bin/env python3"), or
/// "" when Path does not start with "#!".
std::string scriptInterpreter(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::string Line;
  if (!In || !std::getline(In, Line) || Line.rfind("#!", 0) != 0)
    return {};
  // As the kernel reads it: blanks around the interpreter and its argument.
  size_t Begin = Line.find_first_not_of(" \t", 2);
  size_t End = Line.find_last_not_of(" \t\r");
  if (Begin == std::string::npos || End < Begin)
    return {};
  return Line.substr(Begin, End - Begin + 1);
}

bool modulesOfBinary(const std::string &Binary, std::vector<Module> &Out,
                     std::string &Error) {
  // A command name, as `-- CMD` gives it, is looked up as tsrun would run it.
  std::string Path;
  if (!resolveCommand(Binary, Path, Error))
    return false;
  std::shared_ptr<const ElfFile> Main = ElfFile::open(Path, Error);
  if (!Main) {
    // A wrapper script has no functions of its own; say what it is, since
    // "not an ELF file" leaves the user guessing what to give instead.
    if (std::string Interp = scriptInterpreter(Path); !Interp.empty())
      Error = "'" + Binary + "' is a script run by " + Interp +
              ", not a program: list the probes of the program it runs "
              "(tsrun -l SPEC PROGRAM), or trace the script with "
              "'tsrun PROBE.o -- " +
              Binary + "', which follows it into the programs it starts";
    return false;
  }
  std::set<std::string> Seen;
  std::deque<std::shared_ptr<const ElfFile>> Work{Main};
  Out.push_back({canonicalModulePath(Path), true, Main});
  Seen.insert(Out.back().Path);
  if (!Main->interpreter().empty()) {
    std::string Ignored;
    if (std::shared_ptr<const ElfFile> L =
            ElfFile::open(Main->interpreter(), Ignored)) {
      Out.push_back({canonicalModulePath(Main->interpreter()), false, L});
      Seen.insert(Out.back().Path);
    }
  }
  while (!Work.empty() && Out.size() < 512) {
    std::shared_ptr<const ElfFile> From = Work.front();
    Work.pop_front();
    for (const std::string &Need : From->needed()) {
      std::string Lib = findLibrary(Need, *From);
      if (Lib.empty() || !Seen.insert(canonicalModulePath(Lib)).second)
        continue;
      std::string Ignored;
      if (std::shared_ptr<const ElfFile> E = ElfFile::open(Lib, Ignored)) {
        Out.push_back({canonicalModulePath(Lib), false, E});
        Work.push_back(E);
      }
    }
  }
  return true;
}

bool modulesOfProcess(int64_t Pid, std::vector<Module> &Out,
                      std::string &Error) {
  std::string Proc = "/proc/" + std::to_string(Pid);
  std::ifstream Maps(Proc + "/maps");
  if (!Maps) {
    Error = "no process with pid " + std::to_string(Pid);
    return false;
  }
  char Exe[PATH_MAX] = {};
  ssize_t N = readlink((Proc + "/exe").c_str(), Exe, sizeof(Exe) - 1);
  std::string ExePath = N > 0 ? std::string(Exe, N) : std::string();
  std::set<std::string> Seen;
  std::string Line;
  while (std::getline(Maps, Line)) {
    size_t Slash = Line.find('/');
    if (Slash == std::string::npos)
      continue;
    std::string Path = Line.substr(Slash);
    if (!Seen.insert(Path).second)
      continue;
    std::string Ignored;
    if (std::shared_ptr<const ElfFile> E = ElfFile::open(Path, Ignored))
      Out.push_back({canonicalModulePath(Path), Path == ExePath, E});
  }
  return true;
}

/// Names in the order closestName() should prefer them on a tie: shorter
/// first, then alphabetically.
std::vector<std::string_view> preferenceOrder(std::vector<std::string_view> N) {
  std::sort(N.begin(), N.end(), [](std::string_view A, std::string_view B) {
    return std::make_pair(A.size(), A) < std::make_pair(B.size(), B);
  });
  N.erase(std::unique(N.begin(), N.end()), N.end());
  return N;
}

/// "; did you mean 'X'?" for a specification that matched nothing, when
/// one of its exact names is a typo of something that exists.
std::string didYouMean(const ParsedSpec &P, const ProbeMatcher &Matcher,
                       const std::vector<Module> &Modules) {
  const tscc_probe &Pr = P.Probe;
  std::string_view Function(P.Strtab.data() + Pr.function);
  std::vector<std::string_view> Names;
  bool Syscall =
      Pr.kind == TSCC_PROBE_SYSCALL_ENTRY || Pr.kind == TSCC_PROBE_SYSCALL_EXIT;
  if (Syscall) {
    for (const SyscallInfo &S : allSyscalls())
      Names.push_back(S.Name);
  } else if (Pr.module_match == TSCC_MATCH_EXACT &&
             std::none_of(Modules.begin(), Modules.end(), [&](const Module &M) {
               return Matcher.moduleMatches(
                   0, ModuleRef{M.Path, M.Elf->soname(), M.IsMain});
             })) {
    // The module is the typo: suggest one of the program's.
    for (const Module &M : Modules)
      Names.push_back(
          M.Elf->soname().empty()
              ? std::string_view(M.Path).substr(M.Path.rfind('/') + 1)
              : std::string_view(M.Elf->soname()));
    std::string_view Want(P.Strtab.data() + Pr.module);
    std::string_view Best = closestName(Want, preferenceOrder(Names));
    return Best.empty() ? ""
                        : "; did you mean module '" + std::string(Best) + "'?";
  } else {
    for (const Module &M : Modules) {
      if (!Matcher.moduleMatches(0,
                                 ModuleRef{M.Path, M.Elf->soname(), M.IsMain}))
        continue;
      if (Pr.kind == TSCC_PROBE_USDT)
        for (const UsdtProbe &U : M.Elf->usdtProbes())
          Names.push_back(U.Name);
      else
        for (const ElfSymbol &S : M.Elf->functions())
          Names.push_back(S.Name);
    }
  }
  if (Pr.function_match != TSCC_MATCH_EXACT)
    return "";
  std::string_view Best = closestName(Function, preferenceOrder(Names));
  return Best.empty() ? "" : "; did you mean '" + std::string(Best) + "'?";
}

std::string hex(uint64_t V) {
  char Buf[24];
  snprintf(Buf, sizeof(Buf), "0x%" PRIx64, V);
  return Buf;
}

} // namespace

bool tscc::rt::listProbes(const ListRequest &R, FILE *Out, std::string &Error) {
  ParsedSpec P;
  if (!parseSpec(R.Spec, P, Error))
    return false;
  ProbeMatcher Matcher(std::span<const tscc_probe>(&P.Probe, 1), P.Strtab);
  if (!Matcher.errors().empty()) {
    Error = Matcher.errors().front();
    return false;
  }
  size_t Lines = 0;
  std::vector<Module> Modules;
  if (P.Probe.kind == TSCC_PROBE_SYSCALL_ENTRY ||
      P.Probe.kind == TSCC_PROBE_SYSCALL_EXIT) {
    std::vector<DataModel> Models{DataModel::LP64, DataModel::ILP32};
    if (R.Pid) {
      std::string Ignored;
      auto Exe =
          ElfFile::open("/proc/" + std::to_string(R.Pid) + "/exe", Ignored);
      if (!Exe) {
        Error = "no process with pid " + std::to_string(R.Pid);
        return false;
      }
      Models = {Exe->is64() ? DataModel::LP64 : DataModel::ILP32};
    }
    for (DataModel DM : Models) {
      std::vector<std::string> Problems;
      for (const SyscallSite &S : Matcher.matchSyscalls(DM, Problems)) {
        fprintf(Out, "@@syscall:*:%.*s%s\t%s %u\n",
                static_cast<int>(S.Name.size()), S.Name.data(),
                P.Location.c_str(), dataModelName(DM), S.Number);
        ++Lines;
      }
    }
  } else {
    if (R.Binary.empty() && !R.Pid) {
      Error = "listing user functions needs a program: tsrun -l SPEC "
              "BINARY, -p PID or -- CMD";
      return false;
    }
    if (!(R.Pid ? modulesOfProcess(R.Pid, Modules, Error)
                : modulesOfBinary(R.Binary, Modules, Error)))
      return false;
    // A debug file that was found but not used leaves names out: say why.
    for (const Module &M : Modules)
      for (const std::string &Why : M.Elf->debugProblems())
        fprintf(stderr, "tsrun: warning: %s\n", Why.c_str());
    for (const Module &M : Modules) {
      ModuleRef Ref{M.Path, M.Elf->soname(), M.IsMain};
      if (!Matcher.moduleMatches(0, Ref))
        continue;
      std::string Name =
          M.Elf->soname().empty() ? moduleBaseName(M.Path) : M.Elf->soname();
      if (P.Probe.kind == TSCC_PROBE_USDT) {
        for (const UsdtProbe &U : M.Elf->usdtProbes()) {
          if (!Matcher.usdtMatches(0, U))
            continue;
          fprintf(Out, "@@usdt:*:%s:%s:%s\t%s\t%s%s\n", Name.c_str(),
                  U.Provider.c_str(), U.Name.c_str(), M.Path.c_str(),
                  hex(U.Address).c_str(),
                  U.Semaphore ? (" semaphore " + hex(U.Semaphore)).c_str()
                              : "");
          ++Lines;
        }
        continue;
      }
      for (const ElfSymbol &S : M.Elf->functions()) {
        if (!Matcher.functionMatches(0, S.Name))
          continue;
        if (P.Probe.kind == TSCC_PROBE_UFT_OFFSET && S.Size &&
            P.Probe.offset >= S.Size)
          continue;
        uint64_t Addr =
            S.Value +
            (P.Probe.kind == TSCC_PROBE_UFT_OFFSET ? P.Probe.offset : 0);
        fprintf(Out, "@@uft:*:%s:%s%s\t%s\t%s\n", Name.c_str(), S.Name.c_str(),
                P.Location.c_str(), M.Path.c_str(), hex(Addr).c_str());
        ++Lines;
      }
    }
  }
  if (!Lines) {
    Error =
        "no probe matches '" + R.Spec + "'" + didYouMean(P, Matcher, Modules);
    return false;
  }
  return true;
}
