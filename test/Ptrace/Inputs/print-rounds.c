// Rounds of calls to tick(), each followed by one call to report(): a
// clause at report() that prints what the clauses at tick() counted sees
// exactly the ticks of the rounds so far. tick() goes on at once after
// report() returns, so a print made later than the clause would show more.
#include <stdio.h>
#include <stdlib.h>

volatile long sink;

__attribute__((noinline)) long tick(long x) {
  sink += x;
  return x;
}

__attribute__((noinline)) long report(long round) {
  sink += round;
  return round;
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 3;
  long total = 0;
  for (int r = 1; r <= rounds; ++r) {
    for (int i = 0; i < r * 10; ++i)
      tick(i);
    total += r * 10;
    report(r);
  }
  // After the last report, more ticks that no print may show.
  for (int i = 0; i < 1000; ++i)
    tick(i);
  printf("ticks %ld\n", total + 1000);
  return 0;
}
