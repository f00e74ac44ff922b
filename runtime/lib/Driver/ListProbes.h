//===- ListProbes.h - tsrun -l: what a probe specification matches -*- C++ -*-===//
//
// `tsrun -l SPEC [BINARY | -p PID | -- CMD]` lists the functions (with their
// modules and addresses) and system calls (per data model) that SPEC
// matches, with the same matcher and the same module rules as a session.
// Nothing is traced: a binary's libraries are found as the dynamic loader
// would find them, a process's from /proc/PID/maps, without ptrace.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_DRIVER_LISTPROBES_H
#define TSCC_RUNTIME_DRIVER_LISTPROBES_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace tscc::rt {

struct ListRequest {
  std::string Spec;   ///< "uft:*:libc.so.6:mall*:entry", "@@" optional
  std::string Binary; ///< a program file, or the command's argv[0]
  int64_t Pid = 0;    ///< or a running process
};

/// Prints one line per match to Out. Returns false with Error when the
/// specification is malformed, a target cannot be read, or nothing matches.
bool listProbes(const ListRequest &R, FILE *Out, std::string &Error);

} // namespace tscc::rt

#endif
