/*===- guest.c - Traps to tsrun from a guest behind a stub, one at a time ---===*
 *
 * A qemu-user guest's agent runs most clauses itself; a clause that needs
 * tsrun at the hit (a stack as a key, print() of an aggregation) makes the
 * guest thread trap to tsrun instead (TSCC_HOOK_HOST). qemu-user 7.2's
 * stub cannot serve two stopped threads at once (each sends its own stop
 * reply and reads the socket while the other is served: docs/runtime.md,
 * *Threads at breakpoints under qemu-user*), so every such trap goes
 * through one gate in guest memory: a futex word holding the tid of the
 * thread that traps. The others wait on it, in the guest (qemu-user runs
 * futex(2) for its guest on the host's).
 *
 * The thread that holds the gate executes the int3 that ends at
 * tscc_guest_trap_end with eax = the registers of the hit (TSCC_REG_*,
 * 64-bit slots) and edx = the site's address. qemu turns the int3 into a
 * SIGTRAP stop; tsrun recognises the address, runs the site's clauses
 * with those registers, and resumes the thread with no signal. The thread
 * then opens the gate.
 *
 * A thread that dies holding the gate (qemu-user has no robust futex
 * list: set_robust_list is ENOSYS there) would leave it shut: a waiter
 * that waited a while asks tgkill(pid, owner, 0) whether the owner still
 * lives, and takes the gate over from a dead one. tsrun clears `attached`
 * before it detaches: a thread that then gets the gate does not trap (with
 * no debugger, qemu would deliver the SIGTRAP to the program).
 *===----------------------------------------------------------------------===*/
#include "agent.h"

#include "tscc/agent_guest.h"

/* Found by tsrun by name (TSCC_AGENT_SYM_GUEST_GATE). */
struct tscc_guest_gate tscc_guest_gate HIDDEN;

#define GUEST_FUTEX_WAIT 0
#define GUEST_FUTEX_WAKE 1
#define GUEST_ETIMEDOUT 110
#define GUEST_ESRCH 3

static int owner_gone(uint32_t Owner) {
  return sys3(NR_tgkill, sys0(NR_getpid), (long)Owner, 0) == -GUEST_ESRCH;
}

/* Shuts the gate for Me. A hit in a signal handler of the thread that
 * holds it is refused (0): it would wait for itself. */
static int gate_take(uint32_t Me) {
  struct tscc_guest_gate *G = &tscc_guest_gate;
  for (;;) {
    uint32_t Owner = 0;
    if (__atomic_compare_exchange_n(&G->owner, &Owner, Me, 0, __ATOMIC_ACQUIRE,
                                    __ATOMIC_RELAXED))
      return 1;
    if (Owner == Me)
      return 0;
    /* A live owner is at its trap, which takes a round trip or two: wake
     * now and then only to ask whether it died. */
    struct {
      long Sec, Nsec; /* the old timespec of futex(2): long-sized fields */
    } Period = {0, 50000000};
    long Rc = sys4(NR_futex, &G->owner, GUEST_FUTEX_WAIT, Owner, &Period);
    if (Rc == -GUEST_ETIMEDOUT && owner_gone(Owner) &&
        __atomic_compare_exchange_n(&G->owner, &Owner, Me, 0, __ATOMIC_ACQUIRE,
                                    __ATOMIC_RELAXED)) {
      __atomic_add_fetch(&G->taken_over, 1, __ATOMIC_RELAXED);
      return 1;
    }
  }
}

static void gate_open(void) {
  __atomic_store_n(&tscc_guest_gate.owner, 0, __ATOMIC_RELEASE);
  sys3(NR_futex, &tscc_guest_gate.owner, GUEST_FUTEX_WAKE, 1);
}

/* The trap itself; tsrun knows the address after the int3. */
__attribute__((noinline)) static void guest_trap(const uint64_t *Regs,
                                                 uint64_t Site) {
  uintptr_t At = (uintptr_t)Site;
  __asm__ volatile(".globl tscc_guest_trap_end\n\t"
                   ".hidden tscc_guest_trap_end\n\t"
                   "int3\n"
                   "tscc_guest_trap_end:"
                   :
                   : "a"(Regs), "d"(At)
                   : "memory");
}

void agent_guest_trap(const struct tscc_agent_frame *F, uint64_t Rsp,
                      const struct tscc_agent_site *Site) {
  struct tscc_guest_gate *G = &tscc_guest_gate;
  if (!gate_take((uint32_t)sys0(NR_gettid))) {
    __atomic_add_fetch(&G->reentered, 1, __ATOMIC_RELAXED);
    agent_count_dropped(0, Site, TSCC_HOOK_HOST);
    return;
  }
  /* Checked with the gate held: tsrun clears it, then waits for the
   * gate's holder (if any) before it lets the guest go. */
  if (__atomic_load_n(&G->attached, __ATOMIC_ACQUIRE)) {
    uint64_t Regs[TSCC_REG_COUNT];
    agent_regs_of(F, Rsp, Site->address, Regs);
    guest_trap(Regs, Site->address);
  }
  gate_open();
}
