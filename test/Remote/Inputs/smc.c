// A program whose code a debugger rewrites while it runs: f() returns 1
// until the driver patches it at checkpoint(), after f has been run (and
// translated by an emulator) 1000 times. The exit status is what f()
// returned after the checkpoint: 1 if the old code ran, 2 if the new.
#include <stdio.h>

__attribute__((noipa)) int f(void) { return 1; }
__attribute__((noipa)) void checkpoint(void) { __asm__ volatile(""); }

int main(void) {
  long Sum = 0;
  for (int I = 0; I < 1000; I++)
    Sum += f();
  printf("before %ld\n", Sum);
  fflush(stdout);
  checkpoint();
  Sum = 0;
  for (int I = 0; I < 1000; I++)
    Sum += f();
  printf("after %ld\n", Sum);
  return (int)(Sum / 1000);
}
