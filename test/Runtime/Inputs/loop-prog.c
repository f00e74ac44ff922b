/* Calls foo() forever: only the session ending stops it. */
__attribute__((noinline)) int foo(long x) { return (int)x; }
int main(void) {
  for (long i = 1;; ++i)
    foo(i);
}
