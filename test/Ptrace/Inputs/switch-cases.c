/* A switch whose table sends case 1 into the middle of the bytes a 5-byte
   jump at case 0 would overwrite: case 0 is one 2-byte instruction (not)
   that falls through into case 1. The labels are the compiler's own; the
   asm statements only name them, for the probe's offset and for the
   check that the layout is what the test needs.

   switch-cases N   runs step() N times, case i % 6 at the i-th call

   Nothing in the program takes the labels' addresses: that would make
   them address constants, which keep a site a breakpoint by themselves. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int step(int op, int x) {
  switch (op) {
  case 0:
    __asm__ volatile("case0_site:");
    x = ~x; /* fallthrough */
  case 1:
    __asm__ volatile("case1_site:");
    x = x * 5 + 1;
    break;
  case 2:
    x -= 7;
    break;
  case 3:
    x ^= 0x55;
    break;
  case 4:
    x <<= 2;
    break;
  case 5:
    x = x / 3;
    break;
  default:
    x = 0;
  }
  return x;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 60, case0 = 0;
  int acc = 1;
  for (long i = 0; i < n; i++) {
    int op = (int)(i % 6);
    case0 += op == 0;
    acc = step(op, acc) & 0xffff;
  }
  printf("case 0 ran %ld times, acc %d\n", case0, acc);
  return 0;
}
