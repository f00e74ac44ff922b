/*===- tscc/agent.h - What tsrun tells the in-process agent ---------------===*
 *
 * The agent is a small freestanding object (runtime/lib/InProcess/Agent/)
 * that tsrun relocates into a native 64-bit target together with the probe
 * object's code. Probe sites jump to per-site trampolines, which call the
 * agent, which runs the LP64 stream of the clauses in the target itself. This
 * header is the contract: the structures tsrun fills in inside the target,
 * and the agent's symbols tsrun looks up.
 *
 * Everything here describes the target's address space: "addresses" are
 * uint64_t so that the structs mean the same in tsrun and in the agent,
 * whether the agent is the x86-64 one or the i386 one of 32-bit processes:
 * every structure tsrun writes has one layout in both (checked at the end).
 *===----------------------------------------------------------------------===*/
#ifndef TSCC_AGENT_H
#define TSCC_AGENT_H

#include "tscc/store.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TSCC_AGENT_VERSION 10

/* Symbols of the agent object: its configuration (struct tscc_agent_config),
 * the per-process page (struct tscc_agent_proc), the function trampolines
 * call, the target of hijacked returns, the SA_SIGINFO handler and the
 * rt_sigreturn restorer. */
#define TSCC_AGENT_SYM_CONFIG "tscc_agent_config"
#define TSCC_AGENT_SYM_PROC "tscc_agent_proc_page"
#define TSCC_AGENT_SYM_ENTER "tscc_agent_enter"
#define TSCC_AGENT_SYM_RETURN "tscc_agent_return"
#define TSCC_AGENT_SYM_SIGNAL "tscc_agent_signal"
#define TSCC_AGENT_SYM_RESTORER "tscc_agent_restorer"
/* What system-call sites call (x86-64 agent only; see below). */
#define TSCC_AGENT_SYM_ENTER_SYSCALL "tscc_agent_enter_syscall"
#define TSCC_AGENT_SYM_TRAP "tscc_agent_trap"
#define TSCC_AGENT_SYM_SIGSYS "tscc_agent_sigsys"
/* The safe copies of memory a clause reads (entry.S), and where a fault in
 * them resumes: tsrun completes such a fault itself where the kernel did
 * not let the agent's handler take it (a thread that blocks the signal). */
#define TSCC_AGENT_SYM_SAFE_BEGIN "tscc_safe_begin"
#define TSCC_AGENT_SYM_SAFE_END "tscc_safe_end"
#define TSCC_AGENT_SYM_SAFE_FAULT "tscc_safe_fault"

/*--- Probe sites -----------------------------------------------------------*/

enum tscc_hook_kind {
  TSCC_HOOK_ENTRY = 1,  /* run the probe's clause now */
  TSCC_HOOK_EXIT = 2,   /* run it when the function returns */
  TSCC_HOOK_WITHIN = 3, /* within(): inside the function until it returns */
  /* At a system-call site, for the call whose number is in bits 8-31 of
   * the kind: run the probe's clause before the call / after it. */
  TSCC_HOOK_SYSCALL_ENTRY = 4,
  TSCC_HOOK_SYSCALL_EXIT = 5,
  /* Not a probe: the entry of one of libc's exec functions in a process
   * tsrun has let go of (--detach). The thread asks tsrun for a window
   * and waits until it is traced, so that tsrun sees the exec and sets the
   * new image up before it runs (Agent/follow.c). */
  TSCC_HOOK_EXEC_GATE = 6,
  /* Not a probe: the entry of libc's __libc_sigaction, where every
   * sigaction() and signal() of the program meets. For a signal whose
   * handler the agent keeps in front (SIGSEGV, SIGBUS, SIGFPE, and SIGTRAP
   * once trap sites need it), the agent does the call's work on its chained
   * disposition and leaves the kernel's alone, so that the program sees
   * and sets only its own (Agent/signal.c). First at its site. */
  TSCC_HOOK_SIGNAL_GATE = 7,
  /* Not a probe: the entry of libc's pthread_sigmask (sigprocmask() calls
   * it). Once the agent's SIGTRAP handler is in, the agent keeps SIGTRAP
   * out of what threads block, so that a trap site never meets a thread
   * that blocks it (Agent/signal.c). First at its site. */
  TSCC_HOOK_SIGMASK_GATE = 8,
  /* Not a probe: the loader's debugger hook (_dl_debug_state, r_brk), a
   * trap site, in a process tsrun has let go of. At a consistent link map
   * (loader_state reads 0, RT_CONSISTENT) the thread asks tsrun for a
   * window (TSCC_WINDOW_LINK_MAP) and waits while tsrun installs the
   * probes of the libraries that came (dlopen) or forgets those that went
   * (dlclose), before the loader runs their initialisers (Agent/follow.c). */
  TSCC_HOOK_LOADER_GATE = 9,
};
#define TSCC_HOOK_SYSCALL(Kind, Nr) ((uint32_t)(Kind) | ((uint32_t)(Nr) << 8))
#define TSCC_HOOK_KIND(K) ((K) & 0xffu)
#define TSCC_HOOK_NR(K) ((K) >> 8)

/* One argument of a USDT probe, as its note describes it (SIZE@OPERAND),
 * for the agent to evaluate at the hit from the saved registers. */
enum tscc_usdt_operand {
  TSCC_USDT_CONSTANT = 0, /* value */
  TSCC_USDT_REGISTER = 1, /* the register reg (its bits 8-15 if high_byte),
                             with high_reg's low half above it if set */
  TSCC_USDT_MEMORY = 2,   /* size bytes at value + reg + index * scale */
};
struct tscc_agent_usdt_arg {
  int64_t value;   /* the constant; a memory operand's displacement, with the
                      module's load bias already added to a symbol's */
  int8_t size;     /* bytes; negative: sign-extended */
  uint8_t kind;    /* tscc_usdt_operand */
  int8_t reg;      /* tscc_reg, or -1 */
  int8_t index;    /* tscc_reg, or -1 */
  int8_t high_reg; /* tscc_reg, or -1 */
  uint8_t scale;
  uint8_t high_byte;
  uint8_t reserved;
};

struct tscc_agent_hook {
  uint32_t kind;   /* tscc_hook_kind */
  uint32_t index;  /* probe index, or within() index */
  uint64_t func;   /* address of the NUL-terminated __func */
  uint64_t module; /* address of the NUL-terminated __module */
  /* A USDT probe's arguments: struct tscc_agent_usdt_arg[usdt_count]. */
  uint64_t usdt;
  uint32_t usdt_count;
  uint32_t reserved;
};

/* A trampoline starts with its site; the code follows at
 * TSCC_TRAMPOLINE_CODE, and the return address of its call into the agent
 * is TSCC_TRAMPOLINE_CALL_END bytes into the code:
 *
 *   lea -128(%rsp), %rsp       skip the red zone
 *   call *enter(%rip)          enter is the site's `enter` field
 *   lea 128(%rsp), %rsp
 *   <the displaced instructions, relocated>
 *   jmp <site + displaced bytes>
 */
struct tscc_agent_site {
  uint64_t address; /* the probed instruction */
  uint64_t enter;   /* tscc_agent_enter, for the call above */
  uint64_t hooks;   /* struct tscc_agent_hook[hook_count] */
  uint32_t hook_count;
  uint32_t length;      /* bytes the jump displaced */
  uint8_t original[24]; /* those bytes, for putting them back */
  /* A trap site (TSCC_SITE_TRAP): an int3 at the site instead of the
   * jump. The agent's SIGTRAP handler sends a thread that runs into it to
   * the code above, as the jump would have; length and original are the
   * one instruction the copy runs. */
  uint32_t kind;
  uint32_t reserved;
};
#define TSCC_SITE_JUMP 0u
#define TSCC_SITE_TRAP 1u

#define TSCC_TRAMPOLINE_CODE 64
#define TSCC_TRAMPOLINE_CALL_END 11
/* Where the relocated displaced instructions start in a trampoline: after
 * the lea, the call and the lea back. */
#define TSCC_TRAMPOLINE_COPY (TSCC_TRAMPOLINE_CODE + 19)

/* A system-call site is a `syscall` instruction of the program (x86-64).
 * Its trampoline has the same header, with enter being
 * tscc_agent_enter_syscall, and this code:
 *
 *   C+0:  lea -128(%rsp), %rsp       skip the red zone
 *   C+5:  push %rax                  the slot: the number
 *   C+6:  call *enter(%rip)          entry clauses (rax: the number)
 *   C+12: call *gadget(%rip)         `syscall; ret` at the gadget address
 *   C+18: call *enter(%rip)          exit clauses (rax: the result)
 *   C+24: lea 136(%rsp), %rsp        drop the number and the red zone
 *   C+32: jmp <copy + 2>
 *   C+37: lea -128(%rsp), %rsp       the same for a call without exit
 *   C+42: push %rax                  clauses: no exit call
 *   C+43: call *enter(%rip)
 *   C+49: cs call *gadget(%rip)      (0x2e: tells this entry apart)
 *   C+56: lea 136(%rsp), %rsp
 *   C+64: jmp <copy + 2>
 *   C+69: <the displaced instructions before the syscall, relocated>: the
 *         site's jump lands here
 *         cmp $nr, %eax; je C+0      once per traced number (je C+37 for
 *         ...                        one without exit clauses)
 *   copy: syscall                    the untraced call, as the site made it
 *         <the displaced instructions after it, relocated>
 *         jmp <site + displaced bytes>
 *   gadget: .quad the gadget's address
 *
 * So the agent tells entry from exit by the byte at the return address
 * (0xff or 0x2e, the gadget's call, after an entry call), and finds the slot
 * just above its return address: the number in its low half, and in its high
 * half TSCC_SYSCALL_SLOT_COLLECTED when the entry was collected (only then
 * do the exit clauses run: no half calls). */
#define TSCC_SYSCALL_SLOT_COLLECTED (1ull << 32)
/* A system-call site's jump may start before its syscall (`mov $nr, %eax;
 * syscall; ret` has no 5 bytes after it): the syscall's offset from the
 * site's address is in the last byte of `original` (length is less). */
#define TSCC_SYSCALL_SITE_OFFSET                                               \
  (sizeof(((struct tscc_agent_site *)0)->original) - 1)
#define TSCC_SYSCALL_TRAMPOLINE_ENTRY_END 12
#define TSCC_SYSCALL_TRAMPOLINE_EXIT_END 24
#define TSCC_SYSCALL_TRAMPOLINE_ENTRY_ONLY 37
#define TSCC_SYSCALL_TRAMPOLINE_ENTRY_ONLY_END 49
#define TSCC_SYSCALL_TRAMPOLINE_LANDING 69

/* In a 32-bit process (no red zone) the code is just
 *
 *   call *enter                the site's `enter`, an absolute address
 *   <the displaced instructions, relocated>
 *   jmp <site + displaced bytes>
 */
#define TSCC_TRAMPOLINE_CALL_END_I386 6
#define TSCC_TRAMPOLINE_COPY_I386 (TSCC_TRAMPOLINE_CODE + 6)

/* What tscc_agent_enter saves, lowest address first; the original rsp is
 * just above ret + 128 bytes of red zone (x86-64; just above ret in i386).
 * Hijacked returns save the same, with ret being where the real return
 * address goes. Private to each agent build. */
#if defined(__i386__)
struct tscc_agent_frame {
  uint32_t edi, esi, ebp, ebx, edx, ecx, eax;
  uint32_t eflags;
  uint32_t ret;
};
#else
struct tscc_agent_frame {
  uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
  uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
  uint64_t rflags;
  uint64_t ret;
};
#endif

/*--- Threads and their shadow stacks ---------------------------------------*/

/* The agent finds the firing thread in a table of its private memory
 * (struct tscc_agent_thread[thread_capacity], open addressing) by a key
 * made of the thread's fs base, which it reads without a system call. A
 * thread's entry is taken on its first hit and holds its shadow stack of
 * hijacked return addresses. tsrun marks it dead when the thread ends (at
 * its PTRACE_EVENT_EXIT stop, before the thread's stack and TCB can be
 * reused); dead entries, and entries of processes that no longer use this
 * memory, are taken again by new threads.
 *
 * Key words: */
#define TSCC_AGENT_KEY_EMPTY 0ull /* never used: a search ends here */
#define TSCC_AGENT_KEY_FREE 1ull  /* freed: a search goes on past it */
#define TSCC_AGENT_KEY_BUSY 2ull  /* being set up by the thread taking it */
#define TSCC_AGENT_KEY_LIVE 4ull  /* low bits of a thread's key */
/* Or'ed into a live key (one byte: tsrun writes it from outside while the
 * process runs) when the thread has ended. */
#define TSCC_AGENT_KEY_DEAD 1ull
/* An entry is at most this many places after its home position. */
#define TSCC_AGENT_THREAD_PROBES 64u

static inline uint64_t tscc_agent_thread_key(uint64_t FsBase) {
  return (FsBase << 4) | TSCC_AGENT_KEY_LIVE;
}

static inline uint32_t tscc_agent_thread_home(uint64_t Key, uint32_t Cap) {
  return (uint32_t)((Key * 0x9e3779b97f4a7c15ull) >> 32) & (Cap - 1);
}

/* A hijacked return: where its address was, and what it was. */
struct tscc_agent_shadow {
  uint64_t slot; /* stack address of the hijacked return address */
  uint64_t ret;  /* the real return address */
  uint64_t site; /* struct tscc_agent_site * */
};

/* Shadow stacks grow in chunks from a pool that tsrun maps into the
 * process (MAP_NORESERVE: only the chunks used take memory). The agent
 * makes no system call to grow them: a sandbox may forbid mmap. Chunks are
 * named by index + 1 (0: none). */
#define TSCC_AGENT_CHUNK_FRAMES 85
/* What tsrun maps for the pool: at most this (less where the system does
 * not give that much address space). */
#define TSCC_AGENT_POOL_BYTES (16ull << 20)
struct tscc_agent_chunk {
  uint32_t below; /* the chunk of the frames under these; when free, the
                     next free chunk */
  uint32_t reserved;
  struct tscc_agent_shadow frames[TSCC_AGENT_CHUNK_FRAMES];
};

/* Where a fault in clause code resumes (tscc_agent_try). */
struct tscc_agent_recover {
  uint64_t rsp, rip;
};

struct tscc_agent_thread {
  uint64_t key; /* TSCC_AGENT_KEY_* or tscc_agent_thread_key(fs base) */
  int32_t tid;  /* the thread */
  int32_t pid;  /* its process: this one, or one sharing its memory */
  /* The shadow stack, in one word so that a signal handler that probes
   * sees it whole: (top chunk << 32) | depth. The top chunk holds frame
   * depth - 1 (the first chunk, kept, when depth is 0). */
  uint64_t stack;
  uint32_t spare;     /* a chunk kept for the next push across a chunk */
  uint32_t epoch;     /* tscc_agent_proc.epoch when resolved; 0: not yet */
  int32_t slot;       /* the store's thread slot */
  uint32_t gen;       /* the slot's generation when resolved */
  uint32_t target;    /* tsrun's number for the process */
  uint32_t in_clause; /* a recovery point is set */
  int64_t ppid, uid;
  uint64_t hits;
  struct tscc_agent_recover recover;
  /* The program blocked SIGTRAP in this thread, which the agent keeps
   * unblocked for trap sites (Agent/signal.c). */
  uint32_t trap_blocked;
  uint32_t reserved;
};

/* Processes that share this memory without being threads of this process
 * (vfork() children, clone(CLONE_VM) without CLONE_THREAD): each one's
 * identity, written by tsrun. */
#define TSCC_AGENT_MAX_SHARERS 64
struct tscc_agent_sharer {
  int32_t pid; /* 0: unused */
  uint32_t target_id;
  int64_t ppid, uid;
};

/*--- Process configuration -------------------------------------------------*/

struct tscc_agent_clause {
  uint64_t pred;   /* int32_t (*)(struct tscc_ctx *), or 0 */
  uint64_t action; /* void (*)(struct tscc_ctx *), or 0 */
  uint32_t flags;  /* TSCC_AGENT_CLAUSE_* */
  /* What of struct tscc_ctx the clause reads: the object's
   * TSCC_CLAUSE_CTX_* bits (abi.h), TSCC_CLAUSE_CTX_LISTED among them, or
   * 0 when the object does not list them (the whole context is built). */
  uint32_t ctx;
};

enum tscc_agent_clause_flags {
  /* The clause touches nothing other threads share but aggregations,
   * which it updates in its thread's own part (the object's
   * TSCC_CLAUSE_THREAD_OWN or TSCC_CLAUSE_THREAD_OWN_AGGS): a hit whose
   * clauses all have it runs them without the session lock. */
  TSCC_AGENT_CLAUSE_UNLOCKED = 1u << 0,
};

/* The kernel's struct sigaction as rt_sigaction() reads and writes it in
 * the target: x86-64's, or in a 32-bit process i386's (4-byte handler,
 * flags and restorer, then the 8-byte mask), padded to the same 32 bytes,
 * so that the configuration has one layout. tsrun writes the one of the
 * target's model. */
struct tscc_kernel_sigaction {
#if defined(__i386__)
  uint32_t handler;
  uint32_t flags;
  uint32_t restorer;
  uint32_t mask[2];
  uint32_t reserved[3];
#else
  uint64_t handler;
  uint64_t flags;
  uint64_t restorer;
  uint64_t mask;
#endif
};

enum tscc_agent_signal_index {
  TSCC_AGENT_SIGSEGV = 0,
  TSCC_AGENT_SIGBUS = 1,
  TSCC_AGENT_SIGFPE = 2,
  TSCC_AGENT_SIGNALS = 3
};

/* Written by tsrun before the first site is armed; read-only afterwards
 * except where noted. */
#define TSCC_AGENT_MAGIC 0x544e474143435354ull /* "TSCCAGNT" */

struct tscc_agent_config {
  uint64_t magic; /* TSCC_AGENT_MAGIC: a later tsrun finds an orphan by it */
  uint32_t version;
  uint32_t size;           /* sizeof(struct tscc_agent_config) */
  struct tscc_store store; /* base = the store mapping in this process;
                              tables = the private copy of the layout;
                              control = the control page, read-only */
  uint32_t target_id;
  uint32_t has_fsgsbase; /* rdfsbase works (HWCAP2_FSGSBASE) */
  int64_t pid, ppid, uid;
  uint64_t pname;        /* const char * */
  uint64_t clauses;      /* struct tscc_agent_clause[clause_count] */
  uint64_t probe_clause; /* uint32_t[probe_count] */
  uint64_t probe_specs;  /* const char *[probe_count] */
  uint32_t clause_count, probe_count;
  uint64_t params;        /* const int64_t * */
  uint64_t param_strings; /* const char *const * */
  uint32_t param_count;
  uint32_t format_count;
  uint64_t vdso_clock_gettime; /* int (*)(clockid_t, struct timespec *) */
  uint64_t code_lo, code_hi;   /* the probe object's image: clause code */
  uint64_t agent_lo, agent_hi; /* the agent's own image */
  uint64_t lock_timeout_ns;
  int32_t reader_pid;
  uint32_t thread_capacity; /* a power of two */
  uint64_t threads;         /* struct tscc_agent_thread[thread_capacity] */
  uint64_t pool;            /* struct tscc_agent_chunk[pool_chunks] */
  uint32_t pool_chunks;
  uint32_t pool_used; /* chunks ever handed out (the agent's) */
  uint64_t pool_free; /* free chunks: (tag << 32) | chunk (the agent's) */
  /* Set by tsrun while other processes share this memory: threads are
   * then told apart by their ids too (their fs bases may be the same),
   * and each belongs to one of the sharers. */
  uint32_t shared_mm;
  /* Set by tsrun when it lets go of the process (--detach): a child made
   * by fork() then finds its agent page wiped and nobody to arm it, so it
   * arms itself (follow_forks), or says it runs untraced
   * (TSCC_NOTICE_UNFOLLOWED). */
  uint32_t detached;
  struct tscc_agent_sharer sharers[TSCC_AGENT_MAX_SHARERS];
  /* No thread slot was free in the store: until then (CLOCK_MONOTONIC)
   * new threads do not ask again (the agent's). */
  uint64_t refused_until_ns;
  uint64_t reclaimed_at_ns; /* the last sweep for dead threads' chunks */
  /* The dispositions the agent replaced; a fault that is not the agent's
   * goes to these. tsrun updates them when the program sets its own. */
  struct tscc_kernel_sigaction chained[TSCC_AGENT_SIGNALS];
  /* SIGTRAP: installed by tsrun before it writes the first trap site
   * (trap_handler), or else by the agent while it puts sites back after
   * tsrun died (a thread may then run into an int3 for a moment). tsrun
   * updates it when the program sets its own. */
  struct tscc_kernel_sigaction chained_trap;
  /* Every jump-patched site: struct tscc_agent_site addresses. tsrun
   * appends; the agent reads them to put the original bytes back. */
  uint64_t sites;
  uint32_t site_count, site_capacity;
  /* Counters tsrun reads back (-v, docs/runtime.md). */
  uint64_t recovered_faults;
  uint64_t reentered;
  /* tsrun installed the agent's SIGTRAP handler (tscc_agent_trap) for
   * trap sites, keeping the program's disposition in chained_trap. */
  uint32_t trap_handler;
  /* Set by tsrun when it lets go of the process with its shard made
   * inheritable (MADV_DOFORK): a child made by fork() then arms itself at
   * its first hit and counts in that shard (Agent/follow.c). */
  uint32_t follow_forks;
  /* The process's shard, kept open (close-on-exec, at a high number) so
   * that the agent maps a thread's ring when the thread first writes one
   * (tscc_host_ring); -1 (and rings 0) when the whole shard is mapped.
   * Before it maps the descriptor the agent checks that it is still the
   * shard's memfd (shard_ino, shard_dev_*): a program that closed it and
   * opened a file of its own there gets no records written into it. */
  uint64_t rings; /* uint64_t[store.layout.thread_capacity]: where each ring
                     is mapped, 0 until it is (the agent's) */
  uint64_t shard_ino;
  int32_t shard_fd;
  uint32_t shard_dev_major, shard_dev_minor;
  /* How many trap sites tsrun has written (tsrun's): once the process is
   * let go of, the agent keeps SIGTRAP out of what its threads block
   * (Agent/signal.c). Also keeps the size the same in both models. */
  uint32_t trap_sites;
  /* Syscall User Dispatch (Agent/sud.c, x86-64 only): the page pair tsrun
   * mapped at TSCC_SUD_PAGE (code, then struct tscc_sud_data), 0 without.
   * syscall_gadget: the `syscall; ret` the agent makes its own calls
   * through, set with sud_page only (the one address SUD lets through);
   * 0, in every process without SUD: the agent's `syscall` instructions. */
  uint64_t sud_page;
  uint64_t syscall_gadget;
  /* SIGSYS: the program's disposition, behind the agent's handler
   * (tscc_agent_sigsys) while SUD is on. The agent's. */
  struct tscc_kernel_sigaction chained_sys;
  /* Set by tsrun when it lets go of the process: the address of the
   * loader's r_debug.r_state, which TSCC_HOOK_LOADER_GATE reads to ask for
   * a window at consistent link maps only; 0 to ask at every call. */
  uint64_t loader_state;
  /* The dispositions above (chained, chained_trap) are read and written
   * whole, as the kernel's sigaction is: chained_seq is odd while a
   * writer is at work on one (the agent's sigaction gate, tsrun around an
   * injected rt_sigaction), and a fault that reads one meanwhile reads it
   * again (Agent/signal.c). chained_writer: the thread of the agent that
   * writes (0 = none), so that two sigaction() calls do not interleave. */
  uint32_t chained_seq;
  uint32_t chained_writer;
  /* Stack keys in the process (tscc/unwind_table.h, Agent/stackid.c),
   * both 0 where no clause keys by a stack: the unwind image tsrun wrote
   * (struct tscc_unwind_image; tsrun replaces it when the modules change),
   * and the process's table of stack ids (struct tscc_stack_ids). */
  uint64_t unwind;
  uint64_t stack_ids;
};

/* The pages of Syscall User Dispatch, at a fixed address (the gadget's):
 * one page of code, the only range the kernel lets system calls through
 * from without a SIGSYS, then the data the agent's SIGSYS handler uses.
 * Code: the gadget (`syscall; ret`) at 0, the handler's sigreturn
 * restorer (`lock decl in_handler; mov $15,%eax; syscall`) at
 * TSCC_SUD_RESTORER, tsrun's
 * injection gadget (`syscall; int3`) at TSCC_SUD_INJECT, and stubs of
 * TSCC_SUD_STUB_BYTES from TSCC_SUD_STUBS: `syscall; jmp *target(%rip)`,
 * each with its target in tscc_sud_data.stub_target. */
#define TSCC_SUD_PAGE 0x2e7300000000ull
/* Four pages of code: a stub per call site outside them, and every
 * system-call trampoline's untraced call is one (a libc has ~550). */
#define TSCC_SUD_CODE_BYTES 16384u
#define TSCC_SUD_DATA_BYTES 16384u
#define TSCC_SUD_RESTORER 16u
#define TSCC_SUD_INJECT 32u /* tsrun's: `syscall; int3` */
#define TSCC_SUD_STUBS 64u
#define TSCC_SUD_STUB_BYTES 16u
#define TSCC_SUD_STUB_COUNT ((TSCC_SUD_CODE_BYTES - TSCC_SUD_STUBS) / 16u)
/* Stub 0 is rt_sigreturn's, whatever its site: it never returns. */
#define TSCC_SUD_SIGRETURN_STUB 0u
#define TSCC_SUD_ALLOW 0
#define TSCC_SUD_BLOCK 1

struct tscc_sud_data {
  /* The selector every thread's prctl() names: TSCC_SUD_BLOCK while the
   * agent catches calls, TSCC_SUD_ALLOW once tsrun is gone or done. */
  uint8_t selector;
  uint8_t reserved[3];
  /* Signal frames of SUD's SIGSYS the handler has not returned from yet:
   * the agent counts one in, the restorer of the code page one out. While
   * it is not 0 a thread may return to a call site it saw unpatched, so
   * tsrun patches no site then (Patch/SyscallDispatch.h). */
  uint32_t in_handler;
  /* The hooks of the traced numbers that run in the process (struct
   * tscc_agent_hook[hook_count]), and the calls stubs go back to (the
   * agent claims a stub per return address; 0 = free). */
  uint64_t hooks;
  uint32_t hook_count;
  uint32_t stubs_full; /* a call found every stub taken (counted) */
  uint64_t stub_target[TSCC_SUD_STUB_COUNT];
  /* Hooks and their strings follow, up to TSCC_SUD_DATA_BYTES. */
};

/* The per-process page tsrun arms; MADV_WIPEONFORK, so a child made by
 * fork() starts disarmed until tsrun re-arms it (or forever, if tsrun is
 * not following it). */
struct tscc_agent_proc {
  uint32_t armed;
  uint32_t epoch;   /* tsrun's epoch when this process was (re)armed */
  uint32_t healing; /* set by whoever puts the sites back (once) */
  uint32_t healed;  /* every site has its original bytes again */
  /* The thread (tid) tsrun found group-stopped while it held the store
   * lock and let run to the end of its clause: it stops itself (SIGSTOP)
   * when it releases the lock. */
  uint32_t stop_after_unlock;
  /* A thread of a fork child of a detached process is arming it (the
   * agent's, follow.c). */
  uint32_t adopting;
};

/* One layout for tsrun (x86-64) and both agent builds. */
TSCC_STATIC_ASSERT(sizeof(struct tscc_kernel_sigaction) == 32, "sigaction");
TSCC_STATIC_ASSERT(sizeof(struct tscc_agent_hook) == 40, "hook layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_agent_usdt_arg) == 16, "usdt layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_agent_site) == 64, "site layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_agent_clause) == 24, "clause layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_agent_config) == 2248, "config layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_sud_data) == 24 + 8 * 1020, "sud layout");
TSCC_STATIC_ASSERT(__builtin_offsetof(struct tscc_agent_config, target_id) ==
                       224,
                   "config layout");
TSCC_STATIC_ASSERT(__builtin_offsetof(struct tscc_agent_config, pool_free) ==
                       400,
                   "config layout");
TSCC_STATIC_ASSERT(__builtin_offsetof(struct tscc_agent_config, sharers) == 416,
                   "config layout");
TSCC_STATIC_ASSERT(__builtin_offsetof(struct tscc_agent_config, chained) ==
                       1968,
                   "config layout");
TSCC_STATIC_ASSERT(__builtin_offsetof(struct tscc_agent_config, sites) == 2096,
                   "config layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_agent_proc) == 24, "proc layout");
/* tsrun reads the agent's threads and their shadow stacks (the pool). */
TSCC_STATIC_ASSERT(sizeof(struct tscc_agent_sharer) == 24, "sharer layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_agent_thread) == 96, "thread layout");
TSCC_STATIC_ASSERT(__builtin_offsetof(struct tscc_agent_thread, recover) == 72,
                   "thread layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_agent_shadow) == 24, "shadow layout");
TSCC_STATIC_ASSERT(sizeof(struct tscc_agent_chunk) == 2048, "chunk layout");

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TSCC_AGENT_H */
