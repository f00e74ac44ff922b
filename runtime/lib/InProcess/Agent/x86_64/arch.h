/*===- x86_64/arch.h - What the agent does differently on x86-64 -----------===*
 *
 * The agent's sources are shared by its x86-64 and i386 builds; what
 * depends on the instruction set is here (and in i386/arch.h): system
 * calls, which thread is running, the frame a trampoline saves, signal
 * contexts and the kernel's struct sigaction. entry.S is this build's
 * assembly.
 *===----------------------------------------------------------------------===*/
#ifndef TSCC_AGENT_X86_64_ARCH_H
#define TSCC_AGENT_X86_64_ARCH_H

#include <stdint.h>

/* In a process with Syscall User Dispatch (sud.c) the agent's system
 * calls go through the gadget (config.syscall_gadget, set by tsrun with
 * SUD only), the one address SUD lets a call through from, so that they
 * raise no SIGSYS in the agent itself. Elsewhere it is 0 and the agent
 * makes its calls where it is. The call skips the red zone of the C code. */
static inline long sys6(long Nr, long A, long B, long C, long D, long E,
                        long F) {
  long R;
  register long R10 __asm__("r10") = D;
  register long R8 __asm__("r8") = E;
  register long R9 __asm__("r9") = F;
  uint64_t Gadget =
      __atomic_load_n(&tscc_agent_config.syscall_gadget, __ATOMIC_RELAXED);
  if (__builtin_expect(Gadget != 0, 1))
    __asm__ volatile("lea -128(%%rsp),%%rsp\n\t"
                     "call *%[g]\n\t"
                     "lea 128(%%rsp),%%rsp"
                     : "=a"(R)
                     : [g] "r"(Gadget), "a"(Nr), "D"(A), "S"(B), "d"(C),
                       "r"(R10), "r"(R8), "r"(R9)
                     : "rcx", "r11", "memory");
  else
    __asm__ volatile("syscall"
                     : "=a"(R)
                     : "a"(Nr), "D"(A), "S"(B), "d"(C), "r"(R10), "r"(R8),
                       "r"(R9)
                     : "rcx", "r11", "memory");
  return R;
}

enum {
  NR_getpid = 39,
  NR_kill = 62,
  NR_sched_yield = 24,
  NR_rt_sigaction = 13,
  NR_rt_sigprocmask = 14,
  NR_clock_gettime = 228, /* with a 64-bit struct timespec */
  NR_gettid = 186,
  NR_tgkill = 234,
  NR_futex = 202,
  NR_arch_prctl = 158,
  NR_prctl = 157,
  NR_open = 2,
  NR_read = 0,
  NR_close = 3,
  NR_pread64 = 17,
  NR_pwrite64 = 18,
  NR_mprotect = 10,
  NR_membarrier = 324,
  NR_mmap = 9, /* the offset in bytes */
  NR_mremap = 25,
  NR_munmap = 11,
  NR_madvise = 28,
  NR_statx = 332,
};

/* pwrite64 at a 64-bit file offset. */
static inline long sys_pwrite64(long Fd, const void *Buf, unsigned long Len,
                                uint64_t Offset) {
  return sys6(NR_pwrite64, Fd, (long)Buf, (long)Len, (long)Offset, 0, 0);
}

static inline long sys_pread64(long Fd, void *Buf, unsigned long Len,
                               uint64_t Offset) {
  return sys6(NR_pread64, Fd, (long)Buf, (long)Len, (long)Offset, 0, 0);
}

/* What tells threads apart without a system call: the fs base, the thread
 * pointer (one instruction with FSGSBASE). 0 before libc set one up. */
#define ARCH_GET_FS 0x1003
static inline uint64_t agent_thread_key(int HasFsgsbase) {
  uint64_t Base = 0;
  if (__builtin_expect(HasFsgsbase, 1))
    __asm__ volatile("rdfsbase %0" : "=r"(Base));
  else
    sys6(NR_arch_prctl, ARCH_GET_FS, (long)&Base, 0, 0, 0, 0);
  return Base;
}

/* Where the program's rsp was at the site: above the return address the
 * trampoline's call pushed and the red zone it skipped. */
#define AGENT_RED_ZONE 128
#define AGENT_TRAMPOLINE_CALL_END TSCC_TRAMPOLINE_CALL_END
#define AGENT_TRAMPOLINE_COPY TSCC_TRAMPOLINE_COPY

/* x86-64 ucontext_t: gregs[] at 40; REG_RSP 15, REG_RIP 16. */
#define AGENT_UC_SP(Uc) ((uint64_t *)((char *)(Uc) + 40) + 15)
#define AGENT_UC_PC(Uc) ((uint64_t *)((char *)(Uc) + 40) + 16)
typedef uint64_t agent_greg_t;

/* Continues at Pc on the stack Sp (a clause that must end at once). */
#define AGENT_JUMP(Sp, Pc)                                                     \
  __asm__ volatile("mov %0, %%rsp\n\tjmp *%1" : : "r"(Sp), "r"(Pc) : "memory")

/* The highest user address plus one. */
#define AGENT_USER_END 0x800000000000ull

/* The kernel's struct sigaction for rt_sigaction() is tscc_kernel_sigaction
 * itself (tscc/agent.h). */
#define AGENT_KSA_HANDLER(A) ((A)->handler)
#define AGENT_KSA_FLAGS(A) ((A)->flags)
#define AGENT_KSA_MASK(A) ((A)->mask)

#endif
