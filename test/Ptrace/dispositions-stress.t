// Faults while the program replaces their handler. Four threads fault on
// a page the program unmapped, 2000 times each, into whichever of its two
// SIGSEGV handlers is installed at that instant (one SA_SIGINFO, checking
// the fault address; one without), while a fifth thread replaces the
// handler and changes its signal mask as fast as it can; each faulting
// thread also passes the bad address to deref(), whose clause reads it.
// The kernel's sigaction is atomic, and so must be the disposition the
// agent keeps for the program: a fault that read one handler with the
// other's flags called the SA_SIGINFO handler without its siginfo ("wrong
// 3" on main at 0e8a502). Every clause read is a fault, counted, none
// dropped: a clause whose fault passes through tsrun (attached) holds the
// session's lock in a tracing stop, which the other threads wait for
// (they gave up after 250 ms and dropped their hits on a loaded machine).
// RUN: %cc64 -O1 -pthread %S/Inputs/dispositions-stress.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %t.exe 4 2000 > %t.alone
// RUN: %tsrun %t.o -- %t.exe 4 2000 > %t.out 2> %t.err
// RUN: grep -v probes: %t.out | diff %t.alone -
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %if inprocess %{ %tsrun --detach %t.o -- %t.exe 4 2000 > %t.det 2> %t.det.err %}
// RUN: %if inprocess %{ grep -v probes: %t.det | diff %t.alone - %}
// RUN: %if inprocess %{ FileCheck %s --check-prefix=ERR < %t.det.err %}
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/dispositions-stress.c -o %t32 %}
// RUN: %if native-i386 %{ %t32 4 2000 > %t32.alone %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t32 4 2000 > %t32.out 2> %t32.err %}
// RUN: %if native-i386 %{ grep -v probes: %t32.out | diff %t32.alone - %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=ERR < %t32.err %}
// CHECK: caught 8000 of 8000, handler calls match, wrong 0
// CHECK-NEXT: derefs 8000
// CHECK-NEXT: probes: deref 8000 read 0
// ERR-NOT: warning
// ERR: clause 0 (line [[#]]): fired 8000, 8000 faults, 0 drops

long deref(long *);
__global long d, r;
@@uft:*:a.out:deref:entry { d++; r += *__arg1; }
@@END { printf("probes: deref %ld read %ld\n", d, r); }
