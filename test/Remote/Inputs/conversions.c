/* The traced program of conversions-two-models.t: the C compiler's answer
 * for integer promotions, the usual arithmetic conversions, compound
 * assignments and constant folding, printed as "VAL name value" lines. The
 * script computes the same expressions on values()'s arguments. Built with
 * -m32 (run under qemu-i386) and -m64. */
#include <stdio.h>
#include <unistd.h>

#include "conversions.h"

__attribute__((noinline)) void values(int i, unsigned u, long l,
                                      unsigned long ul, signed char c,
                                      unsigned short us, long long ll,
                                      struct bits *b) {
  (void)i, (void)u, (void)l, (void)ul, (void)c, (void)us, (void)ll, (void)b;
}

#define SHOW(name, expr) printf("VAL " name " %lld\n", (long long)(expr))

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  printf("VAL pid %d\n", (int)getpid());
  int i = -1;
  unsigned u = 3;
  long l = -5;
  unsigned long ul = 7;
  signed char c = -100;
  unsigned short us = 60000;
  long long ll = -3;
  struct bits b = {0, -3, 0};
  SHOW("u+l<0", u + l < 0);
  SHOW("l<u", l < u);
  SHOW("ul>i", ul > i);
  SHOW("i<ul", i < ul);
  SHOW("-u", -u);
  SHOW("c>>1", c >> 1);
  SHOW("us<<15", us << 15);
  SHOW("~us", ~us);
  SHOW("ll*u", ll * u);
  SHOW("l+3000000000", l + 3000000000);
  SHOW("cond>0", (i < 0 ? -1 : u) > 0);
  SHOW("cond", i < 0 ? l : ul);
  SHOW("-1L<0U", -1L < 0U);
  SHOW("ptr==-1", (char *)0xFFFFFFFF == -1);
  SHOW("lo-1<0", b.lo - 1 < 0);
  SHOW("s*2", b.s * 2);
  SHOW("full-1<0", b.full - 1 < 0);
  int k = -7;
  k /= u;
  SHOW("k/=u", k);
  unsigned char uc = 200;
  uc += 100;
  SHOW("uc+=100", uc);
  unsigned short h = 65535;
  h <<= 4;
  SHOW("h<<=4", h);
  long m = -1;
  m += u;
  SHOW("m+=u", m);
  int *pp = (int *)64;
  pp -= (int *)32; /* GNU C: the element difference, as a pointer */
  SHOW("p-=q", (long)pp);
  pp += 2;
  SHOW("p+=2", (long)pp);
  values(i, u, l, ul, c, us, ll, &b);
  return 0;
}
