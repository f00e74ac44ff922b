/*===- signal.c - Faults in clause code, and everybody else's ----------------===*
 *
 * The agent's handler for SIGSEGV, SIGBUS and SIGFPE, installed in front of
 * whatever the program had:
 *   - a fault inside tscc_safe_copy/strcpy is a bad pointer in a script:
 *     the copy returns -1 and the clause counts a fault;
 *   - a fault in clause or agent code while a clause runs abandons that
 *     firing (counted as a fault), the way tsrun abandons a crashed clause;
 *   - anything else is the program's: it goes to the program's handler, or
 *     gets the default action exactly as if the agent were not there.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

#define SA_SIGINFO 4ull
#define SA_NODEFER 0x40000000ull
#define SA_RESETHAND 0x80000000ull
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
/* Where a ucontext keeps the mask of the interrupted code. */
#if defined(__i386__)
#define AGENT_UC_SIGMASK 108
#else
#define AGENT_UC_SIGMASK 296
#endif

void tscc_agent_signal(int Sig, void *Info, void *Uc) HIDDEN;
void agent_chain_signal(int Sig, void *Info, void *Uc,
                        struct tscc_kernel_sigaction *Slot);
void tscc_agent_trap(int Sig, void *Info, void *Uc) HIDDEN;

static int signal_index(int Sig) {
  switch (Sig) {
  case 11:
    return TSCC_AGENT_SIGSEGV;
  case 7:
    return TSCC_AGENT_SIGBUS;
  case 8:
    return TSCC_AGENT_SIGFPE;
  default:
    return -1;
  }
}

static int in_our_code(uint64_t Pc) {
  const struct tscc_agent_config *C = &tscc_agent_config;
  return (Pc >= C->code_lo && Pc < C->code_hi) ||
         (Pc >= C->agent_lo && Pc < C->agent_hi);
}

/* Whether the agent keeps SIGTRAP out of what threads block: in a process
 * tsrun has let go of (nobody there to complete a forced trap) that has
 * trap sites (pthread_sigmask below). */
static int trap_kept_open(void) {
  const struct tscc_agent_config *C = &tscc_agent_config;
  return __atomic_load_n(&C->detached, __ATOMIC_RELAXED) &&
         __atomic_load_n(&C->trap_sites, __ATOMIC_RELAXED) &&
         __atomic_load_n(&C->trap_handler, __ATOMIC_ACQUIRE);
}

/*--- The program's dispositions, read and written whole --------------------
 *
 * A fault reads the disposition it chains to while another thread may be
 * replacing it (sigaction() through the gate below, or tsrun around an
 * injected rt_sigaction). The kernel's sigaction is atomic; a fault that
 * read the new handler with the old flags would call an SA_SIGINFO handler
 * without its siginfo. So the slots are a seqlock: chained_seq is odd
 * while one is written, and a reader reads again until it saw one whole.
 * A writer blocks every signal while it writes (a signal in the same
 * thread would wait for it for ever), and writes only the agent's config,
 * which cannot fault.
 *---------------------------------------------------------------------------*/
#define DISPOSITION_WORDS (sizeof(struct tscc_kernel_sigaction) / 4)
/* A writer gone half-way (tsrun killed between its two writes): after
 * this long the reader takes what is there. */
#define DISPOSITION_PATIENCE_NS 2000000000ull

static void read_disposition(const struct tscc_kernel_sigaction *Slot,
                             struct tscc_kernel_sigaction *Out) {
  const uint32_t *Seq = &tscc_agent_config.chained_seq;
  const uint32_t *From = (const uint32_t *)Slot;
  uint32_t *To = (uint32_t *)Out;
  uint64_t Since = 0;
  for (unsigned Try = 0;; ++Try) {
    uint32_t Before = __atomic_load_n(Seq, __ATOMIC_ACQUIRE);
    for (unsigned I = 0; I < DISPOSITION_WORDS; ++I)
      To[I] = __atomic_load_n(&From[I], __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (!(Before & 1) && __atomic_load_n(Seq, __ATOMIC_RELAXED) == Before)
      return;
    if (Try < 64) {
      __builtin_ia32_pause();
      continue;
    }
    uint64_t Now = agent_now_ns();
    if (!Since)
      Since = Now;
    else if (Now - Since > DISPOSITION_PATIENCE_NS)
      return;
    sys0(NR_sched_yield);
  }
}

/* Opens a write of the slots: every signal blocked (*Saved: the mask to
 * put back), the other writers kept out, chained_seq odd. */
void agent_begin_disposition_write(uint64_t *Saved) {
  struct tscc_agent_config *C = &tscc_agent_config;
  uint64_t All = ~0ull;
  sys4(NR_rt_sigprocmask, SIG_SETMASK, &All, Saved, 8);
  uint32_t Me = (uint32_t)sys0(NR_gettid);
  for (;;) {
    uint32_t Free = 0;
    if (__atomic_compare_exchange_n(&C->chained_writer, &Free, Me, 0,
                                    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      break;
    /* A writer that died holding it (its thread is gone) never ends. */
    if (!tscc_host_thread_alive((int32_t)Free))
      __atomic_compare_exchange_n(&C->chained_writer, &Free, 0, 0,
                                  __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    sys0(NR_sched_yield);
  }
  uint32_t Seq = __atomic_load_n(&C->chained_seq, __ATOMIC_RELAXED);
  __atomic_store_n(&C->chained_seq, (Seq | 1u), __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void agent_end_disposition_write(const uint64_t *Saved) {
  struct tscc_agent_config *C = &tscc_agent_config;
  uint32_t Seq = __atomic_load_n(&C->chained_seq, __ATOMIC_RELAXED);
  __atomic_store_n(&C->chained_seq, (Seq | 1u) + 1u, __ATOMIC_RELEASE);
  __atomic_store_n(&C->chained_writer, 0, __ATOMIC_RELEASE);
  sys4(NR_rt_sigprocmask, SIG_SETMASK, Saved, 0, 8);
}

static void store_disposition(struct tscc_kernel_sigaction *Slot,
                              const struct tscc_kernel_sigaction *K) {
  uint32_t *To = (uint32_t *)Slot;
  const uint32_t *From = (const uint32_t *)K;
  for (unsigned I = 0; I < DISPOSITION_WORDS; ++I)
    __atomic_store_n(&To[I], From[I], __ATOMIC_RELAXED);
}

/* The program's disposition is the default, or SIG_IGN. A fault cannot be
 * ignored (the kernel forces the default): put the default back and let
 * it happen again. A signal somebody sent is resent, unless it was
 * ignored; so is the program's own int3, a trap that does not happen
 * again. Apart: its 32 bytes stay off the stack of the common path. */
static __attribute__((noinline)) void chain_to_default(int Sig, int SiCode,
                                                       uint64_t Handler) {
  if (Handler == 1 && SiCode <= 0)
    return;
  struct tscc_kernel_sigaction Dfl;
  __builtin_memset(&Dfl, 0, sizeof(Dfl));
  sys4(NR_rt_sigaction, Sig, &Dfl, 0, 8);
  if (SiCode <= 0 || Sig == 5 /* SIGTRAP */)
    sys3(NR_tgkill, sys0(NR_getpid), sys0(NR_gettid), Sig);
}

/* SA_RESETHAND: only if nobody replaced it meanwhile, as the kernel resets
 * it at delivery. */
static __attribute__((noinline)) void
reset_handler(struct tscc_kernel_sigaction *Slot, uint64_t Handler) {
  uint64_t Restore;
  agent_begin_disposition_write(&Restore);
  if (AGENT_KSA_HANDLER(Slot) == Handler)
    Slot->handler = 0;
  agent_end_disposition_write(&Restore);
}

/* The mask of the code the signal interrupted, as the frame keeps it. */
static uint64_t uc_sigmask(const void *Uc) {
  uint64_t Mask;
  __builtin_memcpy(&Mask, (const char *)Uc + AGENT_UC_SIGMASK, sizeof(Mask));
  return Mask;
}

/* What the kernel does when it delivers Sig to the program's disposition,
 * which the agent keeps at *Slot, but the call: the program's handler, with
 * the mask it runs with in force (*Flags: its flags); or 0 when there is no
 * handler to call. The mask set here is undone by rt_sigreturn, which puts
 * back the mask of the interrupted code. With MaskOut, every signal is
 * blocked (signal.S asks from a stack of its own) and the mask is set by
 * the caller: it goes to *MaskOut. */
static uintptr_t chain_prepare(int Sig, void *Info, void *Uc,
                               struct tscc_kernel_sigaction *Slot,
                               uint64_t *Flags, uint64_t *MaskOut) {
  struct tscc_kernel_sigaction Old;
  read_disposition(Slot, &Old);
  uint64_t Handler = AGENT_KSA_HANDLER(&Old);
  /* The agent's own handler as the program's: one that restored what a
   * raw rt_sigaction told it was there. Chaining to it would never end. */
  if (Handler == AGENT_ADDR(tscc_agent_signal) ||
      Handler == AGENT_ADDR(tscc_agent_trap))
    Handler = 0;
  if (Handler <= 1) {
    chain_to_default(Sig, ((int *)Info)[2], Handler);
    return 0;
  }
  uint64_t Mask = AGENT_KSA_MASK(&Old);
  *Flags = AGENT_KSA_FLAGS(&Old);
  if (!(*Flags & SA_NODEFER))
    Mask |= 1ull << (Sig - 1);
  /* SIGTRAP stays open where trap sites need it (pthread_sigmask below). */
  if (trap_kept_open())
    Mask &= ~(1ull << 4);
  if (MaskOut)
    *MaskOut = uc_sigmask(Uc) | Mask;
  else
    sys4(NR_rt_sigprocmask, SIG_BLOCK, &Mask, 0, 8);
  if (*Flags & SA_RESETHAND)
    reset_handler(Slot, Handler);
  return (uintptr_t)Handler;
}

/* As the kernel would have delivered it to the program, whose disposition
 * for Sig the agent keeps at *Slot: its handler is called from here (the
 * SIGSYS of sud.c). */
void agent_chain_signal(int Sig, void *Info, void *Uc,
                        struct tscc_kernel_sigaction *Slot) {
  uint64_t Saved = 0, Flags = 0, None = 0;
  sys4(NR_rt_sigprocmask, SIG_BLOCK, &None, &Saved, 8);
  uintptr_t Handler = chain_prepare(Sig, Info, Uc, Slot, &Flags, 0);
  if (!Handler)
    return;
  if (Flags & SA_SIGINFO)
    AGENT_PTR(void (*)(int, void *, void *), Handler)(Sig, Info, Uc);
  else
    AGENT_PTR(void (*)(int), Handler)(Sig);
  sys4(NR_rt_sigprocmask, SIG_SETMASK, &Saved, 0, 8);
}

/*--- The handlers' entry: the program's handler on the kernel's frame ------
 *
 * tscc_agent_signal and tscc_agent_trap ({x86_64,i386}/signal.S) call the
 * functions below, and when one returns a handler of the program's, jump
 * to it with the stack pointer and arguments of the delivery: the
 * program's handler runs exactly where the kernel would have run it
 * without the agent, and returns to the agent's restorer (rt_sigreturn).
 * A program whose alternate signal stack is just big enough for the
 * kernel's frame and its handler (sigaltstack() at the kernel's minimum)
 * then works as it does alone: nothing of the agent's stays on that stack
 * under the program's handler, and what the agent itself uses of it,
 * returned before the jump, is less than any handler that calls a
 * function needs.
 *---------------------------------------------------------------------------*/
uintptr_t agent_signal_decide(int Sig, void *Info, void *Uc,
                              uint64_t *MaskOut) HIDDEN;
/* For x86_64/signal.S, which looks at config.syscall_gadget. */
const uint32_t agent_gadget_offset HIDDEN =
    __builtin_offsetof(struct tscc_agent_config, syscall_gadget);
uintptr_t agent_trap_decide(int Sig, void *Info, void *Uc,
                            uint64_t *MaskOut) HIDDEN;

uintptr_t agent_signal_decide(int Sig, void *Info, void *Uc,
                              uint64_t *MaskOut) {
  agent_greg_t *PcSlot = AGENT_UC_PC(Uc);
  uint64_t Pc = *PcSlot;
  int SiCode = ((int *)Info)[2];
  if (SiCode > 0 && Pc >= AGENT_ADDR(tscc_safe_begin) &&
      Pc < AGENT_ADDR(tscc_safe_end)) {
    *PcSlot = (agent_greg_t)AGENT_ADDR(tscc_safe_fault);
    __atomic_add_fetch(&tscc_agent_config.recovered_faults, 1,
                       __ATOMIC_RELAXED);
    return 0;
  }
  if (SiCode > 0 && in_our_code(Pc)) {
    struct tscc_agent_thread *T = agent_thread(0);
    if (T && T->in_clause) {
      T->in_clause = 0;
      *AGENT_UC_SP(Uc) = (agent_greg_t)T->recover.rsp;
      *PcSlot = (agent_greg_t)T->recover.rip;
      __atomic_add_fetch(&tscc_agent_config.recovered_faults, 1,
                         __ATOMIC_RELAXED);
      return 0;
    }
  }
  int I = signal_index(Sig);
  uint64_t Flags;
  return I < 0 ? 0
               : chain_prepare(Sig, Info, Uc, &tscc_agent_config.chained[I],
                               &Flags, MaskOut);
}

int agent_trap_redirect(uint64_t *Rip);

/* SIGTRAP: installed by tsrun for trap sites, or by the agent while it
 * puts sites back after tsrun died. An int3 of ours (si_code SI_KERNEL,
 * the pc just past a site) goes on in the site's trampoline; anything else
 * is the program's, sent on as the kernel would have. */
uintptr_t agent_trap_decide(int Sig, void *Info, void *Uc, uint64_t *MaskOut) {
  agent_greg_t *PcSlot = AGENT_UC_PC(Uc);
  uint64_t Pc = *PcSlot;
  if (((int *)Info)[2] > 0 && agent_trap_redirect(&Pc)) {
    *PcSlot = (agent_greg_t)Pc;
    return 0;
  }
  uint64_t Flags;
  return chain_prepare(Sig, Info, Uc, &tscc_agent_config.chained_trap, &Flags,
                       MaskOut);
}

/*--- The program's own sigaction() ------------------------------------------
 *
 * The kernel's disposition of a signal the agent guards is the agent's
 * handler for as long as the agent is there; the program's own is the
 * chained one. Every sigaction() and signal() of the program meets in
 * libc's __libc_sigaction(Sig, Act, OldAct), whose entry is a site with a
 * TSCC_HOOK_SIGNAL_GATE hook. For a guarded signal the agent does the
 * call's work on the chained disposition: OldAct gets the program's own
 * (never the agent's handler), Act replaces it, and the call then goes on
 * with both pointers null, so that the kernel's stays the agent's. A bad
 * pointer is left for libc to meet, as it would without the agent. Not
 * covered: rt_sigaction made with a raw system call.
 *---------------------------------------------------------------------------*/

/* glibc's struct sigaction: the handler, a 128-byte sigset_t (the kernel
 * uses its first 8 bytes), int sa_flags, the restorer. */
#define LIBC_SA_MASK sizeof(uintptr_t)
#define LIBC_SA_FLAGS (LIBC_SA_MASK + 128)
#define LIBC_SA_RESTORER (LIBC_SA_FLAGS + sizeof(uintptr_t))
#define LIBC_SA_SIZE (LIBC_SA_RESTORER + sizeof(uintptr_t))
#define SA_RESTORER 0x04000000u
/* The kernel never blocks these in a handler (SIGKILL, SIGSTOP). */
#define UNBLOCKABLE ((1ull << 8) | (1ull << 18))

static struct tscc_kernel_sigaction *guarded_slot(uint64_t Sig) {
  struct tscc_agent_config *C = &tscc_agent_config;
  if (Sig == 5 /* SIGTRAP */)
    return __atomic_load_n(&C->trap_handler, __ATOMIC_ACQUIRE)
               ? &C->chained_trap
               : 0;
  int I = signal_index((int)Sig);
  return I < 0 ? 0 : &C->chained[I];
}

/* What the kernel keeps of a struct sigaction (glibc adds SA_RESTORER and
 * its own restorer, which the agent never calls: the program's handler
 * returns to the agent). */
static void kernel_from_libc(const uint8_t *Act, uint64_t Restorer,
                             struct tscc_kernel_sigaction *K) {
  uintptr_t Handler;
  uint64_t Mask;
  uint32_t Flags;
  __builtin_memcpy(&Handler, Act, sizeof(Handler));
  __builtin_memcpy(&Mask, Act + LIBC_SA_MASK, sizeof(Mask));
  __builtin_memcpy(&Flags, Act + LIBC_SA_FLAGS, sizeof(Flags));
  Mask &= ~UNBLOCKABLE;
  __builtin_memset(K, 0, sizeof(*K));
  K->handler = Handler;
  K->flags = Flags | SA_RESTORER;
  K->restorer = Restorer;
#if defined(__i386__)
  K->mask[0] = (uint32_t)Mask;
  K->mask[1] = (uint32_t)(Mask >> 32);
#else
  K->mask = Mask;
#endif
}

/* As glibc fills OldAct from the kernel's answer: the handler, the first 8
 * bytes of the mask, the flags and the restorer; the rest is left. */
static void libc_from_kernel(const struct tscc_kernel_sigaction *K,
                             uint8_t *Act) {
  uintptr_t Handler = (uintptr_t)AGENT_KSA_HANDLER(K);
  uint64_t Mask = AGENT_KSA_MASK(K);
  uint32_t Flags = (uint32_t)AGENT_KSA_FLAGS(K);
  uintptr_t Restorer = (uintptr_t)K->restorer;
  __builtin_memcpy(Act, &Handler, sizeof(Handler));
  __builtin_memcpy(Act + LIBC_SA_MASK, &Mask, sizeof(Mask));
  __builtin_memcpy(Act + LIBC_SA_FLAGS, &Flags, sizeof(Flags));
  __builtin_memcpy(Act + LIBC_SA_RESTORER, &Restorer, sizeof(Restorer));
}

/* The first three arguments of the libc function whose entry the hit is
 * at (Rsp: the stack pointer there). */
static int gate_args(const struct tscc_agent_frame *F, uint64_t Rsp,
                     uint64_t *Args) {
#if defined(__i386__)
  uint32_t A[3]; /* cdecl: above the return address */
  (void)F;
  if (tscc_safe_copy(A, AGENT_PTR(const void *, Rsp + 4), sizeof(A)) < 0)
    return 0;
  Args[0] = A[0];
  Args[1] = A[1];
  Args[2] = A[2];
#else
  (void)Rsp;
  Args[0] = F->rdi;
  Args[1] = F->rsi;
  Args[2] = F->rdx;
#endif
  return 1;
}

/* Makes argument I (1 or 2: a pointer) null for the call that goes on. In
 * a 32-bit process the argument is in the caller's frame, which belongs
 * to the callee under cdecl. */
static void gate_clear_arg(struct tscc_agent_frame *F, uint64_t Rsp,
                           unsigned I) {
#if defined(__i386__)
  uint32_t None = 0;
  (void)F;
  tscc_safe_copy(AGENT_PTR(void *, Rsp + 4 + 4 * I), &None, sizeof(None));
#else
  (void)Rsp;
  if (I == 1)
    F->rsi = 0;
  else
    F->rdx = 0;
#endif
}

void agent_sigaction_gate(struct tscc_agent_frame *F, uint64_t Rsp) {
  uint64_t Args[3];
  if (!gate_args(F, Rsp, Args))
    return;
  uint64_t Act = Args[1], OldAct = Args[2];
  struct tscc_kernel_sigaction *Slot = guarded_slot(Args[0]);
  if (!Slot || (!Act && !OldAct))
    return;
  uint8_t New[LIBC_SA_SIZE], Old[LIBC_SA_SIZE];
  /* An Act libc cannot read is left for libc to meet (it reads it first);
   * an OldAct it cannot write, after the new disposition is in. */
  if (Act && tscc_safe_copy(New, AGENT_PTR(const void *, Act), sizeof(New)) < 0)
    return;
  int OldActBad = OldAct && tscc_safe_copy(Old, AGENT_PTR(const void *, OldAct),
                                           sizeof(Old)) < 0;
  /* The old disposition and the new one in one write, as the kernel
   * swaps them; the program's memory is read before and written after
   * (a fault with every signal blocked would kill). */
  struct tscc_kernel_sigaction Prev;
  uint64_t Restore;
  agent_begin_disposition_write(&Restore);
  Prev = *Slot;
  if (Act) {
    struct tscc_kernel_sigaction K;
    kernel_from_libc(New, Prev.restorer, &K);
    store_disposition(Slot, &K);
  }
  agent_end_disposition_write(&Restore);
  /* The call goes on as sigaction(Sig, NULL, NULL): it checks Sig and
   * returns 0, and changes nothing. An OldAct it cannot write stays for
   * libc to meet, as it would without the agent. */
  gate_clear_arg(F, Rsp, 1);
  if (OldActBad)
    return;
  if (OldAct) {
    libc_from_kernel(&Prev, Old);
    if (tscc_safe_copy(AGENT_PTR(void *, OldAct), Old, sizeof(Old)) < 0)
      return;
  }
  gate_clear_arg(F, Rsp, 2);
}

/*--- The program's own pthread_sigmask() -----------------------------------
 *
 * The int3 of a trap site in a thread that blocks SIGTRAP is forced on it:
 * the kernel unblocks SIGTRAP there and resets the process's disposition
 * to the default, and the next trap kills the program. While tsrun is
 * attached it repairs that at the stop; a process it has let go of must
 * not get there. So in a process tsrun has let go of that has trap sites,
 * the agent keeps SIGTRAP out of what threads really block through libc
 * (tsrun takes it out of every thread's mask as it lets go), and keeps
 * what the program asked for in the thread's entry instead: at the entry
 * of pthread_sigmask(How, Set, OldSet) (sigprocmask() calls it) the agent
 * makes the call itself, with SIGTRAP (and glibc's own two signals, as
 * glibc does) taken out of Set, and OldSet saying SIGTRAP is blocked where
 * the program blocked it; the call then goes on with both pointers null.
 * The price: a program's own SIGTRAP (raise(), its own int3) reaches its
 * handler at once in a thread that meant to block it; and a thread that
 * blocked it before (while attached) or inherited the block from the
 * thread that created it reads its mask back without SIGTRAP.
 *---------------------------------------------------------------------------*/
#define SIGTRAP_BIT (1ull << 4)
#define GLIBC_INTERNAL                                                         \
  ((1ull << 31) | (1ull << 32)) /* SIGCANCEL, SIGSETXID                        \
                                 */

void agent_sigmask_gate(struct tscc_agent_frame *F, uint64_t Rsp) {
  uint64_t Args[3];
  if (!trap_kept_open() || !gate_args(F, Rsp, Args) || (!Args[1] && !Args[2]))
    return;
  uint64_t How = Args[0], Set = 0, Old = 0;
  if (Args[1] &&
      tscc_safe_copy(&Set, AGENT_PTR(const void *, Args[1]), sizeof(Set)) < 0)
    return; /* libc meets the bad pointer, as it would have */
  /* Only a thread that blocks SIGTRAP, or did, needs an entry. */
  int Blocks = Args[1] && How != SIG_UNBLOCK && (Set & SIGTRAP_BIT);
  struct tscc_agent_thread *T = agent_thread(Blocks);
  if (Blocks && !T)
    return; /* no entry to keep it in: the thread blocks it for real */
  uint32_t Was = T ? T->trap_blocked : 0, Now = Was;
  if (Args[1]) {
    if (How == SIG_BLOCK)
      Now = Was || (Set & SIGTRAP_BIT);
    else if (How == SIG_UNBLOCK)
      Now = Was && !(Set & SIGTRAP_BIT);
    else if (How == SIG_SETMASK)
      Now = (Set & SIGTRAP_BIT) != 0;
  }
  Set &= ~(SIGTRAP_BIT | GLIBC_INTERNAL);
  /* With Syscall User Dispatch on, SIGSYS stays open too (a forced SIGSYS
   * that is blocked kills), as sud.c keeps it for rt_sigprocmask. */
  if (__atomic_load_n(&tscc_agent_config.sud_page, __ATOMIC_RELAXED))
    Set &= ~(1ull << 30);
  if (sys4(NR_rt_sigprocmask, How, Args[1] ? &Set : 0, Args[2] ? &Old : 0, 8) <
      0)
    return; /* a bad How: the call fails as it would have */
  if (T)
    T->trap_blocked = Now;
  gate_clear_arg(F, Rsp, 1);
  if (Was)
    Old |= SIGTRAP_BIT;
  /* A bad OldSet: the call still meets it (EFAULT, the mask changed). */
  if (!Args[2] ||
      tscc_safe_copy(AGENT_PTR(void *, Args[2]), &Old, sizeof(Old)) >= 0)
    gate_clear_arg(F, Rsp, 2);
}
