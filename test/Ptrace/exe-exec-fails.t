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
