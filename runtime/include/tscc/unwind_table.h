/*===- tscc/unwind_table.h - Unwind rules for a walker without DWARF -----===*
 *
 * A module's .eh_frame, compiled by tsrun (runtime/lib/Unwind/
 * CompactTable.cpp) into sorted address ranges, each with one rule for the
 * caller's frame: the CFA (sp or fp plus an offset, or loaded from fp plus
 * an offset, as frames that realign their stack have it), the return
 * address at CFA + an offset, and where the caller's fp is. That is every
 * rule GCC emits for x86-64 and i386 code at the places a thread can be
 * unwound from; a range whose rules it cannot express says so, and a
 * walker falls back to the frame-pointer chain there, as tsrun's own
 * unwinder does (tscc/Runtime/Unwinder.h).
 *
 * The walker (runtime/lib/InProcess/Agent/unwind.c) is freestanding C, so
 * that the in-process agent can walk a thread's stack itself, reading
 * memory through a fault-proof copy. Given the same memory, it returns what
 * tsrun's unwinder returns.
 *
 * One layout in every data model: tsrun writes the tables, the x86-64 or
 * i386 agent reads them.
 *===----------------------------------------------------------------------===*/
#ifndef TSCC_UNWIND_TABLE_H
#define TSCC_UNWIND_TABLE_H

#include "tscc/abi.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TSCC_UNWIND_TABLE_MAGIC 0x31574e55u /* "UNW1" */

/* How a range finds its caller (tscc_unwind_row.kind). */
enum {
  /* No rules (between functions, or rules this format cannot express):
   * the frame-pointer chain. */
  TSCC_UNW_NONE = 0,
  TSCC_UNW_CFA_SP = 1,       /* CFA = sp + cfa_off */
  TSCC_UNW_CFA_FP = 2,       /* CFA = fp + cfa_off */
  TSCC_UNW_CFA_SP_DEREF = 3, /* CFA = [sp + cfa_off] */
  TSCC_UNW_CFA_FP_DEREF = 4, /* CFA = [fp + cfa_off] */
  /* The return address is undefined: the outermost frame (_start). */
  TSCC_UNW_OUTERMOST = 5,
  /* No rules, and a function symbol starts here: in the innermost frame
   * the return address is at [sp] (the frame is not set up yet). */
  TSCC_UNW_ENTRY = 6,
};

/* Where the caller's fp is (tscc_unwind_row.fp_rule). */
enum {
  TSCC_UNW_FP_SAME = 0,   /* unchanged (also: rules not followed) */
  TSCC_UNW_FP_AT_CFA = 1, /* [CFA + fp_off] */
  TSCC_UNW_FP_AT_SP = 2,  /* [sp + fp_off] */
  TSCC_UNW_FP_AT_FP = 3,  /* [fp + fp_off] */
};

/* The rule for [start, the next row's start), in link-time addresses
 * minus the table's base. */
struct tscc_unwind_row {
  uint32_t start;
  int32_t cfa_off;
  int32_t ra_off; /* the return address is at CFA + ra_off */
  int32_t fp_off;
  uint8_t kind;    /* TSCC_UNW_* */
  uint8_t fp_rule; /* TSCC_UNW_FP_* */
  uint16_t reserved;
};

/* One module's table: a header, then count rows sorted by start. The last
 * row ends the module's code (TSCC_UNW_NONE up to the end of the address
 * space). */
struct tscc_unwind_table {
  uint32_t magic;
  uint32_t count;
  uint64_t base; /* link-time address that row starts are relative to */
};

/* A module of the process, as the walker sees it: its run-time range and
 * the link-time to run-time offset of its table's addresses. */
struct tscc_unwind_module {
  uint64_t lo, hi; /* run-time [lo, hi) */
  uint64_t bias;   /* run-time = link-time + bias */
  uint64_t table;  /* address of its struct tscc_unwind_table, 0: none */
};

/* What tsrun maps into a process whose clauses key aggregations by stack
 * (read-only there): a header, then module_count modules sorted by lo,
 * then agg_count words, one per aggregation: up to four 16-bit key
 * offsets + 1 of stack ids, lowest first, 0 for none (the agent drops an
 * update whose stack id is 0: none could be had). The tables the modules point
 * to are in mappings of their own, written once per module. tsrun writes a new
 * image when the process's modules change and then points the agent at
 * it (tscc_agent_config.unwind). */
#define TSCC_UNWIND_IMAGE_MAGIC 0x31474d49u /* "IMG1" */
struct tscc_unwind_image {
  uint32_t magic;
  uint32_t module_count;
  uint32_t max_depth; /* tsrun's --max-stack-depth */
  uint32_t agg_count;
};

/* Stack ids the agent hands out (tscc_agent_config.stack_ids, writable,
 * private to the process): base + index, index from 1. base has
 * TSCC_STACK_ID_AGENT set, so that the ids never meet tsrun's own (small
 * numbers), and is new for every table tsrun makes. Each distinct stack
 * goes to tsrun once, in a TSCC_RING_STACK_NEW record with its program
 * counters; tsrun symbolises it then (the process is there) and maps the
 * id to its own id of the symbolised stack, which is what aggregations
 * print and merge by. entries: capacity slots (a power of two) of
 * (hash of the stack, id), open addressing, hash 0 = free. */
#define TSCC_STACK_ID_AGENT (1ull << 63)
#define TSCC_STACK_ID_INDEX_BITS 24
/* A fork child finds its parent's table (owner is not its pid) and keeps
 * the ids in it, which stand for the same stacks, but numbers new ones
 * from a base of its own: TSCC_STACK_ID_CHILD, its tsrun number
 * (target_id, 28 bits) and the count of such tables made in its shard
 * (tscc_shard_header.stack_tables, 10 bits). tsrun's bases have the bit
 * clear. */
#define TSCC_STACK_ID_CHILD (1ull << 62)
struct tscc_stack_ids {
  uint64_t base;
  uint32_t capacity;
  uint32_t used; /* the agent's: indexes handed out */
  int32_t owner; /* the process the ids are numbered for */
  uint32_t reserved;
};
struct tscc_stack_id_entry {
  uint64_t hash;
  uint64_t id;
};

/* Why a walk ended: TSCC_STACK_END_* (tscc/abi.h). */

/* What a walk needs of the process. read: a pointer-sized word at addr
 * (zero-extended from 4 bytes in 32-bit processes), 0 if it cannot be read.
 * real_return: for a return address hijacked by an exit probe, the real
 * one (each call consumes one, innermost first); null: the address itself. */
struct tscc_unwind_source {
  int (*read)(void *ctx, uint64_t addr, uint64_t *word);
  uint64_t (*real_return)(void *ctx, uint64_t pc);
  void *ctx;
  const struct tscc_unwind_module *modules; /* sorted by lo */
  uint32_t module_count;
  uint32_t ptr_size; /* 8 or 4 */
};

/* Walks the stack of a thread stopped at pc with stack pointer sp and frame
 * pointer fp, innermost first, at most max frames into pcs. Returns the
 * number of frames, and in *end why there are no more (TSCC_STACK_END_*;
 * DEPTH_LIMIT only when a further frame exists). */
uint32_t tscc_unwind_walk(const struct tscc_unwind_source *src, uint64_t pc,
                          uint64_t sp, uint64_t fp, uint64_t *pcs, uint32_t max,
                          uint32_t *end);

#ifdef __cplusplus
}
#endif

TSCC_STATIC_ASSERT(sizeof(struct tscc_unwind_row) == 20, "row layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_unwind_table) == 16, "table layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_unwind_module) == 32, "module layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_unwind_image) == 16, "image layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_stack_ids) == 24, "ids layout");

#endif /* TSCC_UNWIND_TABLE_H */
