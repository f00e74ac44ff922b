//===- CommandPath.cpp - Finding a command as execvp does -----------------===//
#include "tscc/Runtime/CommandPath.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

bool tscc::rt::resolveCommand(const std::string &Name, std::string &Path,
                              std::string &Error) {
  if (Name.find('/') != std::string::npos) {
    // execve() says EACCES for a directory, which sends the user looking
    // at permissions.
    struct stat St;
    if (stat(Name.c_str(), &St) == 0 && S_ISDIR(St.st_mode)) {
      Error = "cannot run '" + Name + "': it is a directory";
      return false;
    }
    Path = Name;
    return true;
  }
  const char *Env = getenv("PATH");
  std::string Dirs = Env ? Env : "/bin:/usr/bin";
  bool Denied = false;
  for (size_t Start = 0; Start <= Dirs.size();) {
    size_t End = Dirs.find(':', Start);
    if (End == std::string::npos)
      End = Dirs.size();
    std::string Dir = Dirs.substr(Start, End - Start);
    Start = End + 1;
    std::string Candidate = (Dir.empty() ? "." : Dir) + "/" + Name;
    struct stat St;
    if (stat(Candidate.c_str(), &St) != 0 || !S_ISREG(St.st_mode))
      continue;
    if (access(Candidate.c_str(), X_OK) == 0) {
      Path = Candidate;
      return true;
    }
    Denied = true;
  }
  Error = "cannot run '" + Name + "': " +
          (Denied ? std::string(strerror(EACCES))
                  : std::string("command not found in PATH"));
  return false;
}
