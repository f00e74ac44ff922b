// Attached (-p) to the parent after it made the child with clone(CLONE_VM)
// (a process of its own that uses the parent's memory): tsrun attaches the
// child too, before it puts anything into that memory, and traces it as a
// process of its own. Both call a probed function 20000 times at the same
// time, and every call and return is seen, with the pid that made it, in
// both modes. (Before, the in-process agent took the child's hits for the
// parent's thread's, or counted them as drops; on the ptrace path the
// untraced child was killed by the first breakpoint it ran into.)
// RUN: %cc64 %S/Inputs/clonevm.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/attach-run.py %tsrun %t.o %t.exe 20000 > %t.attached
// RUN: FileCheck %s --check-prefix=ATTACHED < %t.attached
// RUN: FileCheck %s --check-prefix=QUIET < %t.attached
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/clonevm.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/attach-run.py %tsrun %t.o %t.i386/%basename_t.tmp.exe 20000 > %t.i386/attached %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=ATTACHED < %t.i386/attached %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=QUIET < %t.i386/attached %}
// ATTACHED: child [[CHILD:[0-9]+]] status 0 calls 20000
// ATTACHED: parent [[PARENT:[0-9]+]] calls 20000
// ATTACHED: calls=40000 exits=40000 bad=0
// ATTACHED-DAG: @entries[[[PARENT]]]: 20000
// ATTACHED-DAG: @entries[[[CHILD]]]: 20000
// ATTACHED-DAG: @exits[[[PARENT]]]: 20000
// ATTACHED-DAG: @exits[[[CHILD]]]: 20000
// ATTACHED: tsrun: pid [[PARENT]] ({{.*}}): attached
// ATTACHED: clause 0 (line {{[0-9]+}}): fired 40000, 0 faults, 0 drops
// ATTACHED: prog status: 0
// ATTACHED: tsrun status: 0
// QUIET-NOT: {{warning|error|killed|signal}}

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
