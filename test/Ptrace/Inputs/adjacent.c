/* A function probed at its entry and at its second instruction, one byte
   later (push %rbp is 1 byte): a 5-byte jump at the entry would cover the
   second site.

   adjacent N: calls f() N times and says so. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long f(long x) { return x * 3 + 1; }

int main(int argc, char **argv) {
  long n = atol(argv[1]), sum = 0;
  for (long i = 0; i < n; i++)
    sum += f(i);
  printf("f called %ld times, sum %ld\n", n, sum);
  return 0;
}
