// Calls pick() (usdt-cold-table.S) for 0..N-1: each fourth call passes
// the note demo:cold; the program prints what it summed and how many.
#include <stdio.h>
#include <stdlib.h>
long pick(long I);
int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 1000, Sum = 0;
  for (long I = 0; I < N; ++I)
    Sum += pick(I);
  printf("sum %ld cold %ld\n", Sum, N / 4);
  return 0;
}
