// Exit probes under recursion: __rv is right at every depth, innermost
// return first.
// RUN: %cc64 %S/Inputs/recurse.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 5 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/recurse.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 5 | FileCheck %s %}
// CHECK: expect [[R0:[0-9]+]]
// CHECK: expect [[R1:[0-9]+]]
// CHECK: expect [[R2:[0-9]+]]
// CHECK: expect [[R3:[0-9]+]]
// CHECK: expect [[R4:[0-9]+]]
// CHECK: expect [[R5:[0-9]+]]
// CHECK: rv [[R0]]
// CHECK-NEXT: rv [[R1]]
// CHECK-NEXT: rv [[R2]]
// CHECK-NEXT: rv [[R3]]
// CHECK-NEXT: rv [[R4]]
// CHECK-NEXT: rv [[R5]]

long rec(long);

@@uft:*:a.out:rec:exit { printf("rv %ld\n", __rv); }
