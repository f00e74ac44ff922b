/*===- helpers.c - The helper table of clause code run in a target --------===*
 *
 * The same contract as tsrun's table (runtime/lib/Session/Helpers.cpp), with
 * the store lock held by the firing thread whenever the clause calls one
 * that touches what threads share (hit.c: a clause that calls none runs
 * without it). Every argument is checked: a
 * context that is not the running clause's ends the clause, a bad id, size
 * or buffer is a counted fault. Target memory is the agent's
 * own: reads are fault-safe copies (a fault is recovered by the signal
 * handler, no system call on the way), and addresses that cannot be valid
 * user memory are refused without touching them. Records go to the
 * firing thread's own ring.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

/* Clause code reads target memory in small pieces; anything beyond this is
 * a bug in the caller, not a read we should attempt. */
#define MAX_READ (1u << 20)
/* Nothing is ever mapped below this (vm.mmap_min_addr's default), and
 * nothing user-accessible at or above the end of the lower half. */
#define LOWEST_VALID 4096ull
#define USER_END AGENT_USER_END

static struct agent_scope *scope(struct tscc_ctx *Ctx) {
  return (struct agent_scope *)Ctx->runtime;
}

static struct tscc_store *store(void) { return &tscc_agent_config.store; }

static int plausible(uint64_t Addr, uint64_t Len) {
  return Addr >= LOWEST_VALID && Addr < USER_END && Len <= USER_END - Addr;
}

/* Ends the running clause as if it had crashed (tscc_agent_try returns 1 and
 * run_clause counts a fault), for a context helpers cannot trust: which
 * clause it belongs to is unknown, so nothing else can be counted. */
static void abort_clause(void) {
  struct tscc_agent_thread *T = agent_thread(0);
  if (!T || !T->in_clause)
    return; /* not called from clause code: nothing to end */
  T->in_clause = 0;
  AGENT_JUMP(T->recover.rsp, T->recover.rip);
  __builtin_unreachable();
}

/* Ctx if it is the context run_clause gave the running clause; otherwise
 * the clause is ended (a counted fault) and null returned. Clause code
 * passes its context back to every helper: a flipped register or a stale
 * pointer must not be used. Reading a bad one faults in agent code during
 * a clause, which the signal handler also turns into a counted fault. */
static struct tscc_ctx *checked(struct tscc_ctx *Ctx) {
  if (plausible(AGENT_ADDR(Ctx), sizeof(*Ctx))) {
    struct agent_scope *Sc = scope(Ctx);
    if (plausible(AGENT_ADDR(Sc), sizeof(*Sc)) && Sc->ctx == Ctx)
      return Ctx;
  }
  abort_clause();
  return 0;
}

static void count_fault(struct tscc_ctx *Ctx) {
  agent_counters_add(scope(Ctx)->thread, Ctx->clause, COUNT_FAULTS, 1);
}

/* The table of map Map (Map < map_count) or aggregation Map - map_count, if
 * the key is its size and readable; otherwise a counted fault and null. */
static const struct tscc_table_layout *checked_table(struct tscc_ctx *Ctx,
                                                     uint32_t Table,
                                                     const void *Key,
                                                     uint32_t KeySize) {
  struct tscc_store *S = store();
  if (Table >= S->layout.map_count + S->layout.agg_count ||
      S->tables[Table].key_size != KeySize ||
      (KeySize && !plausible(AGENT_ADDR(Key), KeySize))) {
    count_fault(Ctx);
    return 0;
  }
  return &S->tables[Table];
}

#define SIG_BLOCK_HOW 0
#define SIG_SETMASK_HOW 2
#define FAULT_SIGNALS ((1ull << (11 - 1)) | (1ull << (7 - 1))) /* SEGV, BUS */

void agent_faults_deliverable(struct agent_scope *Sc) {
  if (LIKELY(Sc->mask_known) ||
      !__atomic_load_n(&tscc_agent_config.detached, __ATOMIC_RELAXED))
    return;
  Sc->mask_known = 1;
  /* Both calls are forms the sandbox planner knows (Ptrace/PathPlan.cpp). */
  uint64_t None = 0, Old = 0;
  if (sys4(NR_rt_sigprocmask, SIG_BLOCK_HOW, &None, &Old, 8) != 0 ||
      !(Old & FAULT_SIGNALS))
    return;
  uint64_t Open = Old & ~FAULT_SIGNALS;
  if (sys4(NR_rt_sigprocmask, SIG_SETMASK_HOW, &Open, 0, 8) == 0) {
    Sc->saved_mask = Old;
    Sc->mask_changed = 1;
  }
}

void agent_restore_mask(struct agent_scope *Sc) {
  if (UNLIKELY(Sc->mask_changed))
    sys4(NR_rt_sigprocmask, SIG_SETMASK_HOW, &Sc->saved_mask, 0, 8);
}

static int32_t h_read_mem(struct tscc_ctx *Ctx, uint64_t Addr, void *Dst,
                          uint64_t Len) {
  if (!checked(Ctx))
    return -1;
  if (Len == 0)
    return 0;
  if (Len > MAX_READ || !plausible(AGENT_ADDR(Dst), Len)) {
    agent_counters_add(scope(Ctx)->thread, Ctx->clause, COUNT_FAULTS, 1);
    return -1;
  }
  if (plausible(Addr, Len)) {
    agent_faults_deliverable(scope(Ctx));
    if (tscc_safe_copy(Dst, AGENT_PTR(const void *, Addr), Len) == 0)
      return 0;
  }
  __builtin_memset(Dst, 0, Len);
  agent_counters_add(scope(Ctx)->thread, Ctx->clause, COUNT_FAULTS, 1);
  return -1;
}

static int64_t h_read_str(struct tscc_ctx *Ctx, uint64_t Addr, char *Dst,
                          uint64_t Max) {
  if (!checked(Ctx))
    return -1;
  if (Max == 0)
    return 0;
  if (Max > MAX_READ || !plausible(AGENT_ADDR(Dst), Max)) {
    count_fault(Ctx);
    return -1;
  }
  long Len = -1;
  if (plausible(Addr, 1)) {
    agent_faults_deliverable(scope(Ctx));
    Len = tscc_safe_strcpy(Dst, AGENT_PTR(const char *, Addr), Max);
  }
  if (Len < 0) {
    __builtin_memset(Dst, 0, Max);
    agent_counters_add(scope(Ctx)->thread, Ctx->clause, COUNT_FAULTS, 1);
    return -1;
  }
  /* Equal strings must be equal byte for byte (map keys). */
  __builtin_memset(Dst + Len, 0, Max - (uint64_t)Len);
  return Len;
}

/* The ring header of a record from the clause running on Ctx: every record
 * of one hit carries the hit's time, read once. */
static struct tscc_ring_record ring_header(struct tscc_ctx *Ctx,
                                           uint16_t Type) {
  struct agent_scope *Sc = scope(Ctx);
  if (!Sc->time_ns)
    Sc->time_ns = agent_now_ns();
  struct tscc_ring_record H;
  __builtin_memset(&H, 0, sizeof(H));
  H.type = Type;
  H.data_model = AGENT_DATA_MODEL;
  H.target = Sc->thread->target; /* its process: a sharer's is its own */
  H.tid = Sc->thread->tid;
  H.clause = Ctx->clause;
  H.probe = Ctx->probe;
  H.time_ns = Sc->time_ns;
  return H;
}

/* A record the thread's ring had no room for (tscc_ring_reserve counted
 * it in the ring's `dropped`): a drop of the clause, and one of its lost
 * records. */
static void count_lost(struct tscc_ctx *Ctx) {
  agent_counters_add(scope(Ctx)->thread, Ctx->clause, COUNT_DROPS, 1);
  agent_counters_add(scope(Ctx)->thread, Ctx->clause, COUNT_LOST, 1);
}

/* Writes a record into the thread's ring; a full ring counts a drop. The
 * place is reserved before the header is made: a record that is dropped
 * never reads the clock. 1 when the record is in the ring. */
static int ring_put(struct tscc_ctx *Ctx, uint16_t Type, const void *Payload,
                    uint32_t Size) {
  uint32_t Ring = (uint32_t)scope(Ctx)->thread->slot;
  uint8_t *Where = tscc_ring_reserve(store(), Ring, Size);
  if (!Where) {
    count_lost(Ctx);
    return 0;
  }
  if (Size)
    __builtin_memcpy(Where, Payload, Size);
  struct tscc_ring_record H = ring_header(Ctx, Type);
  tscc_ring_commit(store(), Ring, &H, Size);
  return 1;
}

static void h_emit(struct tscc_ctx *Ctx, const void *Record, uint32_t Size) {
  if (!checked(Ctx))
    return;
  if (Size < sizeof(struct tscc_record) || Size % 8 ||
      !plausible(AGENT_ADDR(Record), Size)) {
    count_fault(Ctx);
    return;
  }
  ring_put(Ctx, TSCC_RING_RECORD, Record, Size);
}

static uint64_t h_clock_ns(struct tscc_ctx *Ctx) {
  (void)Ctx;
  return agent_now_ns();
}

static void *h_map_lookup(struct tscc_ctx *Ctx, uint32_t Map, const void *Key,
                          uint32_t KeySize, int32_t Create) {
  if (!checked(Ctx))
    return 0;
  if (Map >= store()->layout.map_count) {
    count_fault(Ctx);
    return 0;
  }
  if (!checked_table(Ctx, Map, Key, KeySize))
    return 0;
  int Full = 0;
  void *V = tscc_map_lookup(store(), Map, scope(Ctx)->thread->slot, Key,
                            KeySize, Create, &Full);
  if (Full)
    agent_counters_add(scope(Ctx)->thread, Ctx->clause, COUNT_DROPS, 1);
  return V;
}

static void h_map_delete(struct tscc_ctx *Ctx, uint32_t Map, const void *Key,
                         uint32_t KeySize) {
  if (!checked(Ctx))
    return;
  if (Map >= store()->layout.map_count) {
    count_fault(Ctx);
    return;
  }
  if (!checked_table(Ctx, Map, Key, KeySize))
    return;
  tscc_map_delete(store(), Map, scope(Ctx)->thread->slot, Key, KeySize);
}

/* An update the thread's own part of the aggregation has no room for:
 * into the shared table, under the session lock, which the hit holds
 * already unless its clauses are all thread-own (TSCC_LOCK_REENTERED
 * then). 0, or -1 when the lock or the table is not to be had. */
static int agg_update_shared(struct tscc_agent_thread *T, uint32_t Agg,
                             const void *Key, uint32_t KeySize, int64_t Value) {
  struct tscc_store *S = store();
  int Lock = tscc_store_lock(S, T->tid, tscc_agent_config.lock_timeout_ns);
  if (Lock == TSCC_LOCK_TIMEOUT)
    agent_notice(TSCC_NOTICE_LOCK_TIMEOUT);
  if (Lock != TSCC_LOCK_OK && Lock != TSCC_LOCK_REENTERED)
    return -1;
  int Rc = tscc_agg_update(S, Agg, Key, KeySize, Value);
  if (Lock == TSCC_LOCK_OK)
    tscc_store_unlock(S, T->tid);
  return Rc;
}

static void h_agg_update(struct tscc_ctx *Ctx, uint32_t Agg, const void *Key,
                         uint32_t KeySize, int64_t Value) {
  if (!checked(Ctx))
    return;
  if (Agg >= store()->layout.agg_count) {
    count_fault(Ctx);
    return;
  }
  if (!checked_table(Ctx, store()->layout.map_count + Agg, Key, KeySize))
    return;
  struct tscc_agent_thread *T = scope(Ctx)->thread;
  if (!agent_stack_key_known(Agg, Key, KeySize)) {
    agent_counters_add(T, Ctx->clause, COUNT_DROPS, 1); /* no stack id */
    return;
  }
  int Rc = tscc_agg_update_thread(store(), Agg, T->slot, Key, KeySize, Value);
  if (Rc > 0)
    Rc = agg_update_shared(T, Agg, Key, KeySize, Value);
  if (Rc)
    agent_counters_add(T, Ctx->clause, COUNT_DROPS, 1);
}

/* Printing happens in tsrun: the request goes through the ring, in order
 * with the clause's records. */
static void h_agg_print(struct tscc_ctx *Ctx, uint32_t Agg, int64_t Top) {
  if (!checked(Ctx))
    return;
  if (Agg >= store()->layout.agg_count) {
    count_fault(Ctx);
    return;
  }
  /* tsrun prints it when it reads the record; the thread waits until it
   * has (print.c), so that what is printed is what the clause saw. */
  uint32_t Slot = (uint32_t)scope(Ctx)->thread->slot;
  uint32_t N = agent_print_number(store(), Slot);
  uint64_t Payload[3] = {Agg | (uint64_t)N << 32, (uint64_t)Top, Slot};
  if (ring_put(Ctx, TSCC_RING_PRINT_AGG, Payload, sizeof(Payload)))
    agent_wait_printed(store(), Slot, N);
}

static void h_agg_clear(struct tscc_ctx *Ctx, uint32_t Agg) {
  if (!checked(Ctx))
    return;
  if (Agg >= store()->layout.agg_count) {
    count_fault(Ctx);
    return;
  }
  tscc_agg_clear(store(), Agg);
}

/* exit(): no clause starts from now on in this process, and tsrun is asked
 * to end the session (the control page, which only tsrun writes, then
 * stops every other process too, within milliseconds). A process can stop
 * only itself. */
static void h_request_exit(struct tscc_ctx *Ctx) {
  if (!checked(Ctx))
    return;
  struct tscc_shard_header *Mine = tscc_shard_hdr(store());
  __atomic_store_n(&Mine->stopping, 1, __ATOMIC_RELEASE);
  __atomic_store_n(&Mine->exit_requested, 1, __ATOMIC_RELEASE);
  struct tscc_store_header *H = tscc_store_hdr(store());
  __atomic_add_fetch(&H->wake, 1, __ATOMIC_RELEASE);
  tscc_host_wake(&H->wake);
}

static int32_t h_within(struct tscc_ctx *Ctx, uint32_t Index) {
  if (!checked(Ctx))
    return 0;
  if (Index >= store()->layout.within_count) {
    count_fault(Ctx);
    return 0;
  }
  uint32_t *W = tscc_thread_within(store(), scope(Ctx)->thread->slot);
  if (!W)
    return 0;
  return W[Index] > 0;
}

/* What stktrace() takes of a thread, at most: tsrun unwinds within it, and
 * reads the rest of a deeper stack from the live process. */
#define STACK_SNAPSHOT 8192
/* And of its shadow stack: the innermost returns, at least this many, as
 * many as stktrace(depth) asks for up to the second. */
#define SHADOW_SNAPSHOT 512u
#define SHADOW_SNAPSHOT_MAX 8192u

/* stktrace(): the registers, the real return addresses the shadow stack
 * holds and the top of the stack go to tsrun, which unwinds them with the
 * modules' .eh_frame when it reads the record (as perf does for DWARF call
 * graphs): exact where frame pointers are missing, and nothing to decode
 * here. */
static void h_stack_trace(struct tscc_ctx *Ctx, uint32_t Depth) {
  if (!checked(Ctx))
    return;
  struct tscc_agent_thread *T = scope(Ctx)->thread;
  /* The innermost returns: unwinding the deepest frames needs no more. */
  uint32_t N = tscc_agent_depth(T);
  uint32_t Want = Depth > SHADOW_SNAPSHOT ? Depth : SHADOW_SNAPSHOT;
  if (Want > SHADOW_SNAPSHOT_MAX)
    Want = SHADOW_SNAPSHOT_MAX;
  if (N > Want)
    N = Want;
  uint32_t Max =
      (uint32_t)(sizeof(struct tscc_stack_snapshot) + 8 * N + STACK_SNAPSHOT);
  /* Built in the ring itself: a thread's stack (a signal handler's, say)
   * may be too small for a copy of this size. */
  uint8_t *Where = tscc_ring_reserve(store(), (uint32_t)T->slot, Max);
  if (!Where) {
    count_lost(Ctx);
    return;
  }
  struct tscc_stack_snapshot Snap;
  __builtin_memset(&Snap, 0, sizeof(Snap));
  Snap.depth = Depth;
  Snap.return_trampoline = AGENT_ADDR(&tscc_agent_return);
  __builtin_memcpy(Snap.regs, Ctx->regs, sizeof(Snap.regs));
  uint64_t *Shadow = (uint64_t *)(Where + sizeof(Snap));
  N = tscc_agent_returns(&tscc_agent_config, T, Shadow, N);
  Snap.shadow_count = N;
  /* As much of the stack as is there, page by page. */
  uint8_t *Stack = (uint8_t *)(Shadow + N);
  uint64_t Sp = Ctx->regs[TSCC_REG_RSP], Got = 0;
  agent_faults_deliverable(scope(Ctx)); /* the stack's end faults */
  while (Got < STACK_SNAPSHOT && plausible(Sp + Got, 1)) {
    uint64_t Chunk = 4096 - ((Sp + Got) & 4095);
    if (Chunk > STACK_SNAPSHOT - Got)
      Chunk = STACK_SNAPSHOT - Got;
    if (tscc_safe_copy(Stack + Got, AGENT_PTR(const void *, Sp + Got), Chunk))
      break;
    Got += Chunk;
  }
  /* Records are whole 8-byte words; a 32-bit stack pointer is only 4-byte
   * aligned, so the page-sized pieces may leave an odd word at the end. */
  Got &= ~(uint64_t)7;
  Snap.stack_size = (uint32_t)Got;
  __builtin_memcpy(Where, &Snap, sizeof(Snap));
  struct tscc_ring_record H = ring_header(Ctx, TSCC_RING_STACK_SNAPSHOT);
  tscc_ring_commit(store(), (uint32_t)T->slot, &H,
                   (uint32_t)(sizeof(Snap) + 8 * N + Got));
}

static void h_fault(struct tscc_ctx *Ctx, uint32_t Kind) {
  agent_counters_add(scope(Ctx)->thread, Ctx->clause, COUNT_FAULTS, 1);
  agent_fault_kind(scope(Ctx)->thread, Ctx->clause, Kind);
}

/* A stack as an aggregation key (stackid.c). 0, and a counted drop (the
 * update that uses it is dropped too), when it has no id. */
static uint64_t h_stack_id(struct tscc_ctx *Ctx, uint32_t Depth) {
  if (!checked(Ctx))
    return 0;
  int Lost = 0;
  struct tscc_ring_record H = ring_header(Ctx, TSCC_RING_STACK_NEW);
  agent_faults_deliverable(scope(Ctx)); /* the stack's end faults */
  uint64_t Id = agent_stack_id(scope(Ctx)->thread, Ctx->regs, Depth, &H, &Lost);
  /* The ring's dropped count says it; the update then counts the drop. */
  if (Lost)
    agent_counters_add(scope(Ctx)->thread, Ctx->clause, COUNT_LOST, 1);
  return Id;
}

/* The thread runs its clause itself: the kernel tells it its own name. */
static int64_t h_comm(struct tscc_ctx *Ctx, char *Dst, uint64_t Max) {
  char Name[16] = {0};
  if (!checked(Ctx) || !Max)
    return 0;
  if (!plausible(AGENT_ADDR(Dst), Max)) {
    count_fault(Ctx);
    return 0;
  }
  if (sys2(NR_prctl, 16 /* PR_GET_NAME */, Name) != 0)
    Name[0] = 0;
  uint64_t N = 0;
  while (N + 1 < Max && N < 15 && Name[N])
    ++N;
  /* Dst is the clause's own buffer; a bad one is a counted fault. */
  Name[N] = 0;
  if (tscc_safe_copy(Dst, Name, N + 1) != 0) {
    count_fault(Ctx);
    return 0;
  }
  return (int64_t)N;
}

/* Designated: in the i386 build each pointer is a member of a union that
 * gives it its 8-byte slot (abi.h, TSCC_PTR_SLOT); the slot's high half
 * stays zero. */
const struct tscc_helpers tscc_agent_helpers HIDDEN = {
    .abi_major = TSCC_ABI_MAJOR,
    .abi_minor = TSCC_ABI_MINOR,
    .size = sizeof(struct tscc_helpers),
    .reserved = 0,
    .read_mem = h_read_mem,
    .read_str = h_read_str,
    .emit = h_emit,
    .clock_ns = h_clock_ns,
    .map_lookup = h_map_lookup,
    .map_delete = h_map_delete,
    .agg_update = h_agg_update,
    .agg_print = h_agg_print,
    .agg_clear = h_agg_clear,
    .request_exit = h_request_exit,
    .within = h_within,
    .stack_trace = h_stack_trace,
    .fault = h_fault,
    .stack_id = h_stack_id,
    .comm = h_comm,
};
