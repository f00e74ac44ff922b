// Bad pointers in a clause of a program tsrun has let go of (--detach):
// each costs the agent's landing pad only (nothing traces the program, so
// no fault is a ptrace stop), reads as 0 and is counted as a fault of its
// clause, from 4 threads at once; the program prints what it prints
// untraced.
// REQUIRES: inprocess
// RUN: %cc64 %S/Inputs/badptr.c -o %t.exe -lpthread
// RUN: %t.exe 4 500 > %t.untraced
// RUN: %tscc %S/bad-pointers.t -o %t.o
// RUN: %tsrun -v --detach %t.o -- %t.exe 4 500 > %t.traced 2> %t.err
// RUN: diff %t.untraced <(head -n 1 %t.traced)
// RUN: FileCheck %S/bad-pointers.t < %t.traced
// RUN: FileCheck %s < %t.err
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 %S/Inputs/badptr.c -o %t.32.exe -lpthread %}
// RUN: %if native-i386 %{ %t.32.exe 4 500 > %t.32.untraced %}
// RUN: %if native-i386 %{ %tsrun -v --detach %t.o -- %t.32.exe 4 500 > %t.32.traced 2> %t.32.err %}
// RUN: %if native-i386 %{ diff %t.32.untraced <(head -n 1 %t.32.traced) %}
// RUN: %if native-i386 %{ FileCheck %S/bad-pointers.t < %t.32.traced %}
// RUN: %if native-i386 %{ FileCheck %s < %t.32.err %}
// CHECK: tsrun: pid {{[0-9]+}}: detached: every site runs in the process
// CHECK: clause 0 (line [[#]]): fired 10000, 8000 faults, 0 drops
