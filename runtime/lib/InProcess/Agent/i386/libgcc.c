/*===- i386/libgcc.c - 64-bit division for 32-bit code ----------------------===*
 *
 * i386 has no 64-bit divide instruction: compilers call these libgcc
 * routines for `/` and `%` on 64-bit integers, in the agent and in a probe
 * object's i386 clause code alike (whose `long long` arithmetic the loader
 * resolves to these). Shift and subtract, one quotient bit per step, with
 * the divisor's leading zeros skipped: no division anywhere, so nothing
 * here calls itself. A zero divisor yields 0 (clause code never divides by
 * zero: it checks first).
 *===----------------------------------------------------------------------===*/
#include "../agent.h"

uint64_t __udivdi3(uint64_t N, uint64_t D) HIDDEN;
uint64_t __umoddi3(uint64_t N, uint64_t D) HIDDEN;
int64_t __divdi3(int64_t N, int64_t D) HIDDEN;
int64_t __moddi3(int64_t N, int64_t D) HIDDEN;

static uint64_t udivmod(uint64_t N, uint64_t D, uint64_t *Rem) {
  if (D == 0) {
    *Rem = 0;
    return 0;
  }
  if (D > N) {
    *Rem = N;
    return 0;
  }
  int Shift = __builtin_clzll(D) - __builtin_clzll(N);
  D <<= Shift;
  uint64_t Q = 0;
  for (int I = 0; I <= Shift; ++I) {
    Q <<= 1;
    if (N >= D) {
      N -= D;
      Q |= 1;
    }
    D >>= 1;
  }
  *Rem = N;
  return Q;
}

uint64_t __udivdi3(uint64_t N, uint64_t D) {
  uint64_t R;
  return udivmod(N, D, &R);
}

uint64_t __umoddi3(uint64_t N, uint64_t D) {
  uint64_t R;
  udivmod(N, D, &R);
  return R;
}

static uint64_t magnitude(int64_t V) {
  return V < 0 ? 0 - (uint64_t)V : (uint64_t)V;
}

/* Truncating, as C's: the quotient's sign is the operands', the
 * remainder's the dividend's. */
int64_t __divdi3(int64_t N, int64_t D) {
  uint64_t R, Q = udivmod(magnitude(N), magnitude(D), &R);
  return (int64_t)((N < 0) != (D < 0) ? 0 - Q : Q);
}

int64_t __moddi3(int64_t N, int64_t D) {
  uint64_t R;
  udivmod(magnitude(N), magnitude(D), &R);
  return (int64_t)(N < 0 ? 0 - R : R);
}
