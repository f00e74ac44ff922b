/* Calls foo() three times, prints its own view of the calls, exits 3. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int foo(long x) { return (int)x * 2; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3;
  for (int i = 0; i < n; ++i)
    printf("prog: foo(%d) = %d\n", i + 5, foo(i + 5));
  return 3;
}
