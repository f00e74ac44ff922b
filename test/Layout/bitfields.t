// Bit-fields: unnamed padding, zero-width, a 40-bit long long, _Bool.
// gcc -m32 (under qemu-i386) and gcc -m64 print the reference lines.
// REQUIRES: m32, qemu-i386
// RUN: %tscc --dump-layout 'struct bits' %s | sed 's/ type=.*//' > %t.tscc
// RUN: %cc32 -I%S/Inputs %S/Inputs/tricky.c -o %t.32
// RUN: %run32 %t.32 bits > %t.gcc
// RUN: %cc64 -I%S/Inputs %S/Inputs/tricky.c -o %t.64
// RUN: %t.64 bits >> %t.gcc
// RUN: diff -u %t.gcc %t.tscc
#include "Inputs/tricky.h"
