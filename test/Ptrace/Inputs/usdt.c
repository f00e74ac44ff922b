// SystemTap SDT probes of every argument kind, with semaphores. The program
// prints what each probe's arguments are ("VAL ..."), so a tracer's view of
// them can be compared line by line; built -m32 and -m64, -O0 (arguments
// in memory: -4@-20(%rbp), 4@8(%ebp)) and -O2 (in registers: -4@%edx).
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <stdio.h>

#define SEMAPHORE(name)                                                        \
  __extension__ unsigned short demo_##name##_semaphore                         \
      __attribute__((unused)) __attribute__((section(".probes")))
SEMAPHORE(tick);
SEMAPHORE(mem);
SEMAPHORE(wide);
SEMAPHORE(guarded);

long glob = 77;
struct point {
  int x;
  long long y;
};

__attribute__((noinline)) void step(int i, struct point *p) {
  int neg = -i - 1;
  long long y = p->y;
  DTRACE_PROBE3(demo, tick, i, neg, y);
  printf("VAL tick %d %d %lld\n", i, neg, y);
  DTRACE_PROBE2(demo, mem, glob, (signed char)-5);
  printf("VAL mem %ld %d\n", glob, -5);
  unsigned long long big = 0xfffffffffffffff0ull + (unsigned)i;
  DTRACE_PROBE2(demo, wide, big, (unsigned char)200);
  printf("VAL wide %llu %u\n", big, 200u);
  // Only computed while a tracer is attached: the semaphore says so.
  if (demo_guarded_semaphore) {
    DTRACE_PROBE1(demo, guarded, i * 100);
    printf("VAL guarded %d\n", i * 100);
  }
  ++glob;
}

int main(void) {
  struct point p = {1, -3000000000ll};
  for (int i = 0; i < 3; ++i) {
    p.y -= i;
    step(i, &p);
  }
  fflush(stdout);
  return 0;
}
