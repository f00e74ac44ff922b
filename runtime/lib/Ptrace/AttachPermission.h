//===- AttachPermission.h - Why an attach was refused -----------*- C++ -*-===//
//
// `kill(pid, 0)` and PTRACE_SEIZE fail with EPERM for several reasons that
// call for different fixes: the process is another user's, Yama's
// ptrace_scope forbids attaching to non-children, the process is not
// dumpable (setuid), or another tracer (gdb, strace) already has it.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_ATTACHPERMISSION_H
#define TSCC_RUNTIME_PTRACE_ATTACHPERMISSION_H

#include <string>
#include <sys/types.h>

namespace tscc::rt::pt {

/// "cannot attach to pid N: ..." saying why a permission check failed, for
/// the errno of kill() or ptrace(); the plain error for any other errno.
std::string describeAttachFailure(pid_t Pid, int Errno);

} // namespace tscc::rt::pt

#endif
