/*===- libc.c - The few libc functions compiled code calls ------------------===*
 *
 * The compiler emits calls to these for struct copies and large
 * initialisers, in the agent and in clause code alike; the probe object's
 * memcpy/memset/memmove are resolved to these when it is loaded into a
 * target. rep movsb/stosb keep them short and free of vector registers.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

void *memcpy(void *Dst, const void *Src, size_t N) HIDDEN;
void *memmove(void *Dst, const void *Src, size_t N) HIDDEN;
void *memset(void *Dst, int C, size_t N) HIDDEN;
int memcmp(const void *A, const void *B, size_t N) HIDDEN;

void *memcpy(void *Dst, const void *Src, size_t N) {
  void *D = Dst;
  __asm__ volatile("rep movsb" : "+D"(D), "+S"(Src), "+c"(N) : : "memory");
  return Dst;
}

void *memmove(void *Dst, const void *Src, size_t N) {
  if ((uintptr_t)Dst - (uintptr_t)Src >= N)
    return memcpy(Dst, Src, N);
  /* Overlapping with Dst above Src: copy backwards. */
  unsigned char *D = (unsigned char *)Dst + N;
  const unsigned char *S = (const unsigned char *)Src + N;
  while (N--)
    *--D = *--S;
  return Dst;
}

void *memset(void *Dst, int C, size_t N) {
  void *D = Dst;
  __asm__ volatile("rep stosb" : "+D"(D), "+c"(N) : "a"(C) : "memory");
  return Dst;
}

int memcmp(const void *A, const void *B, size_t N) {
  const unsigned char *P = (const unsigned char *)A;
  const unsigned char *Q = (const unsigned char *)B;
  for (size_t I = 0; I < N; ++I)
    if (P[I] != Q[I])
      return P[I] < Q[I] ? -1 : 1;
  return 0;
}
