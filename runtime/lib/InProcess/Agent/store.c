/*===- store.c - The session's shared state: lock, tables, threads, rings --===*
 *
 * Compiled twice: into libtsrt, and freestanding into the agent that runs
 * clause code inside targets (no libc: only the compiler's builtins, which
 * the agent backs with its own memcpy/memset/memcmp). See tscc/store.h for
 * the layout and the trust rules: every index read from the shared memory
 * is checked against the private layout before it is used.
 *
 *===----------------------------------------------------------------------===*/
#include "tscc/store.h"
#include "tscc/abi.h"

#include <stddef.h>

#define TOMBSTONE 0xffffffffu
#define LIKELY(X) __builtin_expect(!!(X), 1)
#define UNLIKELY(X) __builtin_expect(!!(X), 0)

/*--- Basics ----------------------------------------------------------------*/

static uint64_t add_saturating(uint64_t A, uint64_t B) {
  return A > ~0ull - B ? ~0ull : A + B;
}

static void add_row(struct tscc_clause_counters *Sum,
                    const struct tscc_clause_counters *K) {
  Sum->fired =
      add_saturating(Sum->fired, __atomic_load_n(&K->fired, __ATOMIC_RELAXED));
  Sum->faults = add_saturating(Sum->faults,
                               __atomic_load_n(&K->faults, __ATOMIC_RELAXED));
  Sum->drops =
      add_saturating(Sum->drops, __atomic_load_n(&K->drops, __ATOMIC_RELAXED));
  Sum->fault_kinds |= __atomic_load_n(&K->fault_kinds, __ATOMIC_RELAXED);
  Sum->lost =
      add_saturating(Sum->lost, __atomic_load_n(&K->lost, __ATOMIC_RELAXED));
}

void tscc_store_sum_counters(struct tscc_store *S, uint32_t Clause,
                             struct tscc_clause_counters *Sum) {
  if (Clause >= S->layout.clause_count)
    return;
  uint32_t Cap = S->layout.thread_capacity;
  /* threads_high is the shard's (writable by the process): bounded. */
  uint32_t High =
      __atomic_load_n(&tscc_shard_hdr(S)->threads_high, __ATOMIC_ACQUIRE);
  if (High > Cap)
    High = Cap;
  add_row(Sum, tscc_store_counter_row(S, Cap, Clause));
  for (uint32_t Row = 0; Row < High; ++Row)
    add_row(Sum, tscc_store_counter_row(S, Row, Clause));
}

static uint32_t fnv1a(uint32_t H, const void *Data, uint32_t Size) {
  const uint8_t *P = (const uint8_t *)Data;
  for (uint32_t I = 0; I < Size; ++I)
    H = (H ^ P[I]) * 16777619u;
  return H;
}

static void cpu_relax(void) { __builtin_ia32_pause(); }

/*--- The clause lock -------------------------------------------------------*/

/* How many timeouts a waiter waits in all for an owner that runs. */
#define RUNNING_OWNER_WAITS 40u

/* After this long a waiter claims the starving slot. */
#define STARVE_NS 20000ull

static int try_take(struct tscc_store_header *H, uint32_t Me) {
  uint32_t Expected = 0;
  uint32_t Starving = __atomic_load_n(&H->starving, __ATOMIC_RELAXED);
  if (Starving != 0 && Starving != Me)
    return 0;
  if (__atomic_load_n(&H->lock, __ATOMIC_RELAXED) != 0 ||
      !__atomic_compare_exchange_n(&H->lock, &Expected, Me, 0, __ATOMIC_ACQUIRE,
                                   __ATOMIC_RELAXED))
    return 0;
  if (Starving == Me)
    __atomic_store_n(&H->starving, 0, __ATOMIC_RELAXED);
  return 1;
}

/* Takes the lock over from Owner if that thread no longer exists (its
 * process was killed in a clause). */
static int take_from_dead(struct tscc_store_header *H, uint32_t Owner,
                          uint32_t Me) {
  if (!Owner || tscc_host_thread_alive((int32_t)Owner) ||
      !__atomic_compare_exchange_n(&H->lock, &Owner, Me, 0, __ATOMIC_ACQUIRE,
                                   __ATOMIC_RELAXED))
    return 0;
  __atomic_add_fetch(&H->lock_steals, 1, __ATOMIC_RELAXED);
  __atomic_compare_exchange_n(&H->stuck_owner, &Owner, 0, 0, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  return 1;
}

/* An owner known to be stuck: callers give up at once, but one of them,
 * at most once a millisecond, looks whether it has died meanwhile (stopped,
 * then killed), and takes the lock if so: a dead owner never wedges the
 * store, however it was found out before. */
static int stuck(struct tscc_store_header *H, uint32_t Owner, uint32_t Me) {
  uint64_t Now = tscc_host_now_ns();
  uint64_t Last = __atomic_load_n(&H->owner_checked_ns, __ATOMIC_RELAXED);
  if (Now - Last < 1000000 ||
      !__atomic_compare_exchange_n(&H->owner_checked_ns, &Last, Now, 0,
                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    return TSCC_LOCK_TIMEOUT;
  return take_from_dead(H, Owner, Me) ? TSCC_LOCK_OK : TSCC_LOCK_TIMEOUT;
}

/* Spins first (a clause takes well under a microsecond), then yields. A
 * waiter that has waited a while claims the starving slot, after which
 * only it may take the lock next. An owner that no longer exists (its
 * process was killed in a clause) is replaced, and so is a starving
 * waiter that is gone or stuck. An owner that lives but does not let go
 * within TimeoutNs (it was stopped by a debugger or SIGSTOP) makes this
 * caller give up, and every later caller give up at once, until that owner
 * unlocks or dies: a stopped process must not slow every other target
 * down. An owner that runs (tscc_host_owner_running) is waited for longer,
 * up to RUNNING_OWNER_WAITS timeouts: a slow owner costs time, not hits. (tsrun
 * also frees the lock of every thread it sees die, and lets a traced thread
 * that is stopped while it holds the lock finish its clause first.) */
static int lock_impl(struct tscc_store *S, int32_t Tid, uint64_t TimeoutNs) {
  struct tscc_store_header *H = tscc_store_hdr(S);
  uint32_t Me = (uint32_t)Tid;
  uint32_t Expected = 0;
  if (LIKELY(__atomic_load_n(&H->starving, __ATOMIC_RELAXED) == 0 &&
             __atomic_compare_exchange_n(&H->lock, &Expected, Me, 0,
                                         __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)))
    return TSCC_LOCK_OK;
  uint32_t Owner = __atomic_load_n(&H->lock, __ATOMIC_RELAXED);
  if (Owner == Me)
    return TSCC_LOCK_REENTERED;
  /* Marked stuck (by a waiter that gave up on it, tsrun's perhaps): give
   * up at once, unless it runs, when a target's hit waits below. */
  if (Owner && Owner == __atomic_load_n(&H->stuck_owner, __ATOMIC_RELAXED) &&
      !tscc_host_owner_running((int32_t)Owner))
    return stuck(H, Owner, Me);
  for (unsigned Spin = 0; Spin < 256; ++Spin) {
    cpu_relax();
    if (try_take(H, Me))
      return TSCC_LOCK_OK;
  }
  uint64_t Start = tscc_host_now_ns(), LastCheck = Start;
  unsigned Waits = 0;
  for (;;) {
    tscc_host_yield();
    if (try_take(H, Me))
      return TSCC_LOCK_OK;
    uint64_t Now = tscc_host_now_ns();
    uint32_t Starving = __atomic_load_n(&H->starving, __ATOMIC_RELAXED);
    if (Starving == 0 && Now - Start > STARVE_NS) {
      uint32_t Free = 0;
      if (__atomic_compare_exchange_n(&H->starving, &Free, Me, 0,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        __atomic_store_n(&H->starving_since, Now, __ATOMIC_RELAXED);
      continue;
    }
    if (Now - LastCheck > 1000000) {
      LastCheck = Now;
      Owner = __atomic_load_n(&H->lock, __ATOMIC_RELAXED);
      if ((Starving == 0 || Starving == Me) && take_from_dead(H, Owner, Me)) {
        if (Starving == Me)
          __atomic_store_n(&H->starving, 0, __ATOMIC_RELAXED);
        return TSCC_LOCK_OK;
      }
      /* A starving waiter that is gone, or has been waiting for longer
       * than anybody may, gives its place up. */
      uint64_t Since = __atomic_load_n(&H->starving_since, __ATOMIC_RELAXED);
      if (Starving && Starving != Me &&
          (!tscc_host_thread_alive((int32_t)Starving) ||
           (Now > Since && Now - Since > TimeoutNs)))
        __atomic_compare_exchange_n(&H->starving, &Starving, 0, 0,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
    if (Now - Start > TimeoutNs) {
      Owner = __atomic_load_n(&H->lock, __ATOMIC_RELAXED);
      /* A free lock kept for a starving waiter that has not taken it yet
       * (many waiters on few CPUs): that waiter is who we wait for. */
      uint32_t Holder =
          Owner ? Owner : __atomic_load_n(&H->starving, __ATOMIC_RELAXED);
      /* An owner that runs is slow (tsrun under a sanitizer, an
       * overloaded machine, a convoy of waiters on fewer CPUs), not
       * stuck: a target's hit waits for it rather than being dropped, up
       * to RUNNING_OWNER_WAITS timeouts in all, and only while the session
       * goes on. (tsrun never knows, tscc_host_owner_running: it gives up,
       * as it must never wait on a target for good.) */
      if (Holder && Holder != Me && Waits < RUNNING_OWNER_WAITS &&
          !(S->control &&
            __atomic_load_n(&S->control->stopping, __ATOMIC_RELAXED)) &&
          tscc_host_owner_running((int32_t)Holder)) {
        ++Waits;
        Start = Now;
        continue;
      }
      uint32_t Mine = Me;
      __atomic_compare_exchange_n(&H->starving, &Mine, 0, 0, __ATOMIC_RELAXED,
                                  __ATOMIC_RELAXED);
      if (Owner)
        __atomic_store_n(&H->stuck_owner, Owner, __ATOMIC_RELAXED);
      __atomic_add_fetch(&H->lock_timeouts, 1, __ATOMIC_RELAXED);
      return TSCC_LOCK_TIMEOUT;
    }
  }
}

int tscc_store_lock_wait(struct tscc_store *S, int32_t Tid,
                         uint64_t TimeoutNs) {
  return lock_impl(S, Tid, TimeoutNs);
}

void tscc_store_unlock(struct tscc_store *S, int32_t Tid) {
  struct tscc_store_header *H = tscc_store_hdr(S);
  if (UNLIKELY(__atomic_load_n(&H->stuck_owner, __ATOMIC_RELAXED) ==
               (uint32_t)Tid))
    __atomic_store_n(&H->stuck_owner, 0, __ATOMIC_RELAXED);
  /* Only the owner releases: a lock that was taken over from us (we were
   * thought dead) stays with its new owner. The lock is taken over only
   * from a thread that no longer exists (take_from_dead,
   * tscc_store_forget_thread), so while its owner runs nobody else writes
   * the word, and a release store after the check does what a locked
   * compare-and-swap would, for none of its cost (every locked hit pays
   * it). */
  if (__atomic_load_n(&H->lock, __ATOMIC_RELAXED) == (uint32_t)Tid)
    __atomic_store_n(&H->lock, 0, __ATOMIC_RELEASE);
  tscc_host_unlocked(Tid);
}

int tscc_store_forget_thread(struct tscc_store *S, int32_t Tid) {
  struct tscc_store_header *H = tscc_store_hdr(S);
  uint32_t Gone = (uint32_t)Tid, Expected = Gone;
  if (!Gone)
    return 0;
  __atomic_compare_exchange_n(&H->starving, &Expected, 0, 0, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  Expected = Gone;
  __atomic_compare_exchange_n(&H->stuck_owner, &Expected, 0, 0,
                              __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  Expected = Gone;
  if (!__atomic_compare_exchange_n(&H->lock, &Expected, 0, 0, __ATOMIC_RELEASE,
                                   __ATOMIC_RELAXED))
    return 0;
  __atomic_add_fetch(&H->lock_steals, 1, __ATOMIC_RELAXED);
  return 1;
}

/*--- Hash tables (associative arrays and aggregations) ---------------------*/

/* __thread maps are in the process's shard, the others in the store. */
static uint8_t *table_base(struct tscc_store *S,
                           const struct tscc_table_layout *T) {
  return (T->flags & TSCC_TABLE_THREAD) ? S->shard : S->base;
}

static struct tscc_table_state *table_state(struct tscc_store *S,
                                            const struct tscc_table_layout *T) {
  return (struct tscc_table_state *)(table_base(S, T) + T->state_off);
}

static uint32_t *table_index(struct tscc_store *S,
                             const struct tscc_table_layout *T) {
  return (uint32_t *)(table_base(S, T) + T->index_off);
}

static struct tscc_entry *table_entry(struct tscc_store *S,
                                      const struct tscc_table_layout *T,
                                      uint32_t E) {
  return (struct tscc_entry *)(table_base(S, T) + T->entries_off +
                               (uint64_t)E * T->entry_size);
}

static uint8_t *entry_key(struct tscc_entry *E) {
  return (uint8_t *)E + sizeof(struct tscc_entry);
}

static uint8_t *entry_value(const struct tscc_table_layout *T,
                            struct tscc_entry *E) {
  return (uint8_t *)E + T->value_off;
}

/* Finds (Thread, Key). Returns the entry index, or -1 with *InsertAt set to
 * the index slot where it would go (-1 when the index has no room). */
static int64_t table_find(struct tscc_store *S,
                          const struct tscc_table_layout *T, uint32_t Thread,
                          const void *Key, uint32_t Hash, int64_t *InsertAt) {
  uint32_t *Index = table_index(S, T);
  uint32_t Mask = T->index_slots - 1;
  int64_t FirstFree = -1;
  uint32_t Pos = Hash & Mask;
  for (uint32_t N = 0; N < T->index_slots; ++N, Pos = (Pos + 1) & Mask) {
    uint32_t V = Index[Pos];
    if (V == 0) {
      *InsertAt = FirstFree >= 0 ? FirstFree : (int64_t)Pos;
      return -1;
    }
    if (V == TOMBSTONE || V > T->capacity) {
      /* A corrupt slot is treated as deleted. */
      if (FirstFree < 0)
        FirstFree = Pos;
      continue;
    }
    struct tscc_entry *E = table_entry(S, T, V - 1);
    if (E->hash == Hash && E->thread == Thread && E->live &&
        __builtin_memcmp(entry_key(E), Key, T->key_size) == 0)
      return V - 1;
  }
  *InsertAt = FirstFree;
  return -1;
}

/* Rebuilds the index from the live entries, dropping tombstones. */
static void table_rehash(struct tscc_store *S,
                         const struct tscc_table_layout *T) {
  struct tscc_table_state *St = table_state(S, T);
  uint32_t *Index = table_index(S, T);
  __builtin_memset(Index, 0, (size_t)T->index_slots * sizeof(uint32_t));
  uint32_t Mask = T->index_slots - 1;
  uint32_t Used = St->used < T->capacity ? St->used : T->capacity;
  for (uint32_t I = 0; I < Used; ++I) {
    struct tscc_entry *E = table_entry(S, T, I);
    if (!E->live)
      continue;
    /* Bounded: another process may be filling the index meanwhile. */
    uint32_t Pos = E->hash & Mask, N = 0;
    while (N < T->index_slots && Index[Pos]) {
      Pos = (Pos + 1) & Mask;
      ++N;
    }
    if (N < T->index_slots)
      Index[Pos] = I + 1;
  }
  St->tombstones = 0;
}

static int64_t table_alloc(struct tscc_store *S,
                           const struct tscc_table_layout *T) {
  struct tscc_table_state *St = table_state(S, T);
  if (St->live >= T->capacity)
    return -1;
  uint32_t Free = St->free_head;
  if (Free && Free <= T->capacity) {
    struct tscc_entry *E = table_entry(S, T, Free - 1);
    St->free_head = E->next <= T->capacity ? E->next : 0;
    return Free - 1;
  }
  if (St->used < T->capacity)
    return St->used++;
  return -1;
}

static uint32_t *thread_map_heads(struct tscc_store *S, int32_t Slot);
static uint8_t *thread_block(struct tscc_store *S, int32_t Slot);

/* Links entry Idx at the front of its thread's chain for map Map. */
static void chain_link(struct tscc_store *S, const struct tscc_table_layout *T,
                       uint32_t Map, int32_t Slot, uint32_t Idx) {
  uint32_t *Head = &thread_map_heads(S, Slot)[Map];
  struct tscc_entry *E = table_entry(S, T, Idx);
  E->prev = 0;
  E->next = *Head <= T->capacity ? *Head : 0;
  if (E->next)
    table_entry(S, T, E->next - 1)->prev = Idx + 1;
  *Head = Idx + 1;
}

static void chain_unlink(struct tscc_store *S,
                         const struct tscc_table_layout *T, uint32_t Map,
                         int32_t Slot, uint32_t Idx) {
  struct tscc_entry *E = table_entry(S, T, Idx);
  if (E->prev && E->prev <= T->capacity)
    table_entry(S, T, E->prev - 1)->next = E->next;
  else
    thread_map_heads(S, Slot)[Map] = E->next <= T->capacity ? E->next : 0;
  if (E->next && E->next <= T->capacity)
    table_entry(S, T, E->next - 1)->prev = E->prev;
  E->next = E->prev = 0;
}

/* Removes the entry at index slot Pos (entry Idx). */
static void table_remove(struct tscc_store *S,
                         const struct tscc_table_layout *T, uint32_t Map,
                         int64_t Pos, uint32_t Idx) {
  struct tscc_table_state *St = table_state(S, T);
  struct tscc_entry *E = table_entry(S, T, Idx);
  if (E->thread && (T->flags & TSCC_TABLE_THREAD) &&
      E->thread <= S->layout.thread_capacity)
    chain_unlink(S, T, Map, (int32_t)E->thread - 1, Idx);
  E->live = 0;
  E->next = St->free_head;
  St->free_head = Idx + 1;
  if (St->live)
    --St->live;
  table_index(S, T)[Pos] = TOMBSTONE;
  if (++St->tombstones > T->index_slots / 4)
    table_rehash(S, T);
}

/* The value of (Thread, Key) in table Tbl, created zeroed when Create. */
static uint8_t *table_lookup(struct tscc_store *S, uint32_t Tbl, int32_t Thread,
                             const void *Key, int Create, int *Created,
                             int *Full) {
  const struct tscc_table_layout *T = &S->tables[Tbl];
  uint32_t Owner = (T->flags & TSCC_TABLE_THREAD) ? (uint32_t)Thread + 1 : 0;
  uint32_t Hash = fnv1a(fnv1a(2166136261u, &Owner, 4), Key, T->key_size);
  int64_t InsertAt = -1;
  int64_t Idx = table_find(S, T, Owner, Key, Hash, &InsertAt);
  if (Idx >= 0)
    return entry_value(T, table_entry(S, T, (uint32_t)Idx));
  if (!Create)
    return 0;
  int64_t New = InsertAt >= 0 ? table_alloc(S, T) : -1;
  if (New < 0) {
    table_state(S, T)->full = 1;
    if (Full)
      *Full = 1;
    return 0;
  }
  struct tscc_entry *E = table_entry(S, T, (uint32_t)New);
  __builtin_memset(E, 0, T->entry_size);
  E->hash = Hash;
  E->thread = Owner;
  E->live = 1;
  __builtin_memcpy(entry_key(E), Key, T->key_size);
  uint32_t *Index = table_index(S, T);
  if (Index[InsertAt] == TOMBSTONE && table_state(S, T)->tombstones)
    --table_state(S, T)->tombstones;
  Index[InsertAt] = (uint32_t)New + 1;
  ++table_state(S, T)->live;
  if (Owner)
    chain_link(S, T, Tbl, Thread, (uint32_t)New);
  if (Created)
    *Created = 1;
  return entry_value(T, E);
}

static int thread_ok(struct tscc_store *S, int32_t Slot) {
  return Slot >= 0 && (uint32_t)Slot < S->layout.thread_capacity;
}

void *tscc_map_lookup(struct tscc_store *S, uint32_t Map, int32_t Thread,
                      const void *Key, uint32_t KeySize, int Create,
                      int *Full) {
  if (Map >= S->layout.map_count || !Key)
    return 0;
  const struct tscc_table_layout *T = &S->tables[Map];
  if (KeySize != T->key_size)
    return 0;
  if ((T->flags & TSCC_TABLE_THREAD) && !thread_ok(S, Thread))
    return 0;
  return table_lookup(S, Map, Thread, Key, Create, 0, Full);
}

void tscc_map_delete(struct tscc_store *S, uint32_t Map, int32_t Thread,
                     const void *Key, uint32_t KeySize) {
  if (Map >= S->layout.map_count || !Key)
    return;
  const struct tscc_table_layout *T = &S->tables[Map];
  if (KeySize != T->key_size)
    return;
  if ((T->flags & TSCC_TABLE_THREAD) && !thread_ok(S, Thread))
    return;
  uint32_t Owner = (T->flags & TSCC_TABLE_THREAD) ? (uint32_t)Thread + 1 : 0;
  uint32_t Hash = fnv1a(fnv1a(2166136261u, &Owner, 4), Key, T->key_size);
  int64_t InsertAt = -1;
  int64_t Idx = table_find(S, T, Owner, Key, Hash, &InsertAt);
  if (Idx < 0)
    return;
  /* table_find does not return the index slot of a hit: find it again. */
  uint32_t *Index = table_index(S, T);
  uint32_t Mask = T->index_slots - 1;
  for (uint32_t N = 0, Pos = Hash & Mask; N < T->index_slots;
       ++N, Pos = (Pos + 1) & Mask)
    if (Index[Pos] == (uint32_t)Idx + 1) {
      table_remove(S, T, Map, Pos, (uint32_t)Idx);
      return;
    }
}

/*--- Aggregations ----------------------------------------------------------*/

uint32_t tscc_hist_bucket(int64_t V) {
  if (V < 0)
    return 0;
  if (V == 0)
    return 1;
  return 2 + (63 - (uint32_t)__builtin_clzll((uint64_t)V));
}

uint64_t tscc_lhist_bucket_count(int64_t Lo, int64_t Hi, int64_t Step) {
  uint64_t Span = (uint64_t)Hi - (uint64_t)Lo;
  return (Span + (uint64_t)Step - 1) / (uint64_t)Step + 2;
}

uint64_t tscc_lhist_bucket(int64_t Lo, int64_t Hi, int64_t Step, int64_t V) {
  if (V < Lo)
    return 0;
  if (V >= Hi)
    return tscc_lhist_bucket_count(Lo, Hi, Step) - 1;
  /* Unsigned: V - Lo cannot overflow once V >= Lo. */
  return 1 + ((uint64_t)V - (uint64_t)Lo) / (uint64_t)Step;
}

const struct tscc_table_layout *tscc_agg_table(struct tscc_store *S,
                                               uint32_t Agg) {
  if (Agg >= S->layout.agg_count)
    return 0;
  return &S->tables[S->layout.map_count + Agg];
}

static uint32_t agg_hash(const struct tscc_table_layout *T, const void *Key) {
  uint32_t Owner = 0;
  return fnv1a(fnv1a(2166136261u, &Owner, 4), Key, T->key_size);
}

/* Adds one value to an entry's value (Created: the entry is new). */
static void agg_add(const struct tscc_table_layout *T, struct tscc_agg_value *A,
                    int Created, int64_t Value) {
  if (Created)
    A->min = A->max = Value;
  ++A->count;
  /* Wrapping: a script summing garbage must not be undefined behaviour. */
  A->sum = (int64_t)((uint64_t)A->sum + (uint64_t)Value);
  if (Value < A->min)
    A->min = Value;
  if (Value > A->max)
    A->max = Value;
  uint64_t *Buckets = (uint64_t *)(A + 1);
  uint64_t B = ~0ull;
  if (T->agg_kind == TSCC_AGG_HIST)
    B = tscc_hist_bucket(Value);
  else if (T->agg_kind == TSCC_AGG_LHIST)
    B = tscc_lhist_bucket(T->lhist_lo, T->lhist_hi, T->lhist_step, Value);
  if (B < T->buckets)
    ++Buckets[B];
}

/* Adds a whole value From (another thread's part) to A. */
static void agg_merge(const struct tscc_table_layout *T,
                      struct tscc_agg_value *A, int Created,
                      const struct tscc_agg_value *From) {
  if (Created || From->min < A->min)
    A->min = From->min;
  if (Created || From->max > A->max)
    A->max = From->max;
  A->count = (int64_t)((uint64_t)A->count + (uint64_t)From->count);
  A->sum = (int64_t)((uint64_t)A->sum + (uint64_t)From->sum);
  uint64_t *Buckets = (uint64_t *)(A + 1);
  const uint64_t *FromBuckets = (const uint64_t *)(From + 1);
  for (uint32_t B = 0; B < T->buckets; ++B)
    Buckets[B] += FromBuckets[B];
}

/* Set once per print: a store that is already 1 leaves the line shared. */
static void agg_mark_dirty(struct tscc_table_state *St) {
  if (!__atomic_load_n(&St->dirty, __ATOMIC_RELAXED))
    __atomic_store_n(&St->dirty, 1, __ATOMIC_RELAXED);
}

int tscc_agg_update(struct tscc_store *S, uint32_t Agg, const void *Key,
                    uint32_t KeySize, int64_t Value) {
  const struct tscc_table_layout *T = tscc_agg_table(S, Agg);
  if (!T || KeySize != T->key_size || (KeySize && !Key))
    return -1;
  static const uint8_t NoKey[8];
  int Created = 0;
  uint8_t *V = table_lookup(S, S->layout.map_count + Agg, -1,
                            KeySize ? Key : NoKey, 1, &Created, 0);
  if (!V)
    return -1;
  agg_add(T, (struct tscc_agg_value *)V, Created, Value);
  agg_mark_dirty(table_state(S, T));
  return 0;
}

static struct tscc_agg_shard *agg_shard(struct tscc_store *S,
                                        const struct tscc_table_layout *T,
                                        int32_t Slot) {
  if (!T->shard_slots || !thread_ok(S, Slot))
    return 0;
  return (struct tscc_agg_shard *)(thread_block(S, Slot) + T->shard_off);
}

static struct tscc_entry *shard_entry(const struct tscc_table_layout *T,
                                      struct tscc_agg_shard *Sh, uint32_t I) {
  return (struct tscc_entry *)((uint8_t *)(Sh + 1) +
                               (uint64_t)I * T->entry_size);
}

/* How many entries of Sh are filled: bounded, the shard being writable by
 * the process. */
static uint32_t shard_used(const struct tscc_table_layout *T,
                           const struct tscc_agg_shard *Sh) {
  uint32_t Used = __atomic_load_n(&Sh->used, __ATOMIC_ACQUIRE);
  return Used < T->shard_slots ? Used : T->shard_slots;
}

int tscc_agg_update_thread(struct tscc_store *S, uint32_t Agg, int32_t Slot,
                           const void *Key, uint32_t KeySize, int64_t Value) {
  const struct tscc_table_layout *T = tscc_agg_table(S, Agg);
  if (!T || KeySize != T->key_size || (KeySize && !Key))
    return -1;
  struct tscc_agg_shard *Sh = agg_shard(S, T, Slot);
  if (!Sh)
    return 1;
  static const uint8_t NoKey[8];
  if (!KeySize)
    Key = NoKey;
  struct tscc_table_state *St = table_state(S, T);
  /* A clear since this thread's last update: its part starts afresh,
   * emptied before it carries the new number (readers check it before
   * and after they copy the entries). */
  uint32_t Gen = __atomic_load_n(&St->gen, __ATOMIC_ACQUIRE);
  if (UNLIKELY(Sh->gen != Gen)) {
    __atomic_store_n(&Sh->used, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&Sh->gen, Gen, __ATOMIC_RELEASE);
  }
  uint32_t Used = shard_used(T, Sh);
  /* A keyless aggregation (@c = count()) has one entry, the first: no
   * hash and no key to compare on every hit. */
  if (!T->key_size && Used) {
    agg_add(T, (struct tscc_agg_value *)entry_value(T, shard_entry(T, Sh, 0)),
            0, Value);
    agg_mark_dirty(St);
    return 0;
  }
  uint32_t Hash = agg_hash(T, Key);
  for (uint32_t I = 0; I < Used; ++I) {
    struct tscc_entry *E = shard_entry(T, Sh, I);
    if (E->hash == Hash &&
        __builtin_memcmp(entry_key(E), Key, T->key_size) == 0) {
      agg_add(T, (struct tscc_agg_value *)entry_value(T, E), 0, Value);
      agg_mark_dirty(St);
      return 0;
    }
  }
  if (Used >= T->shard_slots)
    return 1;
  struct tscc_entry *E = shard_entry(T, Sh, Used);
  __builtin_memset(E, 0, T->entry_size);
  E->hash = Hash;
  E->live = 1;
  __builtin_memcpy(entry_key(E), Key, T->key_size);
  agg_add(T, (struct tscc_agg_value *)entry_value(T, E), 1, Value);
  /* Published whole: a reader copies only the entries below used. */
  __atomic_store_n(&Sh->used, Used + 1, __ATOMIC_RELEASE);
  agg_mark_dirty(St);
  return 0;
}

const struct tscc_agg_shard *tscc_agg_thread_shard(struct tscc_store *S,
                                                   uint32_t Agg, int32_t Slot) {
  const struct tscc_table_layout *T = tscc_agg_table(S, Agg);
  return T ? agg_shard(S, T, Slot) : 0;
}

/* Folds one thread's part of aggregation Agg into its table. */
static void agg_fold(struct tscc_store *S, uint32_t Agg, int32_t Slot) {
  const struct tscc_table_layout *T = tscc_agg_table(S, Agg);
  struct tscc_agg_shard *Sh = agg_shard(S, T, Slot);
  if (!Sh)
    return;
  struct tscc_table_state *St = table_state(S, T);
  uint32_t Used = shard_used(T, Sh);
  if (Sh->gen != St->gen)
    Used = 0; /* cleared since */
  for (uint32_t I = 0; I < Used; ++I) {
    struct tscc_entry *E = shard_entry(T, Sh, I);
    const struct tscc_agg_value *From =
        (const struct tscc_agg_value *)entry_value(T, E);
    int Created = 0;
    uint8_t *V = table_lookup(S, S->layout.map_count + Agg, -1, entry_key(E), 1,
                              &Created, 0);
    if (!V) {
      uint64_t Lost = (uint64_t)St->lost + (uint64_t)From->count;
      St->lost = Lost > 0xffffffffu ? 0xffffffffu : (uint32_t)Lost;
      continue;
    }
    agg_merge(T, (struct tscc_agg_value *)V, Created, From);
    St->dirty = 1;
  }
  __atomic_store_n(&Sh->used, 0, __ATOMIC_RELEASE);
}

void tscc_agg_fold_thread(struct tscc_store *S, int32_t Slot) {
  if (!thread_ok(S, Slot))
    return;
  for (uint32_t A = 0; A < S->layout.agg_count; ++A)
    agg_fold(S, A, Slot);
}

void tscc_agg_clear(struct tscc_store *S, uint32_t Agg) {
  const struct tscc_table_layout *T = tscc_agg_table(S, Agg);
  if (!T)
    return;
  struct tscc_table_state *St = table_state(S, T);
  uint32_t Used = St->used < T->capacity ? St->used : T->capacity;
  for (uint32_t I = 0; I < Used; ++I)
    table_entry(S, T, I)->live = 0;
  __builtin_memset(table_index(S, T), 0,
                   (size_t)T->index_slots * sizeof(uint32_t));
  /* Every thread's part is cleared with it: the new number makes the
   * parts that carry the old one count for nothing. */
  uint32_t Gen = St->gen + 1;
  __builtin_memset(St, 0, sizeof(*St));
  __atomic_store_n(&St->gen, Gen, __ATOMIC_RELEASE);
}

/*--- Threads ---------------------------------------------------------------*/

static uint8_t *thread_block(struct tscc_store *S, int32_t Slot) {
  return S->shard + S->layout.blocks_off +
         (uint64_t)Slot * S->layout.thread_block_size;
}

uint32_t *tscc_thread_within(struct tscc_store *S, int32_t Slot) {
  if (!thread_ok(S, Slot))
    return 0;
  return (uint32_t *)(thread_block(S, Slot) + S->layout.within_off);
}

static uint32_t *thread_map_heads(struct tscc_store *S, int32_t Slot) {
  return (uint32_t *)(thread_block(S, Slot) + S->layout.map_heads_off);
}

static uint32_t thread_hash(uint32_t Target, int32_t Tid) {
  uint32_t H = fnv1a(2166136261u, &Target, 4);
  return fnv1a(H, &Tid, 4);
}

/* The index position of the live slot of (Target, Tid), or -1. */
static int64_t thread_find(struct tscc_store *S, uint32_t Target, int32_t Tid,
                           int64_t *InsertAt) {
  uint32_t *Index = (uint32_t *)(S->shard + S->layout.thread_index_off);
  uint32_t Slots = S->layout.thread_index_slots, Mask = Slots - 1;
  int64_t FirstFree = -1;
  uint32_t Pos = thread_hash(Target, Tid) & Mask;
  for (uint32_t N = 0; N < Slots; ++N, Pos = (Pos + 1) & Mask) {
    uint32_t V = Index[Pos];
    if (V == 0) {
      if (InsertAt)
        *InsertAt = FirstFree >= 0 ? FirstFree : (int64_t)Pos;
      return -1;
    }
    if (V == TOMBSTONE || V > S->layout.thread_capacity) {
      if (FirstFree < 0)
        FirstFree = Pos;
      continue;
    }
    struct tscc_thread *T = tscc_thread_at(S, (int32_t)V - 1);
    if (T->state == TSCC_THREAD_LIVE && T->target == Target && T->tid == Tid)
      return Pos;
  }
  if (InsertAt)
    *InsertAt = FirstFree;
  return -1;
}

int32_t tscc_thread_lookup(struct tscc_store *S, uint32_t Target, int32_t Tid) {
  int64_t Pos = thread_find(S, Target, Tid, 0);
  if (Pos < 0)
    return -1;
  uint32_t *Index = (uint32_t *)(S->shard + S->layout.thread_index_off);
  return (int32_t)Index[Pos] - 1;
}

static void thread_index_rehash(struct tscc_store *S) {
  uint32_t *Index = (uint32_t *)(S->shard + S->layout.thread_index_off);
  uint32_t Slots = S->layout.thread_index_slots, Mask = Slots - 1;
  __builtin_memset(Index, 0, (size_t)Slots * sizeof(uint32_t));
  for (uint32_t I = 0; I < S->layout.thread_capacity; ++I) {
    struct tscc_thread *T = tscc_thread_at(S, (int32_t)I);
    if (T->state != TSCC_THREAD_LIVE)
      continue;
    /* Bounded: another process may be filling the index meanwhile. */
    uint32_t Pos = thread_hash(T->target, T->tid) & Mask, N = 0;
    while (N < Slots && Index[Pos]) {
      Pos = (Pos + 1) & Mask;
      ++N;
    }
    if (N < Slots)
      Index[Pos] = I + 1;
  }
}

int32_t tscc_thread_add(struct tscc_store *S, uint32_t Target, int32_t Tid) {
  int64_t InsertAt = -1;
  int64_t Pos = thread_find(S, Target, Tid, &InsertAt);
  uint32_t *Index = (uint32_t *)(S->shard + S->layout.thread_index_off);
  if (Pos >= 0)
    return (int32_t)Index[Pos] - 1;
  if (InsertAt < 0) {
    thread_index_rehash(S);
    if (thread_find(S, Target, Tid, &InsertAt) >= 0 || InsertAt < 0)
      return -1;
  }
  struct tscc_shard_header *H = tscc_shard_hdr(S);
  uint32_t Cap = S->layout.thread_capacity;
  /* The lowest free slot: every slot below the hint is in use (it only
     grows past slots taken here and drops to slots freed), so a process
     whose threads come and go keeps reusing the same few slots and rings,
     instead of touching every ring of its shard in turn (a new page of
     shared memory for each of the first 1024 short-lived threads). */
  uint32_t Start = H->thread_hint < Cap ? H->thread_hint : 0;
  for (uint32_t N = 0; N < Cap; ++N) {
    uint32_t I = (Start + N) % Cap;
    struct tscc_thread *T = tscc_thread_at(S, (int32_t)I);
    if (T->state != TSCC_THREAD_FREE)
      continue;
    H->thread_hint = I + 1;
    if (H->threads_high <= I)
      __atomic_store_n(&H->threads_high, I + 1, __ATOMIC_RELEASE);
    __builtin_memset(thread_block(S, (int32_t)I), 0,
                     S->layout.thread_block_size);
    T->target = Target;
    T->tid = Tid;
    T->gen = __atomic_add_fetch(&H->thread_gen, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&T->state, TSCC_THREAD_LIVE, __ATOMIC_RELEASE);
    Index[InsertAt] = I + 1;
    return (int32_t)I;
  }
  return -1;
}

void tscc_thread_retire(struct tscc_store *S, int32_t Slot) {
  struct tscc_thread *T = tscc_thread_at(S, Slot);
  if (!T || T->state != TSCC_THREAD_LIVE)
    return;
  /* What it added to aggregations stays counted after its block goes. */
  tscc_agg_fold_thread(S, Slot);
  int64_t Pos = thread_find(S, T->target, T->tid, 0);
  if (Pos >= 0)
    ((uint32_t *)(S->shard + S->layout.thread_index_off))[Pos] = TOMBSTONE;
  /* Its per-thread map entries go with it. */
  uint32_t *Heads = thread_map_heads(S, Slot);
  for (uint32_t M = 0; M < S->layout.map_count; ++M) {
    const struct tscc_table_layout *Tb = &S->tables[M];
    if (!(Tb->flags & TSCC_TABLE_THREAD))
      continue;
    /* Bounded: a corrupt chain cannot loop forever. */
    for (uint32_t N = 0;
         Heads[M] && Heads[M] <= Tb->capacity && N <= Tb->capacity; ++N) {
      uint32_t Idx = Heads[M] - 1;
      struct tscc_entry *E = table_entry(S, Tb, Idx);
      uint32_t Mask = Tb->index_slots - 1;
      uint32_t IPos = E->hash & Mask, K = 0;
      uint32_t *Index = table_index(S, Tb);
      /* Its probe sequence ends at an empty slot (as table_find's): an
       * entry not found by then is not in the index, and looking further
       * made a thread's end cost a sweep of the whole index per entry
       * (seconds for a thread with a thousand entries). */
      while (K < Tb->index_slots && Index[IPos] != Idx + 1 && Index[IPos]) {
        IPos = (IPos + 1) & Mask;
        ++K;
      }
      if (K < Tb->index_slots && Index[IPos] == Idx + 1) {
        table_remove(S, Tb, M, IPos, Idx);
      } else {
        Heads[M] = E->next <= Tb->capacity ? E->next : 0;
        E->live = 0;
      }
    }
    Heads[M] = 0;
  }
  __builtin_memset(thread_block(S, Slot), 0, S->layout.thread_block_size);
  __atomic_store_n(&T->state, TSCC_THREAD_DEAD, __ATOMIC_RELEASE);
}

void tscc_thread_free(struct tscc_store *S, int32_t Slot) {
  struct tscc_thread *T = tscc_thread_at(S, Slot);
  if (!T || T->state != TSCC_THREAD_DEAD)
    return;
  /* A ring never mapped here was never written here either. */
  struct tscc_ring *R = tscc_ring_at(S, (uint32_t)Slot);
  if (R) {
    tscc_ring_release_extent(S, (uint32_t)Slot);
    R->head = R->tail = 0;
    R->dropped = R->marked = 0;
    R->seq = 0;
  }
  T->tid = 0;
  T->target = 0;
  __atomic_store_n(&T->state, TSCC_THREAD_FREE, __ATOMIC_RELEASE);
  struct tscc_shard_header *H = tscc_shard_hdr(S);
  if ((uint32_t)Slot < H->thread_hint)
    H->thread_hint = (uint32_t)Slot;
}

/*--- Rings -----------------------------------------------------------------*/

struct tscc_ring *tscc_ring_at(struct tscc_store *S, uint32_t Ring) {
  if (Ring >= tscc_ring_count(&S->layout))
    return 0;
  return (struct tscc_ring *)tscc_host_ring(S, Ring, sizeof(struct tscc_ring));
}

uint8_t *tscc_ring_data(struct tscc_store *S, uint32_t Ring) {
  struct tscc_ring *R = tscc_ring_at(S, Ring);
  return R ? (uint8_t *)(R + 1) : 0;
}

/*--- Burst extents -----------------------------------------------------------
 * A thread whose own ring is full claims one of its process's burst
 * extents (a compare-and-swap of the extent's owner word), writes into it
 * until tsrun has read all of it, then gives it back and writes into its
 * own ring again. One whose extent is full claims another, if one is
 * free; tsrun gives the full one back once it has read all of it. Its records
 * keep their order: the reader merges rings by time, and the rings' heads are
 * read under the session lock, as the writes are made. Everything here is in
 * the program's own shard: what it writes there can only misplace or lose its
 * own records. */

int32_t tscc_ring_extent_of(struct tscc_store *S, uint32_t Slot) {
  struct tscc_ring *Own = tscc_ring_at(S, Slot);
  if (!Own || Slot >= S->layout.thread_capacity)
    return -1;
  uint32_t X = __atomic_load_n(&Own->extent, __ATOMIC_RELAXED);
  if (!X || X > S->layout.extent_count)
    return -1;
  uint32_t Ring = S->layout.thread_capacity + X - 1;
  struct tscc_ring *E = tscc_ring_at(S, Ring);
  if (!E || __atomic_load_n(&E->owner, __ATOMIC_ACQUIRE) != Slot + 1)
    return -1;
  return (int32_t)Ring;
}

void tscc_ring_release_extent(struct tscc_store *S, uint32_t Slot) {
  int32_t Ring = tscc_ring_extent_of(S, Slot);
  struct tscc_ring *Own = tscc_ring_at(S, Slot);
  if (Own)
    __atomic_store_n(&Own->extent, 0, __ATOMIC_RELAXED);
  if (Ring >= 0)
    __atomic_store_n(&tscc_ring_at(S, (uint32_t)Ring)->owner, 0,
                     __ATOMIC_RELEASE);
}

/* The ring Slot's thread writes into now: its burst extent, or its own. */
static uint32_t ring_current(struct tscc_store *S, uint32_t Slot) {
  int32_t Ring = tscc_ring_extent_of(S, Slot);
  return Ring >= 0 ? (uint32_t)Ring : Slot;
}

/* Claims a free extent for Slot's thread; 0 when none is free. */
static int ring_claim_extent(struct tscc_store *S, uint32_t Slot) {
  for (uint32_t X = 0; X < S->layout.extent_count; ++X) {
    struct tscc_ring *E = tscc_ring_at(S, S->layout.thread_capacity + X);
    uint32_t Free = 0;
    if (E && __atomic_load_n(&E->owner, __ATOMIC_RELAXED) == 0 &&
        __atomic_compare_exchange_n(&E->owner, &Free, Slot + 1, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      __atomic_store_n(&tscc_ring_at(S, Slot)->extent, X + 1, __ATOMIC_RELAXED);
      return 1;
    }
  }
  return 0;
}

/* Where an entry of Total bytes goes at Head, or -1 when it does not fit:
 * an entry is contiguous, so one that would wrap starts at the beginning
 * of the data area, after a padding entry to its end; *Used says how many
 * bytes the entry takes then, padding included. */
static int64_t ring_place(uint64_t Size, uint64_t Head, uint64_t Tail,
                          uint64_t Total, uint64_t *Used) {
  uint64_t Fill = Head - Tail;
  uint64_t Pos = Head & (Size - 1);
  uint64_t Contig = Size - Pos;
  uint64_t Need = Total + (Total > Contig ? Contig : 0);
  if (Total > Size / 2 || Fill > Size || Size - Fill < Need)
    return -1;
  *Used = Need;
  return Total > Contig ? 0 : (int64_t)Pos;
}

/* Advances the ring's head to Pos for an entry of Total bytes, padding the
 * end of the data area when the entry starts at its beginning. */
static void ring_skip(struct tscc_ring *R, uint8_t *Data, uint64_t Size,
                      uint64_t Total) {
  uint64_t Head = R->head;
  uint64_t Pos = Head & (Size - 1);
  if (Total <= Size - Pos)
    return;
  struct tscc_ring_record *Pad = (struct tscc_ring_record *)(Data + Pos);
  Pad->size = (uint32_t)(Size - Pos);
  Pad->type = TSCC_RING_PAD;
  __atomic_store_n(&R->head, Head + (Size - Pos), __ATOMIC_RELEASE);
}

#define RING_LOST_BYTES (sizeof(struct tscc_ring_record) + 8)

static void ring_commit_at(struct tscc_store *S, uint32_t Ring,
                           struct tscc_ring_record *Hdr, uint32_t PayloadSize);

/* Writes the TSCC_RING_LOST entry for the records Slot's thread dropped
 * since the last one, into ring Ring where they went missing (room for it
 * was checked). Drops are counted in the thread's own ring. */
static void ring_mark_lost(struct tscc_store *S, uint32_t Slot, uint32_t Ring,
                           uint64_t Lost) {
  struct tscc_ring *R = tscc_ring_at(S, Ring);
  uint8_t *Data = (uint8_t *)(R + 1);
  uint64_t Size = tscc_ring_bytes(&S->layout, Ring);
  ring_skip(R, Data, Size, RING_LOST_BYTES);
  struct tscc_thread *T = tscc_thread_at(S, (int32_t)Slot);
  struct tscc_ring_record H;
  __builtin_memset(&H, 0, sizeof(H));
  H.type = TSCC_RING_LOST;
  H.target = T ? T->target : 0;
  H.tid = T ? T->tid : 0;
  H.time_ns = tscc_host_now_ns();
  __builtin_memcpy(Data + (R->head & (Size - 1)) + sizeof(H), &Lost, 8);
  tscc_ring_at(S, Slot)->marked += Lost;
  ring_commit_at(S, Ring, &H, 8);
}

/* Where an entry of Total bytes of Slot's thread goes now in ring Ring,
 * given the reader's Tail; null when it does not fit (*Full set) or its
 * part of the ring cannot be mapped. */
static uint8_t *ring_try_reserve(struct tscc_store *S, uint32_t Slot,
                                 uint32_t Ring, uint64_t Total, uint64_t Tail,
                                 int *Full) {
  struct tscc_ring *Own = tscc_ring_at(S, Slot);
  struct tscc_ring *R = tscc_ring_at(S, Ring);
  uint64_t Size = tscc_ring_bytes(&S->layout, Ring);
  /* Records dropped before this one: a marker goes first, so room for
   * both is needed. */
  uint64_t Lost = Own->dropped - Own->marked, Used = 0;
  uint64_t Head = R->head;
  /* What of the ring this entry (and a marker) may touch must be mapped:
   * an agent maps a ring bit by bit as its thread writes further into it. */
  uint64_t Reach = (Head & (Size - 1)) + RING_LOST_BYTES + Total;
  if (Lost && ring_place(Size, Head, Tail, RING_LOST_BYTES, &Used) >= 0)
    Head += Used;
  if ((Lost && !Used) || ring_place(Size, Head, Tail, Total, &Used) < 0) {
    *Full = 1;
    return 0;
  }
  R = (struct tscc_ring *)tscc_host_ring(
      S, Ring, sizeof(*R) + (Reach < Size ? Reach : Size));
  if (!R)
    return 0;
  uint8_t *Data = (uint8_t *)(R + 1);
  if (Lost)
    ring_mark_lost(S, Slot, Ring, Lost);
  ring_skip(R, Data, Size, Total);
  return Data + (R->head & (Size - 1)) + sizeof(struct tscc_ring_record);
}

/* Slot's thread writes into ring Ring: an extent that tsrun has read all
 * of goes back to the pool, and the thread to its own ring, once that is
 * at most half full (a new extent is empty too, but its thread's ring is
 * full). 1 when it did. */
static int ring_leave_drained_extent(struct tscc_store *S, uint32_t Slot,
                                     uint32_t Ring, uint64_t Tail) {
  if (Ring == Slot || Tail != tscc_ring_at(S, Ring)->head)
    return 0;
  struct tscc_ring *Own = tscc_ring_at(S, Slot);
  uint64_t Fill = Own->head - __atomic_load_n(&Own->tail, __ATOMIC_ACQUIRE);
  if (Fill > S->layout.ring_size / 2)
    return 0;
  tscc_ring_release_extent(S, Slot);
  return 1;
}

uint8_t *tscc_ring_reserve(struct tscc_store *S, uint32_t Slot,
                           uint32_t MaxPayload) {
  if (Slot >= S->layout.thread_capacity || !tscc_ring_at(S, Slot))
    return 0;
  uint64_t Total =
      (sizeof(struct tscc_ring_record) + (uint64_t)MaxPayload + 7) & ~7ull;
  /* Switches between the own ring and an extent are bounded: the words
   * that steer them are in memory the program can write. */
  for (int Switches = 0;;) {
    uint32_t Ring = ring_current(S, Slot);
    struct tscc_ring *R = tscc_ring_at(S, Ring);
    uint64_t Tail = __atomic_load_n(&R->tail, __ATOMIC_ACQUIRE);
    if (Switches < 4 && ring_leave_drained_extent(S, Slot, Ring, Tail)) {
      ++Switches;
      continue;
    }
    int Full = 0;
    uint8_t *Where = ring_try_reserve(S, Slot, Ring, Total, Tail, &Full);
    if (Where)
      return Where;
    /* A full ring overflows into a burst extent, if one is free: the own
     * ring into a first one, a full extent into the next (which tsrun
     * gives back once it has read all of it, see RingReader). */
    if (Full && Switches < 4 && ring_claim_extent(S, Slot)) {
      ++Switches;
      continue;
    }
    /* A full ring (--on-full=block) waits for the reader, as long as it
     * lives; an entry that can never fit, or a ring that cannot be
     * mapped, does not. */
    if (!Full || Total > tscc_ring_bytes(&S->layout, Ring) / 2 ||
        !tscc_host_ring_wait(S, Ring, Tail))
      break;
  }
  __atomic_add_fetch(&tscc_ring_at(S, Slot)->dropped, 1, __ATOMIC_RELAXED);
  return 0;
}

static void ring_commit_at(struct tscc_store *S, uint32_t Ring,
                           struct tscc_ring_record *Hdr, uint32_t PayloadSize) {
  struct tscc_ring *R = tscc_ring_at(S, Ring);
  uint8_t *Data = (uint8_t *)(R + 1);
  uint64_t Size = tscc_ring_bytes(&S->layout, Ring);
  uint64_t Head = R->head;
  uint64_t Tail = __atomic_load_n(&R->tail, __ATOMIC_ACQUIRE);
  uint64_t Pos = Head & (Size - 1);
  uint64_t Total = (sizeof(*Hdr) + (uint64_t)PayloadSize + 7) & ~7ull;
  struct tscc_store_header *H = tscc_store_hdr(S);
  Hdr->size = (uint32_t)Total;
  /* The ring's own sequence: no cache line shared with other threads. */
  Hdr->seq = R->seq++;
  __builtin_memcpy(Data + Pos, Hdr, sizeof(*Hdr));
  uint64_t Tailing = Total - sizeof(*Hdr) - PayloadSize;
  if (Tailing)
    __builtin_memset(Data + Pos + sizeof(*Hdr) + PayloadSize, 0, Tailing);
  uint64_t Fill = Head - Tail;
  __atomic_store_n(&R->head, Head + Total, __ATOMIC_RELEASE);
  /* Wake the reader once per fill-up past a mark, not per record: half
   * the ring, or 256 KiB into a large one, so that a large ring is drained
   * early in a burst instead of when half of it is full. */
  uint64_t Mark =
      Size / 2 < TSCC_RING_WAKE_BYTES ? Size / 2 : TSCC_RING_WAKE_BYTES;
  if (Fill <= Mark && Fill + Total > Mark) {
    __atomic_add_fetch(&H->wake, 1, __ATOMIC_RELEASE);
    tscc_host_wake(&H->wake);
  }
}

void tscc_ring_commit(struct tscc_store *S, uint32_t Slot,
                      struct tscc_ring_record *Hdr, uint32_t PayloadSize) {
  ring_commit_at(S, ring_current(S, Slot), Hdr, PayloadSize);
}

int tscc_ring_write(struct tscc_store *S, uint32_t Slot,
                    struct tscc_ring_record *Hdr, const void *Payload,
                    uint32_t PayloadSize) {
  uint8_t *Where = tscc_ring_reserve(S, Slot, PayloadSize);
  if (!Where)
    return -1;
  if (PayloadSize)
    __builtin_memcpy(Where, Payload, PayloadSize);
  tscc_ring_commit(S, Slot, Hdr, PayloadSize);
  return 0;
}

_Static_assert(sizeof(struct tscc_store_header) == 192, "header layout");
_Static_assert(sizeof(struct tscc_control) == 32, "control page layout");
_Static_assert(sizeof(struct tscc_shard_header) == 64, "shard header layout");
_Static_assert(sizeof(struct tscc_ring) == 192, "ring header layout");
_Static_assert(sizeof(struct tscc_ring_record) == 40, "ring record layout");
_Static_assert(sizeof(struct tscc_entry) == 24, "entry layout");
_Static_assert(sizeof(struct tscc_table_state) == 32, "table state layout");
_Static_assert(sizeof(struct tscc_agg_shard) == 16, "aggregation shard");
_Static_assert(sizeof(struct tscc_table_layout) == 96, "table layout");
_Static_assert(offsetof(struct tscc_table_layout, lhist_lo) == 64 &&
                   offsetof(struct tscc_table_layout, shard_off) == 88,
               "table layout: the same in both data models");
