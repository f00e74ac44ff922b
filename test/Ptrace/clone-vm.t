// A process made by clone(CLONE_VM) without CLONE_THREAD shares its
// parent's memory, the agent included, and its fs base too, but is a
// process of its own: both call a probed function 20000 times at the same
// time, and every call and every return is seen, each with the pid that
// made it. (The in-process agent took them for one thread: the child was
// killed by SIGILL in some runs, and nearly every hit was dropped.)
// RUN: %cc64 %S/Inputs/clonevm.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 20000 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/clonevm.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 20000 > %t.i386/out 2> %t.i386/err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t.i386/err %}
// CHECK: child [[CHILD:[0-9]+]] status 0 calls 20000
// CHECK: parent [[PARENT:[0-9]+]] calls 20000
// CHECK: calls=40000 exits=40000 bad=0
// CHECK-DAG: @entries[[[PARENT]]]: 20000
// CHECK-DAG: @entries[[[CHILD]]]: 20000
// CHECK-DAG: @exits[[[PARENT]]]: 20000
// CHECK-DAG: @exits[[[CHILD]]]: 20000
// QUIET-NOT: {{warning|drops|faults|error}}

long work(long);
__global long calls, exits, bad;
__thread long arg;

@@uft:*:a.out:work:entry { calls++; arg = __arg1; @entries[__pid] = count(); }
@@uft:*:a.out:work:exit
{
  exits++;
  @exits[__pid] = count();
  if (__rv != arg * 2) bad++;
}
@@END { printf("calls=%ld exits=%ld bad=%ld\n", calls, exits, bad); }
