// Children made while tsrun has let go of their parent (--detach) are
// followed with no hit lost: each arms its inherited agent itself at its
// first hit (fork(), a raw clone(SIGCHLD), a grandchild) and counts in
// its parent's shard with its own pid; fork()'s exit probe fires in the
// child too (its first event is that return). A vfork() child borrows its
// parent's memory and agent, and joins its sharers itself: its hits count
// with its own pid too.
// Every count is checked against the program's own; attached (the
// default), the same counts.
// REQUIRES: inprocess
// RUN: %cc64 %S/Inputs/follow-forks.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v --detach %t.o -- %t.exe 50 40 > %t.detached 2> %t.err
// RUN: FileCheck %s < %t.detached
// RUN: FileCheck %s --check-prefix=DETACHED --implicit-check-not=warning < %t.err
// RUN: %tsrun %t.o -- %t.exe 50 40 | FileCheck %s
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 %S/Inputs/follow-forks.c -o %t.32.exe %}
// RUN: %if native-i386 %{ %tsrun -v --detach %t.o -- %t.32.exe 50 40 > %t.32.detached 2> %t.32.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.32.detached %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=DETACHED --implicit-check-not=warning < %t.32.err %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.32.exe 50 40 | FileCheck %s %}
// CHECK: calls [[#CALLS:]] fork returns [[#FORKS:]] children ok
// CHECK-NEXT: calls [[#CALLS]] own pid [[#CALLS]] fork returns [[#FORKS]]
// DETACHED: tsrun: pid {{[0-9]+}}: detached: every site runs in the process

long work(long);
__global long calls, own, forks;

@@uft:*:a.out:work:entry {
  calls++;
  if (__arg1 == __pid) own++;
}
@@uft:*:libc.so.6:fork:exit { forks++; }
@@END {
  printf("calls %ld own pid %ld fork returns %ld\n", calls, own, forks);
}
