// In i386 code, jump tables are followed like x86-64 ones: a GOT-relative
// table (position-independent, found through __x86.get_pc_thunk) or one of
// absolute addresses (-fno-pie). A function with a switch then takes a
// real jump at its entry and its exits where one fits, instead of a trap
// per hit "because the targets of i386 indirect jumps are not followed";
// the counts and the sum of the return values agree with the program's own.
// REQUIRES: native-i386
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %tscc %s -o %t.o
// RUN: %cc32 -O1 %S/Inputs/i386-switch.c -o %t.d/pie
// RUN: %cc32 -O2 -fno-pie -no-pie %S/Inputs/i386-switch.c -o %t.d/nopie
// RUN: %cc32 -O0 %S/Inputs/i386-switch.c -o %t.d/o0
// RUN: %tsrun -v %t.o -- %t.d/pie 5000 > %t.d/pie.out 2> %t.d/pie.err
// RUN: FileCheck %s < %t.d/pie.out
// RUN: %if inprocess %{ FileCheck %s --check-prefix=JUMP < %t.d/pie.err %}
// RUN: %tsrun -v %t.o -- %t.d/nopie 5000 > %t.d/nopie.out 2> %t.d/nopie.err
// RUN: FileCheck %s < %t.d/nopie.out
// RUN: %if inprocess %{ FileCheck %s --check-prefix=JUMP < %t.d/nopie.err %}
// RUN: %tsrun -v %t.o -- %t.d/o0 5000 > %t.d/o0.out 2> %t.d/o0.err
// RUN: FileCheck %s < %t.d/o0.out
// RUN: %if inprocess %{ FileCheck %s --check-prefix=JUMP < %t.d/o0.err %}
//
// CHECK: classify called [[N:[0-9]+]] times, returned [[SUM:-?[0-9]+]] in all
// CHECK: probe saw [[N]] calls and [[N]] returns, returning [[SUM]] in all
// JUMP: probe @@uft:*:a.out:classify:entry at classify in {{.*}}, in-process jump
// JUMP-NOT: not followed

int classify(int, int);
__global long calls, returns, sum;
@@uft:*:a.out:classify:entry { calls++; }
@@uft:*:a.out:classify:exit { returns++; sum += __rv; }
@@END { printf("probe saw %ld calls and %ld returns, returning %ld in all\n", calls, returns, sum); }
