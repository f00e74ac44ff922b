// Four threads call step() one at a time under a mutex, each with the next
// number of a shared counter. Their records, written to four different
// per-thread rings, come out merged in their true global order: in text,
// and in a binary trace rendered by tsreport.
// RUN: %cc64 %S/Inputs/ordered.c -o %t.exe -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 4 500 | %python %S/Inputs/check-order.py 2000 | FileCheck %s
// RUN: %tsrun %t.o -f binary -o %t.bin -- %t.exe 4 500
// RUN: %tsreport %t.bin | %python %S/Inputs/check-order.py 2000 | FileCheck %s
// CHECK: in order, 2000 records from 4 threads

long step(long);
@@uft:*:a.out:step:entry { printf("step %ld tid %d\n", __arg1, __tid); }
