/* Calls probed functions with every vector register holding a value the
 * program checks afterwards: sum8 takes eight doubles (xmm0-7) and
 * check_high compares xmm8-15, set by its caller, with xmm0-7. Prints
 * "sum N" and "high mismatches M" after N rounds: a hit that lost a vector
 * register shows as a wrong sum or a mismatch. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) double sum8(double A, double B, double C, double D,
                                      double E, double F, double G, double H,
                                      long I) {
  return A + 2 * B + 3 * C + 4 * D + 5 * E + 6 * F + 7 * G + 8 * H + (double)I;
}

/* rdi: the round; xmm0-7 and xmm8-15 hold the same eight values; eax: how
 * many of the eight pairs differ. Its first instruction is 5 bytes, room
 * for the probe's jump. */
long check_high(long);
__asm__(".text\n"
        ".globl check_high\n"
        ".type check_high, @function\n"
        "check_high:\n"
        "  mov $0, %eax\n"
#define PAIR(LO, HI)                                                           \
  "  movq %xmm" #LO ", %rcx\n"                                                 \
  "  movq %xmm" #HI ", %rdx\n"                                                 \
  "  cmp %rcx, %rdx\n"                                                         \
  "  setne %cl\n"                                                              \
  "  movzbl %cl, %ecx\n"                                                       \
  "  add %ecx, %eax\n"
        PAIR(0, 8) PAIR(1, 9) PAIR(2, 10) PAIR(3, 11) PAIR(4, 12) PAIR(5, 13)
            PAIR(6, 14) PAIR(7, 15)
        "  ret\n"
        ".size check_high, .-check_high\n");

static long call_check_high(long Round, const double *V) {
  long R;
  /* Past the red zone: the call pushes a return address. */
  __asm__ volatile("lea -128(%%rsp), %%rsp\n\t"
                   "movsd 0(%2), %%xmm0\n\tmovsd 0(%2), %%xmm8\n\t"
                   "movsd 8(%2), %%xmm1\n\tmovsd 8(%2), %%xmm9\n\t"
                   "movsd 16(%2), %%xmm2\n\tmovsd 16(%2), %%xmm10\n\t"
                   "movsd 24(%2), %%xmm3\n\tmovsd 24(%2), %%xmm11\n\t"
                   "movsd 32(%2), %%xmm4\n\tmovsd 32(%2), %%xmm12\n\t"
                   "movsd 40(%2), %%xmm5\n\tmovsd 40(%2), %%xmm13\n\t"
                   "movsd 48(%2), %%xmm6\n\tmovsd 48(%2), %%xmm14\n\t"
                   "movsd 56(%2), %%xmm7\n\tmovsd 56(%2), %%xmm15\n\t"
                   "call check_high\n\t"
                   "lea 128(%%rsp), %%rsp"
                   : "=a"(R)
                   : "D"(Round), "r"(V)
                   : "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "xmm0",
                     "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
                     "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
                     "xmm14", "xmm15", "memory", "cc");
  return R;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 100;
  double Sum = 0, Want = 0;
  long Mismatches = 0;
  for (long I = 0; I < N; ++I) {
    double V[8];
    for (int K = 0; K < 8; ++K)
      V[K] = (double)(I * 8 + K) + 0.25;
    Sum += sum8(V[0], V[1], V[2], V[3], V[4], V[5], V[6], V[7], I);
    for (int K = 0; K < 8; ++K)
      Want += (K + 1) * V[K];
    Want += (double)I;
    Mismatches += call_check_high(I, V);
  }
  printf("sum %s\n", Sum == Want ? "ok" : "wrong");
  printf("high mismatches %ld\n", Mismatches);
  printf("calls %ld\n", N);
  return 0;
}
