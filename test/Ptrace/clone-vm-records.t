// A process made by clone(CLONE_VM) shares its parent's memory, agent and
// shard included: its records are its own, with its pid, like every
// process's (tsrun takes a record's word for whose it is only for a
// process it knows shares that memory). Before, the child's records in
// the process said they were the parent's.
// Attached (--no-detach): tsrun sees the clone and knows the child shares
// the memory. A child made while tsrun has let go of its parent (the
// default) counts with its own __pid, but its records name its parent
// (docs/runtime.md, *Detached processes*).
// RUN: %cc64 %S/Inputs/clonevm.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun --no-detach -f json %t.o -- %t.exe 20 > %t.out
// RUN: %python %S/Inputs/record-pids.py %t.out | FileCheck %s
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/clonevm.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun --no-detach -f json %t.o -- %t.i386/%basename_t.tmp.exe 20 > %t.i386/out %}
// RUN: %if native-i386 %{ %python %S/Inputs/record-pids.py %t.i386/out | FileCheck %s %}
// CHECK: parent records 1
// CHECK: child records 1
// CHECK: attribution right

long work(long);

@@uft:*:a.out:work:entry
{
  if (__arg1 == 7)
    printf("by %d\n", __pid);
}
