// USDT probes that match nothing are reported like function probes: at
// once, with the closest probe name the module has, when the module is
// named; at the end otherwise.
// RUN: %cc64 -O2 %S/Inputs/usdt.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -I/usr/include/x86_64-linux-gnu -O2 %S/Inputs/usdt.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe > %t.i386/%basename_t.tmp.out 2> %t.i386/%basename_t.tmp.err %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=OUT < %t.i386/%basename_t.tmp.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=ERR < %t.i386/%basename_t.tmp.err %}
// OUT: ticks=3
// ERR-DAG: tsrun: warning: probe '@@usdt:*:a.out:demo:tikc': no USDT probe 'demo:tikc' in usdt-unmatched.t.tmp.exe (a.out); did you mean 'tick'?
// ERR-DAG: tsrun: warning: probe '@@usdt:*:*:nosuch:*' never matched: no USDT probe 'nosuch:*' in the {{[0-9]+}} modules searched
// ERR-NOT: error

__global long ticks;
@@usdt:*:a.out:demo:tick { ticks++; }
@@usdt:*:a.out:demo:tikc { }
@@usdt:*:*:nosuch:* { }
@@END { printf("ticks=%ld\n", ticks); }
