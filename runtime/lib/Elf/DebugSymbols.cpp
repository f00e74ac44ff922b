//===- DebugSymbols.cpp - Symbols from separate debug files ---------------===//
//
// Distributions strip their binaries and ship the symbol tables apart
// (Debian's *-dbg and *-dbgsym packages): libc.so.6 keeps about 2,600
// function symbols in .dynsym, its debug file has 7,000 more, the static
// functions among them. tsrun finds the debug file as gdb does:
//
//   DIR/.build-id/xx/yyyy.debug       for each debug directory DIR
//   FILEDIR/NAME, FILEDIR/.debug/NAME, DIR/FILEDIR/NAME
//                                     for the `.gnu_debuglink` NAME
//
// where the debug directories are $TSCC_DEBUG_FILE_DIRECTORY (colon
// separated; empty for none) or /usr/lib/debug. A candidate is used only if
// it describes this very build: the same build-id, else the CRC-32 that
// the debug link records; and the same load segments, so that its symbol
// values need no other bias than the stripped file's.
//
//===----------------------------------------------------------------------===//
#include "tscc/Runtime/ElfFile.h"

#include <array>
#include <climits>
#include <cstdlib>
#include <sys/stat.h>

using namespace tscc::rt;

namespace {

std::vector<std::string> debugDirectories() {
  const char *Env = std::getenv("TSCC_DEBUG_FILE_DIRECTORY");
  std::string List = Env ? Env : "/usr/lib/debug";
  std::vector<std::string> Dirs;
  size_t Start = 0;
  while (Start <= List.size()) {
    size_t End = List.find(':', Start);
    if (End == std::string::npos)
      End = List.size();
    if (End > Start)
      Dirs.push_back(List.substr(Start, End - Start));
    Start = End + 1;
  }
  return Dirs;
}

/// The directory of the file's real path ("" if it cannot be resolved).
std::string realDirectory(const std::string &Path) {
  char Buf[PATH_MAX];
  if (!realpath(Path.c_str(), Buf))
    return {};
  std::string Real(Buf);
  size_t Slash = Real.rfind('/');
  return Slash == std::string::npos ? std::string() : Real.substr(0, Slash);
}

struct Candidate {
  std::string Path;
  bool ByBuildId = false;
};

bool isRegularFile(const std::string &Path, const struct stat &Self) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode) &&
         !(St.st_dev == Self.st_dev && St.st_ino == Self.st_ino);
}

} // namespace

uint32_t tscc::rt::debugLinkCrc32(std::string_view Bytes, uint32_t Crc) {
  static const std::array<uint32_t, 256> Table = [] {
    std::array<uint32_t, 256> T{};
    for (uint32_t I = 0; I < 256; ++I) {
      uint32_t C = I;
      for (int K = 0; K < 8; ++K)
        C = C & 1 ? 0xedb88320u ^ (C >> 1) : C >> 1;
      T[I] = C;
    }
    return T;
  }();
  Crc = ~Crc;
  for (unsigned char B : Bytes)
    Crc = Table[(Crc ^ B) & 0xff] ^ (Crc >> 8);
  return ~Crc;
}

void ElfFile::addSeparateDebugSymbols() {
  struct stat Self;
  if (stat(Path.c_str(), &Self) != 0)
    return;
  std::vector<Candidate> Found;
  std::vector<std::string> Dirs = debugDirectories();
  std::string Hex = buildIdHex();
  if (Hex.size() > 2)
    for (const std::string &D : Dirs)
      Found.push_back({D + "/.build-id/" + Hex.substr(0, 2) + "/" +
                           Hex.substr(2) + ".debug",
                       true});
  if (!DebugLinkName.empty()) {
    std::string Dir = realDirectory(Path);
    Found.push_back({Dir + "/" + DebugLinkName, false});
    Found.push_back({Dir + "/.debug/" + DebugLinkName, false});
    for (const std::string &D : Dirs)
      Found.push_back({D + Dir + "/" + DebugLinkName, false});
  }
  for (const Candidate &C : Found) {
    if (!isRegularFile(C.Path, Self))
      continue;
    std::string Error;
    std::unique_ptr<ElfFile> Debug =
        ElfFile::open(C.Path, Error, DebugSymbols::None);
    if (!Debug) {
      DebugProblems.push_back(Error);
      continue;
    }
    // The same build: its build-id, else the CRC its debug link recorded.
    bool Same = !BuildId.empty() && Debug->buildId() == BuildId;
    if (!Same && !C.ByBuildId && (BuildId.empty() || Debug->BuildId.empty()))
      Same = debugLinkCrc32(Debug->bytes(0, Debug->Size)) == DebugLinkCrc;
    if (!Same) {
      DebugProblems.push_back(C.Path + ": not the debug file of " + Path +
                              (C.ByBuildId || !BuildId.empty()
                                   ? " (another build-id)"
                                   : " (another CRC)"));
      continue;
    }
    if (!sameLoadLayout(*Debug)) {
      DebugProblems.push_back(C.Path + ": its load segments differ from " +
                              Path + "'s; its symbols are not used");
      continue;
    }
    for (const ElfSymbol &S : Debug->functions()) {
      if (!loadSegmentFor(S.Value))
        continue;
      ElfSymbol Copy = S;
      Copy.Dynamic = false;
      Functions.push_back(std::move(Copy));
    }
    DebugFile = C.Path;
    finishSymbols();
    return;
  }
}
