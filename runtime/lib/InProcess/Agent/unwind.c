/*===- unwind.c - Walking a stack with compiled unwind tables -------------===*
 *
 * The walk of tsrun's unwinder (runtime/lib/Unwind/Unwinder.cpp), step for
 * step, over the tables tsrun compiles from each module's .eh_frame
 * (tscc/unwind_table.h) instead of the .eh_frame itself: the caller of a
 * frame by its range's rule, else (no rule) the frame-pointer chain, or, at
 * a function's first instruction, the return address at [sp]. How the walk
 * ends is classified the same way. Every read goes through the source's
 * read(), which in a target is a fault-proof copy: a bad frame ends the
 * walk as unreadable, it never faults.
 *
 * Freestanding C (no libc): built into the in-process agent and, for its
 * tests, into tsrun's unit tests.
 *===----------------------------------------------------------------------===*/
#include "tscc/unwind_table.h"

#include "tscc/abi.h"

struct frame {
  uint64_t pc, sp, fp;
};

/* One step: 0 and *caller, or why there is no caller (TSCC_STACK_END_*),
 * plus 1. */
typedef uint32_t step_result;
#define STEP_OK 0u
#define STEP_END(E) ((uint32_t)(E) + 1u)

static uint64_t mask(const struct tscc_unwind_source *S, uint64_t V) {
  return S->ptr_size == 8 ? V : (V & 0xffffffffull);
}

static int read_word(const struct tscc_unwind_source *S, uint64_t Addr,
                     uint64_t *Word) {
  *Word = 0;
  if (!S->read || !S->read(S->ctx, mask(S, Addr), Word))
    return 0;
  *Word = mask(S, *Word);
  return 1;
}

static const struct tscc_unwind_module *
module_at(const struct tscc_unwind_source *S, uint64_t Addr) {
  uint32_t Lo = 0, Hi = S->module_count;
  while (Lo < Hi) { /* the first module with lo > Addr */
    uint32_t Mid = Lo + (Hi - Lo) / 2;
    if (S->modules[Mid].lo <= Addr)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  if (!Lo)
    return 0;
  const struct tscc_unwind_module *M = &S->modules[Lo - 1];
  return Addr < M->hi && M->table ? M : 0;
}

/* The row of M's table for run-time Addr, or null (none: no rules). */
static const struct tscc_unwind_row *row_at(const struct tscc_unwind_module *M,
                                            uint64_t Addr) {
  const struct tscc_unwind_table *T =
      (const struct tscc_unwind_table *)(uintptr_t)M->table;
  const struct tscc_unwind_row *Rows = (const struct tscc_unwind_row *)(T + 1);
  uint64_t Link = Addr - M->bias;
  if (T->magic != TSCC_UNWIND_TABLE_MAGIC || Link < T->base ||
      Link - T->base > 0xffffffffull)
    return 0;
  uint32_t Off = (uint32_t)(Link - T->base), Lo = 0, Hi = T->count;
  while (Lo < Hi) { /* the first row with start > Off */
    uint32_t Mid = Lo + (Hi - Lo) / 2;
    if (Rows[Mid].start <= Off)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return Lo ? &Rows[Lo - 1] : 0;
}

static step_result by_rules(const struct tscc_unwind_source *S,
                            const struct tscc_unwind_row *R,
                            const struct frame *F, struct frame *C) {
  int FromFp = R->kind == TSCC_UNW_CFA_FP || R->kind == TSCC_UNW_CFA_FP_DEREF;
  uint64_t Cfa = mask(S, (FromFp ? F->fp : F->sp) + (int64_t)R->cfa_off);
  if ((R->kind == TSCC_UNW_CFA_SP_DEREF || R->kind == TSCC_UNW_CFA_FP_DEREF) &&
      !read_word(S, Cfa, &Cfa))
    return STEP_END(TSCC_STACK_END_UNREADABLE);
  C->fp = F->fp;
  if (!read_word(S, Cfa + (int64_t)R->ra_off, &C->pc))
    return STEP_END(TSCC_STACK_END_UNREADABLE);
  int FpOk = 1;
  if (R->fp_rule == TSCC_UNW_FP_AT_CFA)
    FpOk = read_word(S, Cfa + (int64_t)R->fp_off, &C->fp);
  else if (R->fp_rule == TSCC_UNW_FP_AT_SP)
    FpOk = read_word(S, F->sp + (int64_t)R->fp_off, &C->fp);
  else if (R->fp_rule == TSCC_UNW_FP_AT_FP)
    FpOk = read_word(S, F->fp + (int64_t)R->fp_off, &C->fp);
  if (!FpOk)
    return STEP_END(TSCC_STACK_END_UNREADABLE);
  /* The caller's frame lies above its callee's: anything else is a loop
   * or a smashed stack. */
  if (Cfa <= F->sp)
    return STEP_END(TSCC_STACK_END_CORRUPT);
  C->sp = Cfa;
  return STEP_OK;
}

/* At a function's first instruction: the caller is at [sp], fp is still
 * the caller's. */
static step_result by_entry(const struct tscc_unwind_source *S,
                            const struct frame *F, struct frame *C) {
  if (!read_word(S, F->sp, &C->pc))
    return STEP_END(TSCC_STACK_END_UNREADABLE);
  C->sp = mask(S, F->sp + S->ptr_size);
  C->fp = F->fp;
  return STEP_OK;
}

static step_result by_frame_pointer(const struct tscc_unwind_source *S,
                                    const struct frame *F, struct frame *C) {
  if (!F->fp)
    return STEP_END(TSCC_STACK_END_COMPLETE);
  if (F->fp < F->sp)
    return STEP_END(TSCC_STACK_END_NO_UNWIND_INFO);
  if (!read_word(S, F->fp, &C->fp) ||
      !read_word(S, F->fp + S->ptr_size, &C->pc))
    return STEP_END(TSCC_STACK_END_UNREADABLE);
  C->sp = mask(S, F->fp + 2 * (uint64_t)S->ptr_size);
  return STEP_OK;
}

/* The caller of F. Innermost: F->pc is where the thread stopped, not a
 * return address (which points after its call). */
static step_result step(const struct tscc_unwind_source *S,
                        const struct frame *F, int Innermost, struct frame *C) {
  uint64_t Lookup = Innermost ? F->pc : F->pc - 1;
  const struct tscc_unwind_module *M = module_at(S, Lookup);
  const struct tscc_unwind_row *R = M ? row_at(M, Lookup) : 0;
  if (R) {
    switch (R->kind) {
    case TSCC_UNW_CFA_SP:
    case TSCC_UNW_CFA_FP:
    case TSCC_UNW_CFA_SP_DEREF:
    case TSCC_UNW_CFA_FP_DEREF:
      return by_rules(S, R, F, C);
    case TSCC_UNW_OUTERMOST:
      return STEP_END(TSCC_STACK_END_COMPLETE);
    case TSCC_UNW_ENTRY:
      if (Innermost)
        return by_entry(S, F, C);
      break;
    default:
      break;
    }
  }
  return by_frame_pointer(S, F, C);
}

uint32_t tscc_unwind_walk(const struct tscc_unwind_source *S, uint64_t Pc,
                          uint64_t Sp, uint64_t Fp, uint64_t *Pcs, uint32_t Max,
                          uint32_t *End) {
  uint32_t N = 0;
  *End = TSCC_STACK_END_COMPLETE;
  if (!Max)
    return 0;
  struct frame F = {mask(S, Pc), mask(S, Sp), mask(S, Fp)};
  for (int Innermost = 1; F.pc; Innermost = 0) {
    /* Return addresses hijacked by exit probes point at a trampoline. */
    if (S->real_return)
      F.pc = S->real_return(S->ctx, F.pc);
    Pcs[N++] = F.pc;
    struct frame C = {0, 0, 0};
    step_result R = step(S, &F, Innermost, &C);
    if (R != STEP_OK) {
      *End = R - 1;
      break;
    }
    F = C;
    /* A return address of 0 ends the chain as well as any rule does. */
    if (F.pc && N >= Max) {
      *End = TSCC_STACK_END_DEPTH_LIMIT;
      break;
    }
  }
  return N;
}
