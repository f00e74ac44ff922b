/*===- tscc/abi.h - The object contract between codegen and runtime --------===*
 *
 * This is the one header shared by the compiler (codegen) and the runtime
 * (libtsrt, tsrun, tsreport). It describes:
 *   - the sections of a compiled probe object and the tables inside them;
 *   - the context a clause function receives when a probe fires;
 *   - the helper table through which clause code reaches the runtime;
 *   - the records clause code emits (printf, trace, ...).
 *
 * It is plain C so that it can also be included by C test fixtures and by an
 * in-process agent later. Every table is little-endian, naturally aligned and
 * made only of fixed-width integers: no pointers, so the tables need no
 * relocations and mean the same thing to a loader and to a system linker.
 *
 * docs/object-format.md is the user-facing description of the same format.
 *===----------------------------------------------------------------------===*/
#ifndef TSCC_ABI_H
#define TSCC_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tscc_ctx;

/* Every pointer of the context and of the helper table takes 8 bytes in
 * every code stream, so that the structures have one layout whatever the
 * instruction set of the code that reads them: a 32-bit stream (i386 code
 * running in a 32-bit process's agent) uses the low half of each slot,
 * and the high half is zero. Codegen takes the offsets from this header as
 * compiled for the compiler's host; the i386 agent compiles it with the
 * slots below, and the assertions at the end check the two agree. */
#if defined(__i386__)
#define TSCC_PTR_SLOT(Name, ...)                                               \
  union {                                                                      \
    __VA_ARGS__;                                                               \
    uint64_t tscc_slot_##Name;                                                 \
  }
#else
#define TSCC_PTR_SLOT(Name, ...) __VA_ARGS__
#endif

/*--- Versioning ----------------------------------------------------------*/

/* The first 8 bytes of the tscc_header section. */
#define TSCC_MAGIC "\177TSCCOBJ"
#define TSCC_MAGIC_SIZE 8

/* A runtime accepts an object whose major version equals its own and whose
 * minor version is any value: minor bumps only append fields or enum values
 * that an older runtime may ignore. */
#define TSCC_ABI_MAJOR 1
#define TSCC_ABI_MINOR 6

/*--- Sections ------------------------------------------------------------*/

/* Section names are C identifiers so that, when the object is linked into an
 * executable by the system linker, the runtime finds each one through the
 * linker-provided __start_<name> / __stop_<name> symbols. */
#define TSCC_SEC_HEADER "tscc_header"   /* struct tscc_header               */
#define TSCC_SEC_CLAUSES "tscc_clauses" /* struct tscc_clause[clause_count] */
#define TSCC_SEC_PROBES "tscc_probes"   /* struct tscc_probe[probe_count]   */
#define TSCC_SEC_FORMATS "tscc_formats" /* struct tscc_format[format_count] */
#define TSCC_SEC_FIELDS "tscc_fields"   /* struct tscc_field[field_count]   */
#define TSCC_SEC_MAPS "tscc_maps"       /* struct tscc_map[map_count]       */
#define TSCC_SEC_AGGS "tscc_aggs"       /* struct tscc_agg[agg_count]       */
#define TSCC_SEC_WITHIN "tscc_within"   /* uint32_t strtab offsets          */
#define TSCC_SEC_STRTAB "tscc_strtab"   /* NUL-terminated strings; [0]==0   */
/* The two code regions of the patent: every clause's ILP32 predicate and
 * action live in the first, its LP64 predicate and action in the second. */
#define TSCC_SEC_TEXT_ILP32 "tscc_text_ilp32"
#define TSCC_SEC_TEXT_LP64 "tscc_text_lp64"

/* ABI 1.6: code streams for instruction sets other than the tracer's, for
 * clause code that runs inside traced processes (the in-process agent of a
 * 32-bit process runs i386 code). A runtime older than 1.6 ignores them;
 * an object older than 1.6 has none, and its clauses then run in the tracer
 * for those processes. See struct tscc_stream below. */
#define TSCC_SEC_STREAMS "tscc_streams"             /* the table below */
#define TSCC_SEC_STREAM_IMAGES "tscc_stream_images" /* their ELF images */

/*--- Data models ---------------------------------------------------------*/

enum tscc_data_model {
  TSCC_DM_ILP32 = 0, /* 32-bit processes (i386) */
  TSCC_DM_LP64 = 1,  /* 64-bit processes (x86-64) */
  TSCC_DM_COUNT = 2
};

/*--- Header --------------------------------------------------------------*/

struct tscc_header {
  char magic[TSCC_MAGIC_SIZE];
  uint16_t abi_major;
  uint16_t abi_minor;
  uint32_t header_size;      /* sizeof(struct tscc_header) when written */
  uint64_t source_hash;      /* FNV-1a 64 of the script's bytes */
  uint32_t source_name;      /* strtab: script file name as given */
  uint32_t compiler_version; /* strtab: "tscc X.Y.Z (LLVM 19.x)" */
  uint32_t clause_count;
  uint32_t probe_count;
  uint32_t format_count;
  uint32_t field_count;
  uint32_t map_count;
  uint32_t agg_count;
  uint32_t within_count;
  uint32_t strtab_size;
  /* Global variables: one block for the whole session, always laid out with
   * LP64 widths (LANGUAGE.md section 2), zero-filled by the runtime before
   * BEGIN and then initialised by the BEGIN-time initialiser, if any. */
  uint32_t global_size;
  uint32_t global_align;
  /* Thread-local variables: one block per traced thread, laid out per data
   * model because `long`/pointer thread-locals follow the firing process.
   * The block starts with a bitmap of "written" bits, one per variable. */
  uint32_t thread_size[TSCC_DM_COUNT];
  uint32_t thread_align;
  uint32_t param_count; /* highest $N the script uses */
  uint32_t flags;       /* TSCC_HDR_* */
  uint32_t reserved[4];
};

enum tscc_header_flags {
  TSCC_HDR_USES_STACK = 1u << 0, /* some clause calls stktrace() */
  TSCC_HDR_USES_EXIT = 1u << 1,  /* some clause calls exit() */
};

/*--- Clause table --------------------------------------------------------*/

#define TSCC_NO_CODE 0xffffffffu

/* Where one clause's code lives in one data model's code region.
 * Offsets are from the start of that model's text section. A clause without
 * a predicate has pred_offset == TSCC_NO_CODE and pred_size == 0. */
struct tscc_stream_entry {
  uint32_t pred_offset;
  uint32_t pred_size;
  uint32_t action_offset;
  uint32_t action_size;
};

struct tscc_clause {
  uint32_t id;          /* index in the clause table */
  uint32_t flags;       /* TSCC_CLAUSE_* */
  uint32_t probe_first; /* index of the first of its probes */
  uint32_t probe_count;
  uint32_t source_line; /* 1-based line of the clause in the script */
  uint32_t source_column;
  struct tscc_stream_entry
      stream[TSCC_DM_COUNT]; /* [TSCC_DM_ILP32], [TSCC_DM_LP64] */
};

enum tscc_clause_flags {
  TSCC_CLAUSE_HAS_PREDICATE = 1u << 0,
  /* The clause reads the thread-local block; the runtime must provide one. */
  TSCC_CLAUSE_USES_THREAD = 1u << 1,
  /* BEGIN/END/interval: runs without a process; only the LP64 stream is
   * meaningful and the ILP32 entry mirrors it. */
  TSCC_CLAUSE_NO_PROCESS = 1u << 2,
  /* ABI 1.1: the clause's code calls stack_trace / agg_print, which the
   * runtime serves best from the tracer (unwinding with the modules'
   * .eh_frame; printing an aggregation at that very point). Objects of
   * minor version 0 never set them, so they say nothing there. */
  TSCC_CLAUSE_CALLS_STACK_TRACE = 1u << 3,
  TSCC_CLAUSE_CALLS_AGG_PRINT = 1u << 4,
  /* ABI 1.4: the clause keys an aggregation by a stack (stack_id), which
   * only the tracer can resolve: it runs where tsrun unwinds at the hit. */
  TSCC_CLAUSE_CALLS_STACK_ID = 1u << 5,
  /* The clause touches no state it shares with other threads: no script
   * global, no associative array (thread-local ones included), no
   * aggregation and no record (records are ordered across threads by a
   * number taken under the lock); only its own thread's variables and
   * target memory. The in-process runtime runs it without the session
   * lock.
   * A hint whose absence is the safe default: objects that never set it
   * (any before it existed) have every clause serialised, so it needs no
   * ABI minor of its own. */
  TSCC_CLAUSE_THREAD_OWN = 1u << 6,
  /* As TSCC_CLAUSE_THREAD_OWN, but the clause also updates aggregations
   * (count(), sum(), hist()...; not print() or clear(), which stay
   * shared), which a runtime may keep per thread and merge when they are
   * read. A flag of its own, not THREAD_OWN: a runtime that knows only
   * that one would update the shared table without the lock. The same
   * safe default when absent, so no ABI minor either. */
  TSCC_CLAUSE_THREAD_OWN_AGGS = 1u << 7,
  /* The clause's code reads of struct tscc_ctx only helpers, runtime,
   * globals, thread, data_model, clause and probe, and the groups of
   * fields below whose bits are set: a runtime may leave the others
   * unset (the in-process agent does, so that a hit builds only what its
   * clause reads). The helpers a clause calls read no more than that,
   * but for stack_trace, which reads regs (codegen sets CTX_REGS for it).
   * A hint whose absence is the safe default (a runtime builds the whole
   * context), so it needs no ABI minor. */
  TSCC_CLAUSE_CTX_LISTED = 1u << 8,
  TSCC_CLAUSE_CTX_REGS = 1u << 9,     /* regs[] */
  TSCC_CLAUSE_CTX_IDS = 1u << 10,     /* pid, tid, ppid, uid */
  TSCC_CLAUSE_CTX_NAMES = 1u << 11,   /* pname, func, module, probe_spec */
  TSCC_CLAUSE_CTX_PARAMS = 1u << 12,  /* params, param_strings, param_count */
  TSCC_CLAUSE_CTX_SYSCALL = 1u << 13, /* err, syscall_nr */
  TSCC_CLAUSE_CTX_USDT = 1u << 14,    /* usdt_args, usdt_arg_count */
  /* The clause's code (and the code it calls but the helpers) uses no
   * vector or floating-point register: a runtime that runs it inside a
   * program need not save the program's xmm registers around it. Codegen sets
   * it for clauses without floating-point or vector values and compiles them
   * with noimplicitfloat, so that no copy or zeroing uses SSE either. A hint
   * whose absence is the safe default (every register saved), so it
   * needs no ABI minor. */
  TSCC_CLAUSE_GENERAL_REGS_ONLY = 1u << 15,
};

/* ABI 1.6, section tscc_streams: a struct tscc_stream_table, `count` rows
 * of `row_size` bytes (struct tscc_stream; later versions may append
 * fields), then the rows' entries. Each row is one further code stream: the
 * clauses of one data model compiled for one instruction set, as a complete
 * ELF relocatable object (ET_REL of e_machine `machine`, class `elf_class`)
 * stored in tscc_stream_images, and one tscc_stream_entry per clause whose
 * offsets are from the start of that object's section named like the data
 * model's text section (tscc_text_ilp32 for ILP32). Its code receives the
 * same struct tscc_ctx and helper table (one layout in every stream, see
 * TSCC_PTR_SLOT), called with that instruction set's C calling convention.
 * Adding an instruction set (armhf, aarch64) is adding a row. */
struct tscc_stream_table {
  uint32_t count;    /* rows */
  uint32_t row_size; /* sizeof(struct tscc_stream) when written */
};

struct tscc_stream {
  uint16_t machine;      /* ELF e_machine of the code: EM_386 = 3 */
  uint8_t data_model;    /* tscc_data_model whose semantics it computes */
  uint8_t elf_class;     /* ELFCLASS32 = 1 or ELFCLASS64 = 2 */
  uint32_t clause_count; /* entries; equals the header's clause_count */
  uint64_t image_offset; /* in tscc_stream_images */
  uint64_t image_size;
  uint64_t entries_offset; /* in tscc_streams: the clauses' entries */
};

/* Predicate: returns nonzero when the action should run. */
typedef int32_t (*tscc_predicate_fn)(struct tscc_ctx *ctx);
/* Action: the clause body. */
typedef void (*tscc_action_fn)(struct tscc_ctx *ctx);

/*--- Probe table ---------------------------------------------------------*/

enum tscc_probe_kind {
  TSCC_PROBE_BEGIN = 1,
  TSCC_PROBE_END = 2,
  TSCC_PROBE_UFT_ENTRY = 3,
  TSCC_PROBE_UFT_EXIT = 4,
  TSCC_PROBE_UFT_OFFSET = 5, /* FUNC+OFFSET: one instruction in a function */
  TSCC_PROBE_SYSCALL_ENTRY = 6,
  TSCC_PROBE_SYSCALL_EXIT = 7,
  TSCC_PROBE_INTERVAL = 8,
  /* ABI 1.3: a SystemTap SDT probe (`.note.stapsdt`). module/function are
   * MODULE and NAME; the PROVIDER pattern is in `offset` (see below). */
  TSCC_PROBE_USDT = 9,
};

/* A USDT probe's `offset`: the PROVIDER's strtab offset in the low 32 bits,
 * its tscc_match_kind in the high 32 bits. */
#define TSCC_USDT_PROVIDER(offset) ((uint32_t)((offset) & 0xffffffffu))
#define TSCC_USDT_PROVIDER_MATCH(offset) ((uint32_t)((offset) >> 32))
#define TSCC_USDT_MAKE_OFFSET(provider, match)                                 \
  (((uint64_t)(match) << 32) | (uint64_t)(provider))

/* sys/sdt.h allows at most 12 arguments per probe. */
#define TSCC_USDT_MAX_ARGS 12

enum tscc_pid_kind {
  TSCC_PID_ANY = 0,    /* `*` */
  TSCC_PID_NUMBER = 1, /* pid_value is the pid */
  TSCC_PID_PARAM = 2,  /* pid_value is N of $N */
};

enum tscc_match_kind {
  TSCC_MATCH_ANY = 0, /* `*` */
  TSCC_MATCH_EXACT = 1,
  TSCC_MATCH_GLOB = 2,  /* fnmatch(3) pattern */
  TSCC_MATCH_REGEX = 3, /* POSIX extended regex, slashes removed */
};

struct tscc_probe {
  uint32_t kind;     /* tscc_probe_kind */
  uint32_t clause;   /* owning clause */
  uint32_t spec;     /* strtab: the probe spec text as written */
  uint32_t pid_kind; /* tscc_pid_kind */
  uint64_t pid_value;
  uint32_t module;       /* strtab: "*", "a.out", a soname, file name or path */
  uint32_t module_match; /* tscc_match_kind */
  uint32_t function;     /* strtab: function / syscall name, glob or regex */
  uint32_t function_match; /* tscc_match_kind */
  uint64_t offset;         /* UFT_OFFSET: byte offset; INTERVAL: period in ms;
                              USDT: the provider (TSCC_USDT_PROVIDER) */
};

/*--- Format table (printf / trace) ----------------------------------------*/

/* How one argument of a record is encoded and how the consumer prints it. */
enum tscc_field_kind {
  TSCC_FIELD_S64 = 1,    /* 8 bytes, signed */
  TSCC_FIELD_U64 = 2,    /* 8 bytes, unsigned */
  TSCC_FIELD_PTR = 3,    /* 8 bytes, an address in the target */
  TSCC_FIELD_CHAR = 4,   /* 8 bytes, the low byte is a character */
  TSCC_FIELD_DOUBLE = 5, /* 8 bytes, IEEE double */
  TSCC_FIELD_STRING = 6, /* size bytes, NUL-padded (fixed-size keys) or, in
                            records, a uint32 length then the bytes, padded
                            to 8 */
  TSCC_FIELD_STACK = 7,  /* uint32 count, uint32 end (tscc_stack_end),
                            count x uint64 PCs */
  /* ABI 1.4, keys only: 8 bytes, an id the runtime's stack_id() returned
   * for a call stack; the runtime prints the stack it stands for. */
  TSCC_FIELD_STACK_ID = 8,
};

/* Why a stack (TSCC_FIELD_STACK) ends. The word was padding, always 0,
 * before tsrun said so; 0 still means a whole stack. Only the runtime
 * writes stack values (stktrace() records), so objects are unaffected. */
enum tscc_stack_end {
  TSCC_STACK_END_COMPLETE = 0,       /* the outermost frame, or as deep as
                                        the clause asked */
  TSCC_STACK_END_DEPTH_LIMIT = 1,    /* tsrun's --max-stack-depth; more
                                        frames follow */
  TSCC_STACK_END_NO_UNWIND_INFO = 2, /* a frame with neither .eh_frame
                                        rules nor a frame pointer */
  TSCC_STACK_END_UNREADABLE = 3,     /* stack memory could not be read */
  TSCC_STACK_END_CORRUPT = 4,        /* a caller's frame not above its
                                        callee's (a loop, a smashed stack) */
};

struct tscc_field {
  uint32_t kind; /* tscc_field_kind */
  uint32_t size; /* bytes in a fixed-size key; 8 for scalars */
};

struct tscc_format {
  uint32_t text;        /* strtab: the printf format, or "" for trace() */
  uint32_t clause;      /* clause that emits it */
  uint32_t field_first; /* index into tscc_fields of the first argument */
  uint32_t field_count;
};

/*--- Associative arrays and aggregations -----------------------------------*/

enum tscc_map_flags {
  TSCC_MAP_THREAD = 1u << 0, /* `__thread`: one map per traced thread */
};

/* Since ABI 1.3, bits 8..15 of tscc_map.flags hold the number of keys minus
 * one; their descriptions are tscc_fields[key_field ...], in order, and the
 * serialised key is their concatenation. Older objects leave the bits 0:
 * one key. */
#define TSCC_MAP_KEY_COUNT_SHIFT 8
#define TSCC_MAP_KEY_COUNT_MASK (0xffu << TSCC_MAP_KEY_COUNT_SHIFT)
static inline uint32_t tscc_map_key_count(uint32_t flags) {
  return ((flags & TSCC_MAP_KEY_COUNT_MASK) >> TSCC_MAP_KEY_COUNT_SHIFT) + 1;
}
static inline uint32_t tscc_map_key_count_flags(uint32_t count) {
  return count ? ((count - 1) << TSCC_MAP_KEY_COUNT_SHIFT) &
                     TSCC_MAP_KEY_COUNT_MASK
               : 0;
}

struct tscc_map {
  uint32_t name;       /* strtab */
  uint32_t flags;      /* tscc_map_flags */
  uint32_t key_size;   /* bytes of the serialised key */
  uint32_t value_size; /* bytes of the value slot (zeroed when created) */
  uint32_t key_field;  /* tscc_fields index of the key's description */
  uint32_t value_kind; /* tscc_field_kind of the value */
};

enum tscc_agg_kind {
  TSCC_AGG_COUNT = 1,
  TSCC_AGG_SUM = 2,
  TSCC_AGG_MIN = 3,
  TSCC_AGG_MAX = 4,
  TSCC_AGG_AVG = 5,
  TSCC_AGG_STATS = 6, /* count, sum, min, max, avg */
  TSCC_AGG_HIST = 7,  /* power-of-two buckets */
  TSCC_AGG_LHIST = 8, /* linear buckets [lo, hi) of width step */
};

struct tscc_agg {
  uint32_t name;            /* strtab, without the leading '@' */
  uint32_t kind;            /* tscc_agg_kind */
  uint32_t key_size;        /* bytes of the serialised key (0: no key) */
  uint32_t key_field_first; /* tscc_fields of the keys, in order */
  uint32_t key_field_count;
  uint32_t reserved;
  int64_t lhist_lo;
  int64_t lhist_hi;
  int64_t lhist_step;
};

/*--- Records emitted by clause code ----------------------------------------*/

enum tscc_record_kind {
  TSCC_REC_PRINTF = 1, /* id = format index; args follow */
  TSCC_REC_TRACE = 2,  /* id = hook id; format = format index of its args */
  TSCC_REC_STACK = 3,  /* emitted by the runtime for stktrace(); id = depth */
};

/* Every record starts with this header. The argument area follows, encoded
 * as the format's fields describe. The runtime adds the pid, tid, data model
 * and time when the record is accepted, so clause code does not pay for it. */
struct tscc_record {
  uint16_t kind; /* tscc_record_kind */
  uint16_t flags;
  uint32_t size; /* bytes, header included, multiple of 8 */
  uint32_t id;
  uint32_t format; /* tscc_formats index (PRINTF: == id) */
};

/*--- The context a clause receives ------------------------------------------*/

/* Register snapshot indices. For i386 targets the 32-bit registers occupy the
 * low halves of the matching slots (eax in RAX, esp in RSP, ...). */
enum tscc_reg {
  TSCC_REG_RAX,
  TSCC_REG_RBX,
  TSCC_REG_RCX,
  TSCC_REG_RDX,
  TSCC_REG_RSI,
  TSCC_REG_RDI,
  TSCC_REG_RBP,
  TSCC_REG_RSP,
  TSCC_REG_R8,
  TSCC_REG_R9,
  TSCC_REG_R10,
  TSCC_REG_R11,
  TSCC_REG_R12,
  TSCC_REG_R13,
  TSCC_REG_R14,
  TSCC_REG_R15,
  TSCC_REG_RIP,
  TSCC_REG_EFLAGS,
  TSCC_REG_ORIG_RAX,
  TSCC_REG_COUNT
};

struct tscc_helpers;

struct tscc_ctx {
  TSCC_PTR_SLOT(helpers, const struct tscc_helpers *helpers);
  TSCC_PTR_SLOT(runtime, void *runtime);    /* opaque to clause code */
  TSCC_PTR_SLOT(globals, uint8_t *globals); /* the session's global block */
  TSCC_PTR_SLOT(thread, uint8_t *thread); /* the firing thread's block, or 0 */
  uint64_t regs[TSCC_REG_COUNT];
  int64_t pid;
  int64_t tid;
  int64_t ppid;
  int64_t uid;
  uint32_t data_model; /* tscc_data_model of the firing process */
  uint32_t clause;     /* index of the running clause */
  uint32_t probe;      /* index of the probe that fired */
  int32_t err;         /* __errno at a syscall exit, else 0 */
  uint64_t syscall_nr; /* syscall probes */
  TSCC_PTR_SLOT(pname, const char *pname);           /* __pname */
  TSCC_PTR_SLOT(func, const char *func);             /* __func */
  TSCC_PTR_SLOT(module, const char *module);         /* __module */
  TSCC_PTR_SLOT(probe_spec, const char *probe_spec); /* __probe */
  TSCC_PTR_SLOT(params, const int64_t *params);      /* $1..$N as integers */
  /* $1..$N as given: an array of 8-byte slots like this one's (in a 32-bit
   * stream a pointer in the low half of each). */
  TSCC_PTR_SLOT(param_strings, const char *const *param_strings);
  uint32_t param_count;
  uint32_t reserved;
  /* ABI 1.3, USDT probes: the probe's arguments as its note describes them
   * (register, constant or memory), evaluated by the runtime at the hit and
   * sign- or zero-extended to 64 bits by their size; unused ones are 0.
   * Only clauses of USDT probes read them, and a runtime older than 1.3
   * never runs those (it does not know the probe kind). */
  uint64_t usdt_args[TSCC_USDT_MAX_ARGS];
  uint32_t usdt_arg_count;
  uint32_t reserved2;
};

/*--- Helpers: the only way clause code reaches the runtime ------------------*/

struct tscc_helpers {
  uint32_t abi_major;
  uint32_t abi_minor;
  uint32_t size; /* sizeof(struct tscc_helpers) of the runtime */
  uint32_t reserved;

  /* Copies len bytes of target memory at addr. On a fault dst is zero-filled,
   * a fault is counted for ctx->clause and nonzero is returned. */
  TSCC_PTR_SLOT(read_mem,
                int32_t (*read_mem)(struct tscc_ctx *ctx, uint64_t addr,
                                    void *dst, uint64_t len));
  /* Copies a NUL-terminated string of at most max-1 bytes plus the NUL.
   * Returns its length; on a fault dst is "" (fault counted) and -1 returned.
   */
  TSCC_PTR_SLOT(read_str,
                int64_t (*read_str)(struct tscc_ctx *ctx, uint64_t addr,
                                    char *dst, uint64_t max));
  /* Accepts one record (struct tscc_record + arguments). */
  TSCC_PTR_SLOT(emit, void (*emit)(struct tscc_ctx *ctx, const void *record,
                                   uint32_t size));
  /* Monotonic clock in nanoseconds. */
  TSCC_PTR_SLOT(clock_ns, uint64_t (*clock_ns)(struct tscc_ctx *ctx));
  /* Associative arrays. Returns the value slot for key, creating a zeroed one
   * if create is nonzero; 0 when absent and !create, or when full (a drop is
   * counted). */
  TSCC_PTR_SLOT(map_lookup,
                void *(*map_lookup)(struct tscc_ctx *ctx, uint32_t map,
                                    const void *key, uint32_t key_size,
                                    int32_t create));
  TSCC_PTR_SLOT(map_delete,
                void (*map_delete)(struct tscc_ctx *ctx, uint32_t map,
                                   const void *key, uint32_t key_size));
  /* Aggregations: folds value into @agg[key]. */
  TSCC_PTR_SLOT(agg_update,
                void (*agg_update)(struct tscc_ctx *ctx, uint32_t agg,
                                   const void *key, uint32_t key_size,
                                   int64_t value));
  TSCC_PTR_SLOT(agg_print, void (*agg_print)(struct tscc_ctx *ctx, uint32_t agg,
                                             int64_t top));
  TSCC_PTR_SLOT(agg_clear,
                void (*agg_clear)(struct tscc_ctx *ctx, uint32_t agg));
  /* exit(): ends the session after this clause; END clauses still run. */
  TSCC_PTR_SLOT(request_exit, void (*request_exit)(struct tscc_ctx *ctx));
  /* within("f"): nonzero while the firing thread is inside f. index is the
   * position of "f" in the tscc_within table. */
  TSCC_PTR_SLOT(within,
                int32_t (*within)(struct tscc_ctx *ctx, uint32_t index));
  /* stktrace(depth): emits a TSCC_REC_STACK record for the firing thread. */
  TSCC_PTR_SLOT(stack_trace,
                void (*stack_trace)(struct tscc_ctx *ctx, uint32_t depth));
  /* Since ABI 1.2 (clause code checks `size` before calling it): counts a
   * fault of kind (enum tscc_fault_kind) for ctx->clause. */
  TSCC_PTR_SLOT(fault, void (*fault)(struct tscc_ctx *ctx, uint32_t kind));
  /* Since ABI 1.4 (clause code checks `size` before calling it): the
   * firing thread's call stack, at most depth frames (0: the runtime's
   * default), as a nonzero id that is equal for equal stacks for the whole
   * session; 0 when the stack cannot be had. For TSCC_FIELD_STACK_ID keys. */
  TSCC_PTR_SLOT(stack_id,
                uint64_t (*stack_id)(struct tscc_ctx *ctx, uint32_t depth));
  /* Since ABI 1.5 (clause code checks `size` before calling it): copies the
   * firing thread's name as the kernel keeps it (comm, what prctl(PR_GET_NAME)
   * returns: at most 15 bytes) and a NUL into dst, at most max bytes in all.
   * Returns its length. For __comm. */
  TSCC_PTR_SLOT(comm,
                int64_t (*comm)(struct tscc_ctx *ctx, char *dst, uint64_t max));
};

/* What fault() reports; the runtime names each kind a clause had at the end
 * of the session. */
enum tscc_fault_kind {
  TSCC_FAULT_DIV_ZERO = 1, /* an integer division or remainder by zero */
};

/* One layout in every stream (see TSCC_PTR_SLOT): what codegen assumes of
 * the context and the helper table, checked wherever this header is
 * compiled, the 32-bit agent included. */
#ifdef __cplusplus
#define TSCC_STATIC_ASSERT(C, M) static_assert(C, M)
#else
#define TSCC_STATIC_ASSERT(C, M) _Static_assert(C, M)
#endif
TSCC_STATIC_ASSERT(sizeof(struct tscc_ctx) == 400, "tscc_ctx layout");
TSCC_STATIC_ASSERT(__builtin_offsetof(struct tscc_ctx, regs) == 32,
                   "tscc_ctx layout");
TSCC_STATIC_ASSERT(__builtin_offsetof(struct tscc_ctx, pname) == 240,
                   "tscc_ctx layout");
TSCC_STATIC_ASSERT(__builtin_offsetof(struct tscc_ctx, param_count) == 288,
                   "tscc_ctx layout");
TSCC_STATIC_ASSERT(__builtin_offsetof(struct tscc_ctx, usdt_args) == 296,
                   "tscc_ctx layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_helpers) == 136, "tscc_helpers layout");
TSCC_STATIC_ASSERT(__builtin_offsetof(struct tscc_helpers, stack_id) == 120,
                   "tscc_helpers layout");
TSCC_STATIC_ASSERT(__builtin_offsetof(struct tscc_helpers, comm) == 128,
                   "tscc_helpers layout");

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TSCC_ABI_H */
