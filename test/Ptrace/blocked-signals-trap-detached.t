// blocked-signals.t's trap site in a process tsrun has let go of
// (--detach): a thread that blocks every signal calls tiny() (no 5-byte
// jump fits: an in-process trap, an int3) 300 times. The kernel forces
// the int3's SIGTRAP on a thread that blocks it, resetting the agent's
// handler to the default, and the next one killed the program (SIGTRAP,
// exit status 133), before the agent kept SIGTRAP out of what threads
// really block in a detached process with trap sites. The agent takes
// pthread_sigmask() at its entry: the thread blocks every signal but
// SIGTRAP. Every hit is counted, every bad pointer reads 0, the program's
// own handlers get its own SIGSEGV and SIGTRAP once it unblocks them.
// With `self` the worker blocks every signal itself, and what it reads
// back of its mask is what it set ("mask kept yes"): its output is its
// untraced output. Without, it only inherits the block from the thread
// that made it, which the agent does not see: it reads its mask back
// without SIGTRAP ("mask kept no"), the one line that differs
// (docs/runtime.md, *Threads that block signals*).
// REQUIRES: inprocess
// RUN: %cc64 -O1 -pthread %S/Inputs/blocked-signals.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %t.exe 300 own self > %t.alone
// RUN: %tsrun -v --detach %t.o -- %t.exe 300 own self > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: grep -v probes: %t.out | diff %t.alone -
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %tsrun --detach %t.o -- %t.exe 300 own > %t.inh 2> %t.inh.err
// RUN: FileCheck %s --check-prefix=INHERITED < %t.inh
// RUN: FileCheck %s --check-prefix=ERR < %t.inh.err
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/blocked-signals.c -o %t32 %}
// RUN: %if native-i386 %{ %t32 300 own self > %t32.alone %}
// RUN: %if native-i386 %{ %tsrun -v --detach %t.o -- %t32 300 own self > %t32.out 2> %t32.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t32.out %}
// RUN: %if native-i386 %{ grep -v probes: %t32.out | diff %t32.alone - %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=ERR < %t32.err %}
// RUN: %if native-i386 %{ %tsrun --detach %t.o -- %t32 300 own > %t32.inh 2> %t32.inh.err %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=INHERITED < %t32.inh %}
// CHECK: calls 300 sum {{[0-9]+}} own segv 1 own trap 1
// CHECK-NEXT: mask kept yes
// CHECK-NEXT: probes: deref 300 read 0 tiny 300
// INHERITED: calls 300 sum {{[0-9]+}} own segv 1 own trap 1
// INHERITED-NEXT: mask kept no
// INHERITED-NEXT: probes: deref 300 read 0 tiny 300
// ERR-NOT: warning
// ERR: clause 0 (line [[#]]): fired 300, 300 faults, 0 drops
// ERR-NOT: warning

long deref(long *);
int tiny(int);
__global long d, r, t;
@@uft:*:a.out:deref:entry { d++; r += *__arg1; }
@@uft:*:a.out:tiny:entry { t++; }
@@END { printf("probes: deref %ld read %ld tiny %ld\n", d, r, t); }
