// C that tscc once computed differently from gcc, or rejected, each checked
// against what gcc -m32 and gcc -m64 made of the same expression in the
// traced program itself (issue 20): pointers widened to integers, the two
// alignments, wide bit-fields, string literals as arrays, i[arr], arrays as
// conditions, prefixed character constants, parenthesised declarators,
// compound literals, GNU x ?: y and __typeof__, and _Generic.
// REQUIRES: qemu-i386, m32
// RUN: %tscc -I %S/Inputs %s -o %t.o
// RUN: %cc64 -I %S/Inputs %S/Inputs/gcc-fidelity.c -o %t64
// RUN: %cc32 -I %S/Inputs %S/Inputs/gcc-fidelity.c -o %t32
// RUN: %tsrun %t.o -- %t64 > %t.out64
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32' --out %t.prog32 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t32 > %t.out32
// The program prints its lines first; the probe's come from the trace.
// RUN: grep '^VAL' %t.out64 | sort | uniq -c | awk '$1 != 2' > %t.odd64
// RUN: diff /dev/null %t.odd64
// RUN: grep '^VAL' %t.prog32 | sort > %t.want32
// RUN: grep '^VAL' %t.out32 | sort > %t.got32
// RUN: diff %t.want32 %t.got32
// The answers that differ between the models or from tscc's old ones:
// RUN: FileCheck %s --check-prefix=ILP32 < %t.got32
// RUN: FileCheck %s --check-prefix=LP64 < %t.out64
// ILP32-DAG: VAL ptr-const 18446744073709551600
// LP64-DAG: VAL ptr-const 4294967280
// ILP32-DAG: VAL alignof-ll 8
// ILP32-DAG: VAL Alignof-ll 4
// ILP32-DAG: VAL alignof-member 4
// ILP32-DAG: VAL b48<<15 102581991505920
// ILP32-DAG: VAL sizeof-abc 4
// LP64-DAG: VAL generic-long 1
// ILP32-DAG: VAL generic-sizeof 2
// LP64-DAG: VAL generic-sizeof 1

#include "gcc-fidelity.h"

void values(struct wide *w, int *p, long i, void *hi);

@@uft:*:a.out:values:entry
{
  printf("VAL ptr-const %llu\n", (unsigned long long)((long long)(struct wide *)0xfffffff0));
  printf("VAL ptr-const-u %llu\n", (unsigned long long)((unsigned long long)(int *)0xffffffffU));
  printf("VAL ptr-arg %llu\n", (unsigned long long)((long long)__arg4));
  printf("VAL alignof-ll %llu\n", (unsigned long long)(__alignof__(long long)));
  printf("VAL alignof-d %llu\n", (unsigned long long)(__alignof__(double)));
  printf("VAL Alignof-ll %llu\n", (unsigned long long)(_Alignof(long long)));
  printf("VAL alignof-member %llu\n", (unsigned long long)(__alignof__(__arg1->ll)));
  printf("VAL alignof-struct %llu\n", (unsigned long long)(__alignof__(struct wide)));
  printf("VAL alignof-elem %llu\n", (unsigned long long)(__alignof__(__arg1->arr[0])));
  printf("VAL b48<<15 %llu\n", (unsigned long long)(__arg1->b48 << 15u));
  printf("VAL -b48 %llu\n", (unsigned long long)(-__arg1->b48));
  printf("VAL ~b48 %llu\n", (unsigned long long)(~__arg1->b48));
  printf("VAL b48==-1 %llu\n", (unsigned long long)(__arg1->b48 == -1));
  printf("VAL b48+1 %llu\n", (unsigned long long)(__arg1->b48 + 1));
  printf("VAL b48+1ull %llu\n", (unsigned long long)(__arg1->b48 + 1ull));
  printf("VAL s40*3 %llu\n", (unsigned long long)(__arg1->s40 * 3));
  printf("VAL s40>>1 %llu\n", (unsigned long long)(__arg1->s40 >> 1));
  printf("VAL b33*b33 %llu\n", (unsigned long long)(__arg1->b33 * __arg1->b33));
  printf("VAL u32+1 %llu\n", (unsigned long long)(__arg1->u32 + 1));
  printf("VAL b48>b33 %llu\n", (unsigned long long)(__arg1->b48 > __arg1->b33));
  printf("VAL sizeof-abc %llu\n", (unsigned long long)(sizeof("abc")));
  printf("VAL abc[1] %llu\n", (unsigned long long)("abc"[1]));
  printf("VAL abc[i] %llu\n", (unsigned long long)("abc"[__arg3]));
  printf("VAL i[arr] %llu\n", (unsigned long long)(2 [__arg1->arr]));
  printf("VAL arr?1:2 %llu\n", (unsigned long long)(__arg1->arr ? 1 : 2));
  printf("VAL L'a' %llu\n", (unsigned long long)(L'a'));
  printf("VAL u'a' %llu\n", (unsigned long long)(u'\xffff'));
  printf("VAL U'a' %llu\n", (unsigned long long)(U'\x12345'));
  printf("VAL L'e' %llu\n", (unsigned long long)(L'é'));
  printf("VAL sizeof(int(*)[3]) %llu\n", (unsigned long long)(sizeof(int (*)[3])));
  printf("VAL sizeof(void(*)(int)) %llu\n", (unsigned long long)(sizeof(void (*)(int))));
  printf("VAL cast(*)[3] %llu\n", (unsigned long long)((*(short (*)[3])__arg2)[2]));
  printf("VAL sizeof*(short(*)[3]) %llu\n", (unsigned long long)(sizeof(*(short (*)[3])__arg2)));
  printf("VAL complit %llu\n", (unsigned long long)((int){7} + (struct wide){.ll = 5, .c = 2}.ll));
  printf("VAL complit-arr %llu\n", (unsigned long long)((unsigned char[]){1, 2, 300}[2]));
  printf("VAL complit-elide %llu\n", (unsigned long long)((struct wide){1, 2, 3, 4, 5, 6, 7}.arr[2]));
  printf("VAL complit-string %llu\n", (unsigned long long)((char[]){"abc"}[1] + sizeof((char[]){"abc"})));
  printf("VAL elvis %llu\n", (unsigned long long)(__arg1->ll ?: 9));
  printf("VAL elvis0 %llu\n", (unsigned long long)((__arg3 - __arg3) ?: 9));
  printf("VAL typeof %llu\n", (unsigned long long)((__typeof__(__arg1->c))300));
  printf("VAL sizeof-typeof %llu\n", (unsigned long long)(sizeof(__typeof__(__arg3))));
  printf("VAL generic-long %llu\n", (unsigned long long)(_Generic(__arg3, long: 1, long long: 2, default: 3)));
  printf("VAL generic-b48 %llu\n", (unsigned long long)(_Generic(__arg1->b48, unsigned long long: 1, default: 2)));
  printf("VAL generic-u32 %llu\n", (unsigned long long)(_Generic(__arg1->u32, unsigned int: 1, default: 2)));
  printf("VAL generic-sizeof %llu\n", (unsigned long long)(_Generic(sizeof(int), unsigned long: 1, unsigned int: 2)));
}
