/* A probe object written by hand in the shape tscc emits (see
 * test/unit/Runtime/fixtures/basic.c), so that the gdb-remote backend can be
 * tested end to end before and independently of the compiler. Each clause
 * has an ILP32 and an LP64 stream that differ exactly where the data models
 * do: where arguments live and how wide `long` and the return value are.
 *
 *   0  @@uft:*:a.out:foo:entry          printf("VAL foo.arg %ld\n", __arg1)
 *   1  @@uft:*:a.out:foo:exit           printf("VAL foo.rv %ld\n", __rv)
 *   2  @@uft:*:a.out:wide:exit          printf("VAL wide.rv %lld\n", __rv)
 *   3  @@uft:*:libc.so.6:malloc:entry when (__arg1 == 12345)
 *                                       printf("VAL malloc.arg %lu\n", __arg1)
 *   4  @@uft:*:a.out:rec:entry          printf("VAL rec.arg %ld\n", __arg1)
 *   5  @@uft:*:a.out:rec:exit           printf("VAL rec.rv %ld\n", __rv)
 *   6  @@uft:*:a.out:named:entry        printf("VAL named.str %s\n",
 *                                              get_userstring(__arg1))
 *   7  @@uft:*:a.out:foo:entry          printf("VAL pid %d\n", __pid) +
 *                                       printf("MODEL %d %s\n", __datamodel, __pname)
 *   8  @@syscall:*:getppid:exit         printf("VAL getppid.rv %ld\n", __rv)
 *   9  @@END                            printf("END\n")
 */
#include "tscc/abi.h"

#include <stddef.h>
#include <string.h>

#define SEC(n) __attribute__((section(n), used))

struct strtab_layout {
  char nul[1];
  char source[sizeof("fixture.t")];
  char compiler[sizeof("tscc remote fixture")];
  char s_foo_entry[sizeof("@@uft:*:a.out:foo:entry")];
  char s_foo_exit[sizeof("@@uft:*:a.out:foo:exit")];
  char s_wide_exit[sizeof("@@uft:*:a.out:wide:exit")];
  char s_malloc[sizeof("@@uft:*:libc.so.6:malloc:entry")];
  char s_rec_entry[sizeof("@@uft:*:a.out:rec:entry")];
  char s_rec_exit[sizeof("@@uft:*:a.out:rec:exit")];
  char s_named[sizeof("@@uft:*:a.out:named:entry")];
  char s_getppid[sizeof("@@syscall:*:getppid:exit")];
  char s_end[sizeof("@@END")];
  char aout[sizeof("a.out")];
  char libc[sizeof("libc.so.6")];
  char foo[sizeof("foo")];
  char wide[sizeof("wide")];
  char malloc_[sizeof("malloc")];
  char rec[sizeof("rec")];
  char named[sizeof("named")];
  char getppid[sizeof("getppid")];
  char star[sizeof("*")];
  char f0[sizeof("VAL foo.arg %ld\n")];
  char f1[sizeof("VAL foo.rv %ld\n")];
  char f2[sizeof("VAL wide.rv %lld\n")];
  char f3[sizeof("VAL malloc.arg %lu\n")];
  char f4[sizeof("VAL rec.arg %ld\n")];
  char f5[sizeof("VAL rec.rv %ld\n")];
  char f6[sizeof("VAL named.str %s\n")];
  char f7[sizeof("VAL pid %d\n")];
  char f8[sizeof("MODEL %d %s\n")];
  char f9[sizeof("VAL getppid.rv %ld\n")];
  char f10[sizeof("END\n")];
};
#define STR(f) ((uint32_t)offsetof(struct strtab_layout, f))

SEC("tscc_strtab") const struct strtab_layout strtab = {
    "", "fixture.t", "tscc remote fixture",
    "@@uft:*:a.out:foo:entry", "@@uft:*:a.out:foo:exit",
    "@@uft:*:a.out:wide:exit", "@@uft:*:libc.so.6:malloc:entry",
    "@@uft:*:a.out:rec:entry", "@@uft:*:a.out:rec:exit",
    "@@uft:*:a.out:named:entry", "@@syscall:*:getppid:exit", "@@END",
    "a.out", "libc.so.6", "foo", "wide", "malloc", "rec", "named", "getppid",
    "*",
    "VAL foo.arg %ld\n", "VAL foo.rv %ld\n", "VAL wide.rv %lld\n",
    "VAL malloc.arg %lu\n", "VAL rec.arg %ld\n", "VAL rec.rv %ld\n",
    "VAL named.str %s\n", "VAL pid %d\n", "MODEL %d %s\n",
    "VAL getppid.rv %ld\n", "END\n"};

#define NCLAUSES 10
SEC("tscc_header") const struct tscc_header header = {
    .magic = TSCC_MAGIC,
    .abi_major = TSCC_ABI_MAJOR,
    .abi_minor = TSCC_ABI_MINOR,
    .header_size = sizeof(struct tscc_header),
    .source_hash = 0x52454d4f5445ull,
    .source_name = STR(source),
    .compiler_version = STR(compiler),
    .clause_count = NCLAUSES,
    .probe_count = NCLAUSES,
    .format_count = 11,
    .field_count = 10,
    .strtab_size = sizeof(struct strtab_layout),
    .global_size = 8,
    .global_align = 8,
    .thread_size = {8, 8},
    .thread_align = 8,
};

#define NOCODE {TSCC_NO_CODE, 0, TSCC_NO_CODE, 0}
#define CL(i, flags) {i, flags, i, 1, i + 1, 1, {NOCODE, NOCODE}}
SEC("tscc_clauses") const struct tscc_clause clauses[NCLAUSES] = {
    CL(0, 0), CL(1, 0), CL(2, 0), CL(3, TSCC_CLAUSE_HAS_PREDICATE),
    CL(4, 0), CL(5, 0), CL(6, 0), CL(7, 0), CL(8, 0),
    CL(9, TSCC_CLAUSE_NO_PROCESS)};

#define UFT(kind, cl, spec, mod, fn)                                           \
  {kind, cl, STR(spec), TSCC_PID_ANY, 0, STR(mod), TSCC_MATCH_EXACT, STR(fn), \
   TSCC_MATCH_EXACT, 0}
SEC("tscc_probes") const struct tscc_probe probes[NCLAUSES] = {
    UFT(TSCC_PROBE_UFT_ENTRY, 0, s_foo_entry, aout, foo),
    UFT(TSCC_PROBE_UFT_EXIT, 1, s_foo_exit, aout, foo),
    UFT(TSCC_PROBE_UFT_EXIT, 2, s_wide_exit, aout, wide),
    UFT(TSCC_PROBE_UFT_ENTRY, 3, s_malloc, libc, malloc_),
    UFT(TSCC_PROBE_UFT_ENTRY, 4, s_rec_entry, aout, rec),
    UFT(TSCC_PROBE_UFT_EXIT, 5, s_rec_exit, aout, rec),
    UFT(TSCC_PROBE_UFT_ENTRY, 6, s_named, aout, named),
    UFT(TSCC_PROBE_UFT_ENTRY, 7, s_foo_entry, aout, foo),
    {TSCC_PROBE_SYSCALL_EXIT, 8, STR(s_getppid), TSCC_PID_ANY, 0, STR(star),
     TSCC_MATCH_ANY, STR(getppid), TSCC_MATCH_EXACT, 0},
    {TSCC_PROBE_END, 9, STR(s_end), TSCC_PID_ANY, 0, STR(star),
     TSCC_MATCH_ANY, STR(star), TSCC_MATCH_ANY, 0},
};

SEC("tscc_fields") const struct tscc_field fields[10] = {
    {TSCC_FIELD_S64, 8}, /* 0: %ld */
    {TSCC_FIELD_U64, 8}, /* 1: %lu */
    {TSCC_FIELD_STRING, 0}, /* 2: %s */
    {TSCC_FIELD_S64, 8}, {TSCC_FIELD_STRING, 0}, /* 3,4: MODEL */
    {TSCC_FIELD_S64, 8}, {TSCC_FIELD_S64, 8}, {TSCC_FIELD_S64, 8},
    {TSCC_FIELD_S64, 8}, {TSCC_FIELD_S64, 8},
};

SEC("tscc_formats") const struct tscc_format formats[11] = {
    {STR(f0), 0, 0, 1}, {STR(f1), 1, 0, 1}, {STR(f2), 2, 0, 1},
    {STR(f3), 3, 1, 1}, {STR(f4), 4, 0, 1}, {STR(f5), 5, 0, 1},
    {STR(f6), 6, 2, 1}, {STR(f7), 7, 0, 1}, {STR(f8), 7, 3, 2},
    {STR(f9), 8, 0, 1}, {STR(f10), 9, 0, 0},
};

/*--- Helpers ---------------------------------------------------------------*/

struct rec {
  struct tscc_record h;
  uint64_t words[40];
};

static void emit(struct tscc_ctx *ctx, struct rec *r, uint32_t fmt,
                 uint32_t words) {
  r->h.kind = TSCC_REC_PRINTF;
  r->h.flags = 0;
  r->h.size = sizeof(struct tscc_record) + words * 8;
  r->h.id = fmt;
  r->h.format = fmt;
  ctx->helpers->emit(ctx, r, r->h.size);
}

static void emit1(struct tscc_ctx *ctx, uint32_t fmt, uint64_t v) {
  struct rec r;
  r.words[0] = v;
  emit(ctx, &r, fmt, 1);
}

/* Strings: uint32 length, bytes, padded to 8. Returns words used. */
static uint32_t put_str(uint64_t *w, const char *s, uint32_t n) {
  uint8_t *b = (uint8_t *)w;
  for (uint32_t i = 0; i < 4; ++i)
    b[i] = (uint8_t)(n >> (8 * i));
  for (uint32_t i = 0; i < n; ++i)
    b[4 + i] = (uint8_t)s[i];
  return (4 + n + 7) / 8;
}

/* __argN: LP64 in registers, ILP32 on the stack above the return address. */
static uint64_t arg_lp64(struct tscc_ctx *ctx, int n) {
  static const int regs[] = {TSCC_REG_RDI, TSCC_REG_RSI, TSCC_REG_RDX};
  return ctx->regs[regs[n - 1]];
}
static int64_t arg_ilp32(struct tscc_ctx *ctx, int n) {
  int32_t v = 0;
  ctx->helpers->read_mem(ctx, (ctx->regs[TSCC_REG_RSP] & 0xffffffffu) + 4 * n,
                         &v, 4);
  return v;
}

static void named(struct tscc_ctx *ctx, uint64_t p) {
  char buf[128];
  int64_t n = ctx->helpers->read_str(ctx, p, buf, sizeof(buf));
  struct rec r;
  emit(ctx, &r, 6, put_str(r.words, buf, n < 0 ? 0 : (uint32_t)n));
}

static void model(struct tscc_ctx *ctx) {
  struct rec r;
  emit1(ctx, 7, (uint64_t)ctx->pid);
  r.words[0] = ctx->data_model == TSCC_DM_ILP32 ? 32 : 64;
  uint32_t n = 0;
  while (ctx->pname[n] && n < 60)
    ++n;
  emit(ctx, &r, 8, 1 + put_str(&r.words[1], ctx->pname, n));
}

/*--- LP64 stream -----------------------------------------------------------*/

SEC("tscc_text_lp64") void clause0_action_lp64(struct tscc_ctx *c) {
  emit1(c, 0, arg_lp64(c, 1));
}
SEC("tscc_text_lp64") void clause1_action_lp64(struct tscc_ctx *c) {
  emit1(c, 1, c->regs[TSCC_REG_RAX]);
}
SEC("tscc_text_lp64") void clause2_action_lp64(struct tscc_ctx *c) {
  emit1(c, 2, c->regs[TSCC_REG_RAX]);
}
SEC("tscc_text_lp64") int32_t clause3_pred_lp64(struct tscc_ctx *c) {
  return arg_lp64(c, 1) == 12345;
}
SEC("tscc_text_lp64") void clause3_action_lp64(struct tscc_ctx *c) {
  emit1(c, 3, arg_lp64(c, 1));
}
SEC("tscc_text_lp64") void clause4_action_lp64(struct tscc_ctx *c) {
  emit1(c, 4, arg_lp64(c, 1));
}
SEC("tscc_text_lp64") void clause5_action_lp64(struct tscc_ctx *c) {
  emit1(c, 5, c->regs[TSCC_REG_RAX]);
}
SEC("tscc_text_lp64") void clause6_action_lp64(struct tscc_ctx *c) {
  named(c, arg_lp64(c, 1));
}
SEC("tscc_text_lp64") void clause7_action_lp64(struct tscc_ctx *c) {
  model(c);
}
SEC("tscc_text_lp64") void clause8_action_lp64(struct tscc_ctx *c) {
  emit1(c, 9, c->regs[TSCC_REG_RAX]);
}
SEC("tscc_text_lp64") void clause9_action_lp64(struct tscc_ctx *c) {
  struct rec r;
  emit(c, &r, 10, 0);
}

/*--- ILP32 stream ----------------------------------------------------------*/

SEC("tscc_text_ilp32") void clause0_action_ilp32(struct tscc_ctx *c) {
  emit1(c, 0, (uint64_t)arg_ilp32(c, 1));
}
SEC("tscc_text_ilp32") void clause1_action_ilp32(struct tscc_ctx *c) {
  emit1(c, 1, (uint64_t)(int64_t)(int32_t)c->regs[TSCC_REG_RAX]);
}
SEC("tscc_text_ilp32") void clause2_action_ilp32(struct tscc_ctx *c) {
  /* long long: edx:eax */
  emit1(c, 2, (c->regs[TSCC_REG_RDX] & 0xffffffffu) << 32 |
                  (c->regs[TSCC_REG_RAX] & 0xffffffffu));
}
SEC("tscc_text_ilp32") int32_t clause3_pred_ilp32(struct tscc_ctx *c) {
  return (uint32_t)arg_ilp32(c, 1) == 12345;
}
SEC("tscc_text_ilp32") void clause3_action_ilp32(struct tscc_ctx *c) {
  emit1(c, 3, (uint32_t)arg_ilp32(c, 1));
}
SEC("tscc_text_ilp32") void clause4_action_ilp32(struct tscc_ctx *c) {
  emit1(c, 4, (uint64_t)arg_ilp32(c, 1));
}
SEC("tscc_text_ilp32") void clause5_action_ilp32(struct tscc_ctx *c) {
  emit1(c, 5, (uint64_t)(int64_t)(int32_t)c->regs[TSCC_REG_RAX]);
}
SEC("tscc_text_ilp32") void clause6_action_ilp32(struct tscc_ctx *c) {
  named(c, (uint32_t)arg_ilp32(c, 1));
}
SEC("tscc_text_ilp32") void clause7_action_ilp32(struct tscc_ctx *c) {
  model(c);
}
SEC("tscc_text_ilp32") void clause8_action_ilp32(struct tscc_ctx *c) {
  emit1(c, 9, (uint64_t)(int64_t)(int32_t)c->regs[TSCC_REG_RAX]);
}
SEC("tscc_text_ilp32") void clause9_action_ilp32(struct tscc_ctx *c) {
  struct rec r;
  emit(c, &r, 10, 0);
}
