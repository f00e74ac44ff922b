__attribute__((noinline)) long lib_func(long x) { return x * 5; }
__attribute__((constructor)) static void init(void) { lib_func(1); }
