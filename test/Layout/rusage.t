// struct rusage from <sys/resource.h> is laid out as gcc -m32 / -m64 lay it out: the C program
// prints the same lines from sizeof/offsetof/_Alignof.
// REQUIRES: m32, qemu-i386
// RUN: %tscc --dump-layout 'struct rusage' %s | sed 's/ type=.*//' > %t.tscc
// RUN: %cc32 -I%S/Inputs %S/Inputs/rusage.c -o %t.32
// RUN: %run32 %t.32 > %t.gcc
// RUN: %cc64 -I%S/Inputs %S/Inputs/rusage.c -o %t.64
// RUN: %t.64 >> %t.gcc
// RUN: diff -u %t.gcc %t.tscc
#include <sys/resource.h>
