/*===- syscall.c - A traced system call made at a patched site --------------===*
 *
 * tscc_agent_syscall_hit is called (through tscc_agent_enter_syscall) by
 * the trampoline of a system-call site (tscc/agent.h), once before the call
 * with the number in rax and once after it with the result in rax. The
 * trampoline only comes here for the numbers a probe traces, so this runs
 * the clauses of the hooks of that number, with the registers a clause
 * sees at a ptrace system-call stop: rax -ENOSYS at the entry (the result
 * at the exit), orig_rax the number, rip and rcx just past the site's
 * `syscall`, r11 the flags. Sites are x86-64 only; the hooks' part is
 * shared with sud.c's catch-all in both builds.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

/* Shared with sud.c, whose catch-all has hooks as a site has. */
int agent_syscall_has_hooks(const struct tscc_agent_site *Site, uint32_t Kind,
                            uint64_t Nr);
void agent_syscall_run_hooks(const struct tscc_agent_site *Site, uint32_t Kind,
                             uint64_t Nr, const uint64_t *Regs);

/* The hooks of Site for call Nr at its entry or exit, counted as fired
 * and dropped (in T's row; the shared one without a thread). */
static void count_dropped(struct tscc_agent_thread *T,
                          const struct tscc_agent_site *Site, uint32_t Kind,
                          uint64_t Nr) {
  const struct tscc_agent_hook *H =
      AGENT_PTR(const struct tscc_agent_hook *, Site->hooks);
  for (uint32_t I = 0; I < Site->hook_count; ++I)
    if (H[I].kind == TSCC_HOOK_SYSCALL(Kind, Nr)) {
      uint32_t Clause = agent_clause_of(H[I].index);
      agent_counters_add(T, Clause, COUNT_FIRED, 1);
      agent_counters_add(T, Clause, COUNT_DROPS, 1);
    }
}

/* Whether Site has hooks of Kind for call Nr: a call traced only at its
 * entry costs nothing more at its exit. */
int agent_syscall_has_hooks(const struct tscc_agent_site *Site, uint32_t Kind,
                            uint64_t Nr) {
  const struct tscc_agent_hook *H =
      AGENT_PTR(const struct tscc_agent_hook *, Site->hooks);
  for (uint32_t I = 0; I < Site->hook_count; ++I)
    if (H[I].kind == TSCC_HOOK_SYSCALL(Kind, Nr))
      return 1;
  return 0;
}

/* What the hooks of Site for call Nr at Kind need, as site_needs (hit.c)
 * says for a function site: NEED_HOOKS when there is one, NEED_LOCK when
 * one of their clauses touches what threads share, NEED_REGS when one
 * reads the registers. A counting clause reads none of them, and a call
 * whose clauses need neither costs no register copy and no lock. */
enum { NEED_HOOKS = 4 };
static uint32_t syscall_needs(const struct tscc_agent_site *Site, uint32_t Kind,
                              uint64_t Nr) {
  const struct tscc_agent_hook *H =
      AGENT_PTR(const struct tscc_agent_hook *, Site->hooks);
  uint32_t Need = 0;
  for (uint32_t I = 0; I < Site->hook_count; ++I)
    if (H[I].kind == TSCC_HOOK_SYSCALL(Kind, Nr))
      Need |= NEED_HOOKS | agent_hook_needs(H[I].index);
  return Need;
}

/* The clauses of Site's hooks of Kind for call Nr, whose result (at the
 * exit) is Rv; Regs null when no clause reads them (Need). */
static void run_hooks(const struct tscc_agent_site *Site, uint32_t Kind,
                      uint64_t Nr, int64_t Rv, const uint64_t *Regs,
                      uint32_t Need) {
  struct tscc_store *S = &tscc_agent_config.store;
  struct tscc_agent_thread *T = agent_hit_thread();
  if (UNLIKELY(!T)) {
    count_dropped(0, Site, Kind, Nr);
    return;
  }
  ++T->hits;
  if (Need & NEED_LOCK) {
    int Rc = tscc_store_lock(S, T->tid, tscc_agent_config.lock_timeout_ns);
    if (UNLIKELY(Rc != TSCC_LOCK_OK)) {
      if (Rc == TSCC_LOCK_REENTERED)
        __atomic_add_fetch(&tscc_agent_config.reentered, 1, __ATOMIC_RELAXED);
      else if (Rc == TSCC_LOCK_TIMEOUT)
        agent_notice(TSCC_NOTICE_LOCK_TIMEOUT);
      count_dropped(T, Site, Kind, Nr);
      return;
    }
  }
  /* exit() may have been called while we waited for the lock. */
  if (LIKELY(!agent_stopping(S))) {
    int32_t Err = 0;
    if (Kind == TSCC_HOOK_SYSCALL_EXIT && Rv < 0 && Rv >= -4095)
      Err = (int32_t)-Rv;
    const struct tscc_agent_hook *H =
        AGENT_PTR(const struct tscc_agent_hook *, Site->hooks);
    for (uint32_t I = 0; I < Site->hook_count; ++I)
      if (H[I].kind == TSCC_HOOK_SYSCALL(Kind, Nr))
        agent_run_syscall_clause(T, H[I].index, &H[I], Regs, Nr, Err);
  }
  if (Need & NEED_LOCK)
    tscc_store_unlock(S, T->tid);
}

void agent_syscall_run_hooks(const struct tscc_agent_site *Site, uint32_t Kind,
                             uint64_t Nr, const uint64_t *Regs) {
  run_hooks(Site, Kind, Nr, (int64_t)Regs[TSCC_REG_RAX], Regs,
            syscall_needs(Site, Kind, Nr));
}

#if defined(__x86_64__)

void tscc_agent_syscall_hit(struct tscc_agent_frame *F, uint64_t Ret) HIDDEN;

enum {
  SYSCALL_INSN_BYTES = 2,
  ENOSYS_ERRNO = 38,
  CALL_GADGET = 0xff,    /* after the entry call: call *gadget */
  CS_CALL_GADGET = 0x2e, /* the same, of a call without exit clauses */
};

/* The registers of a system-call stop; Rsp is the program's at the site. */
static void syscall_regs(const struct tscc_agent_frame *F, uint64_t Rsp,
                         uint64_t Nr, int Exit, uint64_t After, uint64_t *R) {
  agent_regs_of(F, Rsp, After, R);
  R[TSCC_REG_ORIG_RAX] = Nr;
  R[TSCC_REG_RCX] = After;
  R[TSCC_REG_R11] = F->rflags;
  if (!Exit)
    R[TSCC_REG_RAX] = (uint64_t)-ENOSYS_ERRNO;
}

void tscc_agent_syscall_hit(struct tscc_agent_frame *F, uint64_t Ret) {
  uint8_t Next = *AGENT_PTR(const uint8_t *, Ret);
  int Exit = Next != CALL_GADGET && Next != CS_CALL_GADGET;
  uint64_t Code =
      Ret - (Next == CS_CALL_GADGET ? TSCC_SYSCALL_TRAMPOLINE_ENTRY_ONLY_END
             : Exit                 ? TSCC_SYSCALL_TRAMPOLINE_EXIT_END
                                    : TSCC_SYSCALL_TRAMPOLINE_ENTRY_END);
  const struct tscc_agent_site *Site =
      AGENT_PTR(const struct tscc_agent_site *, Code - TSCC_TRAMPOLINE_CODE);
  /* The slot the trampoline pushed is just above the return address, and
   * the program's stack pointer above it and the red zone. It holds rax:
   * the number (the kernel reads eax), and nothing else until the entry
   * says it was collected. */
  uint64_t *Slot = AGENT_PTR(uint64_t *, AGENT_ADDR(&F->ret) + sizeof(F->ret));
  uint64_t Nr = (uint32_t)*Slot;
  if (!Exit)
    *Slot = Nr;
  else if (!(*Slot & TSCC_SYSCALL_SLOT_COLLECTED))
    return; /* its entry was not collected: no half call */
  struct tscc_store *S = &tscc_agent_config.store;
  const struct tscc_control *Ctl = S->control;
  if (UNLIKELY(__atomic_load_n(&Ctl->reader_alive, __ATOMIC_RELAXED) &
               TSCC_READER_GONE)) {
    agent_reader_gone();
    return;
  }
  if (!__atomic_load_n(&agent_proc.armed, __ATOMIC_ACQUIRE) ||
      __atomic_load_n(&Ctl->collect_off, __ATOMIC_RELAXED) || agent_stopping(S))
    return;
  uint32_t Kind = Exit ? TSCC_HOOK_SYSCALL_EXIT : TSCC_HOOK_SYSCALL_ENTRY;
  if (Next == CALL_GADGET)
    *Slot = Nr | TSCC_SYSCALL_SLOT_COLLECTED;
  uint32_t Need = syscall_needs(Site, Kind, Nr);
  if (!Need)
    return;
  /* An entry is collected even when its clauses are dropped: the exit
   * clauses then count their own. The registers are gathered only for a
   * clause that reads them. */
  uint64_t Regs[TSCC_REG_COUNT];
  if (Need & NEED_REGS) {
    uint64_t Rsp = AGENT_ADDR(Slot) + sizeof(*Slot) + AGENT_RED_ZONE;
    uint64_t After = Site->address + Site->original[TSCC_SYSCALL_SITE_OFFSET] +
                     SYSCALL_INSN_BYTES;
    syscall_regs(F, Rsp, Nr, Exit, After, Regs);
  }
  run_hooks(Site, Kind, Nr, (int64_t)F->rax, (Need & NEED_REGS) ? Regs : 0,
            Need);
}

#endif
