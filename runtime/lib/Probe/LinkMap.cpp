//===- LinkMap.cpp - Module paths shared by the backends ------------------===//

#include "tscc/Runtime/LinkMap.h"

#include <climits>
#include <cstdlib>

std::string tscc::rt::canonicalModulePath(const std::string &Path) {
  char Buf[PATH_MAX];
  if (realpath(Path.c_str(), Buf))
    return Buf;
  return Path;
}

std::string tscc::rt::moduleBaseName(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}
