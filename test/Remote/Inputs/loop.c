/* Calls foo() a few times and says how it ended: used to check that a
 * target left by tsrun mid-run keeps running, untraced and unharmed. */
#include <stdio.h>

__attribute__((noinline)) long foo(long x) { return x + 1; }

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  long s = 0;
  for (long i = 0; i < 5; ++i)
    s += foo(i);
  printf("done %ld\n", s);
  return 3;
}
