// long long, double and long double members align to 4 on i386, to their size on x86-64.
// gcc -m32 (under qemu-i386) and gcc -m64 print the reference lines.
// REQUIRES: m32, qemu-i386
// RUN: %tscc --dump-layout 'struct longs' %s | sed 's/ type=.*//' > %t.tscc
// RUN: %cc32 -I%S/Inputs %S/Inputs/tricky.c -o %t.32
// RUN: %run32 %t.32 longs > %t.gcc
// RUN: %cc64 -I%S/Inputs %S/Inputs/tricky.c -o %t.64
// RUN: %t.64 longs >> %t.gcc
// RUN: diff -u %t.gcc %t.tscc
#include "Inputs/tricky.h"
