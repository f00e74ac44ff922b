/* inner() runs 3 times on its own and 5 times inside outer(), which is
 * itself recursive, so within() must count activations, not calls. */
#include <stdio.h>

__attribute__((noinline)) long inner(long x) { return x + 1; }
__attribute__((noinline)) long outer(long depth) {
  long S = 0;
  if (depth > 0)
    S += outer(depth - 1);
  S += inner(depth);
  __asm__ volatile("" : "+r"(S));
  return S;
}
int main(void) {
  for (int I = 0; I < 3; ++I)
    inner(I);
  outer(4); /* five activations, one inner() each */
  printf("inside=5 outside=3\n");
  return 0;
}
