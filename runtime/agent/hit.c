/*===- hit.c - A probe fired inside the target: run its clauses -------------===*
 *
 * tscc_agent_hit is called (through tscc_agent_enter) by a site's
 * trampoline; tscc_agent_ret (through tscc_agent_return) when a function
 * whose return address was hijacked returns. Both run on the program's own
 * thread and stack, at any moment: inside malloc, inside a signal handler,
 * before libc is initialised. They take no lock but the store's, and a hit
 * that finds the store lock held by its own thread (a signal handler that
 * interrupted a clause) skips its clauses and counts them as drops.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

struct tscc_agent_config tscc_agent_config HIDDEN;

/* Alone in its page: tsrun makes that page MADV_WIPEONFORK. */
__attribute__((
    section(".bss.tscc_proc"),
    aligned(4096))) HIDDEN union agent_proc_page tscc_agent_proc_page;

void tscc_agent_hit(struct tscc_agent_frame *F, uint64_t Ret) HIDDEN;
void tscc_agent_ret(struct tscc_agent_frame *F) HIDDEN;

/* Where the program's rsp was at the site: above the return address the
 * trampoline's call pushed and the red zone it skipped. */
static uint64_t site_rsp(struct tscc_agent_frame *F) {
  return (uint64_t)&F->ret + 8 + 128;
}

static void regs_of(const struct tscc_agent_frame *F, uint64_t Rsp,
                    uint64_t Rip, uint64_t *R) {
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

int agent_counters_add(uint32_t Clause, int Which, uint64_t N) {
  struct tscc_clause_counters *K =
      tscc_store_counters(&tscc_agent_config.store, Clause);
  if (!K)
    return -1;
  uint64_t *C = Which == COUNT_FIRED    ? &K->fired
                : Which == COUNT_FAULTS ? &K->faults
                                        : &K->drops;
  __atomic_add_fetch(C, N, __ATOMIC_RELAXED);
  return 0;
}

/* The session is ending (tsrun says so), or a clause of this process
 * called exit(), which tsrun has not seen yet. */
static int stopping(struct tscc_store *S) {
  return __atomic_load_n(&S->control->stopping, __ATOMIC_ACQUIRE) ||
         __atomic_load_n(&tscc_shard_hdr(S)->stopping, __ATOMIC_ACQUIRE);
}

static uint32_t clause_of(uint32_t Probe) {
  const struct tscc_agent_config *C = &tscc_agent_config;
  if (Probe >= C->probe_count)
    return ~0u;
  return ((const uint32_t *)C->probe_clause)[Probe];
}

/* Runs the clause of Probe for thread T; the store lock is held. */
static void run_clause(struct tscc_agent_thread *T, uint32_t Probe,
                       const struct tscc_agent_hook *H, const uint64_t *Regs) {
  const struct tscc_agent_config *C = &tscc_agent_config;
  uint32_t Clause = clause_of(Probe);
  if (Clause >= C->clause_count)
    return;
  agent_counters_add(Clause, COUNT_FIRED, 1);
  const struct tscc_agent_clause *K =
      &((const struct tscc_agent_clause *)C->clauses)[Clause];
  if (!K->pred && !K->action)
    return;
  struct tscc_store *S = (struct tscc_store *)&C->store;
  struct tscc_ctx Ctx;
  struct agent_scope Scope = {T, 0, &Ctx};
  __builtin_memset(&Ctx, 0, sizeof(Ctx));
  Ctx.helpers = &tscc_agent_helpers;
  Ctx.runtime = &Scope;
  Ctx.globals = tscc_store_globals(S);
  Ctx.thread = tscc_thread_locals(S, T->slot);
  __builtin_memcpy(Ctx.regs, Regs, sizeof(Ctx.regs));
  Ctx.pid = C->pid;
  Ctx.tid = T->tid;
  Ctx.ppid = C->ppid;
  Ctx.uid = C->uid;
  Ctx.data_model = TSCC_DM_LP64;
  Ctx.clause = Clause;
  Ctx.probe = Probe;
  Ctx.pname = (const char *)C->pname;
  Ctx.func = (const char *)H->func;
  Ctx.module = (const char *)H->module;
  Ctx.probe_spec = ((const char *const *)C->probe_specs)[Probe];
  Ctx.params = (const int64_t *)C->params;
  Ctx.param_strings = (const char *const *)C->param_strings;
  Ctx.param_count = C->param_count;
  T->in_clause = 1;
  int Crashed = tscc_agent_try(K->pred, K->action, &Ctx, &T->recover);
  T->in_clause = 0;
  if (Crashed)
    agent_counters_add(Clause, COUNT_FAULTS, 1);
}

static void count_skipped(const struct tscc_agent_site *Site) {
  const struct tscc_agent_hook *Hooks =
      (const struct tscc_agent_hook *)Site->hooks;
  for (uint32_t I = 0; I < Site->hook_count; ++I)
    if (Hooks[I].kind == TSCC_HOOK_ENTRY) {
      uint32_t Clause = clause_of(Hooks[I].index);
      agent_counters_add(Clause, COUNT_FIRED, 1);
      agent_counters_add(Clause, COUNT_DROPS, 1);
    }
}

/* Frames deeper than Slot were skipped by a longjmp (or belong to a thread
 * that died and left its TCB to this one): drop them. */
static void drop_dead_frames(struct tscc_agent_thread *T, uint64_t Slot,
                             int Locked) {
  while (T->depth && T->frames[T->depth - 1].slot < Slot) {
    const struct tscc_agent_site *Site =
        (const struct tscc_agent_site *)T->frames[T->depth - 1].site;
    if (Locked) {
      uint32_t *W = tscc_thread_within(&tscc_agent_config.store, T->slot);
      const struct tscc_agent_hook *Hooks =
          (const struct tscc_agent_hook *)Site->hooks;
      for (uint32_t I = 0; W && I < Site->hook_count; ++I)
        if (Hooks[I].kind == TSCC_HOOK_WITHIN &&
            Hooks[I].index < tscc_agent_config.store.layout.within_count &&
            W[Hooks[I].index])
          --W[Hooks[I].index];
    }
    --T->depth;
  }
}

/* Replaces the return address at Slot with tscc_agent_return, keeping the
 * real one on T's shadow stack. Reserve the frame before filling it: a
 * signal handler that probes in between must not reuse it. */
static void hijack(struct tscc_agent_thread *T, uint64_t Slot,
                   const struct tscc_agent_site *Site) {
  uint64_t *Where = (uint64_t *)Slot;
  uint64_t Ret = *Where;
  uint64_t Tramp = (uint64_t)&tscc_agent_return;
  /* A tail call reusing its caller's slot: that frame stays below ours. */
  while (T->depth && T->frames[T->depth - 1].slot == Slot && Ret != Tramp)
    --T->depth;
  if (T->depth >= TSCC_AGENT_MAX_FRAMES)
    return;
  uint32_t D = T->depth;
  __atomic_store_n(&T->depth, D + 1, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  T->frames[D].slot = Slot;
  T->frames[D].ret = Ret;
  T->frames[D].site = (uint64_t)Site;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  *Where = Tramp;
}

void tscc_agent_hit(struct tscc_agent_frame *F, uint64_t Ret) {
  const struct tscc_agent_site *Site =
      (const struct tscc_agent_site *)(Ret - TSCC_TRAMPOLINE_CALL_END -
                                       TSCC_TRAMPOLINE_CODE);
  struct tscc_store *S = &tscc_agent_config.store;
  const struct tscc_control *Ctl = S->control;
  if (UNLIKELY(__atomic_load_n(&Ctl->reader_alive, __ATOMIC_RELAXED) &
               TSCC_READER_GONE)) {
    agent_reader_gone();
    return;
  }
  /* Collection off: return before anything else, so that the only cost is
   * the probe itself, and without hijacking the return, so that an exit
   * probe never fires for a call whose entry was not collected. */
  if (!__atomic_load_n(&agent_proc.armed, __ATOMIC_ACQUIRE) ||
      __atomic_load_n(&Ctl->collect_off, __ATOMIC_RELAXED) || stopping(S))
    return;
  struct tscc_agent_thread *T = agent_thread(1);
  if (UNLIKELY(!T)) {
    count_skipped(Site);
    return;
  }
  ++T->hits;
  uint64_t Rsp = site_rsp(F);
  int Rc = tscc_store_lock(S, T->tid, tscc_agent_config.lock_timeout_ns);
  if (Rc != TSCC_LOCK_OK) {
    if (Rc == TSCC_LOCK_REENTERED)
      __atomic_add_fetch(&tscc_agent_config.reentered, 1, __ATOMIC_RELAXED);
    count_skipped(Site);
    return;
  }
  /* exit() may have been called while we waited for the lock. */
  if (UNLIKELY(stopping(S))) {
    tscc_store_unlock(S, T->tid);
    return;
  }
  uint64_t Regs[TSCC_REG_COUNT];
  regs_of(F, Rsp, Site->address, Regs);
  const struct tscc_agent_hook *Hooks =
      (const struct tscc_agent_hook *)Site->hooks;
  int Returns = 0;
  uint32_t *W = tscc_thread_within(S, T->slot);
  for (uint32_t I = 0; I < Site->hook_count; ++I)
    if (Hooks[I].kind == TSCC_HOOK_WITHIN &&
        Hooks[I].index < S->layout.within_count && W) {
      ++W[Hooks[I].index];
      Returns = 1;
    }
  for (uint32_t I = 0; I < Site->hook_count; ++I) {
    if (Hooks[I].kind == TSCC_HOOK_ENTRY)
      run_clause(T, Hooks[I].index, &Hooks[I], Regs);
    else if (Hooks[I].kind == TSCC_HOOK_EXIT)
      Returns = 1;
  }
  if (Returns)
    drop_dead_frames(T, Rsp, 1);
  tscc_store_unlock(S, T->tid);
  if (Returns)
    hijack(T, Rsp, Site);
}

void tscc_agent_ret(struct tscc_agent_frame *F) {
  uint64_t Slot = (uint64_t)&F->ret;
  struct tscc_agent_thread *T = agent_thread(0);
  if (UNLIKELY(!T))
    __builtin_trap();
  int Armed = __atomic_load_n(&agent_proc.armed, __ATOMIC_ACQUIRE);
  struct tscc_agent_thread *R = Armed ? agent_thread(1) : 0;
  struct tscc_store *S = &tscc_agent_config.store;
  int Locked =
      R && tscc_store_lock(S, R->tid, tscc_agent_config.lock_timeout_ns) ==
               TSCC_LOCK_OK;
  drop_dead_frames(T, Slot, Locked);
  if (UNLIKELY(!T->depth || T->frames[T->depth - 1].slot != Slot)) {
    /* Returned through the trampoline with no record of where to: the
     * stack was switched or corrupted. There is nothing sane to continue
     * with; die the way a corrupt return address would. */
    if (Locked)
      tscc_store_unlock(S, R->tid);
    __builtin_trap();
  }
  struct tscc_agent_shadow Frame = T->frames[T->depth - 1];
  F->ret = Frame.ret;
  const struct tscc_agent_site *Site =
      (const struct tscc_agent_site *)Frame.site;
  const struct tscc_agent_hook *Hooks =
      (const struct tscc_agent_hook *)Site->hooks;
  /* Collection switched off since the entry: the exit is not collected
   * either (and is no drop: nothing was lost that was asked for). */
  int Off = __atomic_load_n(&S->control->collect_off, __ATOMIC_RELAXED);
  if (Locked && !Off && !stopping(S)) {
    uint64_t Regs[TSCC_REG_COUNT];
    regs_of(F, Slot + 8, Frame.ret, Regs);
    for (uint32_t I = 0; I < Site->hook_count; ++I)
      if (Hooks[I].kind == TSCC_HOOK_EXIT)
        run_clause(R, Hooks[I].index, &Hooks[I], Regs);
  } else if (Armed && !Off) {
    for (uint32_t I = 0; I < Site->hook_count; ++I)
      if (Hooks[I].kind == TSCC_HOOK_EXIT) {
        uint32_t Clause = clause_of(Hooks[I].index);
        agent_counters_add(Clause, COUNT_FIRED, 1);
        agent_counters_add(Clause, COUNT_DROPS, 1);
      }
  }
  if (Locked) {
    uint32_t *W = tscc_thread_within(S, R->slot);
    for (uint32_t I = 0; W && I < Site->hook_count; ++I)
      if (Hooks[I].kind == TSCC_HOOK_WITHIN &&
          Hooks[I].index < S->layout.within_count && W[Hooks[I].index])
        --W[Hooks[I].index];
    tscc_store_unlock(S, R->tid);
  }
  /* Pop only now: a signal handler that probes while we ran sees this
   * frame still in place and pushes above it. */
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  --T->depth;
}
