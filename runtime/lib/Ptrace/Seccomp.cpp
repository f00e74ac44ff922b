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

std::vector<sock_filter>
tscc::rt::pt::buildSeccompFilter(const std::vector<uint32_t> &Nrs) {
  std::vector<sock_filter> F;
  auto Stmt = [&](uint16_t Code, uint32_t K) {
    F.push_back(sock_filter{Code, 0, 0, K});
  };
  auto Jump = [&](uint16_t Code, uint32_t K, uint8_t Jt, uint8_t Jf) {
    F.push_back(sock_filter{Code, Jt, Jf, K});
  };
  // if (arch != x86_64) allow;
  Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
  Jump(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
  Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  // x32 syscalls have bit 30 set; they are not ours either.
  Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
  Jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
  Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  // A linear chain: one compare per traced number. Jump offsets are 8-bit,
  // and each compare jumps to the RET_TRACE at the end.
  size_t N = Nrs.size();
  for (size_t I = 0; I < N; ++I) {
    size_t Remaining = N - I - 1; // compares after this one
    // Target: skip the remaining compares and the RET_ALLOW.
    size_t Skip = Remaining + 1;
    if (Skip > 255) {
      // Too far for one jump: fall back to tracing every syscall.
      F.resize(6);
      Stmt(BPF_RET | BPF_K, SECCOMP_RET_TRACE | OurTraceData);
      return F;
    }
    Jump(BPF_JMP | BPF_JEQ | BPF_K, Nrs[I], static_cast<uint8_t>(Skip), 0);
  }
  Stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  Stmt(BPF_RET | BPF_K, SECCOMP_RET_TRACE | OurTraceData);
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
