//===- ModuleImage.cpp - A module mapped in a process ---------------------===//

#include "tscc/Runtime/ModuleImage.h"

#include "tscc/Runtime/LinkMap.h"

#include <cinttypes>
#include <cstdio>

using namespace tscc::rt;

bool ModuleImage::describe(std::string CanonicalPath,
                           std::shared_ptr<const ElfFile> File,
                           uint64_t LoadBias, bool Main) {
  auto Range = File ? File->loadedRange() : std::nullopt;
  if (!Range)
    return false;
  Name = moduleBaseName(CanonicalPath);
  Path = std::move(CanonicalPath);
  Elf = std::move(File);
  Bias = LoadBias;
  IsMain = Main;
  Start = Range->first + LoadBias;
  End = Range->second + LoadBias;
  return true;
}

std::string ModuleImage::symbolize(uint64_t PC) const {
  char Off[32];
  const ElfSymbol *S = Elf ? Elf->functionContaining(PC - Bias) : nullptr;
  if (!S) {
    // No symbol covers it (a stripped or internal function): the offset
    // from the module's start, as perf and bpftrace print it.
    snprintf(Off, sizeof(Off), "+0x%" PRIx64, PC - Start);
    return Name + Off;
  }
  snprintf(Off, sizeof(Off), "+0x%" PRIx64, PC - Bias - S->Value);
  return S->Name + Off + " (" + Name + ")";
}

std::string tscc::rt::symbolizeAddress(const ModuleImage *M, uint64_t PC) {
  if (M)
    return M->symbolize(PC);
  char Hex[32];
  snprintf(Hex, sizeof(Hex), "0x%" PRIx64, PC);
  return Hex;
}

std::shared_ptr<const ElfFile> ElfCache::get(const std::string &Path,
                                             std::string &Error) {
  if (auto F = Failures.find(Path); F != Failures.end()) {
    if (F->second.Identity == FileIdentity::of(Path)) {
      Error = F->second.Why;
      return nullptr;
    }
    Failures.erase(F); // the path names another file now: tried again
  }
  if (auto It = Files.find(Path); It != Files.end()) {
    std::shared_ptr<const ElfFile> Live = It->second.lock();
    if (Live && Live->isStillAt(Path))
      return Live;
    // Nobody uses it any more, or the file changed: opened afresh below
    // (whoever still holds the old one keeps it).
    if (Live)
      std::erase(Recent, Live);
    Files.erase(It);
  }
  std::string Why;
  std::shared_ptr<const ElfFile> File = ElfFile::open(Path, Why);
  if (!File) {
    if (Failures.size() >= MaxFailures)
      Failures.clear();
    Failures.emplace(Path, Failure{Why, FileIdentity::of(Path)});
    Error = Why;
    return nullptr;
  }
  // Drop the entries of files that are gone before adding one, so the map
  // stays proportional to the files in use.
  std::erase_if(Files, [](const auto &E) { return E.second.expired(); });
  Files.emplace(Path, File);
  Recent.push_back(File);
  if (Recent.size() > KeepRecent)
    Recent.pop_front();
  return File;
}
