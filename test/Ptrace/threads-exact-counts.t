// 8 threads hit one clause that counts in an aggregation, in an
// aggregation keyed by thread, and in a script global: every count is
// exact, and so is the clause's fired count (kept per thread slot and
// added up when read, store.h), whichever way the clause runs.
// RUN: %cc64 -O1 %S/Inputs/hammer.c -o %t.exe -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v %t.o -- %t.exe 8 2000 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=STATS < %t.err
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/hammer.c -o %t.i386/%basename_t.tmp.exe -lpthread %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -- %t.i386/%basename_t.tmp.exe 8 2000 > %t.i386/out 2> %t.i386/err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=STATS < %t.i386/err %}
// CHECK: calls 16000 per thread 2000
// CHECK: n 16000
// CHECK-DAG: @c: 16000
// CHECK-COUNT-8: @a[{{[0-9]+}}]: 2000
// CHECK-NOT: @a[
// STATS: clause 0 (line [[#@LINE+6]]): fired 16000, 0 faults, 0 drops
// STATS: clause 1 (line [[#@LINE+6]]): fired 1, 0 faults, 0 drops

long work(long);
__global long n;

@@uft:*:a.out:work:entry { @c = count(); @a[__tid] = count(); n++; }
@@END { printf("n %ld\n", n); }
