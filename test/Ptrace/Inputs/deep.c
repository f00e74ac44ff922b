/* deep D: deep() recursing D calls deep, twice; then once more with a
 * longjmp out of the innermost call (those calls never return); then once
 * more. Prints its calls, its returns and the sum of the values they
 * returned. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static long Calls, Returns, RvSum;
static int Jump;
static jmp_buf Env;

__attribute__((noinline)) long deep(long D) {
  ++Calls;
  if (D == 0 && Jump)
    longjmp(Env, 1);
  long R = D == 0 ? 0 : deep(D - 1) + 1;
  __asm__ volatile("" : "+r"(R));
  ++Returns;
  RvSum += R;
  return R;
}

int main(int argc, char **argv) {
  long D = atol(argv[1]);
  deep(D);
  deep(D);
  Jump = 1;
  if (!setjmp(Env))
    deep(D);
  Jump = 0;
  deep(D);
  printf("calls %ld returns %ld rvsum %ld\n", Calls, Returns, RvSum);
  return 0;
}
