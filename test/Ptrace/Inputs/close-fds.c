/* A daemon's start: close every descriptor it did not open (but 0-2), then
 * start 8 threads that call work() 100 times each, and say how many calls
 * there were. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/resource.h>
__attribute__((noinline)) long work(long x) { __asm__ volatile(""); return x + 1; }
static void *thr(void *a) { long s = 0; for (long i = 0; i < 100; ++i) s += work(i); return (void *)s; }
int main(int argc, char **argv) {
  struct rlimit r; getrlimit(RLIMIT_NOFILE, &r);
  for (int fd = 3; fd < (int)r.rlim_cur && fd < 65536; ++fd) close(fd);
  pthread_t t[8];
  for (int i = 0; i < 8; ++i) pthread_create(&t[i], 0, thr, 0);
  for (int i = 0; i < 8; ++i) pthread_join(t[i], 0);
  printf("calls %d\n", 800);
  return 0;
}
