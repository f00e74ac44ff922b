/*===- sud.c - System calls no patched site caught (Syscall User Dispatch) -===*
 *
 * With Syscall User Dispatch on in a thread (prctl, set up by tsrun), the
 * kernel turns every system call made outside the SUD code page into a
 * SIGSYS while the selector says TSCC_SUD_BLOCK. tscc_agent_sigsys takes
 * them:
 *   - a traced number (a hook in tscc_sud_data) runs its entry clauses,
 *     is made from the gadget, and runs its exit clauses, in the handler;
 *   - any other call is made where it was, as the program made it, from a
 *     stub of the code page (`syscall; jmp back`): the handler only moves
 *     the pc there, so clone() with a new stack, vfork(), execve() and
 *     rt_sigreturn() behave exactly as at their own site;
 *   - rt_sigprocmask() and rt_sigaction() never let the program block
 *     SIGSYS (a forced SIGSYS that is blocked kills the process): the
 *     handler makes them with SIGSYS taken out, and keeps the program's
 *     own SIGSYS disposition in config.chained_sys, where SIGSYSs that are
 *     not SUD's (a seccomp filter's SECCOMP_RET_TRAP, kill -SYS) go.
 * Once tsrun is gone the selector goes to TSCC_SUD_ALLOW: no more SIGSYS.
 *
 * Both builds: in a 32-bit process the calls are `int $0x80` and the
 * vDSO's __kernel_vsyscall (`call *%gs:0x10`, sysenter). A SIGSYS of
 * either has eax the number, ebx ecx edx esi edi ebp the six arguments
 * (ebp the sixth, which the vDSO keeps on the stack, as the kernel read
 * it) and the pc just past an `int $0x80` -- the vDSO's sysenter path too
 * goes on at its int80 landing pad, right after one -- so a call made
 * again from a stub (`int $0x80; jmp *target`) or the gadget, with the
 * result put into eax, goes on as the kernel would have.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

void tscc_agent_sigsys(int Sig, void *Info, void *Uc) HIDDEN;
void agent_chain_signal(int Sig, void *Info, void *Uc,
                        struct tscc_kernel_sigaction *Slot);
int agent_syscall_has_hooks(const struct tscc_agent_site *Site, uint32_t Kind,
                            uint64_t Nr);
void agent_syscall_run_hooks(const struct tscc_agent_site *Site, uint32_t Kind,
                             uint64_t Nr, const uint64_t *Regs);

enum {
  SIGSYS_NR = 31,
  SYS_USER_DISPATCH = 2, /* si_code */
  SIG_SETMASK_HOW = 2,
  ENOSYS_ERR = 38,
};

#if defined(__x86_64__)
enum {
  NR_rt_sigreturn = 15,
  NR_sigreturn = -1, /* none */
  /* ucontext gregs (x86-64 REG_*) */
  G_R8 = 0,
  G_R9 = 1,
  G_R10 = 2,
  G_R11 = 3,
  G_R12 = 4,
  G_RDI = 8,
  G_RSI = 9,
  G_RBP = 10,
  G_RBX = 11,
  G_RDX = 12,
  G_RAX = 13,
  G_RCX = 14,
  G_RSP = 15,
  G_RIP = 16,
  G_EFL = 17,
};
/* ucontext_t: gregs at 40; uc_sigmask at 296 (after fpregs pointer and
 * the reserved words of mcontext_t). siginfo's si_call_addr at 16. */
#define UC_GREGS(Uc) ((agent_greg_t *)((char *)(Uc) + 40))
#define UC_SIGMASK(Uc) ((uint64_t *)((char *)(Uc) + 296))
#define SI_CALL_ADDR(Info) (*(const uint64_t *)((const char *)(Info) + 16))
/* The six arguments, in the order of the call. */
#define ARG_REGS G_RDI, G_RSI, G_RDX, G_R10, G_R8, G_R9
#else
enum {
  NR_rt_sigreturn = 173,
  NR_sigreturn = 119,
  /* struct sigcontext_32: gs fs es ds edi esi ebp esp ebx edx ecx eax
   * trapno err eip cs eflags */
  G_RDI = 4,
  G_RSI = 5,
  G_RBP = 6,
  G_RSP = 7,
  G_RBX = 8,
  G_RDX = 9,
  G_RCX = 10,
  G_RAX = 11,
  G_RIP = 14,
  G_EFL = 16,
};
/* The ia32 ucontext: gregs at 20 (after uc_flags, uc_link, uc_stack), 22
 * words of sigcontext, then uc_sigmask at 108. si_call_addr at 12. */
#define UC_GREGS(Uc) ((agent_greg_t *)((char *)(Uc) + 20))
#define UC_SIGMASK(Uc) ((uint64_t *)((char *)(Uc) + 108))
#define SI_CALL_ADDR(Info) (*(const uint32_t *)((const char *)(Info) + 12))
#define ARG_REGS G_RBX, G_RCX, G_RDX, G_RSI, G_RDI, G_RBP
#endif

#define SIGSYS_BIT (1ull << (SIGSYS_NR - 1))

static struct tscc_sud_data *sud_data(void) {
  uint64_t Page = tscc_agent_config.sud_page;
  return Page ? AGENT_PTR(struct tscc_sud_data *, Page + TSCC_SUD_CODE_BYTES)
              : 0;
}

void agent_sud_off(void) {
  struct tscc_sud_data *D = sud_data();
  if (D)
    __atomic_store_n(&D->selector, TSCC_SUD_ALLOW, __ATOMIC_RELEASE);
}

/* Argument I (0-5) of the call in G. */
static uint64_t arg_of(const agent_greg_t *G, unsigned I) {
  static const uint8_t Regs[6] = {ARG_REGS};
  return G[Regs[I]];
}

/* Whether stub_target[Slot] is Ret's: already, or claimed now. */
static int claim(struct tscc_sud_data *D, uint32_t Slot, uint64_t Ret) {
  uint64_t Cur = __atomic_load_n(&D->stub_target[Slot], __ATOMIC_ACQUIRE);
  if (!Cur) {
    uint64_t Expected = 0;
    if (__atomic_compare_exchange_n(&D->stub_target[Slot], &Expected, Ret, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      Cur = Ret;
    else
      Cur = Expected;
  }
  return Cur == Ret;
}

/* The stub that makes a call and goes on at Ret: the one already claimed
 * for Ret, or a free one; 0 when all are taken. */
static uint64_t stub_for(struct tscc_sud_data *D, uint64_t Ret) {
  for (uint32_t I = 0; I < TSCC_SUD_REGULAR_STUBS; ++I)
    if (claim(D, I, Ret))
      return tscc_agent_config.sud_page + TSCC_SUD_STUBS +
             I * TSCC_SUD_STUB_BYTES;
  return 0;
}

/* The same among the spawn stubs (tscc/agent.h). */
static uint64_t spawn_stub_for(struct tscc_sud_data *D, uint64_t Ret) {
  for (uint32_t J = 0; J < TSCC_SUD_SPAWN_STUB_COUNT; ++J)
    if (claim(D, TSCC_SUD_SPAWN_SLOT(J), Ret))
      return tscc_agent_config.sud_page + TSCC_SUD_SPAWN_STUBS +
             J * TSCC_SUD_SPAWN_STUB_BYTES;
  return 0;
}

#if defined(__x86_64__)
enum { NR_clone = 56, NR_clone3 = 435 };
#else
enum { NR_clone = 120, NR_clone3 = 435 };
#endif
#define CLONE_THREAD_FLAG 0x10000ull

/* Whether call Nr makes a thread of this process (clone() or clone3()
 * with CLONE_THREAD) while tsrun has let go of it: the new thread then
 * switches SUD on in itself (a spawn stub), as tsrun does for the threads
 * it sees made. A forked child is not given SUD: tsrun does not know it
 * has SUD on, and would unmap the handler from under it at the end. */
static int makes_detached_thread(const agent_greg_t *G, uint64_t Nr) {
  if (!__atomic_load_n(&tscc_agent_config.detached, __ATOMIC_ACQUIRE))
    return 0;
  uint64_t Flags = 0;
  if (Nr == NR_clone)
    Flags = arg_of(G, 0);
  else if (Nr != NR_clone3 ||
           tscc_safe_copy(&Flags, AGENT_PTR(const void *, arg_of(G, 0)),
                          sizeof(Flags)) != 0)
    return 0;
  return (Flags & CLONE_THREAD_FLAG) != 0;
}

/* The six arguments of the call in G, made from the gadget. */
static long make_call(const agent_greg_t *G, uint64_t Nr) {
  return sys6((long)Nr, (long)arg_of(G, 0), (long)arg_of(G, 1),
              (long)arg_of(G, 2), (long)arg_of(G, 3), (long)arg_of(G, 4),
              (long)arg_of(G, 5));
}

/* rt_sigprocmask(how, set, oldset, size): made with the program's mask
 * (the one the handler returns to) and SIGSYS taken out of the result. */
static long sigprocmask_call(void *Uc, const agent_greg_t *G) {
  uint64_t *Mask = UC_SIGMASK(Uc);
  sys4(NR_rt_sigprocmask, SIG_SETMASK_HOW, Mask, 0, 8);
  long R = make_call(G, NR_rt_sigprocmask);
  uint64_t Now = 0;
  sys4(NR_rt_sigprocmask, SIG_SETMASK_HOW, 0, &Now, 8);
  *Mask = Now & ~SIGSYS_BIT;
  return R;
}

/* The kernel's struct sigaction as the program passes it: 32 bytes in a
 * 64-bit process, 20 (handler, flags, restorer, 8-byte mask) in a 32-bit
 * one. */
#if defined(__x86_64__)
#define USER_SIGACTION_BYTES 32u
#define SIGACTION_DROP_SIGSYS(A) ((A)->mask &= ~SIGSYS_BIT)
#else
#define USER_SIGACTION_BYTES 20u
#define SIGACTION_DROP_SIGSYS(A) ((A)->mask[0] &= ~(uint32_t)SIGSYS_BIT)
#endif

/* rt_sigaction(sig, act, oldact, size): SIGSYS stays the agent's (the
 * program's is kept for chaining); another signal's handler never blocks
 * SIGSYS while it runs. */
static long sigaction_call(const agent_greg_t *G) {
  long Sig = (long)arg_of(G, 0);
  uint64_t Act = arg_of(G, 1), OldAct = arg_of(G, 2);
  struct tscc_kernel_sigaction New;
  __builtin_memset(&New, 0, sizeof(New));
  if (arg_of(G, 3) != 8 ||
      (Act && tscc_safe_copy(&New, AGENT_PTR(const void *, Act),
                             USER_SIGACTION_BYTES) != 0))
    return make_call(G, NR_rt_sigaction); /* its own EINVAL or EFAULT */
  if (Act)
    SIGACTION_DROP_SIGSYS(&New);
  if (Sig != SIGSYS_NR)
    return sys4(NR_rt_sigaction, Sig, Act ? &New : 0, OldAct, 8);
  /* The old disposition and the new one in one write of the seqlock that
   * guards the chained slots (signal.c): a SIGSYS chained meanwhile in
   * another thread never reads half of each. The program's memory is
   * written after it (a fault with every signal blocked would kill). */
  struct tscc_kernel_sigaction *Chained = &tscc_agent_config.chained_sys;
  struct tscc_kernel_sigaction Prev;
  uint64_t Restore;
  agent_begin_disposition_write(&Restore);
  Prev = *Chained;
  if (Act) {
    uint32_t *To = (uint32_t *)Chained;
    const uint32_t *From = (const uint32_t *)&New;
    for (unsigned I = 0; I < sizeof(New) / 4; ++I)
      __atomic_store_n(&To[I], From[I], __ATOMIC_RELAXED);
  }
  agent_end_disposition_write(&Restore);
  if (OldAct && tscc_safe_copy(AGENT_PTR(void *, OldAct), &Prev,
                               USER_SIGACTION_BYTES) != 0)
    return -14; /* EFAULT */
  return 0;
}

/* The registers of a system-call stop, as syscall.c gives them (and as
 * ptrace shows a 32-bit process's: its registers in the low halves, the
 * result sign-extended). */
static void stop_regs(const agent_greg_t *G, uint64_t Nr, int Exit, long Rv,
                      uint64_t *R) {
  __builtin_memset(R, 0, TSCC_REG_COUNT * sizeof(*R));
  R[TSCC_REG_RAX] = Exit ? (uint64_t)(int64_t)Rv : (uint64_t)-ENOSYS_ERR;
  R[TSCC_REG_RBX] = G[G_RBX];
  R[TSCC_REG_RCX] = G[G_RCX];
  R[TSCC_REG_RDX] = G[G_RDX];
  R[TSCC_REG_RSI] = G[G_RSI];
  R[TSCC_REG_RDI] = G[G_RDI];
  R[TSCC_REG_RBP] = G[G_RBP];
  R[TSCC_REG_RSP] = G[G_RSP];
#if defined(__x86_64__)
  R[TSCC_REG_RCX] = G[G_RIP]; /* `syscall` put the pc there */
  R[TSCC_REG_R8] = G[G_R8];
  R[TSCC_REG_R9] = G[G_R9];
  R[TSCC_REG_R10] = G[G_R10];
  R[TSCC_REG_R11] = G[G_EFL];
  for (int I = 0; I < 4; ++I)
    R[TSCC_REG_R12 + I] = G[G_R12 + I];
#endif
  R[TSCC_REG_RIP] = G[G_RIP];
  R[TSCC_REG_EFLAGS] = G[G_EFL];
  R[TSCC_REG_ORIG_RAX] = Nr;
}

/* Whether the clauses of call Nr run here: tsrun alive, armed, collecting,
 * and a hook of the number. Site is the pseudo-site of the catch-all. */
static int traced_here(const struct tscc_agent_site *Site, uint64_t Nr) {
  struct tscc_store *S = &tscc_agent_config.store;
  const struct tscc_control *Ctl = S->control;
  if (!__atomic_load_n(&agent_proc.armed, __ATOMIC_ACQUIRE) ||
      __atomic_load_n(&Ctl->collect_off, __ATOMIC_RELAXED) || agent_stopping(S))
    return 0;
  return agent_syscall_has_hooks(Site, TSCC_HOOK_SYSCALL_ENTRY, Nr) ||
         agent_syscall_has_hooks(Site, TSCC_HOOK_SYSCALL_EXIT, Nr);
}

/* A traced call: entry clauses, the call from the gadget, exit clauses. */
static long traced_call(const struct tscc_agent_site *Site, void *Uc,
                        const agent_greg_t *G, uint64_t Nr) {
  uint64_t Regs[TSCC_REG_COUNT];
  if (agent_syscall_has_hooks(Site, TSCC_HOOK_SYSCALL_ENTRY, Nr)) {
    stop_regs(G, Nr, 0, 0, Regs);
    agent_syscall_run_hooks(Site, TSCC_HOOK_SYSCALL_ENTRY, Nr, Regs);
  }
  long Rv = Nr == NR_rt_sigprocmask ? sigprocmask_call(Uc, G)
            : Nr == NR_rt_sigaction ? sigaction_call(G)
                                    : make_call(G, Nr);
  if (agent_syscall_has_hooks(Site, TSCC_HOOK_SYSCALL_EXIT, Nr)) {
    stop_regs(G, Nr, 1, Rv, Regs);
    agent_syscall_run_hooks(Site, TSCC_HOOK_SYSCALL_EXIT, Nr, Regs);
  }
  return Rv;
}

void tscc_agent_sigsys(int Sig, void *Info, void *Uc) {
  struct tscc_sud_data *D = sud_data();
  /* Counted out by the code page's restorer, after the return below. */
  if (D)
    __atomic_add_fetch(&D->in_handler, 1, __ATOMIC_SEQ_CST);
  if (((int *)Info)[2] != SYS_USER_DISPATCH || !D) {
    agent_chain_signal(Sig, Info, Uc, &tscc_agent_config.chained_sys);
    return;
  }
  agent_greg_t *G = UC_GREGS(Uc);
  /* tsrun puts the pc of a SIGSYS it passes on back onto the `syscall`
   * (rewindDispatchedCall: should it die before the signal is delivered,
   * the kernel drops it, and the thread makes its call again): on past
   * it, where the kernel left it (si_call_addr). */
  uint64_t CallAddr = SI_CALL_ADDR(Info);
  if (G[G_RIP] + 2 == CallAddr)
    G[G_RIP] = (agent_greg_t)CallAddr;
  uint64_t Nr = (uint32_t)G[G_RAX];
  const struct tscc_control *Ctl = tscc_agent_config.store.control;
  if (UNLIKELY(__atomic_load_n(&Ctl->reader_alive, __ATOMIC_RELAXED) &
               TSCC_READER_GONE))
    agent_reader_gone(); /* also sets the selector to TSCC_SUD_ALLOW */
  /* The pseudo-site of the catch-all: only its hooks are read. */
  struct tscc_agent_site Site;
  __builtin_memset(&Site, 0, sizeof(Site));
  Site.hooks = D->hooks;
  Site.hook_count = D->hook_count;
  int Sigreturn = Nr == NR_rt_sigreturn || Nr == (uint64_t)NR_sigreturn;
  if (!Sigreturn && traced_here(&Site, Nr)) {
    G[G_RAX] = (agent_greg_t)traced_call(&Site, Uc, G, Nr);
    return;
  }
  if (Nr == NR_rt_sigprocmask) {
    G[G_RAX] = (agent_greg_t)sigprocmask_call(Uc, G);
    return;
  }
  if (Nr == NR_rt_sigaction) {
    G[G_RAX] = (agent_greg_t)sigaction_call(G);
    return;
  }
  /* rt_sigreturn (the agent's own restorer's too, outside the page), and
   * i386's sigreturn, must be made on the stack they were made on: never
   * in the handler. */
  uint64_t Stub = 0;
  if (Sigreturn)
    Stub = tscc_agent_config.sud_page + TSCC_SUD_STUBS +
           TSCC_SUD_SIGRETURN_STUB * TSCC_SUD_STUB_BYTES;
  else if (makes_detached_thread(G, Nr))
    Stub = spawn_stub_for(D, G[G_RIP]);
  if (!Stub && !Sigreturn)
    Stub = stub_for(D, G[G_RIP]);
  if (Stub) {
    G[G_RIP] = (agent_greg_t)Stub;
    return;
  }
  /* Every stub taken (more than TSCC_SUD_STUB_COUNT call sites outside
   * the patched ones): made here, which is right for every call but those
   * that change the stack or the signal frame (counted, and -v says so). */
  __atomic_add_fetch(&D->stubs_full, 1, __ATOMIC_RELAXED);
  G[G_RAX] = (agent_greg_t)make_call(G, Nr);
}
