// Four threads call step() one at a time under a mutex, each with the next
// number of a shared counter. Their records, written to four different
// per-thread rings, come out merged in their true global order: in text,
// and in a binary trace rendered by tsreport.
// RUN: %cc64 %S/Inputs/ordered.c -o %t.exe -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 4 500 | %python %S/Inputs/check-order.py 2000 | FileCheck %s
// RUN: %tsrun %t.o -f binary -o %t.bin -- %t.exe 4 500
// RUN: %tsreport %t.bin | %python %S/Inputs/check-order.py 2000 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/ordered.c -o %t.i386/%basename_t.tmp.exe -lpthread %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 4 500 | %python %S/Inputs/check-order.py 2000 | FileCheck %s %}
// RUN: %if native-i386 %{ %tsrun %t.o -f binary -o %t.i386/%basename_t.tmp.bin -- %t.i386/%basename_t.tmp.exe 4 500 %}
// RUN: %if native-i386 %{ %tsreport %t.i386/%basename_t.tmp.bin | %python %S/Inputs/check-order.py 2000 | FileCheck %s %}
// CHECK: in order, 2000 records from 4 threads

long step(long);
@@uft:*:a.out:step:entry { printf("step %ld tid %d\n", __arg1, __tid); }
