//===- Seccomp.h - Stop only on traced syscalls (private) -----------------===//
//
// A launched command gets a seccomp filter before exec that returns
// SECCOMP_RET_TRACE for the syscall numbers a syscall probe asks for and
// SECCOMP_RET_ALLOW for everything else, so untraced syscalls never stop
// the process. The filter is inherited by children and across exec. Its
// RET_TRACE carries OurTraceData, which tells its stops from those a
// program's own filter asks for.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_SECCOMP_H
#define TSCC_RUNTIME_PTRACE_SECCOMP_H

#include <cstdint>
#include <linux/filter.h>
#include <vector>

namespace tscc::rt::pt {

/// The data of our filter's SECCOMP_RET_TRACE ("ts"): a seccomp stop with
/// another event message comes from a filter of the program's own.
constexpr uint16_t OurTraceData = 0x7473;

/// The BPF program for the x86-64 numbers Nrs and the i386 numbers
/// NrsI386 (each sorted, unique), told apart by seccomp_data.arch: a 32-bit
/// program (exec'ed by the launched command, or the command itself) and an
/// int $0x80 from a 64-bit one are i386 calls. x32 calls run untraced.
///
/// A 64-bit call made from the instruction before AllowIP (when not 0) is
/// allowed whatever its number: the gadget of system-call sites
/// (SyscallSites.h), which run the clauses in the process themselves.
std::vector<sock_filter>
buildSeccompFilter(const std::vector<uint32_t> &Nrs,
                   const std::vector<uint32_t> &NrsI386 = {},
                   uint64_t AllowIP = 0);

/// Installs Filter in the calling process. Async-signal-safe (runs between
/// fork and exec). Returns 0 or an errno value.
int installSeccompFilter(const std::vector<sock_filter> &Filter);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_SECCOMP_H
