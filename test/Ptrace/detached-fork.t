// A child forked after tsrun let go of its parent (--detach) arms its
// inherited agent itself at its first hit: every call is counted, with no
// warning, as when tsrun stays attached (the default) and arms the child
// itself. (Old: the child ran untraced, 14 calls and a warning.)
// REQUIRES: inprocess
// RUN: %cc64 %S/Inputs/steady.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun --detach %t.o -- %t.exe fork 7 > %t.detached 2> %t.err
// RUN: FileCheck %s < %t.detached
// RUN: count 0 < %t.err
// RUN: %tsrun %t.o -- %t.exe fork 7 2>&1 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 %S/Inputs/steady.c -o %t.32.exe %}
// RUN: %if native-i386 %{ %tsrun --detach %t.o -- %t.32.exe fork 7 > %t.32.detached 2> %t.32.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.32.detached %}
// RUN: %if native-i386 %{ count 0 < %t.32.err %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.32.exe fork 7 2>&1 | FileCheck %s %}
// CHECK: sum 98 child 0
// CHECK-NEXT: calls 21

long work(long);
__global long calls;

@@uft:*:a.out:work:entry { calls++; }
@@END { printf("calls %ld\n", calls); }
