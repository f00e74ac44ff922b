//===- tscc/Runtime/Auxv.h - A process's ELF auxiliary vector -------------===//
//
// What the kernel told a process when it started it (AT_SYSINFO_EHDR, the
// vDSO; AT_HWCAP2; AT_ENTRY...), read back from /proc/PID/auxv. Its entries
// are pairs of words as wide as the process's own: 4 bytes in a 32-bit
// process, whatever tsrun is.
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_AUXV_H
#define TSCC_RUNTIME_AUXV_H

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <span>

namespace tscc::rt {

/// The entries of an auxiliary vector of WordSize-byte words (4 or 8), up
/// to AT_NULL or the last whole pair; a type given twice keeps its first.
std::map<uint64_t, uint64_t> parseAuxv(std::span<const uint8_t> Bytes,
                                       unsigned WordSize);

/// Process Pid's, or nothing when /proc cannot tell.
std::map<uint64_t, uint64_t> readProcessAuxv(pid_t Pid, unsigned WordSize);

} // namespace tscc::rt

#endif
