//===- SeccompBpf.h - What a seccomp filter decides (private) -------------===//
//
// A process can be sandboxed by seccomp filters: classic BPF programs the
// kernel runs at every system call on a `struct seccomp_data` (number,
// architecture, instruction pointer, six arguments). Before tsrun makes a
// process run a system call it asks the process's filters what they would
// do, by running them here exactly as the kernel does:
//   - the opcodes seccomp accepts (kernel/seccomp.c seccomp_check_filter:
//     32-bit loads of seccomp_data, the ALU without MOD, jumps, returns,
//     scratch memory, TAX/TXA), with the classic-BPF semantics of the
//     kernel's interpreter: 32-bit A and X, shifts by X masked to 5 bits,
//     a division by X == 0 ending the program with 0 (KILL_THREAD);
//   - stacked filters all run, and the most restrictive action wins
//     (ACTION_ONLY: the action bits as a signed number; on a tie the most
//     recently installed filter's return value, data included);
//   - an action the kernel does not know kills the process, as it does.
// The interpreter is pure and total: any program, however malformed (a
// jump out of range, a scratch slot out of bounds, an unknown opcode, no
// return at the end), ends in an error, never in a crash or a loop, after
// at most one step per instruction (classic BPF only jumps forward).
//
//===----------------------------------------------------------------------===//
#ifndef TSCC_RUNTIME_PTRACE_SECCOMPBPF_H
#define TSCC_RUNTIME_PTRACE_SECCOMPBPF_H

#include <cstdint>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tscc::rt::pt {

/// What a filter's return value tells the kernel to do, least permissive
/// first.
enum class SeccompAction : uint8_t {
  KillProcess,
  KillThread,
  Trap,      ///< SIGSYS to the thread, which its handler may emulate
  Errno,     ///< the call fails with the data as errno, unexecuted
  UserNotif, ///< a supervisor decides (and may do anything meanwhile)
  Trace,     ///< a ptrace seccomp stop; ENOSYS when nobody asked for them
  Log,       ///< allowed, and logged
  Allow,
};

/// The action of a return value; values the kernel does not know kill the
/// process (kernel/seccomp.c, __seccomp_filter's default case).
SeccompAction seccompAction(uint32_t Ret);
/// What Ret does to the call Name, for messages: "kills the process on
/// mmap (SECCOMP_RET_KILL_PROCESS)", "fails socket with EPERM
/// (SECCOMP_RET_ERRNO)", ...
std::string describeSeccompReturn(uint32_t Ret, const std::string &Name);
/// Whether the kernel prefers A over B when two filters disagree: A's
/// action is strictly more restrictive (ACTION_ONLY(A) < ACTION_ONLY(B)).
bool moreRestrictive(uint32_t A, uint32_t B);

/// One run of one or more programs on one seccomp_data.
struct BpfOutcome {
  bool Ok = false;  ///< every program reached a return
  uint32_t Ret = 0; ///< the return value the kernel acts on (when Ok)
  /// Which 32-bit words of seccomp_data the programs read on the paths
  /// they took: bit I is offset 4 * I (0 nr, 1 arch, 2-3 the instruction
  /// pointer, 4 + 2 * N and 5 + 2 * N argument N). A verdict that read an
  /// argument tsrun cannot foresee is no verdict for other values of it.
  uint16_t Loaded = 0;
  std::string Error; ///< why not Ok: which instruction is malformed
};

/// Word masks of Loaded.
constexpr uint16_t LoadedNr = 1u << 0, LoadedArch = 1u << 1, LoadedIP = 3u << 2;
constexpr uint16_t loadedArg(unsigned N) { return uint16_t(3u << (4 + 2 * N)); }

/// Runs Prog on Data as the kernel would.
BpfOutcome runSeccompProgram(std::span<const sock_filter> Prog,
                             const seccomp_data &Data);

/// Runs a thread's stacked filters, most recently installed first (the
/// order PTRACE_SECCOMP_GET_FILTER numbers them in), and combines their
/// verdicts as the kernel does. No filter at all allows.
BpfOutcome runSeccompFilters(std::span<const std::vector<sock_filter>> Filters,
                             const seccomp_data &Data);

/// Why the kernel would refuse to install Prog, or "" if it would accept
/// it: its length, an opcode seccomp does not take, a load outside
/// seccomp_data or not aligned, a jump past the end, a division by a
/// constant 0, a constant shift of 32 or more, a scratch slot out of range
/// or read before every path to it stored it, no return at the end.
std::string checkSeccompProgram(std::span<const sock_filter> Prog);

} // namespace tscc::rt::pt

#endif // TSCC_RUNTIME_PTRACE_SECCOMPBPF_H
