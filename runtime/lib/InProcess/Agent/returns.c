/*===- returns.c - Hijacked returns: exit probes and within() ---------------===*
 *
 * A hit whose site has exit or within() hooks keeps the function's return
 * address on the thread's shadow stack (table.c: it grows in chunks from
 * the pool, so any depth is kept) and replaces it with tscc_agent_return;
 * tscc_agent_ret, called from there when the function returns, runs the
 * exit clauses, leaves within() and puts the real return address back.
 *
 * Frames deeper than the current one were skipped by a longjmp or an
 * exception: they are dropped (their exits do not fire) when they are
 * found under the stack pointer with their return address overwritten. A
 * frame under the stack pointer whose slot still holds the trampoline may
 * be another stack's (coroutines: swapcontext, boost.context): it stays,
 * and a return that is not the innermost hijacked one takes its own frame
 * out from under the others. A return that cannot be kept (the pool
 * is exhausted) counts its exit clauses as drops and tells tsrun, which
 * warns: an exit is never missed silently.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

void tscc_agent_ret(struct tscc_agent_frame *F) HIDDEN;

/* How often a thread that finds the pool empty may sweep the table for
 * the chunks of threads that have ended. */
#define RECLAIM_NS 1000000ull

static const struct tscc_agent_hook *hooks_of(const struct tscc_agent_site *S) {
  return AGENT_PTR(const struct tscc_agent_hook *, S->hooks);
}

static int is_within(const struct tscc_agent_hook *H) {
  return H->kind == TSCC_HOOK_WITHIN &&
         H->index < tscc_agent_config.store.layout.within_count;
}

/* Enters (By 1) or leaves (By -1) within() for the within() hooks of Site,
 * in T's store slot (the store lock held). Never below 0: an exit without
 * a seen entry must not wrap. */
static void move_within(struct tscc_agent_thread *T,
                        const struct tscc_agent_site *Site, int By) {
  uint32_t *W = tscc_thread_within(&tscc_agent_config.store, T->slot);
  const struct tscc_agent_hook *Hooks = hooks_of(Site);
  for (uint32_t I = 0; W && I < Site->hook_count; ++I)
    if (is_within(&Hooks[I]) && (By > 0 || W[Hooks[I].index]))
      W[Hooks[I].index] += (uint32_t)By;
}

/* Whether the hijacked return address at Slot is still there. */
static int slot_holds_return(uint64_t Slot) {
  uintptr_t Now = 0;
  return tscc_safe_copy(&Now, AGENT_PTR(const void *, Slot), sizeof(Now)) ==
             0 &&
         Now == (uintptr_t)AGENT_ADDR(&tscc_agent_return);
}

static void drop_frame(struct tscc_agent_thread *T, uint32_t Above, int Locked);

/* Frames on top deeper than Slot whose return address has been overwritten
 * since were skipped by a longjmp or an exception (or belong to a thread
 * that died and left its TCB to this one): drop them. */
static void drop_dead_frames(struct tscc_agent_thread *T, uint64_t Slot,
                             int Locked) {
  struct tscc_agent_config *C = &tscc_agent_config;
  const struct tscc_agent_shadow *F;
  while ((F = tscc_agent_top(C, T)) && F->slot < Slot &&
         !slot_holds_return(F->slot))
    drop_frame(T, 0, Locked);
}

/* How far a return searches its thread's shadow stack for its frame, and a
 * call for frames its own return address just replaced. */
#define FRAME_SEARCH 4096u
#define SLOT_REUSE_SEARCH 16u

/* Where the frame of the return at Slot is in T's shadow stack: how many
 * frames are over it (0: it is the top), or -1. */
static int32_t find_frame(const struct tscc_agent_thread *T, uint64_t Slot,
                          uint32_t Limit) {
  const struct tscc_agent_config *C = &tscc_agent_config;
  uint32_t D = tscc_agent_depth(T);
  for (uint32_t Above = 0; Above < D && Above < Limit; ++Above) {
    const struct tscc_agent_shadow *F = tscc_agent_below(C, T, Above);
    if (!F)
      break;
    if (F->slot == Slot)
      return (int32_t)Above;
  }
  return -1;
}

/* Takes out the frame Above frames under the top, leaving within() for it
 * (the store lock held). Signals stay out while frames move: a handler
 * that probes pushes on top of them. */
static void drop_frame(struct tscc_agent_thread *T, uint32_t Above,
                       int Locked) {
  struct tscc_agent_config *C = &tscc_agent_config;
  const struct tscc_agent_shadow *F = tscc_agent_below(C, T, Above);
  if (!F)
    return;
  if (Locked)
    move_within(T, AGENT_PTR(const struct tscc_agent_site *, F->site), -1);
  if (Above == 0) {
    tscc_agent_pop(C, T);
    return;
  }
  uint64_t All = ~0ull, Saved = 0;
  sys4(NR_rt_sigprocmask, 2 /* SIG_SETMASK */, &All, &Saved, 8);
  tscc_agent_remove(C, T, Above);
  sys4(NR_rt_sigprocmask, 2 /* SIG_SETMASK */, &Saved, 0, 8);
}

/* Pushes a frame; when the pool is empty, sweeps the table for the chunks
 * of threads that have ended (at most once a millisecond) and tries again. */
static int push_frame(struct tscc_agent_thread *T, uint64_t Slot, uint64_t Ret,
                      const struct tscc_agent_site *Site) {
  struct tscc_agent_config *C = &tscc_agent_config;
  if (LIKELY(tscc_agent_push(C, T, Slot, Ret, AGENT_ADDR(Site)) == 0))
    return 0;
  uint64_t Now = agent_now_ns();
  uint64_t Last = __atomic_load_n(&C->reclaimed_at_ns, __ATOMIC_RELAXED);
  if ((Last && Now - Last < RECLAIM_NS) ||
      !__atomic_compare_exchange_n(&C->reclaimed_at_ns, &Last, Now, 0,
                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED) ||
      !tscc_agent_reclaim(C))
    return -1;
  return tscc_agent_push(C, T, Slot, Ret, AGENT_ADDR(Site));
}

int agent_enter_within(struct tscc_agent_thread *T,
                       const struct tscc_agent_site *Site) {
  const struct tscc_agent_hook *Hooks = hooks_of(Site);
  int Wanted = 0;
  for (uint32_t I = 0; I < Site->hook_count; ++I)
    Wanted |= Hooks[I].kind == TSCC_HOOK_EXIT || is_within(&Hooks[I]);
  if (Wanted)
    move_within(T, Site, 1);
  return Wanted;
}

int agent_reserve_return(struct tscc_agent_thread *T, uint64_t Slot,
                         const struct tscc_agent_site *Site) {
  struct tscc_agent_config *C = &tscc_agent_config;
  drop_dead_frames(T, Slot, 1);
  /* A return address is pointer-sized: 4 bytes in a 32-bit process. */
  uint64_t Ret = *AGENT_PTR(const uintptr_t *, Slot);
  uint64_t Tramp = AGENT_ADDR(&tscc_agent_return);
  /* A tail call reusing its caller's slot: that frame stays below ours (the
   * slot returns to us already). Otherwise a frame at this slot is one
   * whose return was missed. */
  const struct tscc_agent_shadow *F;
  while (Ret != Tramp && (F = tscc_agent_top(C, T)) && F->slot == Slot) {
    move_within(T, AGENT_PTR(const struct tscc_agent_site *, F->site), -1);
    tscc_agent_pop(C, T);
  }
  /* A frame further down at this slot was skipped (and kept: its stack
   * still held the trampoline) and the slot is ours now. */
  int32_t Stale;
  while (Ret != Tramp && (Stale = find_frame(T, Slot, SLOT_REUSE_SEARCH)) > 0)
    drop_frame(T, (uint32_t)Stale, 1);
  if (push_frame(T, Slot, Ret, Site) == 0)
    return 1;
  /* Its return will not be seen: its exit clauses are dropped, and
   * within() does not count this call any more. */
  agent_notice(TSCC_NOTICE_SHADOW_FULL);
  agent_count_dropped(T, Site, TSCC_HOOK_EXIT);
  move_within(T, Site, -1);
  return 0;
}

/* The entry holding the frame of the return at Slot, and where the frame
 * is in it (*Above: frames over it): the thread's own (T, if it was found
 * already), or, if the thread has another fs base since it was hijacked,
 * whichever has it on top. */
static struct tscc_agent_thread *owner_of(struct tscc_agent_thread *T,
                                          uint64_t Slot, int Locked,
                                          uint32_t *Above) {
  struct tscc_agent_config *C = &tscc_agent_config;
  *Above = 0;
  if (!T)
    T = agent_thread(0);
  if (LIKELY(T != 0)) {
    const struct tscc_agent_shadow *F = tscc_agent_top(C, T);
    if (LIKELY(F && F->slot == Slot))
      return T;
    drop_dead_frames(T, Slot, Locked);
    int32_t At = find_frame(T, Slot, FRAME_SEARCH);
    if (At >= 0) {
      *Above = (uint32_t)At;
      return T;
    }
  }
  return tscc_agent_find_slot(C, Slot);
}

/* Runs the exit clauses of Frame's site for R (the store lock held), or
 * counts them as drops when it could not be had. */
static void run_exits(struct tscc_agent_thread *R, int Locked,
                      struct tscc_agent_frame *F,
                      const struct tscc_agent_shadow *Frame) {
  struct tscc_store *S = &tscc_agent_config.store;
  const struct tscc_agent_site *Site =
      AGENT_PTR(const struct tscc_agent_site *, Frame->site);
  /* Collection switched off since the entry: the exit is not collected
   * either (and is no drop: nothing was lost that was asked for). */
  if (__atomic_load_n(&S->control->collect_off, __ATOMIC_RELAXED) ||
      !__atomic_load_n(&agent_proc.armed, __ATOMIC_ACQUIRE))
    return;
  if (!Locked || agent_stopping(S)) {
    /* R's row is this thread's, unless the frame was found in another
     * entry: the shared row then. */
    agent_count_dropped(R == agent_thread(0) ? R : 0, Site, TSCC_HOOK_EXIT);
    return;
  }
  uint64_t Regs[TSCC_REG_COUNT];
  agent_regs_of(F, AGENT_ADDR(&F->ret) + sizeof(F->ret), Frame->ret, Regs);
  const struct tscc_agent_hook *Hooks = hooks_of(Site);
  for (uint32_t I = 0; I < Site->hook_count; ++I)
    if (Hooks[I].kind == TSCC_HOOK_EXIT)
      agent_run_clause(R, Hooks[I].index, &Hooks[I], Regs);
}

void tscc_agent_ret(struct tscc_agent_frame *F) {
  struct tscc_agent_config *C = &tscc_agent_config;
  struct tscc_store *S = &C->store;
  uint64_t Slot = AGENT_ADDR(&F->ret);
  /* A fork child of a detached process may return through its parent's
   * hijacked frame (fork() probed on exit) before any hit: it arms here. */
  int Armed = __atomic_load_n(&agent_proc.armed, __ATOMIC_ACQUIRE) ||
              agent_follow_fork();
  struct tscc_agent_thread *R = Armed ? agent_thread(1) : 0;
  int Rc = R ? tscc_store_lock(S, R->tid, C->lock_timeout_ns) : -1;
  int Locked = Rc == TSCC_LOCK_OK;
  if (Rc == TSCC_LOCK_TIMEOUT)
    agent_notice(TSCC_NOTICE_LOCK_TIMEOUT);
  uint32_t Above = 0;
  struct tscc_agent_thread *T = owner_of(R, Slot, Locked, &Above);
  if (UNLIKELY(!T)) {
    /* Returned through the trampoline with no record of where to: the
     * stack was switched or corrupted. There is nothing sane to continue
     * with; die the way a corrupt return address would. */
    if (Locked)
      tscc_store_unlock(S, R->tid);
    __builtin_trap();
  }
  struct tscc_agent_shadow Frame = *tscc_agent_below(C, T, Above);
  F->ret = Frame.ret;
  run_exits(R, Locked, F, &Frame);
  if (Locked) {
    move_within(R, AGENT_PTR(const struct tscc_agent_site *, Frame.site), -1);
    tscc_store_unlock(S, R->tid);
  }
  /* Pop only now: a signal handler that probes while we ran sees this
   * frame still in place and pushes above it. */
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  drop_frame(T, Above, 0);
}
