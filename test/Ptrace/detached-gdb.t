// gdb attaches to a program that tsrun has let go of (--detach) and reads
// its variables while the program keeps running into its probe; then the
// program finishes, and the probe has counted every call it made.
// REQUIRES: inprocess
// RUN: %cc64 %S/Inputs/steady.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/steady-driver.py gdb %tsrun %t.o %t.exe | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs (its sum, a long,
// may wrap):
// RUN: %if native-i386 %{ %cc32 %S/Inputs/steady.c -o %t.32.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/steady-driver.py gdb %tsrun %t.o %t.32.exe | FileCheck %s %}
// CHECK: prog says: started
// CHECK-NEXT: tsrun: pid N: detached: every site runs in the process
// CHECK-NEXT: gdb: $1 = 4242
// CHECK-NEXT: gdb: $2 = 1
// CHECK-NEXT: tsrun status: 0
// CHECK-NEXT: calls [[N:[0-9]+]] sum {{-?[0-9]+}} magic 4242
// CHECK-NEXT: counted [[N]]

long work(long);
__global long n;

@@uft:*:a.out:work:entry { n++; }
@@END { printf("counted %ld\n", n); }
