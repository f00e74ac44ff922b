/* Built twice: as libA.so (fa: x * x + 1) and, with -DOTHER, as libB.so
 * (fb: 3x + 7000), so that fb starts where fa did, with other code. Each
 * is long enough for a jump at -O1. */
#ifndef OTHER
int fa(int X) { return X * X + 1; }
#else
int fb(int X) { return 3 * X + 7000; }
#endif
