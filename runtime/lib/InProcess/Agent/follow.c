/*===- follow.c - A fork child of a detached process arms itself ------------===*
 *
 * While tsrun has let go of a process (--detach), nobody sees it fork. Its
 * child holds everything a traced process needs: the agent, the patched
 * code, the store and -- because tsrun made it inheritable when it let go
 * (follow_forks) -- its parent's shard. Only the per-process page is wiped
 * (MADV_WIPEONFORK), so the child starts disarmed. Its first hit (or the
 * return of a call probed on exit, fork() itself for one) comes here and
 * arms it at once, with no round trip to tsrun: it takes its parent's
 * place in its own copy of the configuration, hands itself the forking
 * thread's entry (the hijacked returns on its stack are that thread's),
 * and arms with an epoch of its own, so that every copied entry is
 * resolved again against the store. Its threads then take slots in the
 * shared shard, under the store lock like any thread, with their own ids,
 * and tsrun reads their records and counters from there.
 *
 * A child of that child does the same: the shard stays inheritable.
 *
 * A vfork() child (or one made by clone(CLONE_VM) without CLONE_THREAD)
 * runs in its parent's memory, with the agent armed: the agent already
 * tells threads apart by their ids there, and finds no identity for the
 * child's. Attached, tsrun would add it to the sharers; detached, the
 * child adds itself (agent_join_sharers), as its parent's process for the
 * store with its own pid, taking the entry of a sharer that is gone if
 * the list is full.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

/* An epoch no arm() of tsrun's gives (those count up from 1): the high bit
 * and the process id, so that a child never takes its parent's. */
static uint32_t own_epoch(int32_t Pid) { return 0x80000000u | (uint32_t)Pid; }

/* The child's copy of the table: the forking thread's entry (its fs base
 * is the same in the child) becomes the child's only thread; the parent's
 * other entries are no longer members and are reused in time. The free
 * list of shadow chunks may have been half changed by another thread of
 * the parent when the memory was copied: the child starts without it. */
static void take_parents_place(struct tscc_agent_config *C, int32_t Pid) {
  uint64_t Key = tscc_agent_thread_key(agent_thread_key(C->has_fsgsbase));
  struct tscc_agent_thread *Forking = tscc_agent_find(C, Key, 0);
  __atomic_store_n(&C->pool_free, 0, __ATOMIC_RELAXED);
  /* A detached process's threads are told apart by their ids (shared_mm),
   * as the one member of its sharers: that member becomes the child. */
  for (uint32_t I = 0; I < TSCC_AGENT_MAX_SHARERS; ++I)
    if (C->sharers[I].pid && C->sharers[I].pid == (int32_t)C->pid) {
      C->sharers[I].ppid = C->pid;
      C->sharers[I].pid = Pid;
    }
  C->ppid = C->pid;
  C->pid = Pid;
  if (Forking) {
    Forking->tid = Pid;
    Forking->pid = Pid;
  }
}

int agent_follow_fork(void) {
  struct tscc_agent_config *C = &tscc_agent_config;
  if (!__atomic_load_n(&C->detached, __ATOMIC_RELAXED) ||
      __atomic_load_n(&agent_proc.epoch, __ATOMIC_ACQUIRE))
    return 0; /* disarmed by tsrun, or by healing */
  int32_t Pid = (int32_t)sys0(NR_getpid);
  if (Pid == (int32_t)C->pid)
    return 0; /* the process tsrun let go of, not a child */
  if (!__atomic_load_n(&C->follow_forks, __ATOMIC_RELAXED)) {
    /* Its shard was not made inheritable (a sandbox that lets the agent
     * only disarm itself): the child runs untraced, and says so. */
    agent_notice(TSCC_NOTICE_UNFOLLOWED);
    return 0;
  }
  /* One thread of the child arms it; one that hits meanwhile waits the
   * few instructions that takes rather than losing its hit. */
  uint32_t Free = 0;
  if (__atomic_compare_exchange_n(&agent_proc.adopting, &Free, 1, 0,
                                  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
    take_parents_place(C, Pid);
    __atomic_store_n(&agent_proc.epoch, own_epoch(Pid), __ATOMIC_RELEASE);
    __atomic_store_n(&agent_proc.armed, 1, __ATOMIC_RELEASE);
    return 1;
  }
  while (!__atomic_load_n(&agent_proc.epoch, __ATOMIC_ACQUIRE))
    sys0(NR_sched_yield);
  return (int)__atomic_load_n(&agent_proc.armed, __ATOMIC_ACQUIRE);
}

/* Whether process Pid is gone (its entry in the sharers may be taken). */
static int gone(int32_t Pid) {
  return Pid > 0 && sys2(NR_kill, Pid, 0) == -3 /* ESRCH */;
}

int agent_join_sharers(int32_t Pid) {
  struct tscc_agent_config *C = &tscc_agent_config;
  if (!__atomic_load_n(&C->detached, __ATOMIC_RELAXED) ||
      !__atomic_load_n(&C->shared_mm, __ATOMIC_ACQUIRE) || Pid <= 0 ||
      Pid != (int32_t)sys0(NR_getpid))
    return 0;
  for (int Pass = 0; Pass < 2; ++Pass)
    for (uint32_t I = 0; I < TSCC_AGENT_MAX_SHARERS; ++I) {
      struct tscc_agent_sharer *S = &C->sharers[I];
      int32_t Old = __atomic_load_n(&S->pid, __ATOMIC_RELAXED);
      if (Old == Pid)
        return 1;
      /* The first pass takes free entries only, the second those of
       * processes that are gone (never the owner's, C->pid). */
      if (Old && (!Pass || Old == (int32_t)C->pid || !gone(Old)))
        continue;
      /* The identity first, then the pid that makes it visible. */
      S->target_id = C->target_id;
      S->ppid = C->pid;
      S->uid = C->uid;
      if (__atomic_compare_exchange_n(&S->pid, &Old, Pid, 0, __ATOMIC_RELEASE,
                                      __ATOMIC_RELAXED))
        return 1;
    }
  return 0;
}

/*--- exec while detached ---------------------------------------------------*/

#define FUTEX_WAIT_ 0
#define FUTEX_WAKE_ 1

/* Waits at most a few milliseconds while *Word holds Val (or less: a
 * signal, a spurious wake). */
static void wait_on(uint32_t *Word, uint32_t Val) {
  struct {
    long Sec, Nsec; /* the old timespec of futex(2): long-sized fields */
  } Period = {0, 2000000};
  sys4(NR_futex, Word, FUTEX_WAIT_, Val, &Period);
}

/* Whether the thread must stop waiting for tsrun: it is gone, the session
 * is ending (tsrun attaches again anyway and takes the agent out), or
 * healing disarmed this process. */
static int window_hopeless(struct tscc_store *S) {
  return (__atomic_load_n(&S->control->reader_alive, __ATOMIC_ACQUIRE) &
          TSCC_READER_GONE) ||
         agent_stopping(S) ||
         !__atomic_load_n(&agent_proc.armed, __ATOMIC_ACQUIRE);
}

/* Asks tsrun for a window in the shard and waits until it is granted
 * (Want: this thread's id, with TSCC_WINDOW_LINK_MAP for a link-map
 * change), refused, or hopeless. 1 when it was granted. */
static int agent_window(uint32_t Want) {
  struct tscc_agent_config *C = &tscc_agent_config;
  struct tscc_store *S = &C->store;
  struct tscc_shard_header *H = tscc_shard_hdr(S);
  int Granted = 0;
  /* One window at a time per shard: another thread (or a process sharing
   * it) that asks meanwhile waits its turn. */
  for (;;) {
    uint32_t Free = 0;
    if (__atomic_compare_exchange_n(&H->window_tid, &Free, Want, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      break;
    if (window_hopeless(S))
      return 0;
    wait_on(&H->window_tid, Free);
  }
  /* tsrun's reader sleeps on the domain's wake word: it tells tsrun's
   * ptrace thread, which traces this thread and grants the window. */
  struct tscc_store_header *D = tscc_store_hdr(S);
  __atomic_add_fetch(&D->wake, 1, __ATOMIC_RELEASE);
  sys3(NR_futex, &D->wake, FUTEX_WAKE_, 0x7fffffff);
  for (;;) {
    uint32_t Grant = __atomic_load_n(&H->window_grant, __ATOMIC_ACQUIRE);
    if (Grant == Want) {
      Granted = 1;
      break;
    }
    if (__atomic_load_n(&H->window_tid, __ATOMIC_ACQUIRE) != Want)
      return 0; /* refused (tsrun said why): the window is not ours */
    if (window_hopeless(S))
      break;
    wait_on(&H->window_grant, Grant);
  }
  __atomic_store_n(&H->window_grant, 0, __ATOMIC_RELEASE);
  __atomic_store_n(&H->window_tid, 0, __ATOMIC_RELEASE);
  sys3(NR_futex, &H->window_tid, FUTEX_WAKE_, 0x7fffffff);
  return Granted;
}

void agent_exec_gate(void) {
  if (!__atomic_load_n(&tscc_agent_config.detached, __ATOMIC_RELAXED))
    return; /* attached: tsrun sees the exec itself */
  /* Granted: traced, the exec is tsrun's to see. */
  agent_window((uint32_t)sys0(NR_gettid));
}

void agent_loader_gate(void) {
  struct tscc_agent_config *C = &tscc_agent_config;
  if (!__atomic_load_n(&C->detached, __ATOMIC_RELAXED))
    return; /* attached: tsrun takes the trap and reads the link map */
  /* The loader calls its hook twice per change: before it (RT_ADD,
   * RT_DELETE) and once the list is consistent again (RT_CONSISTENT, 0),
   * the libraries mapped and relocated, their initialisers not run yet. */
  uint64_t State = __atomic_load_n(&C->loader_state, __ATOMIC_RELAXED);
  if (State && *(volatile int32_t *)(uintptr_t)State != 0)
    return;
  /* Granted: the new libraries' sites are in when the loader goes on, so
   * that their constructors' hits are seen too. Refused or hopeless: they
   * run unprobed (tsrun says why). */
  agent_window((uint32_t)sys0(NR_gettid) | TSCC_WINDOW_LINK_MAP);
}
