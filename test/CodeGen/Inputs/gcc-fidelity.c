/* The traced program of gcc-fidelity.t: gcc's own answers, printed as
 * "VAL name value" lines, for the expressions the script computes at the
 * entry of values(). */
#include <stdio.h>

#include "gcc-fidelity.h"

#define SHOW(name, ...)                                                        \
  printf("VAL " name " %llu\n", (unsigned long long)(__VA_ARGS__))

__attribute__((noinline)) void values(struct wide *w, int *p, long i,
                                      void *hi) {
  /* A pointer converted to a wider integer is sign-extended (ILP32). */
  SHOW("ptr-const", (long long)(struct wide *)0xfffffff0);
  SHOW("ptr-const-u", (unsigned long long)(int *)0xffffffffU);
  SHOW("ptr-arg", (long long)hi);
  /* __alignof__ is gcc's preferred alignment, _Alignof the ABI's. */
  SHOW("alignof-ll", __alignof__(long long));
  SHOW("alignof-d", __alignof__(double));
  SHOW("Alignof-ll", _Alignof(long long));
  SHOW("alignof-member", __alignof__(w->ll));
  SHOW("alignof-struct", __alignof__(struct wide));
  SHOW("alignof-elem", __alignof__(w->arr[0]));
  /* Wide bit-fields compute in their own N bits. */
  SHOW("b48<<15", w->b48 << 15u);
  SHOW("-b48", -w->b48);
  SHOW("~b48", ~w->b48);
  SHOW("b48==-1", w->b48 == -1);
  SHOW("b48+1", w->b48 + 1);
  SHOW("b48+1ull", w->b48 + 1ull);
  SHOW("s40*3", w->s40 * 3);
  SHOW("s40>>1", w->s40 >> 1);
  SHOW("b33*b33", w->b33 * w->b33);
  SHOW("u32+1", w->u32 + 1);
  SHOW("b48>b33", w->b48 > w->b33);
  /* String literals are char arrays. */
  SHOW("sizeof-abc", sizeof("abc"));
  SHOW("abc[1]", "abc"[1]);
  SHOW("abc[i]", "abc"[i]);
  /* Valid C tscc used to reject. */
  SHOW("i[arr]", 2 [w->arr]);
  SHOW("arr?1:2", w->arr ? 1 : 2);
  SHOW("L'a'", L'a');
  SHOW("u'a'", u'\xffff');
  SHOW("U'a'", U'\x12345');
  SHOW("L'e'", L'é');
  SHOW("sizeof(int(*)[3])", sizeof(int (*)[3]));
  SHOW("sizeof(void(*)(int))", sizeof(void (*)(int)));
  SHOW("cast(*)[3]", (*(short (*)[3])p)[2]);
  SHOW("sizeof*(short(*)[3])", sizeof(*(short (*)[3])p));
  SHOW("complit", (int){7} + (struct wide){.ll = 5, .c = 2}.ll);
  SHOW("complit-arr", (unsigned char[]){1, 2, 300}[2]);
  SHOW("complit-elide", (struct wide){1, 2, 3, 4, 5, 6, 7}.arr[2]);
  SHOW("complit-string", (char[]){"abc"}[1] + sizeof((char[]){"abc"}));
  SHOW("elvis", w->ll ?: 9);
  SHOW("elvis0", (i - i) ?: 9);
  SHOW("typeof", (__typeof__(w->c))300);
  SHOW("sizeof-typeof", sizeof(__typeof__(i)));
  SHOW("generic-long", _Generic(i, long: 1, long long: 2, default: 3));
  SHOW("generic-b48", _Generic(w->b48, unsigned long long: 1, default: 2));
  SHOW("generic-u32", _Generic(w->u32, unsigned int: 1, default: 2));
  SHOW("generic-sizeof", _Generic(sizeof(int), unsigned long: 1,
                                  unsigned int: 2));
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  static struct wide w = {0xfedcba987654ULL, -5, 0xffffffffU, 0x1ffffffffULL,
                          {1, 2, 3, 4}, -7, 'x'};
  values(&w, &w.arr[1], 2, (void *)(unsigned long)0xfffffff0UL);
  return 0;
}
