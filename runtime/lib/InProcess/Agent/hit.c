/*===- hit.c - A probe fired inside the target: run its clauses -------------===*
 *
 * tscc_agent_hit is called (through tscc_agent_enter) by a site's
 * trampoline. It runs on the program's own thread and stack, at any
 * moment: inside malloc, inside a signal handler, before libc is
 * initialised. It takes no lock but the store's, and only when one of the
 * site's clauses touches what threads share (globals, associative arrays,
 * print() or clear() of aggregations, records) or the site keeps returns:
 * a clause that only reads the target and its thread's variables, and
 * updates aggregations in its thread's own part of them (helpers.c
 * h_agg_update), runs on its thread's own counters, with no shared cache
 * line written. A hit that finds the store
 * lock held by its own thread, or its thread inside a clause (a signal
 * handler that interrupted one), skips its clauses and counts them as
 * drops. Returns are returns.c's.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

struct tscc_agent_config tscc_agent_config HIDDEN;

/* Alone in its page: tsrun makes that page MADV_WIPEONFORK. */
__attribute__((
    section(".bss.tscc_proc"),
    aligned(4096))) HIDDEN union agent_proc_page tscc_agent_proc_page;

void tscc_agent_hit(struct tscc_agent_frame *F, uint64_t Ret) HIDDEN;

/* Where the program's stack pointer was at the site: above the return
 * address the trampoline's call pushed and the red zone it skipped. */
static uint64_t site_rsp(struct tscc_agent_frame *F) {
  return AGENT_ADDR(&F->ret) + sizeof(F->ret) + AGENT_RED_ZONE;
}

#if defined(__i386__)
void agent_regs_of(const struct tscc_agent_frame *F, uint64_t Rsp, uint64_t Rip,
                   uint64_t *R) {
  __builtin_memset(R, 0, TSCC_REG_COUNT * sizeof(*R));
  R[TSCC_REG_RAX] = F->eax;
  R[TSCC_REG_RBX] = F->ebx;
  R[TSCC_REG_RCX] = F->ecx;
  R[TSCC_REG_RDX] = F->edx;
  R[TSCC_REG_RSI] = F->esi;
  R[TSCC_REG_RDI] = F->edi;
  R[TSCC_REG_RBP] = F->ebp;
  R[TSCC_REG_RSP] = Rsp;
  R[TSCC_REG_RIP] = Rip;
  R[TSCC_REG_EFLAGS] = F->eflags;
  R[TSCC_REG_ORIG_RAX] = 0xffffffffu;
}
#else
void agent_regs_of(const struct tscc_agent_frame *F, uint64_t Rsp, uint64_t Rip,
                   uint64_t *R) {
  R[TSCC_REG_RAX] = F->rax;
  R[TSCC_REG_RBX] = F->rbx;
  R[TSCC_REG_RCX] = F->rcx;
  R[TSCC_REG_RDX] = F->rdx;
  R[TSCC_REG_RSI] = F->rsi;
  R[TSCC_REG_RDI] = F->rdi;
  R[TSCC_REG_RBP] = F->rbp;
  R[TSCC_REG_RSP] = Rsp;
  R[TSCC_REG_R8] = F->r8;
  R[TSCC_REG_R9] = F->r9;
  R[TSCC_REG_R10] = F->r10;
  R[TSCC_REG_R11] = F->r11;
  R[TSCC_REG_R12] = F->r12;
  R[TSCC_REG_R13] = F->r13;
  R[TSCC_REG_R14] = F->r14;
  R[TSCC_REG_R15] = F->r15;
  R[TSCC_REG_RIP] = Rip;
  R[TSCC_REG_EFLAGS] = F->rflags;
  R[TSCC_REG_ORIG_RAX] = ~0ull;
}
#endif

/* Adds N to what Which counts of Clause: in thread T's own row, with one
 * unlocked add to memory (only T writes its row, and a signal handler
 * that interrupts T counts between two instructions, never inside one:
 * on i386 the add/adc pair is as safe, the carry being restored with the
 * flags); without a thread, in the shared row with an atomic add. */
int agent_counters_add(struct tscc_agent_thread *T, uint32_t Clause, int Which,
                       uint64_t N) {
  struct tscc_store *S = &tscc_agent_config.store;
  struct tscc_clause_counters *K =
      T ? tscc_store_thread_counters(S, T->slot, Clause)
        : tscc_store_counters(S, Clause);
  if (!K)
    return -1;
  uint64_t *C = Which == COUNT_FIRED    ? &K->fired
                : Which == COUNT_FAULTS ? &K->faults
                : Which == COUNT_LOST   ? &K->lost
                                        : &K->drops;
  if (!T) {
    __atomic_add_fetch(C, N, __ATOMIC_RELAXED);
    return 0;
  }
#if defined(__i386__)
  __asm__ volatile("addl %2, %0\n\tadcl %3, %1"
                   : "+m"(((uint32_t *)C)[0]), "+m"(((uint32_t *)C)[1])
                   : "ri"((uint32_t)N), "ri"((uint32_t)(N >> 32))
                   : "cc");
#else
  __asm__ volatile("addq %1, %0" : "+m"(*C) : "er"(N) : "cc");
#endif
  return 0;
}

/* Or-s the bit of fault Kind into Clause's fault kinds, as above. */
void agent_fault_kind(struct tscc_agent_thread *T, uint32_t Clause,
                      uint32_t Kind) {
  struct tscc_store *S = &tscc_agent_config.store;
  struct tscc_clause_counters *K =
      T ? tscc_store_thread_counters(S, T->slot, Clause)
        : tscc_store_counters(S, Clause);
  if (K && Kind < 64)
    __atomic_fetch_or(&K->fault_kinds, 1ull << Kind, __ATOMIC_RELAXED);
}

uint32_t agent_clause_of(uint32_t Probe) {
  const struct tscc_agent_config *C = &tscc_agent_config;
  if (Probe >= C->probe_count)
    return ~0u;
  return AGENT_PTR(const uint32_t *, C->probe_clause)[Probe];
}

/* A USDT argument's value in Size bytes, sign- or zero-extended to 64 bits
 * (as tsrun's evaluateUsdtArgs does). */
static uint64_t usdt_extend(uint64_t V, int8_t Size) {
  unsigned Bytes = (unsigned)(Size < 0 ? -Size : Size);
  if (Bytes >= 8)
    return V;
  unsigned Bits = Bytes * 8;
  uint64_t Mask = (1ull << Bits) - 1;
  V &= Mask;
  if (Size < 0 && ((V >> (Bits - 1)) & 1))
    V |= ~Mask;
  return V;
}

static uint64_t usdt_reg(const uint64_t *Regs, int8_t R) {
  return R >= 0 && R < TSCC_REG_COUNT ? Regs[R] : 0;
}

/* Evaluates the hook's USDT arguments from the registers of the hit into
 * Ctx. A memory operand that faults reads as 0, as on the ptrace path, and
 * tsrun is told (it warns once). */
static void usdt_args(const struct tscc_agent_hook *H, const uint64_t *Regs,
                      struct tscc_ctx *Ctx) {
  const struct tscc_agent_usdt_arg *A =
      AGENT_PTR(const struct tscc_agent_usdt_arg *, H->usdt);
  uint32_t N =
      H->usdt_count < TSCC_USDT_MAX_ARGS ? H->usdt_count : TSCC_USDT_MAX_ARGS;
  for (uint32_t I = 0; I < N; ++I) {
    uint64_t V = 0;
    if (A[I].kind == TSCC_USDT_CONSTANT) {
      V = (uint64_t)A[I].value;
    } else if (A[I].kind == TSCC_USDT_REGISTER) {
      V = usdt_reg(Regs, A[I].reg);
      if (A[I].high_byte)
        V >>= 8;
      if (A[I].high_reg >= 0)
        V = (V & 0xffffffffull) | (usdt_reg(Regs, A[I].high_reg) << 32);
    } else {
      uint64_t Addr =
          (uint64_t)A[I].value + usdt_reg(Regs, A[I].reg) +
          (A[I].index >= 0 ? usdt_reg(Regs, A[I].index) * A[I].scale : 0);
      unsigned Bytes = (unsigned)(A[I].size < 0 ? -A[I].size : A[I].size);
      if (Bytes > 8)
        Bytes = 8;
      agent_faults_deliverable((struct agent_scope *)Ctx->runtime);
      if (tscc_safe_copy(&V, AGENT_PTR(const void *, (uintptr_t)Addr), Bytes) !=
          0) {
        V = 0;
        agent_notice(TSCC_NOTICE_USDT_ARG);
      }
    }
    Ctx->usdt_args[I] = usdt_extend(V, A[I].size);
  }
  Ctx->usdt_arg_count = N;
}

/* Runs the clause of Probe for thread T; the store lock is held, unless
 * the clause is TSCC_AGENT_CLAUSE_UNLOCKED. */
void agent_run_clause(struct tscc_agent_thread *T, uint32_t Probe,
                      const struct tscc_agent_hook *H, const uint64_t *Regs) {
  agent_run_syscall_clause(T, Probe, H, Regs, 0, 0);
}

/* Fills in the fields of Ctx that the clause reads (Need, agent_clause_ctx) and
 * those every helper reads; the others are left as they are, unread. A
 * context for everything starts zeroed, as the ptrace path's does. */
static void build_ctx(struct tscc_ctx *Ctx, uint32_t Need,
                      struct tscc_agent_thread *T, uint32_t Clause,
                      uint32_t Probe, const struct tscc_agent_hook *H,
                      const uint64_t *Regs, uint64_t SyscallNr, int32_t Err) {
  const struct tscc_agent_config *C = &tscc_agent_config;
  struct tscc_store *S = (struct tscc_store *)&C->store;
  if (Need == AGENT_CTX_ALL)
    __builtin_memset(Ctx, 0, sizeof(*Ctx));
  Ctx->helpers = &tscc_agent_helpers;
  Ctx->globals = tscc_store_globals(S);
  Ctx->thread = tscc_thread_locals(S, T->slot);
  Ctx->data_model = AGENT_DATA_MODEL;
  Ctx->clause = Clause;
  Ctx->probe = Probe;
  if (Need & TSCC_CLAUSE_CTX_REGS) {
    if (Regs)
      __builtin_memcpy(Ctx->regs, Regs, sizeof(Ctx->regs));
    else
      __builtin_memset(Ctx->regs, 0, sizeof(Ctx->regs));
  }
  if (Need & TSCC_CLAUSE_CTX_IDS) {
    Ctx->pid = T->pid;
    Ctx->tid = T->tid;
    Ctx->ppid = T->ppid;
    Ctx->uid = T->uid;
  }
  if (Need & TSCC_CLAUSE_CTX_SYSCALL) {
    Ctx->err = Err;
    Ctx->syscall_nr = SyscallNr;
  }
  if (Need & TSCC_CLAUSE_CTX_NAMES) {
    Ctx->pname = AGENT_PTR(const char *, C->pname);
    Ctx->func = AGENT_PTR(const char *, H->func);
    Ctx->module = AGENT_PTR(const char *, H->module);
    /* Arrays of 8-byte addresses (tscc/agent.h; abi.h for param_strings). */
    Ctx->probe_spec = AGENT_PTR(
        const char *, AGENT_PTR(const uint64_t *, C->probe_specs)[Probe]);
  }
  if (Need & TSCC_CLAUSE_CTX_PARAMS) {
    Ctx->params = AGENT_PTR(const int64_t *, C->params);
    Ctx->param_strings = AGENT_PTR(const char *const *, C->param_strings);
    Ctx->param_count = C->param_count;
  }
}

void agent_run_syscall_clause(struct tscc_agent_thread *T, uint32_t Probe,
                              const struct tscc_agent_hook *H,
                              const uint64_t *Regs, uint64_t SyscallNr,
                              int32_t Err) {
  const struct tscc_agent_config *C = &tscc_agent_config;
  uint32_t Clause = agent_clause_of(Probe);
  if (Clause >= C->clause_count)
    return;
  agent_counters_add(T, Clause, COUNT_FIRED, 1);
  const struct tscc_agent_clause *K =
      &AGENT_PTR(const struct tscc_agent_clause *, C->clauses)[Clause];
  if (!K->pred && !K->action)
    return;
  /* A signal handler that interrupted a clause of this thread: with the
   * session lock not held (a hit that does not need it), this is where the
   * clause it interrupted is seen, before the two could both write the
   * thread's ring or variables. Dropped, as a reentered lock is. */
  if (UNLIKELY(T->in_clause)) {
    __atomic_add_fetch(&tscc_agent_config.reentered, 1, __ATOMIC_RELAXED);
    agent_counters_add(T, Clause, COUNT_DROPS, 1);
    return;
  }
  struct tscc_ctx Ctx;
  struct agent_scope Scope = {T, 0, &Ctx, 0, 0, 0};
  uint32_t Need = agent_clause_ctx(K);
  build_ctx(&Ctx, Need, T, Clause, Probe, H, Regs, SyscallNr, Err);
  Ctx.runtime = &Scope;
  if (Need & TSCC_CLAUSE_CTX_USDT) {
    Ctx.usdt_arg_count = 0;
    for (uint32_t I = 0; I < TSCC_USDT_MAX_ARGS; ++I)
      Ctx.usdt_args[I] = 0;
    if (H->usdt_count && Regs)
      usdt_args(H, Regs, &Ctx);
  }
  T->in_clause = 1;
  int Crashed = tscc_agent_try(K->pred, K->action, &Ctx, &T->recover);
  T->in_clause = 0;
  if (UNLIKELY(Scope.mask_changed))
    agent_restore_mask(&Scope);
  if (Crashed)
    agent_counters_add(T, Clause, COUNT_FAULTS, 1);
}

void agent_count_dropped(struct tscc_agent_thread *T,
                         const struct tscc_agent_site *Site, uint32_t Kind) {
  const struct tscc_agent_hook *Hooks =
      AGENT_PTR(const struct tscc_agent_hook *, Site->hooks);
  for (uint32_t I = 0; I < Site->hook_count; ++I) {
    uint32_t K = Hooks[I].kind;
    if (Kind ? K == Kind : K == TSCC_HOOK_ENTRY || K == TSCC_HOOK_EXIT) {
      uint32_t Clause = agent_clause_of(Hooks[I].index);
      agent_counters_add(T, Clause, COUNT_FIRED, 1);
      agent_counters_add(T, Clause, COUNT_DROPS, 1);
    }
  }
}

/* What a hit of Site needs, from its hooks and their clauses: the session
 * lock (NEED_LOCK) when it keeps a return (exit or within() hooks, whose
 * bookkeeping runs under the lock) or one of its entry clauses touches
 * what other threads share (clauses of an object that does not say,
 * TSCC_AGENT_CLAUSE_UNLOCKED, always do); the registers (NEED_REGS) when
 * a clause reads them or a USDT argument is made of them; NEED_RETURNS
 * (with both) when it has hooks other than entries. */
enum { NEED_RETURNS = 4 };
static uint32_t site_needs(const struct tscc_agent_site *Site) {
  const struct tscc_agent_hook *Hooks =
      AGENT_PTR(const struct tscc_agent_hook *, Site->hooks);
  uint32_t Need = 0;
  for (uint32_t I = 0; I < Site->hook_count; ++I) {
    if (Hooks[I].kind != TSCC_HOOK_ENTRY)
      return NEED_LOCK | NEED_REGS | NEED_RETURNS;
    if (Hooks[I].usdt_count)
      Need |= NEED_REGS;
    Need |= agent_hook_needs(Hooks[I].index);
  }
  return Need;
}

/* The entry clauses of a site, the store lock held unless none of them
 * needs it (a signal handler that hits while one of those runs is dropped
 * by agent_run_syscall_clause). Regs only when one reads them. */
static void run_entries(struct tscc_agent_thread *T,
                        const struct tscc_agent_site *Site,
                        const uint64_t *Regs) {
  const struct tscc_agent_hook *Hooks =
      AGENT_PTR(const struct tscc_agent_hook *, Site->hooks);
  for (uint32_t I = 0; I < Site->hook_count; ++I)
    if (Hooks[I].kind == TSCC_HOOK_ENTRY)
      agent_run_clause(T, Hooks[I].index, &Hooks[I], Regs);
}

/* The hit of a site that keeps no return: its entry clauses, under the
 * lock when one needs it. */
static void run_plain(struct tscc_agent_thread *T, struct tscc_agent_frame *F,
                      const struct tscc_agent_site *Site, uint32_t Need) {
  uint64_t Regs[TSCC_REG_COUNT];
  if (Need & NEED_REGS)
    agent_regs_of(F, site_rsp(F), Site->address, Regs);
  const uint64_t *R = (Need & NEED_REGS) ? Regs : 0;
  if (!(Need & NEED_LOCK)) {
    run_entries(T, Site, R);
    return;
  }
  struct tscc_store *S = &tscc_agent_config.store;
  int Rc = tscc_store_lock(S, T->tid, tscc_agent_config.lock_timeout_ns);
  if (UNLIKELY(Rc != TSCC_LOCK_OK)) {
    if (Rc == TSCC_LOCK_REENTERED)
      __atomic_add_fetch(&tscc_agent_config.reentered, 1, __ATOMIC_RELAXED);
    else if (Rc == TSCC_LOCK_TIMEOUT)
      agent_notice(TSCC_NOTICE_LOCK_TIMEOUT);
    agent_count_dropped(T, Site, 0);
    return;
  }
  /* exit() may have been called while we waited for the lock. */
  if (LIKELY(!agent_stopping(S)))
    run_entries(T, Site, R);
  tscc_store_unlock(S, T->tid);
}

/* The hit of a site with exit or within() hooks, under the lock. */
static void run_returns(struct tscc_agent_thread *T, struct tscc_agent_frame *F,
                        const struct tscc_agent_site *Site) {
  struct tscc_store *S = &tscc_agent_config.store;
  uint64_t Rsp = site_rsp(F);
  int Rc = tscc_store_lock(S, T->tid, tscc_agent_config.lock_timeout_ns);
  if (Rc != TSCC_LOCK_OK) {
    if (Rc == TSCC_LOCK_REENTERED)
      __atomic_add_fetch(&tscc_agent_config.reentered, 1, __ATOMIC_RELAXED);
    else if (Rc == TSCC_LOCK_TIMEOUT)
      agent_notice(TSCC_NOTICE_LOCK_TIMEOUT);
    agent_count_dropped(T, Site, 0);
    return;
  }
  /* exit() may have been called while we waited for the lock. */
  if (UNLIKELY(agent_stopping(S))) {
    tscc_store_unlock(S, T->tid);
    return;
  }
  uint64_t Regs[TSCC_REG_COUNT];
  agent_regs_of(F, Rsp, Site->address, Regs);
  /* within() counts this call in its own entry clauses already; its
   * return is kept after them, so that stktrace() there sees the stack as
   * it is. */
  int Returns = agent_enter_within(T, Site);
  run_entries(T, Site, Regs);
  if (Returns)
    Returns = agent_reserve_return(T, Rsp, Site);
  tscc_store_unlock(S, T->tid);
  if (Returns) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    /* A return address is pointer-sized: 4 bytes in a 32-bit process. */
    *AGENT_PTR(uintptr_t *, Rsp) = (uintptr_t)&tscc_agent_return;
  }
}

void tscc_agent_hit(struct tscc_agent_frame *F, uint64_t Ret) {
  const struct tscc_agent_site *Site =
      AGENT_PTR(const struct tscc_agent_site *,
                Ret - AGENT_TRAMPOLINE_CALL_END - TSCC_TRAMPOLINE_CODE);
  struct tscc_store *S = &tscc_agent_config.store;
  const struct tscc_control *Ctl = S->control;
  if (UNLIKELY(__atomic_load_n(&Ctl->reader_alive, __ATOMIC_RELAXED) &
               TSCC_READER_GONE)) {
    agent_reader_gone();
    return;
  }
  /* The agent's own hooks (not probes) are first at their site: libc's
   * __libc_sigaction, pthread_sigmask and exec functions, whose calls the
   * agent sees whatever collection does (signal.c, follow.c). */
  uint32_t First =
      Site->hook_count
          ? AGENT_PTR(const struct tscc_agent_hook *, Site->hooks)->kind
          : 0;
  if (UNLIKELY(First == TSCC_HOOK_SIGNAL_GATE)) {
    agent_sigaction_gate(F, site_rsp(F));
    if (Site->hook_count == 1)
      return;
  }
  /* Collection off: return before anything else, so that the only cost is
   * the probe itself, and without hijacking the return, so that an exit
   * probe never fires for a call whose entry was not collected. */
  if (UNLIKELY(!__atomic_load_n(&agent_proc.armed, __ATOMIC_ACQUIRE)) &&
      !agent_follow_fork()) /* a fork child of a detached process arms */
    return;
  /* Those that need the process armed: its threads' entries, its
   * shard. The loader's hook too (a window is asked in the shard). */
  if (UNLIKELY(First == TSCC_HOOK_EXEC_GATE ||
               First == TSCC_HOOK_SIGMASK_GATE ||
               First == TSCC_HOOK_LOADER_GATE)) {
    if (First == TSCC_HOOK_EXEC_GATE)
      agent_exec_gate();
    else if (First == TSCC_HOOK_LOADER_GATE)
      agent_loader_gate();
    else
      agent_sigmask_gate(F, site_rsp(F));
    if (Site->hook_count == 1)
      return;
  }
  if (__atomic_load_n(&Ctl->collect_off, __ATOMIC_RELAXED) || agent_stopping(S))
    return;
  struct tscc_agent_thread *T = agent_hit_thread();
  if (UNLIKELY(!T)) {
    agent_count_dropped(0, Site, 0);
    return;
  }
  ++T->hits;
  uint32_t Need = site_needs(Site);
  if (Need & NEED_RETURNS)
    run_returns(T, F, Site);
  else
    run_plain(T, F, Site, Need);
}
