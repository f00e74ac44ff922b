// USDT probes in the static functions of a stripped program (Debian ships
// its programs so, CPython among them): no symbol covers the notes' sites,
// and the .eh_frame FDE around each bounds its function, so the site's
// branches are checked as a symbol's would be. A site with room takes a
// jump, also in a function with a jump table; one a branch lands inside
// keeps a trap. Counts are the program's own, in both models.
// RUN: %tscc %s -o %t.o
// RUN: %cc64 -O2 %S/Inputs/usdt-stripped.c -o %t.exe && strip %t.exe
// RUN: %tsrun -v %t.o -- %t.exe 1000 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.err %}
// RUN: %if native-i386 %{ %cc32 -I/usr/include/x86_64-linux-gnu -O2 %S/Inputs/usdt-stripped.c -o %t.exe32 && strip %t.exe32 %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -- %t.exe32 1000 > %t.out32 2> %t.err32 %}
// RUN: %if native-i386 %{ FileCheck %s < %t.out32 %}
// RUN: %if native-i386 %{ %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.err32 %} %}
// The program's line, then the clauses' counts: the same numbers.
// CHECK: ticks 1000 odd 500 picks 1000
// CHECK-NEXT: ticks 1000 odd 500 picks 1000
// SITES-DAG: probe @@usdt:*:a.out:demo:tick at {{.*}}, in-process jump{{$}}
// SITES-DAG: probe @@usdt:*:a.out:demo:pick at {{.*}}, in-process jump{{$}}
// SITES-DAG: probe @@usdt:*:a.out:demo:odd at {{.*}}, in-process trap (a branch target inside the patched bytes ({{.*}}))

__global long ticks, odds, picks;
@@usdt:*:a.out:demo:tick { ticks++; }
@@usdt:*:a.out:demo:odd { odds++; }
@@usdt:*:a.out:demo:pick { picks++; }
@@END { printf("ticks %ld odd %ld picks %ld\n", ticks, odds, picks); }
