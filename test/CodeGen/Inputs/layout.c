/* A traced program for the codegen end-to-end tests: it prints, prefixed
 * with PROG, exactly what the script prints (prefixed with VAL) from its
 * probes, so a test compares the two. Built with -m32 and -m64. */
#include <stdio.h>

struct req {
  int id;
  long len;
  char *name;
  unsigned flags : 3;
  int sflag : 4;
  struct {
    short a;
    char tag[8];
  } inner;
  long long big;
};

int handle(struct req *r, long long scale, int flags) {
  return r->id * 10 + flags;
}

long long scaled(struct req *r) { return r->big * -3; }

int main(void) {
  struct req r = {1, -40, "alpha", 5, -3, {77, "tagX"}, 1LL << 40};
  for (int i = 0; i < 3; i++) {
    r.id = i + 1;
    r.len = -40 - i;
    r.big += i;
    if (i == 2)
      r.name = "beta";
    printf("PROG id=%d len=%ld name=%s flags=%u sflag=%d tag=%s a=%d "
           "big=%lld scale=%lld f=%d sizeof=%d\n",
           r.id, r.len, r.name, r.flags, r.sflag, r.inner.tag, r.inner.a,
           r.big, 3LL << 33, 9, (int)sizeof r);
    int rv = handle(&r, 3LL << 33, 9);
    printf("PROG rv=%d\n", rv);
    long long s = scaled(&r);
    printf("PROG scaled=%lld\n", s);
  }
  return 0;
}
