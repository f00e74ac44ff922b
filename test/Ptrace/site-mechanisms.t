// Each probe site takes the fastest path it can, and -v says which and
// why: a jump into the agent in the process, an int3 the agent's SIGTRAP
// handler takes where a jump cannot be put (a trap site), or a breakpoint
// (ptrace stop) where the clause needs tsrun. The clauses count
// the same whatever path their hits took.
// REQUIRES: inprocess
// RUN: %cc64 %S/Inputs/sites.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v %t.o -- %t.exe 50 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=SITES < %t.err
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/sites.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -- %t.i386/%basename_t.tmp.exe 50 > %t.i386/%basename_t.tmp.out 2> %t.i386/%basename_t.tmp.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/%basename_t.tmp.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=SITES < %t.i386/%basename_t.tmp.err %}
// CHECK: calls 50 each
// CHECK: @seen: 50
// CHECK: tiny 50 normal 50 stacky 50
// SITES: pid [[PID:[0-9]+]]: clauses run in the process (in-process agent)
// SITES-DAG: pid [[PID]]: probe @@uft:*:a.out:tiny:entry at tiny in {{.*}}, in-process trap (the function is shorter than 5 bytes from the site)
// SITES-DAG: pid [[PID]]: probe @@uft:*:a.out:normal:entry at normal in {{.*}}, in-process jump
// SITES-DAG: pid [[PID]]: probe @@uft:*:a.out:stacky:entry at stacky in {{.*}}, in-process jump

long normal(long);
long stacky(long);
void tiny(void);
__global long t, n, s;

@@uft:*:a.out:tiny:entry { t++; }
@@uft:*:a.out:normal:entry { n++; }
@@uft:*:a.out:stacky:entry { s++; @seen = count(); if (s == 50) print(@seen); }
@@END { printf("tiny %ld normal %ld stacky %ld\n", t, n, s); }
