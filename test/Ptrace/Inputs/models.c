/* models: one source built -m32 and -m64. It prints, as PROG lines, what a
 * probe on each of its functions should see (arguments, return values,
 * struct fields, sizes and offsets in its own data model), then makes the
 * calls. A script prints the same lines from its probes; the tests compare
 * the two. Each line starts with the process's pid, so that the lines of
 * several processes traced at once can be told apart.
 *
 *   models [N]   makes the calls N times (default 1)
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, noclone))

struct rec {
  char tag;
  long l;
  long long ll;
  void *p;
  short s;
  const char *name;
};

NOINLINE long add3(int a, long b, long long c) {
  __asm__ volatile("" ::: "memory");
  return a + b + (long)c;
}

NOINLINE long long wide(long long x) {
  __asm__ volatile("" ::: "memory");
  return x * 3;
}

NOINLINE int show_rec(struct rec *r, const char *label) {
  __asm__ volatile("" ::: "memory");
  return r->tag + (int)strlen(label);
}

NOINLINE int inner(int x) {
  __asm__ volatile("" ::: "memory");
  return x + 1;
}

NOINLINE int outer(int x) { return inner(x) * 2; }

/* A function whose instruction boundaries are the same in both models:
 * offset 6 is the `add`, where a FUNC+6 probe fires. */
int at_offset(int x);
#if defined(__x86_64__)
__asm__(".text\n.globl at_offset\n.type at_offset,@function\nat_offset:\n"
        "push %rbp\nmov %rsp,%rbp\nmov %edi,%eax\n"
        "add $1,%eax\npop %rbp\nret\n.size at_offset,.-at_offset\n");
#else
__asm__(".text\n.globl at_offset\n.type at_offset,@function\nat_offset:\n"
        "push %ebp\nmov %esp,%ebp\nmov 8(%ebp),%eax\n"
        "add $1,%eax\npop %ebp\nret\n.size at_offset,.-at_offset\n");
#endif

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  int n = argc > 1 ? atoi(argv[1]) : 1;
  printf("PROG %d model sizeof long %zu ptr %zu rec %zu off ll %zu p %zu "
         "s %zu name %zu\n",
         (int)getpid(),
         sizeof(long), sizeof(void *), sizeof(struct rec),
         offsetof(struct rec, ll), offsetof(struct rec, p),
         offsetof(struct rec, s), offsetof(struct rec, name));
  for (int i = 0; i < n; ++i) {
    long b = -100000L - i;
    long long c = 0x123456789LL * (i + 1);
    printf("PROG %d add3 %d %ld %lld\n", (int)getpid(), i + 7, b, c);
    long r = add3(i + 7, b, c);
    printf("PROG %d add3 rv %ld\n", (int)getpid(), r);
    long long w = wide(-0x100000001LL - i);
    printf("PROG %d wide %lld rv %lld\n", (int)getpid(), -0x100000001LL - i, w);
    struct rec rec = {'A' + i, -5L - i, 0x7000000000000001LL + i, &rec,
                      (short)-300, "recname"};
    printf("PROG %d rec %c %ld %lld %p %d %s label %s\n",
         (int)getpid(), rec.tag, rec.l, rec.ll,
           rec.p, rec.s, rec.name, "lbl");
    show_rec(&rec, "lbl");
    inner(i);
    printf("PROG %d within outer %d\n", (int)getpid(), outer(i));
    printf("PROG %d offset ip %p\n", (int)getpid(), (void *)((char *)at_offset + 6));
    at_offset(i);
  }
  printf("PROG %d done\n", (int)getpid());
  return 3;
}
