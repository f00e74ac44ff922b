//===- ObjectTrust.h - Whether tsrun may run an object file as root -*- C++ -*-===//
//
// A probe object is code that tsrun runs with its own privileges (and, on
// the in-process path, inside every traced process). Running as root, tsrun
// refuses an object someone else could have written, as ssh refuses a key
// file other users can write.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_LIB_DRIVER_OBJECTTRUST_H
#define TSCC_RUNTIME_LIB_DRIVER_OBJECTTRUST_H

#include <string>
#include <sys/stat.h>
#include <sys/types.h>

namespace tscc::rt {

/// Whether a process with effective uid Euid and real uid Ruid may run the
/// object file St describes. Without root (Euid != 0) every file is
/// acceptable: the object can do nothing the user could not do anyway. As
/// root, the file must be writable by its owner only, and owned by root or
/// by the real user (the one who ran a setuid or sudo'ed tsrun on their own
/// file). False with Why set to the reason and the way out.
bool objectFileTrusted(const struct stat &St, uid_t Euid, uid_t Ruid,
                       std::string &Why);

} // namespace tscc::rt

#endif
