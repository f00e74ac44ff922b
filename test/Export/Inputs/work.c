/* The traced program of the export tests: nested calls (work calls step),
 * a string argument, negative and wide values, and a trace() hook site.
 * It prints "VAL ..." lines with the values the probes must see. Built with
 * -m32 (run under qemu-i386) and -m64. */
#include <stdio.h>

__attribute__((noinline)) int step(int k) { return k + 1; }
__attribute__((noinline)) long work(long n, const char *name) {
  return n * 2 + step((int)(n % 1000));
}
__attribute__((noinline)) void note(int code) { (void)code; }

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  static const char *names[] = {"alpha", "beta \"quoted\"", "gamma"};
  for (long i = 0; i < 3; ++i) {
    long n = (i - 1) * 700000001L;
    long rv = work(n, names[i]);
    printf("VAL work %ld %s -> %ld\n", n, names[i], rv);
  }
  note(-5);
  return 0;
}
