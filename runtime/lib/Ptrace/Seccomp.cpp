//===- Seccomp.cpp - Stop only on traced syscalls -------------------------===//
#include "Seccomp.h"

#include <cerrno>
#include <cstddef>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace tscc::rt::pt;

namespace {

void stmt(std::vector<sock_filter> &F, uint16_t Code, uint32_t K) {
  F.push_back(sock_filter{Code, 0, 0, K});
}

void jump(std::vector<sock_filter> &F, uint16_t Code, uint32_t K, uint8_t Jt,
          uint8_t Jf) {
  F.push_back(sock_filter{Code, Jt, Jf, K});
}

/// RET_TRACE, or RET_ALLOW for a call whose instruction pointer is IP
/// (both words) when IP is not 0: the gadget of system-call sites.
void traceUnlessFrom(std::vector<sock_filter> &F, uint64_t IP) {
  if (IP) {
    stmt(F, BPF_LD | BPF_W | BPF_ABS,
         offsetof(seccomp_data, instruction_pointer));
    jump(F, BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(IP), 0, 3);
    stmt(F, BPF_LD | BPF_W | BPF_ABS,
         offsetof(seccomp_data, instruction_pointer) + 4);
    jump(F, BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(IP >> 32), 0, 1);
    stmt(F, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  }
  stmt(F, BPF_RET | BPF_K, SECCOMP_RET_TRACE | OurTraceData);
}

/// The part of the filter for one architecture, entered with its number
/// not yet loaded: RET_TRACE for Nrs (RET_ALLOW from AllowIP), RET_ALLOW
/// otherwise. Jump offsets are 8-bit, so a list too long for one chain
/// traces every call of the architecture instead.
///
/// The instruction pointer is read only once the number is a traced one:
/// the kernel's seccomp action cache (Linux 5.11) then finds that every
/// other number is allowed by the arch and the number alone, and lets
/// those calls through without running the filter at all. A filter that
/// reads the instruction pointer first runs on every call of the process.
std::vector<sock_filter> archBlock(const std::vector<uint32_t> &Nrs,
                                   bool SkipX32, uint64_t AllowIP) {
  std::vector<sock_filter> F;
  if (Nrs.empty()) {
    stmt(F, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    return F;
  }
  if (Nrs.size() + 1 > 255) {
    stmt(F, BPF_RET | BPF_K, SECCOMP_RET_TRACE | OurTraceData);
    return F;
  }
  stmt(F, BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
  // x32 system calls come in as x86-64 ones with bit 30 set; not ours.
  if (SkipX32) {
    jump(F, BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
    stmt(F, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  }
  // A linear chain: one compare per traced number, each jumping to the
  // RET_TRACE part at the end (past the remaining compares and the
  // RET_ALLOW).
  for (size_t I = 0; I < Nrs.size(); ++I)
    jump(F, BPF_JMP | BPF_JEQ | BPF_K, Nrs[I],
         static_cast<uint8_t>(Nrs.size() - I), 0);
  stmt(F, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  traceUnlessFrom(F, AllowIP);
  return F;
}

} // namespace

std::vector<sock_filter>
tscc::rt::pt::buildSeccompFilter(const std::vector<uint32_t> &Nrs,
                                 const std::vector<uint32_t> &NrsI386,
                                 uint64_t AllowIP) {
  // The filter is inherited across exec, and a process may exec a program
  // of the other architecture (or a 64-bit one may make an int $0x80
  // call): each architecture gets its own numbers.
  std::vector<sock_filter> X86_64 = archBlock(Nrs, /*SkipX32=*/true, AllowIP);
  std::vector<sock_filter> I386 = archBlock(NrsI386, /*SkipX32=*/false, 0);
  std::vector<sock_filter> F;
  stmt(F, BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
  // archBlock keeps each block within 255 + 4 instructions; a jump over
  // the x86-64 block needs it shorter than 256.
  if (X86_64.size() > 255)
    X86_64 = {
        sock_filter{BPF_RET | BPF_K, 0, 0, SECCOMP_RET_TRACE | OurTraceData}};
  jump(F, BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0,
       static_cast<uint8_t>(X86_64.size()));
  F.insert(F.end(), X86_64.begin(), X86_64.end());
  // Other architectures (there are none on x86-64 but these two) run free.
  jump(F, BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 1, 0);
  stmt(F, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  F.insert(F.end(), I386.begin(), I386.end());
  return F;
}

int tscc::rt::pt::installSeccompFilter(const std::vector<sock_filter> &Filter) {
  sock_fprog Prog{static_cast<unsigned short>(Filter.size()),
                  const_cast<sock_filter *>(Filter.data())};
  // Root (CAP_SYS_ADMIN) may install a filter without no_new_privs; keep
  // setuid programs working when we can.
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &Prog) == 0)
    return 0;
  if (errno != EACCES)
    return errno;
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return errno;
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &Prog) != 0)
    return errno;
  return 0;
}
