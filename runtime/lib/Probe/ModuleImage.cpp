//===- ModuleImage.cpp - A module mapped in a process ---------------------===//

#include "tscc/Runtime/ModuleImage.h"

#include "tscc/Runtime/LinkMap.h"

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

std::shared_ptr<const ElfFile> ElfCache::get(const std::string &Path,
                                             std::string &Error) {
  auto [It, New] = Files.try_emplace(Path);
  if (New)
    It->second.File = ElfFile::open(Path, It->second.Error);
  if (!It->second.File)
    Error = It->second.Error;
  return It->second.File;
}
