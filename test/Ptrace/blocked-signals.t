// A thread that blocks every signal (as server threads often do) reads bad
// pointers in a clause and runs into a trap site. The kernel forces a fault
// or a trap on a thread that blocks its signal: it unblocks it there and
// resets the whole process's disposition to SIG_DFL. tsrun completes the
// agent's own faults and traps itself at their stop, puts the agent's
// handler back in front of the program's and blocks the signal in that
// thread again: the program is not killed, its mask is what it set, its
// own handlers still get its own SIGSEGV and SIGTRAP (the agent's SIGTRAP
// handler is in front of it, so tsrun knows to put it back), every bad pointer reads 0 and is
// a counted fault, and every call to the trap site is counted. (With
// --ptrace the sites are breakpoints, tsrun's own int3s: the kernel
// unblocks SIGTRAP in the thread that hits one and resets the program's
// SIGTRAP handler, as under gdb, so there only the counts are checked.)
// This is the attached behaviour (--no-detach): once tsrun has let go of
// the process (the default), nobody completes such a fault, and the agent
// keeps SIGTRAP out of what threads really block instead, which a thread
// that only inherits the block reads back ("mask kept no"):
// blocked-signals-detached.t and blocked-signals-trap-detached.t.
// RUN: %cc64 -O1 -pthread %S/Inputs/blocked-signals.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %t.exe 300 own > %t.alone
// RUN: %tsrun --no-detach %t.o -- %t.exe 300 %if inprocess %{own%} > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: %if inprocess %{ grep -v probes: %t.out | diff %t.alone - %}
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/blocked-signals.c -o %t32 %}
// RUN: %if native-i386 %{ %t32 300 own > %t32.alone %}
// RUN: %if native-i386 %{ %tsrun --no-detach %t.o -- %t32 300 %if inprocess %{own%} > %t32.out 2> %t32.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t32.out %}
// RUN: %if native-i386 && inprocess %{ grep -v probes: %t32.out | diff %t32.alone - %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=ERR < %t32.err %}
// CHECK: calls 300 sum {{[0-9]+}} own segv {{[01]}} own trap {{[01]}}
// CHECK-NEXT: mask kept
// CHECK-NEXT: probes: deref 300 read 0 tiny 300
// ERR-NOT: warning
// ERR: clause 0 (line [[#]]): fired 300, 300 faults, 0 drops
// ERR-NOT: warning

long deref(long *);
int tiny(int);
__global long d, r, t;
@@uft:*:a.out:deref:entry { d++; r += *__arg1; }
@@uft:*:a.out:tiny:entry { t++; }
@@END { printf("probes: deref %ld read %ld tiny %ld\n", d, r, t); }
