//===- ObjectTrust.cpp - Whether tsrun may run an object file as root -----===//

#include "ObjectTrust.h"

#include <pwd.h>

using namespace tscc::rt;

namespace {

std::string userName(uid_t Uid) {
  // getpwuid may need NSS modules; a number is enough if it fails.
  if (const passwd *P = getpwuid(Uid))
    return P->pw_name;
  return "uid " + std::to_string(Uid);
}

} // namespace

bool tscc::rt::objectFileTrusted(const struct stat &St, uid_t Euid, uid_t Ruid,
                                 std::string &Why) {
  if (Euid != 0)
    return true;
  const char *Override =
      "; a probe object is code that tsrun runs as root (pass "
      "--allow-untrusted-object to run it anyway)";
  if (St.st_mode & (S_IWGRP | S_IWOTH)) {
    Why = std::string("refusing to run an object file that is writable by ") +
          ((St.st_mode & S_IWOTH) ? "others" : "its group") + Override;
    return false;
  }
  if (St.st_uid != 0 && St.st_uid != Ruid) {
    Why = "refusing to run an object file owned by " + userName(St.st_uid) +
          Override;
    return false;
  }
  return true;
}
