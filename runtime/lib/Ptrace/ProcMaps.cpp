//===- ProcMaps.cpp - The files a process maps ----------------------------===//
#include "ProcMaps.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>

using namespace tscc::rt;

bool pt::mapsFileWhere(pid_t Pid,
                       const std::function<bool(dev_t, ino_t)> &Match) {
  // "start-end perms offset major:minor inode path"
  std::ifstream Maps("/proc/" + std::to_string(Pid) + "/maps");
  std::string Line;
  while (std::getline(Maps, Line)) {
    std::istringstream L(Line);
    std::string Range, Perms, Off, Dev;
    unsigned long long Ino = 0;
    if (!(L >> Range >> Perms >> Off >> Dev >> Ino) || !Ino)
      continue;
    unsigned Major = 0, Minor = 0;
    if (sscanf(Dev.c_str(), "%x:%x", &Major, &Minor) != 2)
      continue;
    if (Match(makedev(Major, Minor), static_cast<ino_t>(Ino)))
      return true;
  }
  return false;
}

bool pt::mapsFileOf(pid_t Pid, int Fd) {
  struct stat St;
  if (fstat(Fd, &St) != 0)
    return false;
  return mapsFileWhere(Pid, [&](dev_t Dev, ino_t Ino) {
    return Dev == St.st_dev && Ino == St.st_ino;
  });
}
