// A process made by clone(CLONE_VM) shares its parent's memory, agent and
// shard included: its records are its own, with its pid, like every
// process's (tsrun takes a record's word for whose it is only for a
// process it knows shares that memory). Before, the child's records in
// the process said they were the parent's.
// RUN: %cc64 %S/Inputs/clonevm.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -f json %t.o -- %t.exe 20 > %t.out
// RUN: %python %S/Inputs/record-pids.py %t.out | FileCheck %s
// CHECK: parent records 1
// CHECK: child records 1
// CHECK: attribution right

long work(long);

@@uft:*:a.out:work:entry
{
  if (__arg1 == 7)
    printf("by %d\n", __pid);
}
