// A signal storm while tsrun has let go of the program (the default; said
// with --detach here): nobody traces it (its TracerPid is 0), so its output
// is exactly what it prints untraced, and the probe still counts every
// call. Attached (--no-detach),
// every signal is a ptrace stop on its way; the program computes the same
// and the probe counts the same.
// RUN: %cc64 %S/Inputs/steady.c -o %t.exe
// RUN: %t.exe signals 20000 > %t.untraced
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v --detach %t.o -- %t.exe signals 20000 > %t.detached 2> %t.err
// RUN: %if inprocess %{ diff %t.untraced <(head -n 1 %t.detached) %}
// RUN: %if inprocess %{ FileCheck %s --check-prefix=DETACHED < %t.err %}
// RUN: FileCheck %s < %t.detached
// RUN: %tsrun --no-detach %t.o -- %t.exe signals 20000 > %t.attached
// RUN: FileCheck %s --check-prefixes=CHECK,ATTACHED < %t.attached
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 %S/Inputs/steady.c -o %t.32.exe %}
// RUN: %if native-i386 %{ %t.32.exe signals 20000 > %t.32.untraced %}
// RUN: %if native-i386 %{ %tsrun -v --detach %t.o -- %t.32.exe signals 20000 > %t.32.detached 2> %t.32.err %}
// RUN: %if native-i386 && inprocess %{ diff %t.32.untraced <(head -n 1 %t.32.detached) %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefix=DETACHED < %t.32.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.32.detached %}
// RUN: %if native-i386 %{ %tsrun --no-detach %t.o -- %t.32.exe signals 20000 > %t.32.attached %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefixes=CHECK,ATTACHED < %t.32.attached %}
// CHECK: sum 400000000 handled 20000 tracer{{ }}
// ATTACHED-SAME: {{^[1-9][0-9]*$}}
// CHECK-NEXT: calls 20000
// DETACHED: tsrun: pid {{[0-9]+}}: detached: every site runs in the process
// DETACHED: clause 0 (line [[#]]): fired 20000, 0 faults, 0 drops

long work(long);
__global long calls;

@@uft:*:a.out:work:entry { calls++; }
@@END { printf("calls %ld\n", calls); }
