/*===- i386/arch.h - What the agent does differently in 32-bit processes ---===*
 *
 * See x86_64/arch.h. System calls are made with int $0x80 (the agent's are
 * all off the hot path; sysenter would need the vDSO's stub), or through
 * Syscall User Dispatch's gadget, threads are
 * told apart by their TCB address (%gs:0, glibc's tcbhead_t.tcb), and the
 * trampoline calls the agent without skipping a red zone (i386 has none).
 * i386/entry.S is this build's assembly.
 *===----------------------------------------------------------------------===*/
#ifndef TSCC_AGENT_I386_ARCH_H
#define TSCC_AGENT_I386_ARCH_H

#include <stdint.h>

/* ebx and ebp may hold the PIC base and the frame pointer: both are saved
 * around the call, and the six arguments come from memory. In a process
 * with Syscall User Dispatch (sud.c) the call goes through the gadget
 * (config.syscall_gadget, `int $0x80; ret`), the one range SUD lets calls
 * through from; every register is an argument then, so the gadget is
 * called through its absolute address (this build is not PIC). */
static inline long sys6(long Nr, long A, long B, long C, long D, long E,
                        long F) {
  long Args[6] = {A, B, C, D, E, F}, *P = Args;
  __asm__ volatile("push %%ebp\n\t"
                   "push %%ebx\n\t"
                   "mov 20(%%ecx), %%ebp\n\t"
                   "mov 16(%%ecx), %%edi\n\t"
                   "mov 12(%%ecx), %%esi\n\t"
                   "mov 8(%%ecx), %%edx\n\t"
                   "mov 0(%%ecx), %%ebx\n\t"
                   "mov 4(%%ecx), %%ecx\n\t"
                   "cmpl $0, %[g]\n\t"
                   "je 1f\n\t"
                   "call *%[g]\n\t"
                   "jmp 2f\n"
                   "1:\tint $0x80\n"
                   "2:\tpop %%ebx\n\t"
                   "pop %%ebp"
                   : "+a"(Nr), "+c"(P)
                   : [g] "m"(tscc_agent_config.syscall_gadget)
                   : "edx", "esi", "edi", "memory", "cc");
  return Nr;
}

enum {
  NR_getpid = 20,
  NR_kill = 37,
  NR_sched_yield = 158,
  NR_rt_sigaction = 174,
  NR_rt_sigprocmask = 175,
  NR_clock_gettime = 403, /* clock_gettime64: a 64-bit struct timespec */
  NR_gettid = 224,
  NR_tgkill = 270,
  NR_futex = 240,
  NR_prctl = 172,
  NR_open = 5,
  NR_read = 3,
  NR_close = 6,
  NR_pread64 = 180,
  NR_pwrite64 = 181,
  NR_mprotect = 125,
  NR_membarrier = 375,
  NR_mmap = 192, /* mmap2: the offset in pages */
  NR_mremap = 163,
  NR_munmap = 91,
  NR_madvise = 219,
  NR_statx = 383,
};

/* pwrite64 takes its 64-bit offset as two registers, low half first. */
static inline long sys_pwrite64(long Fd, const void *Buf, unsigned long Len,
                                uint64_t Offset) {
  return sys6(NR_pwrite64, Fd, (long)Buf, (long)Len, (long)(uint32_t)Offset,
              (long)(uint32_t)(Offset >> 32), 0);
}

static inline long sys_pread64(long Fd, void *Buf, unsigned long Len,
                               uint64_t Offset) {
  return sys6(NR_pread64, Fd, (long)Buf, (long)Len, (long)(uint32_t)Offset,
              (long)(uint32_t)(Offset >> 32), 0);
}

/* The TCB's address: glibc keeps it at %gs:0 (tcbhead_t.tcb). Before the
 * thread pointer is set up %gs holds the null selector, and reading
 * through it would fault: 0 then, like an unset fs base. */
static inline uint64_t agent_thread_key(int HasFsgsbase) {
  (void)HasFsgsbase;
  uint32_t Sel, Tcb = 0;
  __asm__ volatile("mov %%gs, %0" : "=r"(Sel));
  if (__builtin_expect(Sel != 0, 1))
    __asm__ volatile("mov %%gs:0, %0" : "=r"(Tcb));
  return Tcb;
}

#define AGENT_RED_ZONE 0
#define AGENT_TRAMPOLINE_CALL_END TSCC_TRAMPOLINE_CALL_END_I386
#define AGENT_TRAMPOLINE_COPY TSCC_TRAMPOLINE_COPY_I386

/* i386 ucontext_t: gregs[] at 20; REG_ESP 7, REG_EIP 14. */
#define AGENT_UC_SP(Uc) ((uint32_t *)((char *)(Uc) + 20) + 7)
#define AGENT_UC_PC(Uc) ((uint32_t *)((char *)(Uc) + 20) + 14)
typedef uint32_t agent_greg_t;

#define AGENT_JUMP(Sp, Pc)                                                     \
  __asm__ volatile("mov %0, %%esp\n\tjmp *%1"                                  \
                   :                                                           \
                   : "r"((uint32_t)(Sp)), "r"((uint32_t)(Pc))                  \
                   : "memory")

/* A 32-bit process's address space ends at 4 GiB. */
#define AGENT_USER_END 0x100000000ull

/* The kernel's struct sigaction of a 32-bit process (tscc/agent.h). */
#define AGENT_KSA_HANDLER(A) ((A)->handler)
#define AGENT_KSA_FLAGS(A) ((A)->flags)
#define AGENT_KSA_MASK(A)                                                      \
  ((uint64_t)(A)->mask[0] | (uint64_t)(A)->mask[1] << 32)

#endif
