// The library dlopen-threads.c loads and unloads: one probed function.
__attribute__((noinline)) long plugged(long N) { return N + 1; }
