// `tsrun --exe PROG` seizes a thread inside its execve() of PROG. When that
// execve() fails after the file was opened (here E2BIG: an argument longer
// than the kernel takes), the process goes on in its old image: tsrun lets
// it go and says so (-v), so that the program it execs next, which is not
// PROG, is not traced. A copy of PROG started afterwards is traced.
// REQUIRES: compiler, root
// RUN: %tscc %s -o %t.o
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %cc64 %S/Inputs/exe-worker.c -o %t.d/worker
// RUN: cp %t.d/worker %t.d/other
// RUN: %cc64 %S/Inputs/exe-exec-fails.c -o %t.d/launcher
// RUN: %python %S/Inputs/exe-exec-fails.py %t.d %t.d/launcher %t.d/worker %t.d/other -- %tsrun %t.o --exe %t.d/worker > %t.out
// RUN: FileCheck %s < %t.out
// The 32-bit twin (launcher and worker -m32), where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.d32 && mkdir -p %t.d32 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/exe-worker.c -o %t.d32/worker %}
// RUN: %if native-i386 %{ cp %t.d32/worker %t.d32/other %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/exe-exec-fails.c -o %t.d32/launcher %}
// RUN: %if native-i386 %{ %python %S/Inputs/exe-exec-fails.py %t.d32 %t.d32/launcher %t.d32/worker %t.d32/other -- %tsrun %t.o --exe %t.d32/worker > %t.32.out %}
// RUN: %if native-i386 %{ FileCheck %s < %t.32.out %}
// CHECK: pid [[L:[0-9]+]] exec of worker failed: E2BIG
// CHECK-NEXT: pid [[L]] calls 7
// CHECK-NEXT: pid [[W:[0-9]+]] calls 3
// CHECK-NOT: tracer hits [[L]]
// CHECK: tracer hits [[W]] 3
// CHECK-NOT: tracer hits
// CHECK: tracer status 0
// CHECK: tsrun: --exe: pid [[L]]: its execve() of {{.*}}/worker failed after the file was opened; it goes on untraced

long work(long);
@@uft:*:a.out:work:entry { printf("hit %d\n", __pid); }
