//===- tscc/Runtime/CommandPath.h - Finding a command as execvp does ------===//
#ifndef TSCC_RUNTIME_COMMANDPATH_H
#define TSCC_RUNTIME_COMMANDPATH_H

#include <string>

namespace tscc::rt {

/// Finds Name as execvp() would: as is when it has a slash, else the first
/// executable regular file of that name in $PATH (glibc's default when
/// unset). False with Error ("cannot run 'ls': ...") when there is none.
bool resolveCommand(const std::string &Name, std::string &Path,
                    std::string &Error);

} // namespace tscc::rt

#endif
