/*===- agent.h - The in-process agent's internals ---------------------------===*
 *
 * The agent runs inside traced programs: in their threads, possibly inside
 * malloc or a signal handler, possibly before libc is initialised. So it is
 * freestanding C with no libc and no locks of its own besides the store's:
 * raw system calls, the compiler's builtins, and its own memcpy. It is
 * built with -mgeneral-regs-only, so it never touches a vector register the
 * program might be using.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TSCC_AGENT_INTERNAL_H
#define TSCC_AGENT_INTERNAL_H

#include "tscc/abi.h"
#include "tscc/agent.h"
#include "tscc/store.h"

#include "table.h"

#include <stddef.h>
#include <stdint.h>

#define HIDDEN __attribute__((visibility("hidden")))
#define LIKELY(X) __builtin_expect(!!(X), 1)
#define UNLIKELY(X) __builtin_expect(!!(X), 0)

/*--- State tsrun writes ----------------------------------------------------*/

extern struct tscc_agent_config tscc_agent_config HIDDEN;
union agent_proc_page {
  struct tscc_agent_proc Proc;
  char Page[4096];
};
extern union agent_proc_page tscc_agent_proc_page HIDDEN;
#define agent_proc (tscc_agent_proc_page.Proc)
extern const struct tscc_helpers tscc_agent_helpers HIDDEN;

/*--- System calls, threads, frames: per instruction set ---------------------*/

#if defined(__x86_64__)
#include "x86_64/arch.h"
#elif defined(__i386__)
#include "i386/arch.h"
#else
#error "the agent is built for x86-64 and i386"
#endif

#define sys0(N) sys6(N, 0, 0, 0, 0, 0, 0)
#define sys1(N, A) sys6(N, (long)(A), 0, 0, 0, 0, 0)
#define sys2(N, A, B) sys6(N, (long)(A), (long)(B), 0, 0, 0, 0)
#define sys3(N, A, B, C) sys6(N, (long)(A), (long)(B), (long)(C), 0, 0, 0)
#define sys4(N, A, B, C, D)                                                    \
  sys6(N, (long)(A), (long)(B), (long)(C), (long)(D), 0, 0)

/* An address tsrun wrote (uint64_t, tscc/agent.h) as a pointer of this
 * build, and back. */
#define AGENT_PTR(T, A) ((T)(uintptr_t)(A))
#define AGENT_ADDR(P) ((uint64_t)(uintptr_t)(P))

/* The data model of the processes this build of the agent runs in. */
#if defined(__i386__)
#define AGENT_DATA_MODEL TSCC_DM_ILP32
#else
#define AGENT_DATA_MODEL TSCC_DM_LP64
#endif

/*--- The current thread ----------------------------------------------------*/

/* The firing thread's entry. When Resolve, taken if the thread has none
 * yet and resolved against the store (thread slot, thread id); null when
 * the table or the store has no room for it, or the store cannot be had.
 * Never allocates outside the table, never blocks but for the store lock
 * on a thread's first hit. */
struct tscc_agent_thread *agent_thread(int Resolve);

/* agent_thread(1) of a hit, without a call in the common case: a thread
 * resolved in this process, whose entry is at its key's home place, while
 * no other process shares this memory (thread.c says why then each hit
 * asks the kernel). The checks are agent_thread's. */
static inline struct tscc_agent_thread *agent_hit_thread(void) {
  struct tscc_agent_config *C = &tscc_agent_config;
  uint32_t Cap = C->thread_capacity;
  if (LIKELY(C->threads && Cap &&
             !__atomic_load_n(&C->shared_mm, __ATOMIC_ACQUIRE))) {
    uint64_t Key = tscc_agent_thread_key(agent_thread_key(C->has_fsgsbase));
    struct tscc_agent_thread *T =
        AGENT_PTR(struct tscc_agent_thread *, C->threads) +
        tscc_agent_thread_home(Key, Cap);
    if (LIKELY(__atomic_load_n(&T->key, __ATOMIC_ACQUIRE) == Key &&
               T->pid == (int32_t)C->pid &&
               T->epoch ==
                   __atomic_load_n(&agent_proc.epoch, __ATOMIC_ACQUIRE))) {
      struct tscc_thread *Slot = tscc_thread_at(&C->store, T->slot);
      if (LIKELY(Slot && Slot->gen == T->gen &&
                 Slot->state == TSCC_THREAD_LIVE))
        return T;
    }
  }
  return agent_thread(1);
}

/* Tells tsrun that something could not be done (a tscc_agent_notice bit):
 * it warns. */
void agent_notice(uint32_t Bit);

/* A disarmed hit in a fork child of a process tsrun let go of (--detach):
 * the child arms itself (follow.c). 1 when it is armed now. */
int agent_follow_fork(void);
/* A thread of process Pid, which uses this memory but is not among its
 * sharers (a vfork() child of a detached process): Pid joins them, as the
 * process tsrun let go of for the store (follow.c). 1 when it is one now. */
int agent_join_sharers(int32_t Pid);
/* At the entry of one of libc's exec functions (TSCC_HOOK_EXEC_GATE), in
 * a process tsrun has let go of: asks tsrun for a window and waits until
 * this thread is traced, so that the new image is set up before it runs;
 * returns at once when attached, and without a window when tsrun is gone,
 * refuses or the session ends (follow.c). */
void agent_exec_gate(void);
/* At libc's __libc_sigaction(Sig, Act, OldAct), Rsp the stack pointer at
 * its entry: the call's work on a guarded signal (signal.c). */
void agent_sigaction_gate(struct tscc_agent_frame *F, uint64_t Rsp);
/* A write of the program's dispositions the agent keeps (config.chained,
 * chained_trap): every signal blocked, chained_seq odd (Agent/signal.c). */
void agent_begin_disposition_write(uint64_t *SavedMask);
void agent_end_disposition_write(const uint64_t *SavedMask);
/* At libc's pthread_sigmask(How, Set, OldSet): SIGTRAP is kept out of what
 * a thread blocks once trap sites need it (signal.c). */
void agent_sigmask_gate(struct tscc_agent_frame *F, uint64_t Rsp);
/* At the loader's debugger hook (TSCC_HOOK_LOADER_GATE), in a process tsrun
 * has let go of: at a consistent link map, asks tsrun for a window in which
 * it probes the libraries dlopen() brought (follow.c). */
void agent_loader_gate(void);

/*--- Running clauses -------------------------------------------------------*/

/* What the helpers need while a clause runs; ctx->runtime points here. */
struct agent_scope {
  struct tscc_agent_thread *thread;
  uint64_t time_ns;     /* taken at the first record, 0 before */
  struct tscc_ctx *ctx; /* the context it belongs to: helpers check it */
  /* The thread's signal mask, when the clause's first read of memory found
   * SIGSEGV or SIGBUS blocked in a detached process and unblocked them
   * (agent_faults_deliverable); run_clause puts it back. */
  uint64_t saved_mask;
  uint32_t mask_changed;
  uint32_t mask_known;
};

/* Before a safe copy in a process nobody traces: a fault of a thread that
 * blocks SIGSEGV or SIGBUS would be forced by the kernel, which resets the
 * disposition to SIG_DFL and kills the program instead of running the
 * agent's handler. So they are unblocked for the rest of the clause, once
 * per clause (attached, tsrun completes such a fault itself). */
void agent_faults_deliverable(struct agent_scope *Sc) HIDDEN;
/* After the clause: the mask agent_faults_deliverable changed, back. */
void agent_restore_mask(struct agent_scope *Sc) HIDDEN;

/* Runs Pred then Action with a recovery point: a fault in clause code comes
 * back here. Returns 1 when the clause crashed (entry.S). */
int tscc_agent_try(uint64_t Pred, uint64_t Action, struct tscc_ctx *Ctx,
                   struct tscc_agent_recover *Recover) HIDDEN;

/* Copies Len bytes from Src, which may be a bad address: 0, or -1 when it
 * faulted (entry.S; the fault is recovered by the signal handler). */
long tscc_safe_copy(void *Dst, const void *Src, uint64_t Len) HIDDEN;
/* Copies a NUL-terminated string of at most Max - 1 bytes and the NUL:
 * its length, or -1 when it faulted. Max > 0. */
long tscc_safe_strcpy(char *Dst, const char *Src, uint64_t Max) HIDDEN;
extern const char tscc_safe_begin[] HIDDEN, tscc_safe_end[] HIDDEN,
    tscc_safe_fault[] HIDDEN;

void tscc_agent_return(void) HIDDEN;
#if defined(__x86_64__)
void tscc_agent_enter_syscall(void) HIDDEN;
#endif

uint64_t agent_now_ns(void);
/* stackid.c: the id of thread T's stack as a key, walked from Regs, at
 * most Depth frames (0: tsrun's --max-stack-depth); a new stack's record
 * goes into the ring with Hdr. 0 when it has none: no unwind image, no
 * room in the table, or (*Lost) none in the ring. */
uint64_t agent_stack_id(struct tscc_agent_thread *T, const uint64_t *Regs,
                        uint32_t Depth, struct tscc_ring_record *Hdr,
                        int *Lost);
/* 0 when a stack field of aggregation Agg's Key is 0 (no id was had). */
int agent_stack_key_known(uint32_t Agg, const void *Key, uint32_t KeySize);
/* print.c: the number of thread Slot's next print(@) record (0: none can
 * be waited for), and the wait until tsrun has printed record N. */
uint32_t agent_print_number(struct tscc_store *S, uint32_t Slot);
void agent_wait_printed(struct tscc_store *S, uint32_t Slot, uint32_t N);
/* hit.c: counts in thread T's own row of the clause counters (null: the
 * shared row); fault kinds likewise. */
int agent_counters_add(struct tscc_agent_thread *T, uint32_t Clause, int Which,
                       uint64_t N);
void agent_fault_kind(struct tscc_agent_thread *T, uint32_t Clause,
                      uint32_t Kind);
/* COUNT_LOST: a record that found the thread's ring full, which is also a
 * drop (both are counted). */
enum { COUNT_FIRED, COUNT_FAULTS, COUNT_DROPS, COUNT_LOST };
/* The session is ending (tsrun says so), or a clause of this process
 * called exit(), which tsrun has not seen yet. */
static inline int agent_stopping(struct tscc_store *S) {
  return __atomic_load_n(&S->control->stopping, __ATOMIC_ACQUIRE) ||
         __atomic_load_n(&tscc_shard_hdr(S)->stopping, __ATOMIC_ACQUIRE);
}

/* hit.c, for returns.c too. The clause of a probe (~0u if none); the
 * registers of a frame as a clause sees them; runs the clause of Probe for
 * thread T (the store lock held, unless the clause is
 * TSCC_AGENT_CLAUSE_UNLOCKED), or counts it as dropped when T is inside a
 * clause already (a signal handler's hit); counts the clauses of a site's
 * hooks of Kind (0: entries and exits) as fired and dropped. */
uint32_t agent_clause_of(uint32_t Probe);
void agent_regs_of(const struct tscc_agent_frame *F, uint64_t Rsp, uint64_t Rip,
                   uint64_t *R);
void agent_run_clause(struct tscc_agent_thread *T, uint32_t Probe,
                      const struct tscc_agent_hook *H, const uint64_t *Regs);
void agent_count_dropped(struct tscc_agent_thread *T,
                         const struct tscc_agent_site *Site, uint32_t Kind);

/* What of the context clause K reads (TSCC_CLAUSE_CTX_*): everything when
 * its object does not say. */
#define AGENT_CTX_ALL                                                          \
  (TSCC_CLAUSE_CTX_LISTED | TSCC_CLAUSE_CTX_REGS | TSCC_CLAUSE_CTX_IDS |       \
   TSCC_CLAUSE_CTX_NAMES | TSCC_CLAUSE_CTX_PARAMS | TSCC_CLAUSE_CTX_SYSCALL |  \
   TSCC_CLAUSE_CTX_USDT)
static inline uint32_t agent_clause_ctx(const struct tscc_agent_clause *K) {
  return (K->ctx & TSCC_CLAUSE_CTX_LISTED) ? K->ctx : AGENT_CTX_ALL;
}
/* What a hit needs for the clause of hook index Probe: the session lock
 * (unless the clause runs unlocked) and the registers (if it reads them);
 * nothing for an index the object has no clause for. Sites add their own
 * bits above these. */
enum { NEED_LOCK = 1, NEED_REGS = 2 };
static inline uint32_t agent_hook_needs(uint32_t Probe) {
  const struct tscc_agent_config *C = &tscc_agent_config;
  uint32_t Clause = agent_clause_of(Probe);
  if (Clause >= C->clause_count)
    return 0;
  const struct tscc_agent_clause *K =
      AGENT_PTR(const struct tscc_agent_clause *, C->clauses) + Clause;
  return ((K->flags & TSCC_AGENT_CLAUSE_UNLOCKED) ? 0 : NEED_LOCK) |
         ((agent_clause_ctx(K) & TSCC_CLAUSE_CTX_REGS) ? NEED_REGS : 0);
}
/* agent_run_clause at a system call: number SyscallNr, and __errno Err
 * (0 at an entry and after a call that succeeded). */
void agent_run_syscall_clause(struct tscc_agent_thread *T, uint32_t Probe,
                              const struct tscc_agent_hook *H,
                              const uint64_t *Regs, uint64_t SyscallNr,
                              int32_t Err);

/* returns.c, with the store lock held. When Site has exit or within()
 * hooks, its call enters within() (before the entry clauses run), and its
 * return address at Slot is kept on T's shadow stack (after them): 1 when
 * it was kept, and the caller is to replace it with tscc_agent_return. A
 * return that cannot be kept has its exit clauses counted as drops and
 * leaves within() again. */
int agent_enter_within(struct tscc_agent_thread *T,
                       const struct tscc_agent_site *Site);
int agent_reserve_return(struct tscc_agent_thread *T, uint64_t Slot,
                         const struct tscc_agent_site *Site);

/* tsrun is gone: disarm this process and put every site's original bytes
 * back (heal.c). */
void agent_reader_gone(void);

#endif
