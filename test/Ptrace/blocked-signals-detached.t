// blocked-signals.t in a process tsrun has let go of (--detach): a thread
// that blocks every signal reads bad pointers in a clause. Nobody is
// attached to complete the fault, so the agent unblocks SIGSEGV and SIGBUS
// for the rest of a clause that reads memory (and only then), and puts the
// thread's mask back after it: every bad pointer reads 0 and is a counted
// fault, the program is not killed, and its mask is what it set but for
// SIGTRAP where the loader's gate is a trap site (i386: a lone `ret`): the
// agent keeps SIGTRAP open there, and the worker inherited its block from the
// thread that made it, which the agent does not see ("mask kept no", the
// one line that differs; blocked-signals-trap-detached.t). Handlers of
// the program's own are covered by blocked-signals-trap-detached.t and
// own-dispositions.t.
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread %S/Inputs/blocked-signals.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %t.exe 300 > %t.alone
// RUN: %tsrun -v --detach %t.o -- %t.exe 300 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: grep -v "mask kept" %t.alone > %t.alone.nomask
// RUN: grep -v "probes:\|mask kept" %t.out | diff %t.alone.nomask -
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/blocked-signals.c -o %t32 %}
// RUN: %if native-i386 %{ %t32 300 > %t32.alone %}
// RUN: %if native-i386 %{ %tsrun -v --detach %t.o -- %t32 300 > %t32.out 2> %t32.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t32.out %}
// RUN: %if native-i386 %{ grep -v "mask kept" %t32.alone > %t32.alone.nomask %}
// RUN: %if native-i386 %{ grep -v "probes:\|mask kept" %t32.out | diff %t32.alone.nomask - %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=ERR < %t32.err %}
// CHECK: calls 300 sum {{[0-9]+}} own segv 0 own trap 0
// CHECK-NEXT: mask kept {{yes|no}}
// CHECK-NEXT: probes: deref 300 read 0
// ERR: detached: every site runs in the process
// ERR-NOT: warning
// ERR: clause 0 (line [[#]]): fired 300, 300 faults, 0 drops
// ERR-NOT: warning

long deref(long *);
__global long d, r;
@@uft:*:a.out:deref:entry { d++; r += *__arg1; }
@@END { printf("probes: deref %ld read %ld\n", d, r); }
