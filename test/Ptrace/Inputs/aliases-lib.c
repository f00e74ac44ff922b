// A function with three names, as glibc has `malloc`/`__libc_malloc` and
// `open`/`open64`.
int work(int x) { return x * 3 + 1; }
int work_alias(int x) __attribute__((alias("work")));
int __work_impl(int x) __attribute__((alias("work")));
