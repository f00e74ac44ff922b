/*===- thread.c - Which traced thread is this? --------------------------------===*
 *
 * Every hit needs its thread: for the shadow stack of hijacked returns,
 * the thread's slot in the store (thread-locals, its ring) and its id.
 * gettid() is a system call, far too slow for every hit, so threads are
 * found by their thread pointer (the fs base, one instruction with
 * FSGSBASE; in a 32-bit process the TCB address at %gs:0) in the table of
 * table.c. A thread's entry is taken and resolved
 * against the store on its first hit, and resolved again whenever the
 * store's slot changed under it or the process was re-armed (a fork child:
 * a copy of the table, a new process).
 *
 * While other processes share this memory (vfork() children, clone(CLONE_VM)
 * without CLONE_THREAD), fs bases no longer tell threads apart: a child
 * made without a TLS of its own has its parent's. tsrun says so in the
 * configuration (shared_mm), and every hit then asks the kernel who it is.
 *
 * The table is copied by fork() with the rest of the process, which is
 * what a child needs: its stack holds the same hijacked return addresses.
 * tsrun hands the forking thread's entry to the child before it runs.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

/* After the store had no slot for a new thread, new threads do not ask
 * again for this long: asking takes the session lock. */
#define REFUSED_NS 1000000ull

/* The thread pointer: the fs base on x86-64, the TCB at %gs:0 in i386
 * (arch.h). */
static uint64_t fs_base(void) {
  return agent_thread_key(tscc_agent_config.has_fsgsbase);
}

void agent_notice(uint32_t Bit) {
  struct tscc_store_header *H = tscc_store_hdr(&tscc_agent_config.store);
  if (!(__atomic_load_n(&H->agent_notices, __ATOMIC_RELAXED) & Bit))
    __atomic_fetch_or(&H->agent_notices, Bit, __ATOMIC_RELAXED);
}

/* Whether new threads wait before asking the store again; Now is set when
 * the clock was read. */
static int refused(uint64_t *Now) {
  uint64_t Until =
      __atomic_load_n(&tscc_agent_config.refused_until_ns, __ATOMIC_RELAXED);
  if (LIKELY(!Until))
    return 0;
  *Now = agent_now_ns();
  return *Now < Until;
}

/* The identity of T's process: this one, or the sharer it belongs to. */
static int identity(const struct tscc_agent_thread *T, uint32_t *Target,
                    int64_t *Ppid, int64_t *Uid) {
  const struct tscc_agent_config *C = &tscc_agent_config;
  if (!__atomic_load_n(&C->shared_mm, __ATOMIC_ACQUIRE)) {
    *Target = C->target_id;
    *Ppid = C->ppid;
    *Uid = C->uid;
    return 1;
  }
  for (uint32_t I = 0; I < TSCC_AGENT_MAX_SHARERS; ++I) {
    const struct tscc_agent_sharer *S = &C->sharers[I];
    if (S->pid == T->pid && S->pid) {
      *Target = S->target_id;
      *Ppid = S->ppid;
      *Uid = S->uid;
      return 1;
    }
  }
  return 0;
}

/* Whether thread Tid of process Pid has ended (the kernel no longer knows
 * it; an ending one may still be found, and is then kept). */
static int thread_gone(int32_t Pid, int32_t Tid) {
  return sys3(NR_tgkill, Pid, Tid, 0) == -3 /* ESRCH */;
}

/* Finds or makes T's slot in the store, under the store lock. */
static int resolve(struct tscc_agent_thread *T, uint32_t Epoch) {
  struct tscc_agent_config *C = &tscc_agent_config;
  struct tscc_store *S = &C->store;
  uint64_t Now = 0;
  if (refused(&Now))
    return 0;
  uint32_t Target;
  int64_t Ppid, Uid;
  if (!identity(T, &Target, &Ppid, &Uid) &&
      !(agent_join_sharers(T->pid) && identity(T, &Target, &Ppid, &Uid))) {
    agent_notice(TSCC_NOTICE_NO_SHARER);
    return 0;
  }
  int32_t Tid = (int32_t)sys0(NR_gettid);
  int Rc = tscc_store_lock(S, Tid, C->lock_timeout_ns);
  if (Rc != TSCC_LOCK_OK) {
    if (Rc == TSCC_LOCK_TIMEOUT)
      agent_notice(TSCC_NOTICE_LOCK_TIMEOUT);
    return 0;
  }
  int32_t New = tscc_thread_add(S, Target, Tid);
  uint32_t Gen = New >= 0 ? tscc_thread_at(S, New)->gen : 0;
  tscc_store_unlock(S, Tid);
  if (New < 0) {
    __atomic_store_n(&C->refused_until_ns,
                     (Now ? Now : agent_now_ns()) + REFUSED_NS,
                     __ATOMIC_RELAXED);
    agent_notice(TSCC_NOTICE_THREADS_FULL);
    return 0;
  }
  T->tid = Tid;
  T->target = Target;
  T->ppid = Ppid;
  T->uid = Uid;
  T->slot = New;
  T->gen = Gen;
  __atomic_store_n(&T->epoch, Epoch, __ATOMIC_RELEASE);
  return 1;
}

struct tscc_agent_thread *agent_thread(int Resolve) {
  struct tscc_agent_config *C = &tscc_agent_config;
  uint64_t Key = tscc_agent_thread_key(fs_base());
  int Shared = __atomic_load_n(&C->shared_mm, __ATOMIC_ACQUIRE) != 0;
  int32_t Tid = Shared ? (int32_t)sys0(NR_gettid) : 0;
  struct tscc_agent_thread *T = tscc_agent_find(C, Key, Tid);
  if (!Resolve)
    return T;
  uint32_t Epoch = __atomic_load_n(&agent_proc.epoch, __ATOMIC_ACQUIRE);
  if (LIKELY(T != 0)) {
    struct tscc_thread *Slot = tscc_thread_at(&C->store, T->slot);
    if (LIKELY(T->epoch == Epoch && Slot && Slot->gen == T->gen &&
               Slot->state == TSCC_THREAD_LIVE))
      return T;
    /* Resolved again, shadow frames kept: a fork child returns through
     * the forking thread's. */
  } else {
    /* A new thread. */
    uint64_t Now = 0;
    if (refused(&Now))
      return 0;
    if (!Tid)
      Tid = (int32_t)sys0(NR_gettid);
    int32_t Pid = Shared ? (int32_t)sys0(NR_getpid) : (int32_t)C->pid;
    T = tscc_agent_take(C, Key, Tid, Pid);
    /* Every place of the key's window is taken: by threads that ended
     * while detached, whose TCB the C library gave to this one. */
    if (!T && Shared && tscc_agent_mark_gone(C, Key, Tid, Pid, thread_gone))
      T = tscc_agent_take(C, Key, Tid, Pid);
    if (!T) {
      agent_notice(TSCC_NOTICE_TABLE_FULL);
      return 0;
    }
  }
  return resolve(T, Epoch) ? T : 0;
}
