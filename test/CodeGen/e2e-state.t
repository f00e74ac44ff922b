// REQUIRES: qemu-i386, m32
// RUN: %tscc %s -o %t.o
// RUN: %cc64 %S/Inputs/state.c -o %t64
// RUN: %cc32 %S/Inputs/state.c -o %t32
// RUN: %tsrun %t.o -- %t64 > %t.out64
// RUN: %remote_session --stub 'qemu-i386 -g {port} %t32' --out %t.prog32 \
// RUN:   -- %tsrun %t.o --remote 127.0.0.1:{port0}=%t32 > %t.out32
// RUN: grep '^PROG' %t.out64 | sed 's/^PROG/VAL/' > %t.want64
// RUN: grep '^VAL' %t.out64 > %t.got64
// RUN: diff %t.want64 %t.got64
// RUN: grep '^PROG' %t.prog32 | sed 's/^PROG/VAL/' > %t.want32
// RUN: grep '^VAL' %t.out32 > %t.got32
// RUN: diff %t.want32 %t.got32
// RUN: FileCheck %s < %t.got64
//
// Script state across firings, in both data models: an associative array
// keyed by String, a global String and counter, and a thread-local that
// reads as 0 until written and makes a predicate false while it is unset.
void step(const char *name, int n);

__global long sum[String];
__global String last[16];
__global long calls;
__thread long prev;

@@uft:*:a.out:step:entry
when (__arg2 != 4)
{
  __auto String nm[16];
  nm = get_userstring(__arg1);
  sum[nm] += __arg2;
  calls++;
  printf("VAL name=%s n=%d sum=%ld prev=%ld last=%s calls=%ld\n", nm, __arg2,
         sum[nm], prev, last, calls);
  prev = __arg2;
  last = nm;
}

@@uft:*:a.out:step:exit
when (prev > 2)
{
  printf("VAL exit prev=%ld\n", prev);
}

// CHECK:      VAL name=alpha n=1 sum=1 prev=0 last= calls=1
// CHECK-NEXT: VAL name=beta n=2 sum=2 prev=1 last=alpha calls=2
// CHECK-NEXT: VAL name=alpha n=3 sum=4 prev=2 last=beta calls=3
// CHECK-NEXT: VAL exit prev=3
// CHECK-NEXT: VAL exit prev=3
// CHECK-NEXT: VAL name=alpha n=5 sum=9 prev=3 last=alpha calls=4
// CHECK-NEXT: VAL exit prev=5
// CHECK-NEXT: VAL name=a-name-longer-t n=6 sum=6 prev=5 last=alpha calls=5
// CHECK-NEXT: VAL exit prev=6
