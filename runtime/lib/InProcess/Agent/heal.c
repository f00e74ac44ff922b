/*===- heal.c - tsrun is gone: give the program its code back ---------------===*
 *
 * tsrun holds a robust futex in the store for as long as it lives; the
 * kernel marks it when tsrun dies, SIGKILL and OOM included. The next hit
 * in a target sees the mark, disarms the process and puts the original
 * bytes back at every jump-patched site, while the program's other threads
 * keep running. The rewrite follows the kernel's text_poke_bp() protocol:
 * an int3 over the first byte, the rest of the bytes, then the first byte,
 * with every core serialised in between (membarrier SYNC_CORE), so no
 * thread ever executes a mix of old and new bytes. A thread that runs into
 * the int3 meanwhile is sent to the trampoline's copy of the instructions
 * (tscc_agent_trap), which is never unmapped. A trap site already has
 * its int3 there: healing it is putting its first byte back.
 *
 * What stays: the agent, the probe object's code, the trampolines and the
 * store stay mapped (a thread may be in them, and hijacked returns come
 * back through the agent); the agent's SIGSEGV/SIGBUS/SIGFPE handler stays
 * in front of the program's, and its SIGTRAP handler too once used.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

#define O_RDWR 2
#define O_CLOEXEC 0x80000
#define PROT_RWX 7
#define PROT_RX 5
#define MEMBARRIER_SYNC_CORE (1 << 5)
#define MEMBARRIER_REGISTER_SYNC_CORE (1 << 6)
#define SIGTRAP 5

void tscc_agent_trap(int Sig, void *Info, void *Uc) HIDDEN;
void tscc_agent_restorer(void) HIDDEN;

static int write_text(long Fd, uint64_t Addr, const void *Src, uint64_t Len) {
  if (Fd >= 0 && sys_pwrite64(Fd, Src, Len, Addr) == (long)Len)
    return 0;
  /* Kernels that refuse /proc/self/mem writes to read-only pages: make the
   * page writable for a moment. */
  uint64_t Page = Addr & ~4095ull;
  uint64_t End = (Addr + Len + 4095) & ~4095ull;
  if (sys3(NR_mprotect, Page, End - Page, PROT_RWX) != 0)
    return -1;
  __builtin_memcpy(AGENT_PTR(void *, Addr), Src, Len);
  sys3(NR_mprotect, Page, End - Page, PROT_RX);
  return 0;
}

/* Whether /proc/self/mem shows this process's memory at Addr as the
 * program sees it. Under an emulator (qemu-user) it is the emulator's own
 * memory, where a guest address means something else entirely: writing
 * there would corrupt the emulator, so the bytes are compared first (the
 * rest of Addr's page, up to 64 bytes) and the file is not used unless
 * they are the same. */
static int mem_file_is_ours(long Fd, uint64_t Addr) {
  uint8_t Seen[64];
  uint64_t Len = 4096 - (Addr & 4095);
  if (Len > sizeof(Seen))
    Len = sizeof(Seen);
  return sys_pread64(Fd, Seen, Len, Addr) == (long)Len &&
         __builtin_memcmp(Seen, AGENT_PTR(const void *, Addr), Len) == 0;
}

static void sync_cores(int Registered) {
  if (Registered)
    sys3(NR_membarrier, MEMBARRIER_SYNC_CORE, 0, 0);
}

static void install_trap_handler(void) {
  /* Already in front of the program's for trap sites: installing it again
   * would make it chain to itself. */
  if (__atomic_load_n(&tscc_agent_config.trap_handler, __ATOMIC_ACQUIRE))
    return;
  struct tscc_kernel_sigaction Act;
  __builtin_memset(&Act, 0, sizeof(Act));
  Act.handler = AGENT_ADDR(&tscc_agent_trap);
  Act.flags = 4 /*SA_SIGINFO*/ | 0x08000000 /*SA_ONSTACK*/ |
              0x40000000 /*NODEFER*/ | 0x04000000 /*SA_RESTORER*/;
  Act.restorer = AGENT_ADDR(&tscc_agent_restorer);
  uint64_t Restore;
  agent_begin_disposition_write(&Restore);
  sys4(NR_rt_sigaction, SIGTRAP, &Act, &tscc_agent_config.chained_trap, 8);
  agent_end_disposition_write(&Restore);
}

/* tsrun died between the two writes around an injected rt_sigaction:
 * nobody ends that write but us. (The agent's own writers hold
 * chained_writer.) */
static void end_orphaned_disposition_write(void) {
  struct tscc_agent_config *C = &tscc_agent_config;
  uint32_t Seq = __atomic_load_n(&C->chained_seq, __ATOMIC_ACQUIRE);
  if ((Seq & 1) && !__atomic_load_n(&C->chained_writer, __ATOMIC_ACQUIRE))
    __atomic_compare_exchange_n(&C->chained_seq, &Seq, Seq + 1, 0,
                                __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

/* Entry I of the table of sites, or null: tsrun empties the entries of a
 * dlclose()d library's sites, for new sites to take. */
static const struct tscc_agent_site *site_at(uint32_t I) {
  /* 8 bytes an entry, a pointer of the process's width at its start
   * (little-endian): one load of that width sees it whole. */
  const uint64_t *Entry =
      AGENT_PTR(const uint64_t *, tscc_agent_config.sites) + I;
  uintptr_t At = __atomic_load_n((const uintptr_t *)Entry, __ATOMIC_ACQUIRE);
  return At ? AGENT_PTR(const struct tscc_agent_site *, At) : 0;
}

/* Whether trap site S still holds its int3 followed by the rest of its
 * instruction (only the first byte was written): it is healed in the last
 * step alone, by putting that byte back. */
static int trap_is_ours(const struct tscc_agent_site *S) {
  uint8_t Now[sizeof(S->original)];
  if (S->length < 1 || S->length > sizeof(S->original) ||
      tscc_safe_copy(Now, AGENT_PTR(const void *, S->address), S->length) !=
          0 ||
      Now[0] != 0xcc)
    return 0;
  return __builtin_memcmp(Now + 1, S->original + 1, S->length - 1) == 0;
}

/* Where S's jump goes: its trampoline's code, or for a system-call site
 * (x86-64) the landing of that trampoline's own layout (tscc/agent.h). */
static uint64_t jump_target_of(const struct tscc_agent_site *S) {
  uint64_t Target = AGENT_ADDR(S) + TSCC_TRAMPOLINE_CODE;
#if defined(__x86_64__)
  if (S->enter == AGENT_ADDR(&tscc_agent_enter_syscall))
    Target += TSCC_SYSCALL_TRAMPOLINE_LANDING;
#endif
  return Target;
}

/* Whether S's site still holds what the healing expects at this step:
 * First (0xe9, the jump tsrun wrote; then 0xcc, the int3 put over it)
 * followed by the jump's displacement to S's trampoline, or, once the rest
 * is back (Restored), the int3 followed by the original bytes. A library
 * unloaded since it was patched (dlclose) may have left the address to
 * other code, or to nothing: never write there. Read with the landing pad,
 * so an unmapped site is a mismatch, not a fault. */
static int site_is_ours(const struct tscc_agent_site *S, uint8_t First,
                        int Restored) {
  if (!S)
    return 0;
  if (S->kind == TSCC_SITE_TRAP)
    return First == 0xcc && Restored && trap_is_ours(S);
  uint8_t Now[5];
  if (S->length < 5 || S->length > sizeof(S->original) ||
      tscc_safe_copy(Now, AGENT_PTR(const void *, S->address), 5) != 0 ||
      Now[0] != First)
    return 0;
  if (Restored)
    return __builtin_memcmp(Now + 1, S->original + 1, 4) == 0;
  int32_t Rel;
  __builtin_memcpy(&Rel, Now + 1, 4);
  /* In a 32-bit process the jump wraps around at 4 GiB. */
  uintptr_t Target = (uintptr_t)(S->address + 5 + (int64_t)Rel);
  return (uint64_t)Target == jump_target_of(S);
}

void agent_sud_off(void);

void agent_reader_gone(void) {
  struct tscc_agent_proc *P = &agent_proc;
#if defined(__x86_64__)
  agent_sud_off(); /* no SIGSYS once nobody traces the process */
#endif
  __atomic_store_n(&P->armed, 0, __ATOMIC_RELEASE);
  uint32_t Expected = 0;
  if (!__atomic_compare_exchange_n(&P->healing, &Expected, 1, 0,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return; /* another thread does it, or a later tsrun took over */
  uint32_t N = __atomic_load_n(&tscc_agent_config.site_count, __ATOMIC_ACQUIRE);
  if (N > tscc_agent_config.site_capacity)
    N = tscc_agent_config.site_capacity;
  end_orphaned_disposition_write();
  install_trap_handler();
  int Registered =
      sys3(NR_membarrier, MEMBARRIER_REGISTER_SYNC_CORE, 0, 0) == 0;
  static const char MemPath[] = "/proc/self/mem";
  long Fd = sys3(NR_open, MemPath, O_RDWR | O_CLOEXEC, 0);
  const struct tscc_agent_site *First = 0;
  for (uint32_t I = 0; I < N && !First; ++I)
    First = site_at(I);
  if (Fd >= 0 && First && !mem_file_is_ours(Fd, First->address)) {
    sys1(NR_close, Fd);
    Fd = -1;
  }
  static const uint8_t Int3 = 0xcc;
  for (uint32_t I = 0; I < N; ++I)
    if (site_is_ours(site_at(I), 0xe9, 0))
      write_text(Fd, site_at(I)->address, &Int3, 1);
  sync_cores(Registered);
  for (uint32_t I = 0; I < N; ++I) {
    const struct tscc_agent_site *S = site_at(I);
    if (site_is_ours(S, 0xcc, 0))
      write_text(Fd, S->address + 1, S->original + 1, S->length - 1);
  }
  sync_cores(Registered);
  for (uint32_t I = 0; I < N; ++I)
    if (site_is_ours(site_at(I), 0xcc, 1))
      write_text(Fd, site_at(I)->address, site_at(I)->original, 1);
  sync_cores(Registered);
  if (Fd >= 0)
    sys1(NR_close, Fd);
  __atomic_store_n(&P->healed, 1, __ATOMIC_RELEASE);
}

/* A thread at the int3 of a trap site goes where the site's jump would
 * have sent it: the trampoline's call into the agent, which runs the
 * clauses (or heals, or does nothing when disarmed) and then the copy of
 * the instruction. A thread at an int3 the healing put over a jump site's
 * first byte goes on in the trampoline's copy of the displaced
 * instructions. */
int agent_trap_redirect(uint64_t *Rip) {
  uint32_t N = __atomic_load_n(&tscc_agent_config.site_count, __ATOMIC_ACQUIRE);
  if (N > tscc_agent_config.site_capacity)
    N = tscc_agent_config.site_capacity;
  for (uint32_t I = 0; I < N; ++I) {
    const struct tscc_agent_site *S = site_at(I);
    if (S && S->address == *Rip - 1) {
      *Rip =
          AGENT_ADDR(S) + (S->kind == TSCC_SITE_TRAP ? TSCC_TRAMPOLINE_CODE
                                                     : AGENT_TRAMPOLINE_COPY);
#if defined(__x86_64__)
      /* A system-call site's jump lands on its own layout (tscc/agent.h). */
      if (S->kind != TSCC_SITE_TRAP &&
          S->enter == AGENT_ADDR(&tscc_agent_enter_syscall))
        *Rip = AGENT_ADDR(S) + TSCC_TRAMPOLINE_CODE +
               TSCC_SYSCALL_TRAMPOLINE_LANDING;
#endif
      return 1;
    }
  }
  return 0;
}
