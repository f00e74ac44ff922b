// The program's own view of its signal dispositions. The agent keeps its
// handler in front for SIGSEGV, SIGBUS and SIGFPE; the program must still
// see and set only its own: sigaction()'s old action is what the program
// set (or SIG_DFL), never the agent's handler, and restoring it restores
// that. A handler that chains to "what was there before", as JVMs and
// libsigsegv do, then ends in the default action, not in a loop through
// the agent. Bad pointers read in a clause meanwhile are the agent's
// faults: counted, and never seen by the program's handler. (Before, the
// program read the agent's handler back as its old action: "at first 11:
// SOMETHING ELSE", and chained to it.)
// RUN: %cc64 -O1 %S/Inputs/own-dispositions.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: not --crash %t.exe 100 > %t.alone
// RUN: not %tsrun %t.o -- %t.exe 100 > %t.out 2> %t.err
// RUN: grep -v probes: %t.out | diff %t.alone -
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %if inprocess %{ not %tsrun --detach %t.o -- %t.exe 100 > %t.det 2> %t.det.err %}
// RUN: %if inprocess %{ grep -v probes: %t.det | diff %t.alone - %}
// RUN: %if inprocess %{ FileCheck %s --check-prefix=ERR < %t.det.err %}
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/own-dispositions.c -o %t32 %}
// RUN: %if native-i386 %{ not --crash %t32 100 > %t32.alone %}
// RUN: %if native-i386 %{ not %tsrun %t.o -- %t32 100 > %t32.out 2> %t32.err %}
// RUN: %if native-i386 %{ grep -v probes: %t32.out | diff %t32.alone - %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=ERR < %t32.err %}
// CHECK: at first 11: default flags usr1 not masked
// CHECK: replaced 11: default
// CHECK-NEXT: now 11: handler flags siginfo nodefer usr1 masked
// CHECK-NEXT: signal() 11 returned handler
// CHECK-NEXT: restored 11: default
// CHECK: restored 8: default
// CHECK-NEXT: calls 200 sum 700
// CHECK-NEXT: chaining handler: before it was default
// CHECK-NOT: NOT REACHED
// CHECK: probes: deref 200 read 700
// ERR: killed by SIGSEGV
// ERR: clause 0 (line [[#]]): fired 200, 100 faults, 0 drops

long deref(long *);
__global long d, r;
@@uft:*:a.out:deref:entry { d++; r += *__arg1; }
@@END { printf("probes: deref %ld read %ld\n", d, r); }
