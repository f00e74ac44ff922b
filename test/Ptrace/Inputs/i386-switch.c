/* classify() is a switch the compiler turns into a jump table: in i386
 * position-independent code a GOT-relative one (the GOT's address from
 * __x86.get_pc_thunk), otherwise a table of absolute addresses. main()
 * calls it N times and prints what a trace must agree with. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int classify(int X, int Y) {
  switch (X & 15) {
  case 0: return Y + 3;
  case 1: return Y * 7;
  case 2: return Y - 11;
  case 3: return Y ^ 0x55;
  case 4: return Y << 2;
  case 5: return Y / 3;
  case 6: return Y % 5;
  case 7: return ~Y;
  case 8: return Y + 100;
  case 9: return Y * Y;
  default: return 0;
  }
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 1000;
  long long Sum = 0;
  for (int I = 0; I < N; ++I)
    Sum += classify(I, I);
  printf("classify called %d times, returned %lld in all\n", N, Sum);
  return 0;
}
