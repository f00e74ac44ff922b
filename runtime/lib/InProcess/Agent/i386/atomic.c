/*===- i386/atomic.c - 64-bit atomics of the 32-bit agent -------------------===*
 *
 * The store's counters, sequence numbers and ring positions are 64-bit
 * words that tsrun updates with x86-64's locked instructions at the same
 * time. In i386 a uint64_t is only 4-byte aligned in a struct, so GCC calls
 * libatomic for atomics on them; the agent has no libatomic, so these are
 * the calls: read-modify-writes with `lock cmpxchg8b` (atomic with respect
 * to x86-64's 8-byte locked operations on the same word, and a full
 * barrier), loads and stores with one 8-byte move.
 *===----------------------------------------------------------------------===*/
#include "../agent.h"

uint64_t __atomic_load_8(const volatile void *P, int Model) HIDDEN;
void __atomic_store_8(volatile void *P, uint64_t V, int Model) HIDDEN;
_Bool __atomic_compare_exchange_8(volatile void *P, void *Expected,
                                  uint64_t Desired, _Bool Weak, int Success,
                                  int Failure) HIDDEN;
uint64_t __atomic_fetch_add_8(volatile void *P, uint64_t V, int Model) HIDDEN;
uint64_t __atomic_fetch_or_8(volatile void *P, uint64_t V, int Model) HIDDEN;
uint64_t __atomic_exchange_8(volatile void *P, uint64_t V, int Model) HIDDEN;

/* Compares *P with Old; if equal stores New. Returns what *P held. */
static uint64_t cas8(volatile void *P, uint64_t Old, uint64_t New) {
  uint32_t Lo = (uint32_t)Old, Hi = (uint32_t)(Old >> 32);
  __asm__ volatile("lock cmpxchg8b (%[p])"
                   : "+a"(Lo), "+d"(Hi)
                   : [p] "S"(P), "b"((uint32_t)New), "c"((uint32_t)(New >> 32))
                   : "memory", "cc");
  return (uint64_t)Hi << 32 | Lo;
}

/* Plain 8-byte loads and stores are atomic on x86 when aligned (the
 * store's words are): through xmm0, which every way into the agent saves
 * (entry.S; the kernel for signal handlers), without a locked cycle. */
uint64_t __atomic_load_8(const volatile void *P, int Model) {
  (void)Model;
  uint64_t V;
  __asm__ volatile("movq (%1), %%xmm0\n\tmovq %%xmm0, %0"
                   : "=m"(V)
                   : "r"(P)
                   : "memory"); /* xmm0: the compiler never uses it here */
  return V;
}

uint64_t __atomic_exchange_8(volatile void *P, uint64_t V, int Model) {
  (void)Model;
  uint64_t Cur = *(volatile uint64_t *)P, Seen;
  while ((Seen = cas8(P, Cur, V)) != Cur)
    Cur = Seen;
  return Cur;
}

void __atomic_store_8(volatile void *P, uint64_t V, int Model) {
  __asm__ volatile("movq %1, %%xmm0\n\tmovq %%xmm0, (%0)"
                   :
                   : "r"(P), "m"(V)
                   : "memory"); /* xmm0: the compiler never uses it here */
  if (Model == __ATOMIC_SEQ_CST)
    __asm__ volatile("mfence" ::: "memory");
}

_Bool __atomic_compare_exchange_8(volatile void *P, void *Expected,
                                  uint64_t Desired, _Bool Weak, int Success,
                                  int Failure) {
  (void)Weak, (void)Success, (void)Failure;
  uint64_t Want;
  __builtin_memcpy(&Want, Expected, 8);
  uint64_t Seen = cas8(P, Want, Desired);
  if (Seen == Want)
    return 1;
  __builtin_memcpy(Expected, &Seen, 8);
  return 0;
}

uint64_t __atomic_fetch_add_8(volatile void *P, uint64_t V, int Model) {
  (void)Model;
  uint64_t Cur = *(volatile uint64_t *)P, Seen;
  while ((Seen = cas8(P, Cur, Cur + V)) != Cur)
    Cur = Seen;
  return Cur;
}

uint64_t __atomic_fetch_or_8(volatile void *P, uint64_t V, int Model) {
  (void)Model;
  uint64_t Cur = *(volatile uint64_t *)P, Seen;
  while ((Seen = cas8(P, Cur, Cur | V)) != Cur)
    Cur = Seen;
  return Cur;
}
