/*===- table.c - The agent's threads and shadow stacks (pure part) ----------===*
 *
 * See table.h. Three rules make this safe with threads running it at once
 * and signal handlers interrupting it anywhere:
 *   - an entry changes hands only by a compare-and-swap of its key to
 *     TSCC_AGENT_KEY_BUSY, after which its taker alone writes it and then
 *     publishes the new key;
 *   - a shadow stack is one word (top chunk, depth), so a push or pop is
 *     one store that a handler sees either before or after;
 *   - the pool is a lock-free stack whose head carries a tag against ABA.
 *
 * Chunks of entries that belong to another process (the copies a fork()
 * child inherits, which may have been caught in the middle of a parent's
 * push) are never given back to the pool: they are left unused instead.
 *
 *===----------------------------------------------------------------------===*/
#include "table.h"

#define STACK_DEPTH(W) ((uint32_t)(W))
#define STACK_CHUNK(W) ((uint32_t)((W) >> 32))
#define STACK_WORD(Chunk, Depth) (((uint64_t)(Chunk) << 32) | (Depth))

static struct tscc_agent_thread *entries(const struct tscc_agent_config *C) {
  return (struct tscc_agent_thread *)(uintptr_t)C->threads;
}

static uint32_t probes(const struct tscc_agent_config *C) {
  uint32_t Cap = C->thread_capacity;
  return Cap < TSCC_AGENT_THREAD_PROBES ? Cap : TSCC_AGENT_THREAD_PROBES;
}

static int table_ok(const struct tscc_agent_config *C) {
  uint32_t Cap = C->thread_capacity;
  return C->threads && Cap && !(Cap & (Cap - 1));
}

int tscc_agent_member(const struct tscc_agent_config *C, int32_t Pid) {
  if (!__atomic_load_n(&C->shared_mm, __ATOMIC_ACQUIRE))
    return Pid == (int32_t)C->pid;
  for (uint32_t I = 0; I < TSCC_AGENT_MAX_SHARERS; ++I)
    if (__atomic_load_n(&C->sharers[I].pid, __ATOMIC_RELAXED) == Pid)
      return Pid != 0;
  return 0;
}

struct tscc_agent_thread *tscc_agent_find(struct tscc_agent_config *C,
                                          uint64_t Key, int32_t Tid) {
  if (!table_ok(C))
    return 0;
  struct tscc_agent_thread *Table = entries(C);
  uint32_t Mask = C->thread_capacity - 1, N = probes(C);
  uint32_t Pos = tscc_agent_thread_home(Key, C->thread_capacity);
  for (uint32_t I = 0; I < N; ++I, Pos = (Pos + 1) & Mask) {
    struct tscc_agent_thread *E = &Table[Pos];
    uint64_t K = __atomic_load_n(&E->key, __ATOMIC_ACQUIRE);
    if (K == TSCC_AGENT_KEY_EMPTY)
      return 0;
    if (K == Key && (!Tid || E->tid == Tid) && tscc_agent_member(C, E->pid))
      return E;
  }
  return 0;
}

/* An entry another thread may take: freed, or its thread has ended, or its
 * process does not use this memory (any more). */
static int reusable(const struct tscc_agent_config *C,
                    const struct tscc_agent_thread *E, uint64_t K) {
  if (K == TSCC_AGENT_KEY_FREE)
    return 1;
  if ((K & 15) == (TSCC_AGENT_KEY_LIVE | TSCC_AGENT_KEY_DEAD))
    return 1;
  return (K & 15) == TSCC_AGENT_KEY_LIVE && !tscc_agent_member(C, E->pid);
}

/* Empties entry E, which its caller owns (key BUSY) and which held key K:
 * the chunks of a thread of a process using this memory go back to the
 * pool, those of another process's thread are left unused. */
static void clear_entry(struct tscc_agent_config *C,
                        struct tscc_agent_thread *E, uint64_t K) {
  if (K != TSCC_AGENT_KEY_EMPTY && K != TSCC_AGENT_KEY_FREE &&
      tscc_agent_member(C, E->pid))
    tscc_agent_release(C, E);
  E->stack = 0;
  E->spare = 0;
  E->tid = 0;
  E->pid = 0;
  E->epoch = 0;
  E->slot = -1;
  E->gen = 0;
  E->target = 0;
  E->in_clause = 0;
  E->ppid = E->uid = 0;
  E->hits = 0;
  E->recover.rsp = E->recover.rip = 0;
  E->trap_blocked = 0;
}

/* Frees entry E, which held key K, if it still does. */
static void give_up(struct tscc_agent_config *C, struct tscc_agent_thread *E,
                    uint64_t K) {
  if (__atomic_compare_exchange_n(&E->key, &K, TSCC_AGENT_KEY_BUSY, 0,
                                  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
    clear_entry(C, E, K);
    __atomic_store_n(&E->key, TSCC_AGENT_KEY_FREE, __ATOMIC_RELEASE);
  }
}

/* A signal handler that interrupted the thread while it took Mine (its key
 * BUSY, so unseen) may have taken another entry for the same thread: one of
 * the two goes, the one without frames (a handler leaves none behind but
 * by a longjmp). */
static struct tscc_agent_thread *one_entry(struct tscc_agent_config *C,
                                           struct tscc_agent_thread *Mine,
                                           uint64_t Key, int32_t Tid) {
  struct tscc_agent_thread *Table = entries(C);
  uint32_t Mask = C->thread_capacity - 1, N = probes(C);
  uint32_t Pos = tscc_agent_thread_home(Key, C->thread_capacity);
  for (uint32_t I = 0; I < N; ++I, Pos = (Pos + 1) & Mask) {
    struct tscc_agent_thread *E = &Table[Pos];
    uint64_t K = __atomic_load_n(&E->key, __ATOMIC_ACQUIRE);
    if (K == TSCC_AGENT_KEY_EMPTY)
      break;
    if (E == Mine || K != Key || E->tid != Tid || !tscc_agent_member(C, E->pid))
      continue;
    if (tscc_agent_depth(E)) {
      give_up(C, Mine, Key);
      return E;
    }
    give_up(C, E, Key);
  }
  return Mine;
}

struct tscc_agent_thread *tscc_agent_take(struct tscc_agent_config *C,
                                          uint64_t Key, int32_t Tid,
                                          int32_t Pid) {
  if (!table_ok(C))
    return 0;
  struct tscc_agent_thread *Table = entries(C);
  uint32_t Mask = C->thread_capacity - 1, N = probes(C);
  /* Another thread may take the place we chose first: look again. */
  for (unsigned Attempt = 0; Attempt < 8; ++Attempt) {
    struct tscc_agent_thread *Pick = 0;
    uint64_t PickKey = 0;
    uint32_t Pos = tscc_agent_thread_home(Key, C->thread_capacity);
    for (uint32_t I = 0; I < N; ++I, Pos = (Pos + 1) & Mask) {
      struct tscc_agent_thread *E = &Table[Pos];
      uint64_t K = __atomic_load_n(&E->key, __ATOMIC_ACQUIRE);
      if (K == TSCC_AGENT_KEY_EMPTY) {
        if (!Pick) {
          Pick = E;
          PickKey = K;
        }
        break;
      }
      if (K == Key && E->tid == Tid && tscc_agent_member(C, E->pid))
        return E;
      if (!Pick && reusable(C, E, K)) {
        Pick = E;
        PickKey = K;
      }
    }
    if (!Pick)
      return 0;
    if (!__atomic_compare_exchange_n(&Pick->key, &PickKey, TSCC_AGENT_KEY_BUSY,
                                     0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      continue;
    clear_entry(C, Pick, PickKey);
    Pick->tid = Tid;
    Pick->pid = Pid;
    __atomic_store_n(&Pick->key, Key, __ATOMIC_RELEASE);
    return one_entry(C, Pick, Key, Tid);
  }
  return 0;
}

uint32_t tscc_agent_reclaim(struct tscc_agent_config *C) {
  if (!table_ok(C))
    return 0;
  uint32_t Freed = 0;
  struct tscc_agent_thread *Table = entries(C);
  for (uint32_t I = 0; I < C->thread_capacity; ++I) {
    struct tscc_agent_thread *E = &Table[I];
    uint64_t K = __atomic_load_n(&E->key, __ATOMIC_ACQUIRE);
    if (K == TSCC_AGENT_KEY_EMPTY || K == TSCC_AGENT_KEY_FREE ||
        !reusable(C, E, K) ||
        !__atomic_compare_exchange_n(&E->key, &K, TSCC_AGENT_KEY_BUSY, 0,
                                     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      continue;
    clear_entry(C, E, K);
    __atomic_store_n(&E->key, TSCC_AGENT_KEY_FREE, __ATOMIC_RELEASE);
    ++Freed;
  }
  return Freed;
}

struct tscc_agent_thread *tscc_agent_find_slot(struct tscc_agent_config *C,
                                               uint64_t Slot) {
  if (!table_ok(C))
    return 0;
  struct tscc_agent_thread *Table = entries(C), *Other = 0;
  for (uint32_t I = 0; I < C->thread_capacity; ++I) {
    struct tscc_agent_thread *E = &Table[I];
    uint64_t K = __atomic_load_n(&E->key, __ATOMIC_ACQUIRE);
    if ((K & 15) != TSCC_AGENT_KEY_LIVE)
      continue;
    const struct tscc_agent_shadow *F = tscc_agent_top(C, E);
    if (!F || F->slot != Slot)
      continue;
    if (tscc_agent_member(C, E->pid))
      return E;
    Other = E;
  }
  return Other;
}

/*--- The pool --------------------------------------------------------------*/

struct tscc_agent_chunk *tscc_agent_chunk_at(const struct tscc_agent_config *C,
                                             uint32_t Chunk) {
  if (!Chunk || Chunk > C->pool_chunks || !C->pool)
    return 0;
  return (struct tscc_agent_chunk *)(uintptr_t)C->pool + (Chunk - 1);
}

uint32_t tscc_agent_chunk_alloc(struct tscc_agent_config *C) {
  for (;;) {
    uint64_t Head = __atomic_load_n(&C->pool_free, __ATOMIC_ACQUIRE);
    uint32_t Top = (uint32_t)Head;
    if (Top) {
      struct tscc_agent_chunk *K = tscc_agent_chunk_at(C, Top);
      if (!K)
        return 0; /* a scribbled-over list: use no more of it */
      /* May read a link another thread is changing: the tag then makes
       * the exchange fail. */
      uint32_t Next = __atomic_load_n(&K->below, __ATOMIC_RELAXED);
      uint64_t New = (((Head >> 32) + 1) << 32) | Next;
      if (__atomic_compare_exchange_n(&C->pool_free, &Head, New, 0,
                                      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return Top;
      continue;
    }
    uint32_t Used = __atomic_load_n(&C->pool_used, __ATOMIC_RELAXED);
    if (Used >= C->pool_chunks)
      return 0;
    if (__atomic_compare_exchange_n(&C->pool_used, &Used, Used + 1, 0,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return Used + 1;
  }
}

void tscc_agent_chunk_free(struct tscc_agent_config *C, uint32_t Chunk) {
  struct tscc_agent_chunk *K = tscc_agent_chunk_at(C, Chunk);
  if (!K)
    return;
  uint64_t Head = __atomic_load_n(&C->pool_free, __ATOMIC_RELAXED);
  do
    __atomic_store_n(&K->below, (uint32_t)Head, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(&C->pool_free, &Head,
                                      (((Head >> 32) + 1) << 32) | Chunk, 0,
                                      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

/*--- Shadow stacks ---------------------------------------------------------*/

uint32_t tscc_agent_depth(const struct tscc_agent_thread *T) {
  return STACK_DEPTH(__atomic_load_n(&T->stack, __ATOMIC_RELAXED));
}

struct tscc_agent_shadow *tscc_agent_top(const struct tscc_agent_config *C,
                                         const struct tscc_agent_thread *T) {
  uint64_t W = __atomic_load_n(&T->stack, __ATOMIC_RELAXED);
  uint32_t D = STACK_DEPTH(W);
  struct tscc_agent_chunk *K = tscc_agent_chunk_at(C, STACK_CHUNK(W));
  if (!D || !K)
    return 0;
  return &K->frames[(D - 1) % TSCC_AGENT_CHUNK_FRAMES];
}

static void fill(struct tscc_agent_shadow *F, uint64_t Slot, uint64_t Ret,
                 uint64_t Site) {
  F->slot = Slot;
  F->ret = Ret;
  F->site = Site;
}

int tscc_agent_push(struct tscc_agent_config *C, struct tscc_agent_thread *T,
                    uint64_t Slot, uint64_t Ret, uint64_t Site) {
  uint64_t W = __atomic_load_n(&T->stack, __ATOMIC_RELAXED);
  uint32_t D = STACK_DEPTH(W), Chunk = STACK_CHUNK(W);
  uint32_t At = D % TSCC_AGENT_CHUNK_FRAMES;
  if (D == 0xffffffffu)
    return -1;
  if (At == 0 && (D != 0 || !tscc_agent_chunk_at(C, Chunk))) {
    uint32_t New = __atomic_exchange_n(&T->spare, 0, __ATOMIC_RELAXED);
    if (!tscc_agent_chunk_at(C, New))
      New = tscc_agent_chunk_alloc(C);
    if (!New)
      return -1;
    tscc_agent_chunk_at(C, New)->below = D ? Chunk : 0;
    Chunk = New;
  }
  struct tscc_agent_chunk *K = tscc_agent_chunk_at(C, Chunk);
  if (!K)
    return -1;
  /* Filled before and after it is published: a handler that probes before
   * the publication uses (and overwrites) the same place. */
  fill(&K->frames[At], Slot, Ret, Site);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&T->stack, STACK_WORD(Chunk, D + 1), __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  fill(&K->frames[At], Slot, Ret, Site);
  return 0;
}

void tscc_agent_pop(struct tscc_agent_config *C, struct tscc_agent_thread *T) {
  uint64_t W = __atomic_load_n(&T->stack, __ATOMIC_RELAXED);
  uint32_t D = STACK_DEPTH(W), Chunk = STACK_CHUNK(W);
  if (!D)
    return;
  uint32_t NewD = D - 1;
  struct tscc_agent_chunk *K = tscc_agent_chunk_at(C, Chunk);
  if (NewD % TSCC_AGENT_CHUNK_FRAMES || !NewD || !K) {
    __atomic_store_n(&T->stack, STACK_WORD(Chunk, NewD), __ATOMIC_RELAXED);
    return;
  }
  /* The top chunk is empty now: the one below becomes the top, and this
   * one the spare (the spare before it goes back to the pool). */
  __atomic_store_n(&T->stack, STACK_WORD(K->below, NewD), __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  uint32_t Old = __atomic_exchange_n(&T->spare, Chunk, __ATOMIC_RELAXED);
  if (Old)
    tscc_agent_chunk_free(C, Old);
}

struct tscc_agent_shadow *tscc_agent_below(const struct tscc_agent_config *C,
                                           const struct tscc_agent_thread *T,
                                           uint32_t Above) {
  uint64_t W = __atomic_load_n(&T->stack, __ATOMIC_RELAXED);
  uint32_t D = STACK_DEPTH(W);
  if (Above >= D)
    return 0;
  struct tscc_agent_chunk *K = tscc_agent_chunk_at(C, STACK_CHUNK(W));
  uint32_t Index = D - 1 - Above, TopChunk = (D - 1) / TSCC_AGENT_CHUNK_FRAMES;
  for (uint32_t N = TopChunk; K && N > Index / TSCC_AGENT_CHUNK_FRAMES; --N)
    K = tscc_agent_chunk_at(C, K->below);
  return K ? &K->frames[Index % TSCC_AGENT_CHUNK_FRAMES] : 0;
}

void tscc_agent_remove(struct tscc_agent_config *C, struct tscc_agent_thread *T,
                       uint32_t Above) {
  if (Above >= tscc_agent_depth(T))
    return;
  /* Each frame from the top down takes the one over it; the top's place
   * then goes. */
  struct tscc_agent_shadow Carry = *tscc_agent_below(C, T, 0);
  for (uint32_t I = 1; I <= Above; ++I) {
    struct tscc_agent_shadow *F = tscc_agent_below(C, T, I);
    if (!F)
      return;
    struct tscc_agent_shadow Was = *F;
    *F = Carry;
    Carry = Was;
  }
  tscc_agent_pop(C, T);
}

uint32_t tscc_agent_returns(const struct tscc_agent_config *C,
                            const struct tscc_agent_thread *T, uint64_t *Out,
                            uint32_t Max) {
  uint64_t W = __atomic_load_n(&T->stack, __ATOMIC_RELAXED);
  uint32_t D = STACK_DEPTH(W), N = D < Max ? D : Max, Got = 0;
  const struct tscc_agent_chunk *K = tscc_agent_chunk_at(C, STACK_CHUNK(W));
  uint32_t At = D ? (D - 1) % TSCC_AGENT_CHUNK_FRAMES : 0;
  while (Got < N && K) {
    Out[Got++] = K->frames[At].ret;
    if (At-- == 0) {
      K = tscc_agent_chunk_at(C, K->below);
      At = TSCC_AGENT_CHUNK_FRAMES - 1;
    }
  }
  /* Innermost last. */
  for (uint32_t I = 0; I < Got / 2; ++I) {
    uint64_t X = Out[I];
    Out[I] = Out[Got - 1 - I];
    Out[Got - 1 - I] = X;
  }
  return Got;
}

void tscc_agent_release(struct tscc_agent_config *C,
                        struct tscc_agent_thread *T) {
  uint64_t W = T->stack;
  uint32_t Chunk = STACK_CHUNK(W);
  /* Bounded: a scribbled-over chain cannot loop forever. */
  for (uint32_t N = 0; Chunk && N < C->pool_chunks; ++N) {
    struct tscc_agent_chunk *K = tscc_agent_chunk_at(C, Chunk);
    if (!K)
      break;
    uint32_t Below = K->below;
    tscc_agent_chunk_free(C, Chunk);
    Chunk = Below;
  }
  if (T->spare)
    tscc_agent_chunk_free(C, T->spare);
  T->spare = 0;
  T->stack = 0;
}
