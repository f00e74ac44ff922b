// Exit probes in coroutines. Three coroutines on stacks of their own
// (static, malloc'd and mmap'd) each switch away with swapcontext() from
// four calls deep in a probed function, so that every stack has hijacked
// returns pending while the others run and return through theirs. Every
// call and every return is seen, with its value; the program runs as it
// does alone. (The innermost hijacked return was taken to be the one
// returning, and the others' frames for ones skipped by a longjmp: the
// process was killed by SIGILL at its first switch, by SIGSEGV with
// --ptrace. bpftrace's uretprobes get this right.)
// RUN: %cc64 -O1 %S/Inputs/coroutines.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %t.exe 1000 4 > %t.alone
// RUN: %tsrun %t.o -- %t.exe 1000 4 > %t.out 2> %t.err
// RUN: grep -v probes: %t.out | diff %t.alone -
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// RUN: %if inprocess %{ %tsrun --detach %t.o -- %t.exe 1000 4 > %t.det 2> %t.det.err %}
// RUN: %if inprocess %{ FileCheck %s < %t.det %}
// RUN: %if inprocess %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t.det.err %}
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/coroutines.c -o %t32 %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t32 1000 4 > %t32.out 2> %t32.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t32.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t32.err %}
// CHECK: calls [[C:15000]] returns [[C]] sum [[S:[0-9]+]]
// CHECK-NEXT: probes: calls [[C]] returns [[C]] sum [[S]]
// QUIET-NOT: {{warning|killed|drops|faults|error}}

long nest(int, long, long);
__global long calls, returns, sum;
@@uft:*:a.out:nest:entry { calls++; }
@@uft:*:a.out:nest:exit { returns++; sum += __rv; }
@@END { printf("probes: calls %ld returns %ld sum %ld\n", calls, returns, sum); }
