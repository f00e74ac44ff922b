/*===- thread.c - Which traced thread is this? --------------------------------===*
 *
 * Every hit needs its thread: for the shadow stack of hijacked returns,
 * the thread's slot in the store (thread-locals, its ring) and its id.
 * gettid() is a system call, far too slow for every hit, so threads are
 * found by their thread pointer (the fs base, one instruction with
 * FSGSBASE; in a 32-bit process the TCB address at %gs:0) in a table of
 * the agent's private memory. A thread's entry is
 * resolved against the store on its first hit, and again whenever the
 * store's slot changed under it (the thread exited and a new one reuses its
 * TCB) or the process was re-armed (a fork child: same table, new process).
 *
 * The table is copied by fork() with the rest of the process, which is
 * what a child needs: its stack holds the same hijacked return addresses.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

/* The thread pointer: the fs base on x86-64, the TCB at %gs:0 in i386
 * (arch.h). */
static uint64_t fs_base(void) {
  return agent_thread_key(tscc_agent_config.has_fsgsbase);
}

static struct tscc_agent_thread *find_or_insert(uint64_t Key) {
  struct tscc_agent_thread *Table =
      AGENT_PTR(struct tscc_agent_thread *, tscc_agent_config.threads);
  uint32_t Cap = tscc_agent_config.thread_capacity;
  if (UNLIKELY(!Table || !Cap))
    return 0;
  uint32_t Mask = Cap - 1;
  uint64_t H = Key * 0x9e3779b97f4a7c15ull;
  uint32_t Pos = (uint32_t)(H >> 32) & Mask;
  for (uint32_t N = 0; N < Cap; ++N, Pos = (Pos + 1) & Mask) {
    struct tscc_agent_thread *E = &Table[Pos];
    uint64_t K = __atomic_load_n(&E->key, __ATOMIC_ACQUIRE);
    if (K == Key)
      return E;
    if (K != 0)
      continue;
    uint64_t Empty = 0;
    if (__atomic_compare_exchange_n(&E->key, &Empty, Key, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
      return E;
    if (Empty == Key)
      return E;
  }
  return 0;
}

struct tscc_agent_thread *agent_thread(int Resolve) {
  uint64_t Key = fs_base();
  struct tscc_agent_thread *T = find_or_insert(Key ? Key : ~0ull);
  if (UNLIKELY(!T) || !Resolve)
    return T;
  struct tscc_store *S = &tscc_agent_config.store;
  uint32_t Epoch = __atomic_load_n(&agent_proc.epoch, __ATOMIC_ACQUIRE);
  struct tscc_thread *Slot = tscc_thread_at(S, T->slot);
  if (LIKELY(T->epoch == Epoch && Slot && Slot->gen == T->gen &&
             Slot->state == TSCC_THREAD_LIVE))
    return T;
  /* First hit of this thread in this process (incarnation): find out who
   * it is. Shadow frames stay: a fork child returns through them. */
  int32_t Tid = (int32_t)sys0(NR_gettid);
  if (tscc_store_lock(S, Tid, tscc_agent_config.lock_timeout_ns) !=
      TSCC_LOCK_OK)
    return 0;
  int32_t New = tscc_thread_add(S, tscc_agent_config.target_id, Tid);
  uint32_t Gen = New >= 0 ? tscc_thread_at(S, New)->gen : 0;
  tscc_store_unlock(S, Tid);
  if (New < 0)
    return 0;
  T->slot = New;
  T->gen = Gen;
  T->tid = Tid;
  __atomic_store_n(&T->epoch, Epoch, __ATOMIC_RELEASE);
  return T;
}
