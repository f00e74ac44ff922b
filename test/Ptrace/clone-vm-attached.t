// Attached (-p) to the parent after it made the child: the child is not
// traced (tsrun follows what a process makes once it is there), but it
// uses the parent's memory and agent all the same. Its calls are not taken
// for the parent's: the parent's are exact, the child's are counted drops
// with a warning (another, when tsrun attaches, names it), and nothing is
// killed.
// (On the ptrace path such a child runs into breakpoints it cannot handle.)
// REQUIRES: inprocess
// RUN: %cc64 %S/Inputs/clonevm.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/attach-run.py %tsrun %t.o %t.exe 20000 > %t.attached
// RUN: FileCheck %s --check-prefix=ATTACHED < %t.attached
// ATTACHED: child [[CHILD:[0-9]+]] status 0 calls 20000
// ATTACHED: parent [[PARENT:[0-9]+]] calls 20000
// ATTACHED: calls=20000 exits=20000 bad=0
// ATTACHED: @entries[[[PARENT]]]: 20000
// ATTACHED-NOT: @entries
// ATTACHED: @exits[[[PARENT]]]: 20000
// ATTACHED-NOT: @exits
// ATTACHED: tsrun: warning: pid [[CHILD]] shares the memory of pid [[PARENT]] but is not traced (it was made by clone(CLONE_VM) before tsrun attached); its calls of probed functions are counted as drops
// ATTACHED-DAG: tsrun: warning: a process sharing a traced process's memory was unknown to its in-process agent; its clauses were counted as drops
// ATTACHED-DAG: clause 0 (line {{[0-9]+}}): fired 40000, 0 faults, 20000 drops
// ATTACHED: prog status: 0
// ATTACHED: tsrun status: 0

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
