/* dlopen()ed by the target in "dlopen" mode. Its constructor calls
 * lib_func, so a probe on lib_func sees that call only if the library was
 * instrumented before its initialisers ran. */
int lib_ctor_calls;

__attribute__((noinline)) long lib_func(long x) { return x * 5; }

__attribute__((constructor)) static void init(void) {
  lib_func(1);
  lib_ctor_calls = 1;
}
