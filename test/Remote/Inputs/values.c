/* The traced program of the fixture tests: prints, as "VAL name value"
 * lines, every value the probes are expected to see, so a test can compare
 * the two outputs. Built with -m32 (run under qemu-i386) and -m64. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) long foo(long x) { return x * 2 - 7; }
__attribute__((noinline)) long long wide(long long x) { return x * 3; }
__attribute__((noinline)) long rec(long n) { return n <= 0 ? 0 : n + rec(n - 1); }
__attribute__((noinline)) void named(const char *s) { (void)s; }

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  printf("VAL pid %d\n", (int)getpid());
  for (long i = 1; i <= 3; ++i) {
    long a = i * 1000003 - 5000000; /* negative in both models */
    printf("VAL foo.arg %ld\n", a);
    printf("VAL foo.rv %ld\n", foo(a));
  }
  printf("VAL wide.rv %lld\n", wide(0x123456789LL));
  void *p = malloc(12345);
  printf("VAL malloc.arg %lu\n", 12345ul);
  free(p);
  printf("VAL rec.arg %ld\n", 3l);
  printf("VAL rec.arg %ld\n", 2l);
  printf("VAL rec.arg %ld\n", 1l);
  printf("VAL rec.arg %ld\n", 0l);
  printf("VAL rec.rv %ld\n", 0l);
  printf("VAL rec.rv %ld\n", 1l);
  printf("VAL rec.rv %ld\n", 3l);
  printf("VAL rec.rv %ld\n", rec(3));
  printf("VAL getppid.rv %ld\n", (long)getppid());
  named("hello from the target");
  printf("VAL named.str %s\n", "hello from the target");
  return 0;
}
