/* A library with a semaphore-guarded USDT probe, loaded with dlopen() by
 * dlopen.c: lib_func(x) runs plug:hit(x, counter) only while a tracer has
 * set the probe's semaphore, and says so ("VAL ..."). */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <stdio.h>

__extension__ unsigned short plug_hit_semaphore __attribute__((unused))
__attribute__((section(".probes")));

static long Counter = 5;

long lib_func(long X) {
  if (plug_hit_semaphore) {
    DTRACE_PROBE2(plug, hit, X, Counter);
    printf("VAL hit %ld %ld\n", X, Counter);
  }
  Counter += 10;
  return X;
}
