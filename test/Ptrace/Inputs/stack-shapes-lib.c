// A library stack-shapes.c loads with dlopen(): leaf() is called through it.
__attribute__((noinline)) long through_lib(long (*Leaf)(long), long X) {
  long R = Leaf(X);
  __asm__ volatile("" ::: "memory");
  return R + 1;
}
