// Calls leaf() through three call paths, a number of times given on the
// command line for each, and prints how often it took each path: the
// oracle for a profile keyed by stack.
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long leaf(long X) {
  __asm__ volatile("" ::: "memory");
  return X + 1;
}
__attribute__((noinline)) long via_a(long X) { return leaf(X) * 2; }
__attribute__((noinline)) long via_b(long X) { return leaf(X) * 3; }
__attribute__((noinline)) long via_c(long X) { return via_a(X) + 1; }

int main(int argc, char **argv) {
  long A = argc > 1 ? atol(argv[1]) : 5, B = argc > 2 ? atol(argv[2]) : 3,
       C = argc > 3 ? atol(argv[3]) : 2, Sum = 0;
  for (long I = 0; I < A; ++I)
    Sum += via_a(I);
  for (long I = 0; I < B; ++I)
    Sum += via_b(I);
  for (long I = 0; I < C; ++I)
    Sum += via_c(I);
  printf("path main>via_a>leaf %ld\n", A);
  printf("path main>via_b>leaf %ld\n", B);
  printf("path main>via_c>via_a>leaf %ld\n", C);
  return Sum == 0;
}
