/* Probe sites of every kind: a function too short for a jump, an ordinary
 * one, one whose clause wants a stack trace. Each is called N times. */
#include <stdio.h>
#include <stdlib.h>

/* One byte: in assembly, since a naked function built -m32 -fPIE still
 * gets GCC's PIC set-up in front of its ret. */
void tiny(void);
__asm__(".text\n.globl tiny\n.type tiny, @function\ntiny:\n\tret\n"
        ".size tiny, .-tiny\n");
__attribute__((noinline)) long normal(long x) { return x * 7; }
__attribute__((noinline)) long stacky(long x) { return x + 1; }
int main(int argc, char **argv) {
  int N = atoi(argv[1]);
  long S = 0;
  for (int I = 0; I < N; ++I) {
    tiny();
    S += normal(I) + stacky(I);
  }
  printf("calls %d each\n", N);
  return S == 42;
}
