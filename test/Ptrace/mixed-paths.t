// Clauses that fault inside the process (a bad pointer: the signal stops
// the thread once in tsrun, with the session lock held) while tsrun fires
// the clauses of breakpoint sites for two other threads: nobody waits for
// anybody for long, and every hit is counted exactly, none dropped.
// RUN: %cc64 %S/Inputs/mixed-paths.c -o %t.exe -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v %t.o -- %t.exe 3000 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=STATS --implicit-check-not=warning < %t.err
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/mixed-paths.c -o %t.i386/%basename_t.tmp.exe -lpthread %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -- %t.i386/%basename_t.tmp.exe 3000 > %t.i386/%basename_t.tmp.out 2> %t.i386/%basename_t.tmp.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/%basename_t.tmp.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=STATS --implicit-check-not=warning < %t.i386/%basename_t.tmp.err %}
// CHECK: look 6000 other 6000
// CHECK: look 6000 other 6000
// STATS: clause 0 (line [[#]]): fired 6000, 6000 faults, 0 drops
// STATS: clause 1 (line [[#]]): fired 6000, 0 faults, 0 drops

struct item { long id; long value; };
long look(struct item *p);
long other(long);
__global long n, m;
@@uft:*:a.out:look:entry { n += __arg1->value + 1; }
@@uft:*:a.out:other:entry { m++; if (m == 1) stktrace(1); }
@@END { printf("look %ld other %ld\n", n, m); }
