/*===- stackid.c - A stack as an aggregation key, in the process ---------===*
 *
 * `@[stktrace()] = count()` in a clause that runs in the process: the
 * agent walks the firing thread's stack itself (unwind.c, over the tables
 * tsrun compiled from the modules' .eh_frame and mapped here), hashes the
 * program counters, and looks the hash up in the process's table of stack
 * ids (tscc/unwind_table.h). A stack seen for the first time gets the next
 * id and goes to tsrun once, in a TSCC_RING_STACK_NEW record with its
 * program counters, in order with the thread's records; tsrun symbolises
 * it while the process is there and maps the id to its own id of the
 * symbolised stack. The key holds the agent's id.
 *
 * Every read of the stack is a fault-proof copy: a bad frame ends the
 * walk (unreadable), it never faults. The walk is bounded by the depth
 * (tsrun's --max-stack-depth, or less as the clause asks), and is built
 * in the thread's ring, where the record goes if the stack is new: a
 * signal handler's stack may be too small for 1024 program counters.
 *===----------------------------------------------------------------------===*/
#include "agent.h"
#include "table.h"

#include "tscc/unwind_table.h"

/* How many hijacked returns the walk can put back: those of the innermost
 * frames, at most this many (the rest stay the trampoline's address). */
#define STACK_SHADOW_MAX 1024u

struct walk_state {
  const uint64_t *shadow; /* real returns, innermost last */
  uint32_t left;
  uint64_t trampoline;
};

static int read_word(void *Ctx, uint64_t Addr, uint64_t *Word) {
  (void)Ctx;
  uintptr_t W = 0;
  if (Addr < 4096 || Addr >= AGENT_USER_END - sizeof(W) ||
      tscc_safe_copy(&W, AGENT_PTR(const void *, Addr), sizeof(W)))
    return 0;
  *Word = (uint64_t)W;
  return 1;
}

static uint64_t real_return(void *Ctx, uint64_t Pc) {
  struct walk_state *W = (struct walk_state *)Ctx;
  if (Pc != W->trampoline || !W->left)
    return Pc;
  return W->shadow[--W->left];
}

static uint64_t hash_stack(const uint64_t *Pcs, uint32_t N, uint32_t End) {
  uint64_t H = 0x9e3779b97f4a7c15ull ^ ((uint64_t)N << 32 | End);
  for (uint32_t I = 0; I < N; ++I) {
    H ^= Pcs[I];
    H *= 0xff51afd7ed558ccdull;
    H ^= H >> 32;
  }
  return H ? H : 1;
}

/* The id of Hash, or a new one (*Fresh) put in the table if MayAdd; 0
 * when there is none. */
static uint64_t id_of(struct tscc_stack_ids *Ids, uint64_t Hash, int MayAdd,
                      int *Fresh) {
  struct tscc_stack_id_entry *E = (struct tscc_stack_id_entry *)(Ids + 1);
  uint32_t Mask = Ids->capacity - 1;
  *Fresh = 0;
  for (uint32_t I = 0, At = (uint32_t)Hash & Mask; I <= Mask;
       ++I, At = (At + 1) & Mask) {
    if (E[At].hash == Hash && E[At].id)
      return E[At].id;
    if (E[At].hash)
      continue;
    /* Three quarters full at most, and never past the index bits. */
    if (!MayAdd || Ids->used >= Ids->capacity - Ids->capacity / 4 ||
        Ids->used + 1 >= (1u << TSCC_STACK_ID_INDEX_BITS))
      return 0;
    E[At].hash = Hash;
    E[At].id = Ids->base + ++Ids->used;
    *Fresh = 1;
    return E[At].id;
  }
  return 0;
}

/* In a fork child that armed itself, or one tsrun set up with its
 * parent's memory: new ids from a base of its own (0 when none can be
 * had). */
static int own_ids(struct tscc_stack_ids *Ids) {
  struct tscc_agent_config *C = &tscc_agent_config;
  if (Ids->owner == (int32_t)C->pid)
    return 1;
  uint32_t K = __atomic_add_fetch(&tscc_shard_hdr(&C->store)->stack_tables, 1,
                                  __ATOMIC_RELAXED);
  if (K >= 1024)
    return 0;
  Ids->base = TSCC_STACK_ID_AGENT | TSCC_STACK_ID_CHILD |
              ((uint64_t)(C->target_id & 0xfffffff) << 34) |
              ((uint64_t)K << TSCC_STACK_ID_INDEX_BITS);
  Ids->owner = (int32_t)C->pid;
  return 1;
}

/* The walk of thread T's stack from Regs into Pcs (at most Max). */
static uint32_t walk(struct tscc_agent_thread *T, const uint64_t *Regs,
                     const struct tscc_unwind_image *Img, uint64_t *Pcs,
                     uint32_t Max, uint64_t *Shadow, uint32_t Hijacked,
                     uint32_t *End) {
  struct walk_state W;
  W.shadow = Shadow;
  W.left = tscc_agent_returns(&tscc_agent_config, T, Shadow, Hijacked);
  W.trampoline = AGENT_ADDR(&tscc_agent_return);
  /* An exit clause runs while the frame it returns from is still on the
   * shadow stack, its return address already the PC: that entry stands
   * for no slot of the stack (tsrun's unwindSnapshot does the same). */
  if (W.left && Shadow[W.left - 1] == Regs[TSCC_REG_RIP])
    --W.left;
  struct tscc_unwind_source S;
  S.read = read_word;
  S.real_return = real_return;
  S.ctx = &W;
  S.modules = (const struct tscc_unwind_module *)(Img + 1);
  S.module_count = Img->module_count;
  S.ptr_size = sizeof(uintptr_t);
  return tscc_unwind_walk(&S, Regs[TSCC_REG_RIP], Regs[TSCC_REG_RSP],
                          Regs[TSCC_REG_RBP], Pcs, Max, End);
}

uint64_t agent_stack_id(struct tscc_agent_thread *T, const uint64_t *Regs,
                        uint32_t Depth, struct tscc_ring_record *Hdr,
                        int *Lost) {
  struct tscc_agent_config *C = &tscc_agent_config;
  const struct tscc_unwind_image *Img =
      AGENT_PTR(const struct tscc_unwind_image *,
                __atomic_load_n(&C->unwind, __ATOMIC_ACQUIRE));
  struct tscc_stack_ids *Ids = AGENT_PTR(struct tscc_stack_ids *, C->stack_ids);
  *Lost = 0;
  /* No registers: the hit did not build them (an object that does not
   * say its clause reads them, tsrun's Agent.cpp makes up for that). */
  if (!Img || !Ids || !Regs[TSCC_REG_RIP] ||
      Img->magic != TSCC_UNWIND_IMAGE_MAGIC || !Ids->capacity)
    return 0;
  uint32_t Max = Img->max_depth;
  uint32_t Limit = Depth && Depth < Max ? Depth : Max;
  /* The record, the program counters and the shadow returns, in the
   * ring; only a new stack's record is committed. */
  uint32_t Slot = (uint32_t)T->slot;
  uint32_t Hijacked = tscc_agent_depth(T);
  if (Hijacked > STACK_SHADOW_MAX)
    Hijacked = STACK_SHADOW_MAX;
  uint32_t Head = 16, Room = Head + 8 * (Limit + Hijacked);
  uint8_t *Where = tscc_ring_reserve(&C->store, Slot, Room);
  if (!Where) {
    *Lost = 1;
    return 0;
  }
  uint64_t *Pcs = (uint64_t *)(Where + Head);
  uint32_t End = TSCC_STACK_END_COMPLETE;
  uint32_t N = walk(T, Regs, Img, Pcs, Limit, Pcs + Limit, Hijacked, &End);
  /* A depth the clause asked for is no truncation (SessionState::
   * asRequested). */
  if (End == TSCC_STACK_END_DEPTH_LIMIT && Limit == Depth)
    End = TSCC_STACK_END_COMPLETE;
  int Fresh = 0;
  uint64_t Id = id_of(Ids, hash_stack(Pcs, N, End), own_ids(Ids), &Fresh);
  if (!Id) {
    agent_notice(TSCC_NOTICE_STACK_IDS);
    return 0;
  }
  if (Fresh) {
    __builtin_memcpy(Where, &Id, 8);
    __builtin_memcpy(Where + 8, &N, 4);
    __builtin_memcpy(Where + 12, &End, 4);
    Hdr->type = TSCC_RING_STACK_NEW;
    tscc_ring_commit(&C->store, Slot, Hdr, Head + 8 * N);
  }
  return Id;
}

int agent_stack_key_known(uint32_t Agg, const void *Key, uint32_t KeySize) {
  const struct tscc_unwind_image *Img =
      AGENT_PTR(const struct tscc_unwind_image *,
                __atomic_load_n(&tscc_agent_config.unwind, __ATOMIC_ACQUIRE));
  if (!Img || Img->magic != TSCC_UNWIND_IMAGE_MAGIC || Agg >= Img->agg_count)
    return 1;
  const uint64_t *Words =
      (const uint64_t *)((const uint8_t *)(Img + 1) +
                         Img->module_count * sizeof(struct tscc_unwind_module));
  /* Up to four key offsets + 1 of stack ids, 16 bits each. */
  for (uint64_t W = Words[Agg]; W; W >>= 16) {
    uint32_t Off = (uint32_t)(W & 0xffff) - 1;
    uint64_t Id;
    if (Off + 8 > KeySize)
      continue;
    __builtin_memcpy(&Id, (const uint8_t *)Key + Off, 8);
    if (!Id)
      return 0;
  }
  return 1;
}
