// Threads keep their own parts of aggregations (no session lock on a hit
// that only counts), merged when tsrun reads them: 8 threads hitting
// count(), @a[__tid] = count() and a global n++ at once, all exact against
// the program's own printout, in both tsrun modes and in a 32-bit process.
// The threads have ended by END: what they counted outlives them. Nothing
// here depends on timing: any interleaving gives the same numbers.
// RUN: %cc64 -O1 %S/Inputs/shards.c -o %t.exe -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %tsreport --describe %t.o | FileCheck %s --check-prefix=FLAGS
// RUN: %tsrun %t.o -- %t.exe 8 500 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// RUN: %tscc_obj_root/bin/tsrun --ptrace %t.o -- %t.exe 8 200 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/shards.c -o %t.i386/t.exe -lpthread %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/t.exe 8 500 | FileCheck %s %}

// The counting clause runs without the lock; the one with n++ takes it.
// FLAGS: #0 line {{[0-9]+}}:1 probes 0..0 flags thread-own-aggs{{$}}
// FLAGS: #1 line {{[0-9]+}}:1 probes 1..1 flags -{{$}}

// CHECK: thread 0 tid [[T0:[0-9]+]] calls [[C0:[0-9]+]]
// CHECK: thread 1 tid [[T1:[0-9]+]] calls [[C1:[0-9]+]]
// CHECK: thread 2 tid [[T2:[0-9]+]] calls [[C2:[0-9]+]]
// CHECK: thread 3 tid [[T3:[0-9]+]] calls [[C3:[0-9]+]]
// CHECK: thread 4 tid [[T4:[0-9]+]] calls [[C4:[0-9]+]]
// CHECK: thread 5 tid [[T5:[0-9]+]] calls [[C5:[0-9]+]]
// CHECK: thread 6 tid [[T6:[0-9]+]] calls [[C6:[0-9]+]]
// CHECK: thread 7 tid [[T7:[0-9]+]] calls [[C7:[0-9]+]]
// CHECK: total [[TOTAL:[0-9]+]]
// CHECK: n [[TOTAL]]
// CHECK: @c: [[TOTAL]]
// CHECK: @a{{\[}}[[T0]]{{\]}}: [[C0]]
// CHECK-NEXT: @a{{\[}}[[T1]]{{\]}}: [[C1]]
// CHECK-NEXT: @a{{\[}}[[T2]]{{\]}}: [[C2]]
// CHECK-NEXT: @a{{\[}}[[T3]]{{\]}}: [[C3]]
// CHECK-NEXT: @a{{\[}}[[T4]]{{\]}}: [[C4]]
// CHECK-NEXT: @a{{\[}}[[T5]]{{\]}}: [[C5]]
// CHECK-NEXT: @a{{\[}}[[T6]]{{\]}}: [[C6]]
// CHECK-NEXT: @a{{\[}}[[T7]]{{\]}}: [[C7]]
// CHECK-NOT: @cleared
// QUIET-NOT: {{.}}

void hit(long);
void bump(long);
__global long n;

@@uft:*:a.out:hit:entry
{
  @c = count();
  @a[__tid] = count();
  @cleared = count();
}
@@uft:*:a.out:bump:entry { n++; }
@@END
{
  printf("n %ld\n", n);
  clear(@cleared);
}
