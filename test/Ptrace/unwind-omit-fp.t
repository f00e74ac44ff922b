// Stacks of programs built -O2 -fomit-frame-pointer: .eh_frame rules,
// frame by frame, give exactly the frames the program's own backtrace()
// gives, for a 64-bit build and (natively, where the kernel runs i386
// code) a 32-bit one, and both builds give the same stack.
// REQUIRES: compiler
// RUN: %tscc %s -o %t.o
// RUN: gcc -m64 -O2 -fomit-frame-pointer -rdynamic %S/Inputs/backtrace.c -o %t64
// RUN: %tsrun %t.o -f json -o %t64.json -- %t64 4 > %t64.prog
// RUN: %python %S/Inputs/compare-backtrace.py %t64.prog %t64.json LP64 > %t64.stack
// RUN: FileCheck %s < %t64.stack
// RUN: %if native-i386 %{ gcc -m32 -O2 -fomit-frame-pointer -rdynamic %S/Inputs/backtrace.c -o %t32 %}
// RUN: %if native-i386 %{ %tsrun %t.o -f json -o %t32.json -- %t32 4 > %t32.prog %}
// RUN: %if native-i386 %{ %python %S/Inputs/compare-backtrace.py %t32.prog %t32.json ILP32 > %t32.stack %}
// RUN: %if native-i386 %{ diff %t64.stack %t32.stack %}
// CHECK: leaf (exe)
// CHECK-COUNT-5: depth (exe)
// CHECK-NEXT: main (exe)
// CHECK: __libc_start_main (libc.so.6)
// CHECK-NEXT: _start (exe)
// CHECK-NOT: truncated

void leaf(int);
@@uft:*:a.out:leaf:entry { stktrace(); }
