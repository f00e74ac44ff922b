// fork() from a signal handler, 50 times: each child calls a probed
// function ten times from the handler and exits with a status its parent
// checks; then the process stops itself with raise(SIGSTOP) five times
// until a child continues it, with probes around the stop and in the
// SIGCONT handler. Every hit of the parent and the children is counted
// (60 calls of the parent and 500 of the children, entry and exit), and
// the program runs as it does alone.
// (A child that takes the parent's 't' state in /proc for its stop and
// sends one SIGCONT can send it while a tracer holds the SIGSTOP it has
// not delivered yet; the stop then comes after the SIGCONT and lasts: the
// same with any ptrace tracer. This program continues its parent until
// it hears back, as a program that knows it may be traced does.)
// RUN: %cc64 -O1 %S/Inputs/sigfork.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %t.exe > %t.alone
// RUN: %tsrun %t.o -- %t.exe > %t.out 2> %t.err
// RUN: grep -v probes: %t.out | diff %t.alone -
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// RUN: %if inprocess %{ %tsrun --detach %t.o -- %t.exe > %t.det 2> %t.det.err %}
// RUN: %if inprocess %{ grep -v probes: %t.det | diff %t.alone - %}
// RUN: %if inprocess %{ FileCheck %s < %t.det %}
// RUN: %if inprocess %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t.det.err %}
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/sigfork.c -o %t32 %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t32 > %t32.out 2> %t32.err %}
// RUN: %if native-i386 %{ grep -v probes: %t32.out | diff %t.alone - %}
// RUN: %if native-i386 %{ FileCheck %s < %t32.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t32.err %}
// CHECK: children 50 good 50
// CHECK-NEXT: stops 5 resumed 5 works 60
// CHECK-NEXT: probes: works 1120
// QUIET-NOT: {{warning|killed|drops|faults|error}}

long work(long);
__global long works;
@@uft:*:a.out:work:entry { works++; }
@@uft:*:a.out:work:exit { works++; }
@@END { printf("probes: works %ld\n", works); }
