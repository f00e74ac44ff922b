// USDT probes in static functions of a program that is stripped after
// linking (as distributions ship it): no symbol covers the notes' sites,
// only the .eh_frame FDEs bound the functions around them.
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>

static volatile long Sink;

// The note's nop is followed by straight-line code: room for a jump.
__attribute__((noinline)) static void tick(long I) {
  Sink += I;
  DTRACE_PROBE1(demo, tick, I);
  Sink -= 1;
}

// A branch skips the probe and lands right behind its nop: a jump there
// would be entered in its middle, so the site must be a trap.
__attribute__((noinline)) static void odd(long I) {
  if (I & 1)
    DTRACE_PROBE1(demo, odd, I);
  Sink += I;
}

// A switch compiled to a jump table, in the function that holds the note:
// the table's entries are read from the process, and none lands inside
// the jump.
__attribute__((noinline)) static long pick(long I) {
  long R = 0;
  switch (I % 9) {
  case 0: R = Sink * 3; Sink = R; break;
  case 1: Sink += 11; R = 4; break;
  case 2: R = Sink ^ 5; Sink -= R; break;
  case 3: Sink = Sink - 2; break;
  case 4: R = Sink / 3; Sink = 7; break;
  case 5: Sink <<= 1; R = 9; break;
  case 6: Sink = I; break;
  case 7: R = Sink % 13; break;
  default: Sink = 1; break;
  }
  DTRACE_PROBE2(demo, pick, I, R);
  Sink += R;
  Sink ^= I;
  return R;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 1000, Odd = 0;
  for (long I = 0; I < N; ++I) {
    tick(I);
    odd(I);
    Odd += I & 1;
    pick(I);
  }
  printf("ticks %ld odd %ld picks %ld\n", N, Odd, N);
  return 0;
}
