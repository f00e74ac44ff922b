// Syscall entry/exit probes count exactly the program's calls; signals are
// still delivered.
// RUN: %cc64 %S/Inputs/syscalls.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 200 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/syscalls.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 200 | FileCheck %s %}
// CHECK: expected=[[N:[0-9]+]] caught=[[N]]
// CHECK: entries=[[N]] exits=[[N]] errors=0

__global long entries;
__global long exits;
__global long errors;

@@syscall:*:getppid:entry { entries++; }
@@syscall:*:getppid:exit { exits++; if (__errno != 0) errors++; }
@@END { printf("entries=%ld exits=%ld errors=%ld\n", entries, exits, errors); }
