// An aligned typedef changes the alignment of the type it names.
// gcc -m32 (under qemu-i386) and gcc -m64 print the reference lines.
// REQUIRES: m32, qemu-i386
// RUN: %tscc --dump-layout 'int_a8' %s | sed 's/ type=.*//' > %t.tscc
// RUN: %cc32 -I%S/Inputs %S/Inputs/tricky.c -o %t.32
// RUN: %run32 %t.32 int_a8 > %t.gcc
// RUN: %cc64 -I%S/Inputs %S/Inputs/tricky.c -o %t.64
// RUN: %t.64 int_a8 >> %t.gcc
// RUN: diff -u %t.gcc %t.tscc
// RUN: %tscc --dump-layout 'int_a8' %s | FileCheck %s
#include "Inputs/tricky.h"
// CHECK: ILP32 int_a8 size=4 align=8
// CHECK: LP64 int_a8 size=4 align=8
