// REQUIRES: qemu-i386, m32
// RUN: %tscc %s -o %t.o
// RUN: %cc64 %S/Inputs/layout.c -o %t64
// RUN: %cc32 %S/Inputs/layout.c -o %t32
// RUN: %tsrun %t.o -- %t64 > %t.out64
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32' --out %t.prog32 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t32 > %t.out32
// RUN: grep '^PROG' %t.out64 | sed 's/^PROG/VAL/' > %t.want64
// RUN: grep '^VAL' %t.out64 > %t.got64
// RUN: diff %t.want64 %t.got64
// RUN: grep '^PROG' %t.prog32 | sed 's/^PROG/VAL/' > %t.want32
// RUN: grep '^VAL' %t.out32 > %t.got32
// RUN: diff %t.want32 %t.got32
// RUN: FileCheck %s --check-prefix=LP64 < %t.got64
// RUN: FileCheck %s --check-prefix=ILP32 < %t.got32
//
// One object, two processes: the ILP32 stream reads the i386 layout (4-byte
// long and pointers, 4-aligned long long, arguments on the stack, 64-bit
// return in edx:eax), the LP64 stream the x86-64 one. Each must print what
// the program itself printed.
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
int handle(struct req *r, long long scale, int flags);
long long scaled(struct req *r);

@@uft:*:a.out:handle:entry
{
  printf("VAL id=%d len=%ld name=%s flags=%u sflag=%d tag=%s a=%d big=%lld "
         "scale=%lld f=%d sizeof=%d\n",
         __arg1->id, __arg1->len, get_userstring(__arg1->name), __arg1->flags,
         __arg1->sflag, get_userstring(__arg1->inner.tag), __arg1->inner.a,
         __arg1->big, __arg2, __arg3, (int)sizeof(struct req));
}

@@uft:*:a.out:handle:exit
{
  printf("VAL rv=%d\n", __rv);
}

@@uft:*:a.out:scaled:exit
{
  printf("VAL scaled=%lld\n", __rv);
}

// LP64: sizeof=48
// LP64: scaled=-3298534883331
// ILP32: sizeof=32
// ILP32: scaled=-3298534883331
