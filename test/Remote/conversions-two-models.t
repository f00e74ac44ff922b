// C's conversions as sema decides them per model and codegen applies them:
// promotions (bit-fields too), the usual arithmetic conversions, compound
// assignments' computation types and folded constants, in a 32-bit
// (qemu-i386) and a 64-bit (gdbserver) process. The oracle is what gcc
// -m32/-m64 made of the same expressions in the traced program.
// REQUIRES: compiler, qemu-i386, gdbserver, m32
// RUN: %tscc -I %S/Inputs %s -o %t.o
// RUN: %cc32 -I %S/Inputs %S/Inputs/conversions.c -o %t32
// RUN: %cc64 -I %S/Inputs %S/Inputs/conversions.c -o %t64
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32' --out %t.p32 \
// RUN:   --stub 'gdbserver 127.0.0.1:{port} %t64' --out %t.p64 \
// RUN:   -- %tsrun %t.o -f json -o %t.json --remote 127.0.0.1:{port0}=%t32 \
// RUN:      --remote 127.0.0.1:{port1}=%t64
// RUN: %python %S/Inputs/split_json.py %t.json ILP32 > %t.got32
// RUN: %python %S/Inputs/split_json.py %t.json LP64 > %t.got64
// RUN: grep -E '^VAL' %t.p32 | sort -u > %t.want32
// RUN: grep -E '^VAL' %t.p64 | sort -u > %t.want64
// RUN: diff %t.want32 %t.got32
// RUN: diff %t.want64 %t.got64
// The answers that differ between the models, so the test cannot pass with
// one model's semantics in both streams:
// RUN: grep -x 'VAL u+l<0 0' %t.want32
// RUN: grep -x 'VAL u+l<0 1' %t.want64
// RUN: grep -x 'VAL ptr==-1 1' %t.want32
// RUN: grep -x 'VAL ptr==-1 0' %t.want64

#include "conversions.h"

__global int *gp;

void values(int i, unsigned u, long l, unsigned long ul, signed char c,
            unsigned short us, long long ll, struct bits *b);

@@uft:*:a.out:values:entry
{
  __auto int k;
  __auto unsigned char uc;
  __auto unsigned short h;
  __auto long m;
  __auto int *pp;
  printf("VAL pid %d\n", __pid);
  printf("VAL u+l<0 %lld\n", (long long)(__arg2 + __arg3 < 0));
  printf("VAL l<u %lld\n", (long long)(__arg3 < __arg2));
  printf("VAL ul>i %lld\n", (long long)(__arg4 > __arg1));
  printf("VAL i<ul %lld\n", (long long)(__arg1 < __arg4));
  printf("VAL -u %lld\n", (long long)(-__arg2));
  printf("VAL c>>1 %lld\n", (long long)(__arg5 >> 1));
  printf("VAL us<<15 %lld\n", (long long)(__arg6 << 15));
  printf("VAL ~us %lld\n", (long long)(~__arg6));
  printf("VAL ll*u %lld\n", (long long)(__arg7 * __arg2));
  printf("VAL l+3000000000 %lld\n", (long long)(__arg3 + 3000000000));
  printf("VAL cond>0 %lld\n", (long long)((__arg1 < 0 ? -1 : __arg2) > 0));
  printf("VAL cond %lld\n", (long long)(__arg1 < 0 ? __arg3 : __arg4));
  printf("VAL -1L<0U %lld\n", (long long)(-1L < 0U));
  printf("VAL ptr==-1 %lld\n", (long long)((char *)0xFFFFFFFF == -1));
  printf("VAL lo-1<0 %lld\n", (long long)(__arg8->lo - 1 < 0));
  printf("VAL s*2 %lld\n", (long long)(__arg8->s * 2));
  printf("VAL full-1<0 %lld\n", (long long)(__arg8->full - 1 < 0));
  k = -7;
  k /= __arg2;
  printf("VAL k/=u %lld\n", (long long)k);
  uc = 200;
  uc += 100;
  printf("VAL uc+=100 %lld\n", (long long)uc);
  h = 65535;
  h <<= 4;
  printf("VAL h<<=4 %lld\n", (long long)h);
  m = -1;
  m += __arg2;
  printf("VAL m+=u %lld\n", (long long)m);
  pp = (int *)64;
  pp -= (int *)32;
  printf("VAL p-=q %lld\n", (long long)(long)pp);
  pp += 2;
  printf("VAL p+=2 %lld\n", (long long)(long)pp);
  // The same on a global, which is updated atomically where it can be.
  gp = (int *)64;
  gp -= (int *)32;
  printf("VAL p-=q %lld\n", (long long)(long)gp);
  gp += 2;
  printf("VAL p+=2 %lld\n", (long long)(long)gp);
}
