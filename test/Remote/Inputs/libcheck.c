/* A library whose two builds differ (-DOTHER): the stale-library test maps
 * one in the target and gives tsrun the other. */
#include <stdio.h>

#ifdef OTHER
static volatile int Pad[64];
__attribute__((noinline)) int padding(int x) { return Pad[x & 63] + x; }
#endif

__attribute__((noinline)) int lib_func(int x) {
#ifdef OTHER
  return padding(x) * 3;
#else
  return x * 2;
#endif
}
