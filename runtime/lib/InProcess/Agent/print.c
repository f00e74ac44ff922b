/*===- print.c - print(@) in a process waits until tsrun has printed -------===*
 *
 * print(@a) in a clause that runs in the process writes a record
 * (TSCC_RING_PRINT_AGG) into its thread's ring; tsrun prints the
 * aggregation when it reads that record, in order with the thread's other
 * records. For the aggregation printed to be the one the clause saw (as it
 * was when tsrun ran such clauses at a breakpoint, the thread stopped),
 * the thread waits until tsrun says it has printed it: each such record
 * carries a number (tscc_ring.print_asked of the thread's own ring), and
 * tsrun writes it into print_done when the aggregation is out and wakes
 * the thread (futex).
 *
 * The thread holds the store lock meanwhile, so it raises its ring's
 * `waiting` flag, as a writer waiting for room does: tsrun reads the rings
 * of such a domain without the lock. The wait is bounded: when tsrun is
 * gone, the session ends, or PRINT_WAIT_NS pass (a reader stopped in a
 * debugger), the thread goes on, and the aggregation is printed when the
 * record is read, with what it holds then.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

#define FUTEX_WAIT_ 0
/* The longest a thread waits for one print. */
#define PRINT_WAIT_NS 2000000000ull
/* How long one futex wait lasts before the thread looks again. */
#define PRINT_POLL_NS 2000000L

static int print_hopeless(struct tscc_store *S) {
  return (__atomic_load_n(&S->control->reader_alive, __ATOMIC_ACQUIRE) &
          TSCC_READER_GONE) ||
         agent_stopping(S);
}

uint32_t agent_print_number(struct tscc_store *S, uint32_t Slot) {
  struct tscc_ring *Own = tscc_ring_at(S, Slot);
  if (!Own || Slot >= S->layout.thread_capacity)
    return 0;
  uint32_t N = Own->print_asked + 1;
  if (!N) /* 0 says "do not wait" */
    N = 1;
  Own->print_asked = N;
  return N;
}

void agent_wait_printed(struct tscc_store *S, uint32_t Slot, uint32_t N) {
  struct tscc_ring *Own = tscc_ring_at(S, Slot);
  if (!Own || !N)
    return;
  struct tscc_store_header *H = tscc_store_hdr(S);
  uint64_t Deadline = agent_now_ns() + PRINT_WAIT_NS;
  for (;;) {
    uint32_t Done = __atomic_load_n(&Own->print_done, __ATOMIC_ACQUIRE);
    if ((int32_t)(Done - N) >= 0 || print_hopeless(S) ||
        agent_now_ns() > Deadline)
      return;
    /* Said before the reader is woken: it then reads this domain's rings
     * even though the lock is held (by this thread). */
    __atomic_store_n(&Own->waiting, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&H->wake, 1, __ATOMIC_RELEASE);
    tscc_host_wake(&H->wake);
    struct {
      long Sec, Nsec; /* the old timespec of futex(2): long-sized fields */
    } Period = {0, PRINT_POLL_NS};
    sys4(NR_futex, &Own->print_done, FUTEX_WAIT_, Done, &Period);
  }
}
