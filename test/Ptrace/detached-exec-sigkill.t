// tsrun is SIGKILLed while a detached program (--detach) waits in the
// agent for the window of its exec: the program goes on by itself. Its
// failed execvp() returns, its probe sites -- libc's execve() and work()
// -- are put back by its next hit (its code as the file has it), and its
// last exec runs, untraced.
// REQUIRES: inprocess
// RUN: %cc64 %S/Inputs/exec-chain.c -o %t.exe
// RUN: %t.exe bytes > %t.bytes
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/exec-window-driver.py %tsrun %t.o %t.exe > %t.out
// RUN: FileCheck %s < %t.out
// RUN: grep '^code' %t.out | diff %t.bytes -
// CHECK: prog says: ready
// CHECK-NEXT: tsrun: detached: every site runs in the process
// CHECK-NEXT: prog waits for its window
// CHECK-NEXT: tsrun status: -9
// CHECK-NEXT: execvp failed
// CHECK-NEXT: window calls 10
// CHECK-NEXT: code
// CHECK-NEXT: last calls 7

int work(int);

@@uft:*:a.out:work:entry { printf("work %d\n", __arg1); }
