// A USDT site in a function part that another function's jump table
// enters right behind the site's nop (Inputs/usdt-cold-table.S): the
// relative tables of every function of the module are read, so the site
// keeps a trap instead of a jump the table would land inside (which
// killed the program with SIGSEGV). With the part's symbol, and stripped,
// where its .eh_frame FDE bounds it. Counts are the program's own.
// RUN: %tscc %s -o %t.o
// RUN: %cc64 -O2 %S/Inputs/usdt-cold-table.c %S/Inputs/usdt-cold-table.S -o %t.exe
// RUN: cp %t.exe %t.stripped && strip %t.stripped
// RUN: %tsrun -v %t.o -- %t.exe 1000 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.err %}
// RUN: %tsrun -v %t.o -- %t.stripped 1000 > %t.out2 2> %t.err2
// RUN: FileCheck %s < %t.out2
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.err2 %}
// CHECK: sum 11000 cold 250
// CHECK-NEXT: cold 250
// SITES: probe @@usdt:*:a.out:demo:cold at {{.*}}, in-process trap (a jump table entry inside the patched bytes ({{.*}}))

__global long n;
@@usdt:*:a.out:demo:cold { n++; }
@@END { printf("cold %ld\n", n); }
