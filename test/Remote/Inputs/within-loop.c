// inner() and leaf() run on their own and inside outer(), which recurses:
// within("outer") must count activations, not calls. Prints how many calls
// of each were inside outer() and outside, what a tracer must match.
#include <stdio.h>
#include <stdlib.h>

static long InnerIn, InnerOut, LeafIn, LeafOut, Depth;

__attribute__((noinline)) long inner(long X) {
  ++*(Depth ? &InnerIn : &InnerOut);
  return X + 1;
}
__attribute__((noinline)) long leaf(long X) {
  ++*(Depth ? &LeafIn : &LeafOut);
  return X ^ 1;
}
__attribute__((noinline)) long outer(long D) {
  ++Depth;
  long S = D > 0 ? outer(D - 1) : leaf(D);
  S += inner(D);
  --Depth;
  __asm__ volatile("" : "+r"(S));
  return S;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  long N = argc > 1 ? atol(argv[1]) : 10, Sum = 0;
  for (long I = 0; I < N; ++I) {
    Sum += inner(I);
    if (I % 3 == 0)
      Sum += outer(I % 4);
    if (I % 5 == 0)
      Sum += leaf(I);
  }
  printf("inner inside=%ld outside=%ld\n", InnerIn, InnerOut);
  printf("leaf inside=%ld outside=%ld sum %ld\n", LeafIn, LeafOut, Sum);
  return 0;
}
