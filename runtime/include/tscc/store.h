/*===- tscc/store.h - The session's state, in memory shared with targets ----===*
 *
 * Everything a clause reads or writes besides its own locals lives in one
 * shared mapping (a memfd) that tsrun creates and maps into every native
 * 64-bit target it runs clause code in: the global block, per-thread blocks
 * (thread-locals, within() depths), associative arrays, aggregations, the
 * per-clause counters and one record ring per traced thread. The same C
 * code (runtime/lib/InProcess/Agent/store.c) operates on it in tsrun and,
 * freestanding, inside the targets' agent, so there is one copy of each
 * variable per session whichever process a clause runs in.
 *
 * Concurrency: every clause runs under the store lock, a spinning lock in
 * the shared header whose word holds the owner's thread id. That keeps the
 * language's promise that clauses never run concurrently and makes every
 * ring single-writer. Each ring numbers its own entries (its thread's
 * sequence); tsrun merges the rings by the records' times, which clauses
 * read under the lock, so that the merge is the true order of the records
 * across threads and processes.
 *
 * Trust: the mapping is writable by every target, so a buggy or hostile
 * program can scribble on it. Layout numbers (offsets, capacities) are
 * therefore never read back from the shared memory: each side keeps a
 * private copy (struct tscc_store_layout) and every index read from the
 * shared memory is checked against it before use. The words that steer the
 * session are in the control page (struct tscc_control), which targets
 * can only read.
 *
 * Offsets are from the start of the mapping, which is at a different
 * address in every process.
 *===----------------------------------------------------------------------===*/
#ifndef TSCC_STORE_H
#define TSCC_STORE_H

#include "tscc/abi.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TSCC_STORE_MAGIC 0x3152545343435354ull /* "TSCCSTR1" */
#define TSCC_STORE_VERSION 8
#define TSCC_CONTROL_MAGIC 0x4c52544343435354ull /* "TSCCCTRL" */
#define TSCC_SHARD_MAGIC 0x4452485343435354ull   /* "TSCCSHRD" */

#define TSCC_READER_GONE 0x40000000u /* FUTEX_OWNER_DIED */

/*--- The control page -----------------------------------------------------*/

/* The words that steer the whole session, in a page of their own (a memfd
 * of its own) that only tsrun writes. Targets map it read-only and cannot
 * make it writable: tsrun seals the memfd (F_SEAL_FUTURE_WRITE) once it
 * has mapped it itself, so no process it traces can switch collection off,
 * end the session, or make the other processes' agents think tsrun died. */
struct tscc_control {
  uint64_t magic; /* TSCC_CONTROL_MAGIC */
  uint32_t version;
  uint32_t size;
  /* Collection is switched off (SIGUSR1, --collect=off, a full single
   * buffer): probes stay installed but no clause starts, and an exit probe
   * fires only if its entry was seen while collection was on. */
  uint32_t collect_off;
  /* The session is ending: start no new clause. */
  uint32_t stopping;
  /* The reader's lifeline: a robust futex word holding the tid of tsrun's
   * reader thread. When tsrun dies, however it dies, the kernel sets
   * TSCC_READER_GONE in it (FUTEX_OWNER_DIED), through tsrun's own
   * mapping. */
  uint32_t reader_alive;
  /* --on-full=block: a thread whose ring is full waits for the reader
   * (tscc_host_ring_wait) instead of dropping the record. */
  uint32_t block_when_full;
};

/*--- Shared structures ----------------------------------------------------*/

/* At offset 0 of the mapping. Hot words on their own cache lines. Nothing
 * here steers the session: tsrun checks what it reads here, and keeps what
 * it needs of it (the time zero, the epochs) in its own memory. */
struct tscc_store_header {
  uint64_t magic;
  uint32_t version;
  uint32_t header_size;
  uint64_t size;
  uint8_t pad0[40];
  /* The clause lock and the record sequence. */
  uint32_t lock;        /* owner thread id; 0 when free */
  uint32_t stuck_owner; /* an owner whose hold timed out (see store.c) */
  uint64_t seq;         /* unused since version 6 (see tscc_ring.seq) */
  uint64_t lock_steals; /* locks taken over from dead owners */
  uint64_t lock_timeouts;
  /* A waiter that has waited long claims this, and then nobody else takes
   * the lock before it: the lock is unfair (fast), this keeps one thread
   * that takes it over and over from starving the others. */
  uint32_t starving;
  /* What agents could not do, for tsrun's warnings (tscc_agent_notice
   * bits; the in-process agent's, apart from the thread slots). Only
   * ever read as a reason to warn: a forged bit costs a false warning. */
  uint32_t agent_notices;
  uint64_t starving_since;   /* CLOCK_MONOTONIC */
  uint64_t owner_checked_ns; /* when a stuck owner was last looked at */
  uint8_t pad1[8];
  uint32_t wake; /* futex word: bumped when a ring wants draining */
  uint8_t pad2[60];
};

/* At offset 0 of a process's shard: the part of the session's state that
 * belongs to that process alone. */
struct tscc_shard_header {
  uint64_t magic; /* TSCC_SHARD_MAGIC */
  uint32_t version;
  uint32_t header_size;
  uint64_t size;
  uint32_t thread_gen;   /* source of tscc_thread.gen values */
  uint32_t thread_hint;  /* every thread slot below it is in use */
  uint32_t threads_high; /* 1 + the highest thread slot ever used */
  /* A clause called exit() in this process. tsrun ends the session if the
   * object has a clause that can (TSCC_HDR_USES_EXIT), and ignores (and
   * reports) the request otherwise. */
  uint32_t exit_requested;
  /* Set with exit_requested: this process starts no new clause, before
   * tsrun has even seen the request (the others stop when tsrun sets the
   * control page's stopping, within milliseconds). */
  uint32_t stopping;
  /* A window (--detach): the id of a thread of a process tsrun has let go
   * of that is about to exec, and waits to be traced first; 0 when none
   * asks. Its process may be one that shares this shard (a vfork() or
   * fork() child). tsrun sets window_grant to that id once the thread is
   * traced (both are futex words), or clears window_tid to refuse. With
   * TSCC_WINDOW_LINK_MAP set in window_tid (and window_grant), the thread
   * is in the loader's debugger hook instead: the libraries it maps change,
   * and tsrun installs their probes before it grants the window. */
  uint32_t window_tid;
  uint32_t window_grant;
  /* Tables of stack ids the agents of processes that share this shard
   * made for themselves (fork children tsrun did not set up; the agents',
   * atomically): numbers their ids apart (tscc/unwind_table.h). */
  uint32_t stack_tables;
  uint8_t pad[8];
};

/* In window_tid: the window is for a link-map change, not an exec (thread
 * ids stay below 2^22). */
#define TSCC_WINDOW_LINK_MAP 0x80000000u
#define TSCC_WINDOW_TID(W) ((W) & ~TSCC_WINDOW_LINK_MAP)

enum tscc_agent_notice {
  TSCC_NOTICE_THREADS_FULL = 1u << 0, /* a thread found no free slot */
  TSCC_NOTICE_TABLE_FULL = 1u << 1,   /* or no room in the agent's table */
  TSCC_NOTICE_SHADOW_FULL = 1u << 2,  /* a return could not be hijacked */
  TSCC_NOTICE_NO_SHARER = 1u << 3,    /* a process unknown to the agent */
  TSCC_NOTICE_LOCK_TIMEOUT = 1u << 4, /* the store lock was held too long */
  TSCC_NOTICE_UNFOLLOWED = 1u << 5,   /* a fork child of a detached process */
  TSCC_NOTICE_USDT_ARG = 1u << 6,     /* a USDT argument could not be read */
  TSCC_NOTICE_RING_MAP = 1u << 7,     /* a thread's ring could not be mapped */
  TSCC_NOTICE_STACK_IDS = 1u << 8,    /* no room for another stack id */
};

/* A clause's counts. Kept in rows (tscc_store_layout.counters_off): one
 * row per thread slot, which only that thread writes (no locked
 * instruction, no cache line shared with another thread), and a shared
 * row for counts without a thread (atomics). A slot's row outlives its
 * thread: a new thread in the slot goes on counting in it. Readers add
 * the rows up (tscc_store_sum_counters). */
struct tscc_clause_counters {
  uint64_t fired;
  uint64_t faults;
  uint64_t drops;
  uint64_t fault_kinds; /* bit 1 << tscc_fault_kind for each kind seen */
  /* Of the drops, records that found the thread's record buffer full (or
   * unmappable): the clause's share of its rings' `dropped`, which the
   * loss warnings and markers count. */
  uint64_t lost;
};

enum tscc_thread_state {
  TSCC_THREAD_FREE = 0,
  TSCC_THREAD_LIVE = 1,
  TSCC_THREAD_DEAD = 2, /* exited; its ring may still hold records */
};

/* One traced thread. Its slot index also names its thread block and its
 * ring. `target` is tsrun's number for the process (not the pid: remote
 * targets have pids of other machines). */
struct tscc_thread {
  uint32_t state; /* tscc_thread_state */
  uint32_t target;
  int32_t tid;
  uint32_t gen; /* new for every (re)use of the slot */
};

/* A hash-table entry header; key bytes follow (padded to 8), then the value
 * at the table's value_off. */
struct tscc_entry {
  uint32_t hash;
  uint32_t thread; /* thread slot + 1 for per-thread maps, else 0 */
  uint32_t next;   /* per-thread chain or free list: entry index + 1 */
  uint32_t prev;   /* per-thread chain: entry index + 1 */
  uint32_t live;
  uint32_t reserved;
};

struct tscc_table_state {
  uint32_t live;       /* entries in use */
  uint32_t used;       /* entries ever handed out from the array */
  uint32_t free_head;  /* entry index + 1 */
  uint32_t tombstones; /* deleted index slots */
  uint32_t dirty;      /* aggregations: updated since last printed/cleared */
  uint32_t full;       /* an insertion found the table full */
  /* Aggregations: bumped by every clear. A thread's own part of the
   * aggregation (struct tscc_agg_shard) counts only while it carries the
   * same number; a thread that finds another starts its part afresh. */
  uint32_t gen;
  /* Aggregations: updates of ended threads that found no room when their
   * part was folded into the table (saturating; full is set too). */
  uint32_t lost;
};

/* A thread's own part of one aggregation, in its thread block
 * (tscc_table_layout.shard_off): shard_slots entries, laid out as the
 * table's, written by that thread alone and without the session lock.
 * Readers add it to the table's entries when gen is the table's (a part
 * of an older generation was cleared). tsrun folds it into the table when
 * the thread is retired. */
struct tscc_agg_shard {
  uint32_t gen;  /* the table's gen its entries belong to */
  uint32_t used; /* entries filled (release), at most shard_slots */
  uint32_t reserved[2];
};

/* The value of one aggregation entry; buckets follow for hist/lhist. */
struct tscc_agg_value {
  int64_t count, sum, min, max;
};

/* One single-writer record ring. head and tail are byte counts that only
 * grow; the data area is ring_size bytes (a power of two) after the
 * header. The writer holds the store lock. */
struct tscc_ring {
  uint64_t head; /* written by the producer (release) */
  uint8_t pad0[56];
  uint64_t tail; /* written by the reader (release) */
  uint8_t pad1[56];
  uint64_t dropped; /* records that did not fit */
  /* dropped as of the last TSCC_RING_LOST entry: the next entry that fits
   * is preceded by one for the difference, where the records went missing */
  uint64_t marked;
  /* Non-zero while the writer waits (futex) on the low word of tail for
   * room (--on-full=block): the reader wakes it when it moves the tail. A
   * hint only: the writer also wakes up on its own every few ms. */
  uint32_t waiting;
  uint32_t pad2;
  /* The number of the ring's next entry: its thread's record sequence,
   * from 0, loss markers included (the writer's alone; tsrun resets it
   * when it frees the slot). No shared counter is touched per record. */
  uint64_t seq;
  /* A thread's own ring (slot < thread_capacity): 1 + the burst extent its
   * thread writes into now, 0 while it writes here. An extent: 1 + the
   * slot of the thread that claimed it (compare-and-swap from 0), 0 while
   * free. dropped and marked count in the thread's own ring only. */
  uint32_t extent;
  uint32_t owner;
  /* print(@) run in the process (a thread's own ring only): the thread
   * numbers its TSCC_RING_PRINT_AGG records (print_asked, the writer's),
   * tsrun writes the number of the last one it has printed (print_done)
   * and wakes the thread, which waits for it (futex on print_done). */
  uint32_t print_asked;
  uint32_t print_done;
  uint64_t reserved[2];
};

/* A writer wakes tsrun's reader when its ring's fill passes this many bytes
 * (or half the ring, if smaller). */
#define TSCC_RING_WAKE_BYTES (256u << 10)

enum tscc_ring_type {
  TSCC_RING_PAD = 0,    /* skip to the end of the data area */
  TSCC_RING_RECORD = 1, /* payload: struct tscc_record + arguments */
  /* payload: uint32 agg, uint32 number (tscc_ring.print_asked; 0 in
   * records of older agents), int64 top, then, from agents that wait for
   * the print, uint32 thread slot, uint32 pad */
  TSCC_RING_PRINT_AGG = 2,
  TSCC_RING_STACK_SNAPSHOT = 3, /* payload: struct tscc_stack_snapshot */
  TSCC_RING_LOST = 4, /* payload: uint64 records of this thread dropped here */
  /* A stack the agent gave an id (tscc/unwind_table.h): uint64 id, uint32
   * count, uint32 end (TSCC_STACK_END_*), uint64 pcs[count], innermost
   * first. */
  TSCC_RING_STACK_NEW = 5,
};

/* stktrace() in a target: what tsrun needs to unwind the stack later with
 * the modules' .eh_frame, as a stack trace record. The shadow stack's
 * real return addresses (innermost last) follow, then stack_size bytes of
 * the stack from regs[TSCC_REG_RSP] up. */
struct tscc_stack_snapshot {
  uint32_t depth; /* stktrace(depth), 0: the default */
  uint32_t shadow_count;
  uint32_t stack_size;
  uint32_t reserved;
  uint64_t return_trampoline; /* where hijacked returns point */
  uint64_t regs[TSCC_REG_COUNT];
};

/* Every entry of a ring starts with this; size is a multiple of 8. */
struct tscc_ring_record {
  uint32_t size; /* bytes, this header included */
  uint16_t type; /* tscc_ring_type */
  uint16_t data_model;
  uint32_t target;
  int32_t tid;
  uint32_t clause;
  uint32_t probe;
  uint64_t seq;     /* the ring's entry number (tscc_ring.seq) */
  uint64_t time_ns; /* CLOCK_MONOTONIC */
};

/*--- The private layout -----------------------------------------------------*/

enum tscc_table_flags {
  TSCC_TABLE_THREAD = 1u << 0, /* a __thread associative array */
  TSCC_TABLE_AGG = 1u << 1,
};

struct tscc_table_layout {
  uint64_t state_off;   /* struct tscc_table_state */
  uint64_t index_off;   /* uint32_t[index_slots]: entry index + 1 */
  uint64_t entries_off; /* capacity x entry_size */
  uint32_t index_slots; /* a power of two, at least twice the capacity */
  uint32_t capacity;
  uint32_t entry_size; /* multiple of 16 */
  uint32_t key_size;
  uint32_t value_off; /* of the value within an entry; multiple of 16 */
  uint32_t value_size;
  uint32_t flags;    /* tscc_table_flags */
  uint32_t agg_kind; /* tscc_agg_kind (abi.h) for aggregations */
  uint32_t buckets;  /* hist/lhist bucket count */
  /* Aggregations: entries of each thread's own part, 0 when threads update
   * the table itself (under the session lock). */
  uint32_t shard_slots;
  int64_t lhist_lo, lhist_hi, lhist_step;
  uint32_t shard_off; /* of the thread's part, in its thread block */
  uint32_t reserved;
};

/* Offsets marked [shard] are from the start of a process's shard, the
 * others from the start of the store. */
struct tscc_store_layout {
  uint64_t magic;
  uint64_t size;       /* of the store */
  uint64_t shard_size; /* of each process's shard */
  uint32_t clause_count, map_count, agg_count, within_count;
  uint32_t format_count;
  uint32_t thread_capacity; /* thread slots of one process */
  uint32_t locals_size;     /* the __thread block of one thread */
  uint32_t thread_block_size;
  uint32_t within_off;         /* in a thread block: uint32_t[within_count] */
  uint32_t map_heads_off;      /* in a thread block: uint32_t[map_count] */
  uint32_t thread_index_slots; /* a power of two */
  uint32_t ring_size;          /* data bytes per ring, a power of two */
  uint64_t globals_off;
  uint64_t globals_size;
  uint64_t tables_off; /* where the store's table areas start */
  /* [shard] tscc_clause_counters[thread_capacity + 1][clause_count]: the
   * rows of the thread slots, then the shared row. */
  uint64_t counters_off;
  uint64_t threads_off;      /* [shard] struct tscc_thread[thread_capacity] */
  uint64_t thread_index_off; /* [shard] uint32_t[thread_index_slots] */
  uint64_t blocks_off;       /* [shard] thread_block_size x capacity */
  uint64_t shard_tables_off; /* [shard] where __thread maps start */
  /* [shard] ring_stride x thread_capacity, the last part of the shard: an
   * agent maps the shard up to here, and each ring (a whole number of
   * pages) when its thread first writes one, and then as far as the
   * thread has written into it (tscc_host_ring), so that a process pays
   * address space for what its threads wrote, not for --max-threads
   * rings. */
  uint64_t rings_off;
  uint64_t ring_stride; /* sizeof(struct tscc_ring) + ring_size, in pages */
  /* [shard] extent_stride x extent_count after the rings: the process's
   * pool of burst extents, rings of extent_size data bytes (a power of
   * two) that a thread whose own ring is full claims, writes into until
   * tsrun has read all of it, and gives back (--burst-buffers). Ring
   * numbers thread_capacity and up name them. The shard, sealed against
   * growing, is all a process can fill: thread_capacity rings plus these. */
  uint32_t extent_count;
  uint32_t extent_size;
  uint64_t extents_off;
  uint64_t extent_stride;
};

/* Rings are numbered: a thread slot's own ring, then the burst extents. */
static inline uint32_t tscc_ring_count(const struct tscc_store_layout *L) {
  return L->thread_capacity + L->extent_count;
}
static inline uint64_t tscc_ring_offset(const struct tscc_store_layout *L,
                                        uint32_t Ring) {
  return Ring < L->thread_capacity
             ? L->rings_off + (uint64_t)Ring * L->ring_stride
             : L->extents_off +
                   (uint64_t)(Ring - L->thread_capacity) * L->extent_stride;
}
/* Data bytes of ring Ring (a power of two). */
static inline uint64_t tscc_ring_bytes(const struct tscc_store_layout *L,
                                       uint32_t Ring) {
  return Ring < L->thread_capacity ? L->ring_size : L->extent_size;
}
/* Header and data of ring Ring, in whole pages. */
static inline uint64_t tscc_ring_stride(const struct tscc_store_layout *L,
                                        uint32_t Ring) {
  return Ring < L->thread_capacity ? L->ring_stride : L->extent_stride;
}

/* A process's view of the session's state: where the store and its own
 * shard are mapped, and its private copy of the layout (tables[]: the
 * maps, then the aggregations; __thread maps live in the shard). */
struct tscc_store {
  TSCC_PTR_SLOT(base, uint8_t *base);
  struct tscc_store_layout layout;
  TSCC_PTR_SLOT(tables, const struct tscc_table_layout *tables);
  TSCC_PTR_SLOT(control,
                const struct tscc_control *control); /* read-only in targets */
  TSCC_PTR_SLOT(shard, uint8_t *shard);
};

/*--- Operations (runtime/lib/InProcess/Agent/store.c) --------------------*/

enum tscc_lock_result {
  TSCC_LOCK_OK = 0,
  TSCC_LOCK_REENTERED = 1, /* the caller's thread already holds it */
  TSCC_LOCK_TIMEOUT = 2,   /* a live owner held it for too long */
  TSCC_LOCK_STOPPING = 3,  /* the session is ending */
};

/* Takes the clause lock for thread Tid, waiting at most TimeoutNs: inline
 * while nobody holds it or waits for it (one locked instruction), else
 * tscc_store_lock_wait. */
int tscc_store_lock_wait(struct tscc_store *S, int32_t Tid, uint64_t TimeoutNs);
static inline int tscc_store_lock(struct tscc_store *S, int32_t Tid,
                                  uint64_t TimeoutNs) {
  struct tscc_store_header *H = (struct tscc_store_header *)S->base;
  uint32_t Expected = 0;
  if (__builtin_expect(
          __atomic_load_n(&H->starving, __ATOMIC_RELAXED) == 0 &&
              __atomic_compare_exchange_n(&H->lock, &Expected, (uint32_t)Tid, 0,
                                          __ATOMIC_ACQUIRE, __ATOMIC_RELAXED),
          1))
    return TSCC_LOCK_OK;
  return tscc_store_lock_wait(S, Tid, TimeoutNs);
}
void tscc_store_unlock(struct tscc_store *S, int32_t Tid);
/* Thread Tid is gone (tsrun saw it exit): the lock, the starving claim and
 * the stuck mark it held are free. 1 if it held the lock. */
int tscc_store_forget_thread(struct tscc_store *S, int32_t Tid);

/* The accessors below are inline: every probe hit of the in-process agent
 * uses them. */
static inline struct tscc_store_header *tscc_store_hdr(struct tscc_store *S) {
  return (struct tscc_store_header *)S->base;
}
static inline struct tscc_shard_header *tscc_shard_hdr(struct tscc_store *S) {
  return (struct tscc_shard_header *)S->shard;
}

/* Row Row of the clause counters (SharedStore.cpp's layout: rows start on
 * cache lines of their own). */
static inline struct tscc_clause_counters *
tscc_store_counter_row(struct tscc_store *S, uint32_t Row, uint32_t Clause) {
  uint64_t Stride =
      ((uint64_t)S->layout.clause_count * sizeof(struct tscc_clause_counters) +
       63) &
      ~63ull;
  return (struct tscc_clause_counters *)(S->shard + S->layout.counters_off +
                                         Row * Stride) +
         Clause;
}

/* The shared row of Clause's counters (atomics only), or Slot's own row
 * (its thread's alone; the shared row for a slot out of range); null for a
 * bad clause. Sum adds every row up to the shard's threads_high into *Sum
 * (saturating; fault_kinds or-ed). */
static inline struct tscc_clause_counters *
tscc_store_counters(struct tscc_store *S, uint32_t Clause) {
  if (Clause >= S->layout.clause_count)
    return 0;
  return tscc_store_counter_row(S, S->layout.thread_capacity, Clause);
}
static inline struct tscc_clause_counters *
tscc_store_thread_counters(struct tscc_store *S, int32_t Slot,
                           uint32_t Clause) {
  if (Clause >= S->layout.clause_count)
    return 0;
  uint32_t Row = Slot >= 0 && (uint32_t)Slot < S->layout.thread_capacity
                     ? (uint32_t)Slot
                     : S->layout.thread_capacity;
  return tscc_store_counter_row(S, Row, Clause);
}
void tscc_store_sum_counters(struct tscc_store *S, uint32_t Clause,
                             struct tscc_clause_counters *Sum);
static inline uint8_t *tscc_store_globals(struct tscc_store *S) {
  return S->base + S->layout.globals_off;
}

/* Thread slots. Lookup finds only live slots. Add returns the live slot of
 * (Target, Tid), creating it; -1 when every slot is taken. Retire frees the
 * thread's per-thread map entries, clears its block and marks it dead;
 * Free releases a dead slot once its ring has been drained. All under the
 * lock. */
int32_t tscc_thread_lookup(struct tscc_store *S, uint32_t Target, int32_t Tid);
int32_t tscc_thread_add(struct tscc_store *S, uint32_t Target, int32_t Tid);
void tscc_thread_retire(struct tscc_store *S, int32_t Slot);
void tscc_thread_free(struct tscc_store *S, int32_t Slot);
static inline struct tscc_thread *tscc_thread_at(struct tscc_store *S,
                                                 int32_t Slot) {
  if (Slot < 0 || (uint32_t)Slot >= S->layout.thread_capacity)
    return 0;
  return (struct tscc_thread *)(S->shard + S->layout.threads_off) + Slot;
}
static inline uint8_t *tscc_thread_locals(struct tscc_store *S, int32_t Slot) {
  if (Slot < 0 || (uint32_t)Slot >= S->layout.thread_capacity)
    return 0;
  return S->shard + S->layout.blocks_off +
         (uint64_t)Slot * S->layout.thread_block_size;
}
uint32_t *tscc_thread_within(struct tscc_store *S, int32_t Slot);

/* Associative arrays (Thread is the slot for __thread maps, else ignored).
 * Lookup returns the value slot for Key, creating a zeroed one if Create;
 * null when absent, or when full (*Full set). */
void *tscc_map_lookup(struct tscc_store *S, uint32_t Map, int32_t Thread,
                      const void *Key, uint32_t KeySize, int Create, int *Full);
void tscc_map_delete(struct tscc_store *S, uint32_t Map, int32_t Thread,
                     const void *Key, uint32_t KeySize);

/* Aggregations. Update returns 0, or -1 when the key has the wrong size or
 * the table is full (the caller counts a drop). */
int tscc_agg_update(struct tscc_store *S, uint32_t Agg, const void *Key,
                    uint32_t KeySize, int64_t Value);
void tscc_agg_clear(struct tscc_store *S, uint32_t Agg);
/* The same in thread Slot's own part, with no lock: 0 when done, 1 when
 * the aggregation has no per-thread part or the thread's is full with
 * other keys (the caller updates the table under the lock instead), -1 as
 * above. Only thread Slot itself calls it, never reentered. */
int tscc_agg_update_thread(struct tscc_store *S, uint32_t Agg, int32_t Slot,
                           const void *Key, uint32_t KeySize, int64_t Value);
/* Thread Slot's part of aggregation Agg (null when it has none). Its
 * entries are the table's shape, (const uint8_t *)(Shard + 1) onwards. */
const struct tscc_agg_shard *tscc_agg_thread_shard(struct tscc_store *S,
                                                   uint32_t Agg, int32_t Slot);
/* Folds thread Slot's parts of every aggregation into the tables and
 * empties them. Under the lock, and only when the thread is gone. */
void tscc_agg_fold_thread(struct tscc_store *S, int32_t Slot);
/* hist: 0 for negative values, 1 for zero, 2 + k for [2^k, 2^(k+1)).
 * lhist: 0 below lo, 1..N the steps, N + 1 at or above hi. */
uint32_t tscc_hist_bucket(int64_t V);
uint64_t tscc_lhist_bucket_count(int64_t Lo, int64_t Hi, int64_t Step);
uint64_t tscc_lhist_bucket(int64_t Lo, int64_t Hi, int64_t Step, int64_t V);
/* The table of aggregation Agg (tables[map_count + Agg]), for readers. */
const struct tscc_table_layout *tscc_agg_table(struct tscc_store *S,
                                               uint32_t Agg);

/* Rings (numbered as tscc_ring_offset says). Write appends one entry of
 * thread slot Slot (Hdr->size is set here, Hdr->seq taken from the ring it
 * goes to) with Payload, into the slot's own ring or, when that is full,
 * a burst extent; -1 when it does not fit (counted in the own ring's
 * dropped). Under the lock. (tsrun keeps its own records in its own
 * memory.) */
struct tscc_ring *tscc_ring_at(struct tscc_store *S, uint32_t Ring);
uint8_t *tscc_ring_data(struct tscc_store *S, uint32_t Ring);
/* The burst extent (its ring number) Slot's thread writes into now, or -1;
 * Release gives it back to the pool (once tsrun has read all of it). */
int32_t tscc_ring_extent_of(struct tscc_store *S, uint32_t Slot);
void tscc_ring_release_extent(struct tscc_store *S, uint32_t Slot);
int tscc_ring_write(struct tscc_store *S, uint32_t Slot,
                    struct tscc_ring_record *Hdr, const void *Payload,
                    uint32_t PayloadSize);
/* The same in two steps, for an entry built in place: Reserve returns
 * where at most MaxPayload bytes of payload go (null when they do not fit,
 * counted in dropped); Commit publishes the entry with its final payload
 * size, at most the reserved one. Nothing else may write the ring in
 * between. */
uint8_t *tscc_ring_reserve(struct tscc_store *S, uint32_t Slot,
                           uint32_t MaxPayload);
void tscc_ring_commit(struct tscc_store *S, uint32_t Slot,
                      struct tscc_ring_record *Hdr, uint32_t PayloadSize);

/* What the store needs from its host: the agent implements these with raw
 * system calls, tsrun with libc. */
uint64_t tscc_host_now_ns(void);
void tscc_host_yield(void);
int tscc_host_thread_alive(int32_t Tid);
/* 1 when thread Owner is known to run (running, runnable, or in a system
 * call), 0 when it is stopped (SIGSTOP, a debugger, a ptrace stop) or that
 * is unknown. A waiter that knows its lock's owner runs goes on waiting
 * past its timeout. The agent asks the kernel (/proc/<tid>/stat), so that
 * a hit is not dropped because tsrun or another thread is slow; tsrun
 * always says 0, and keeps its bounded waits: it must never wait on a
 * target for good. */
int tscc_host_owner_running(int32_t Owner);
void tscc_host_wake(uint32_t *Futex);
/* Where ring Ring (< thread_capacity) of S's shard is mapped in this
 * process, with at least its first Need bytes (header included), mapping
 * them if they are not yet; null if they cannot be (the record is then
 * dropped and counted). A ring's mapping may move when it grows: callers
 * ask again rather than keep the address. tsrun maps every shard whole. */
uint8_t *tscc_host_ring(struct tscc_store *S, uint32_t Ring, uint64_t Need);
/* Ring Ring is full: waits a while for the reader to move its tail past
 * Tail. 1: look again; 0: drop the record (not in block mode, the reader
 * is gone or the session ends). tsrun, which never writes a target's
 * ring, always says 0. */
int tscc_host_ring_wait(struct tscc_store *S, uint32_t Ring, uint64_t Tail);
/* Called after thread Tid released the lock (the agent stops the thread
 * there if tsrun asked it to, see tscc_agent_proc.stop_after_unlock). */
void tscc_host_unlocked(int32_t Tid);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TSCC_STORE_H */
