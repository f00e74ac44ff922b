// Faults that are the program's own go to the program: its handlers (set
// after tsrun put its own in front) see each one and recover, a signal it
// raises reaches it, and without a handler the program dies of it, as
// untraced. Faults in clause code stay tsrun's, before and after the
// program set its handlers: each is a fault of the clause, never a call of
// the program's handler.
// RUN: %cc64 %S/Inputs/faulty.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v %t.o -- %t.exe handled > %t.handled 2> %t.handled.err
// RUN: FileCheck %s < %t.handled
// RUN: FileCheck %s --check-prefix=STATS < %t.handled.err
// CHECK: segv 3 fpe 3 raised 1 sum 61
// CHECK: work 13 bad 0
// STATS: clause 0 (line [[#]]): fired 13, 13 faults, 0 drops
// RUN: %tsrun %t.o -- %t.exe crash > %t.out 2> %t.err; test $? -eq 139
// RUN: FileCheck %s --check-prefix=CRASH < %t.out
// RUN: FileCheck %s --check-prefix=CRASH-ERR -DMODEL=LP64 < %t.err
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/faulty.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -- %t.i386/%basename_t.tmp.exe handled > %t.i386/%basename_t.tmp.handled 2> %t.i386/%basename_t.tmp.handled.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/%basename_t.tmp.handled %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=STATS < %t.i386/%basename_t.tmp.handled.err %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe crash > %t.i386/%basename_t.tmp.out 2> %t.i386/%basename_t.tmp.err; test $? -eq 139 %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=CRASH < %t.i386/%basename_t.tmp.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=CRASH-ERR -DMODEL=ILP32 < %t.i386/%basename_t.tmp.err %}
// CRASH: about to crash
// CRASH: work 10 bad 0
// CRASH-ERR: tsrun: pid {{[0-9]+}} ({{.*}}, [[MODEL]], ptrace) killed by SIGSEGV

long work(long);
__global long n, bad;
@@uft:*:a.out:work:entry { n++; bad += *(long *)0x10000000; }
@@END { printf("work %ld bad %ld\n", n, bad); }
