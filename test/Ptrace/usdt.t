// USDT probes of a 64-bit program: the arguments the program passes (in
// memory at -O0, in registers at -O2, a symbol through %rip, constants of
// 1 byte, signed and unsigned 64-bit values) are what clauses see as
// __argN, and the semaphore-guarded probe fires because tsrun set its
// semaphore. The probe counts agree with bpftrace's usdt probes. By
// default the sites take jumps (or traps) into the in-process agent, which
// evaluates the arguments from the saved registers; -v says so.
// RUN: %tscc %s -o %t.o
// RUN: %cc64 %S/Inputs/usdt.c -o %t.O0
// RUN: %cc64 -O2 %S/Inputs/usdt.c -o %t.O2
// RUN: %tsrun %t.o -o %t.trace.O0 -- %t.O0 > %t.out.O0
// RUN: grep '^VAL' %t.out.O0 | diff - %t.trace.O0
// RUN: %tsrun -v %t.o -o %t.trace.O2 -- %t.O2 > %t.out.O2 2> %t.err.O2
// RUN: grep '^VAL' %t.out.O2 | diff - %t.trace.O2
// RUN: FileCheck %s < %t.trace.O2
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.err.O2 %}
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -I/usr/include/x86_64-linux-gnu %S/Inputs/usdt.c -o %t.i386/%basename_t.tmp.O0 %}
// RUN: %if native-i386 %{ %cc32 -I/usr/include/x86_64-linux-gnu -O2 %S/Inputs/usdt.c -o %t.i386/%basename_t.tmp.O2 %}
// RUN: %if native-i386 %{ %tsrun %t.o -o %t.i386/%basename_t.tmp.trace.O0 -- %t.i386/%basename_t.tmp.O0 > %t.i386/%basename_t.tmp.out.O0 %}
// RUN: %if native-i386 %{ grep '^VAL' %t.i386/%basename_t.tmp.out.O0 | diff - %t.i386/%basename_t.tmp.trace.O0 %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -o %t.i386/%basename_t.tmp.trace.O2 -- %t.i386/%basename_t.tmp.O2 > %t.i386/%basename_t.tmp.out.O2 2> %t.i386/%basename_t.tmp.err.O2 %}
// RUN: %if native-i386 %{ grep '^VAL' %t.i386/%basename_t.tmp.out.O2 | diff - %t.i386/%basename_t.tmp.trace.O2 %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/%basename_t.tmp.trace.O2 %}
// RUN: %if native-i386 %{ %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.i386/%basename_t.tmp.err.O2 %} %}
// CHECK: VAL tick 0 -1 -3000000000
// CHECK: VAL mem 77 -5
// CHECK: VAL wide 18446744073709551600 200
// CHECK: VAL guarded 0
// CHECK: VAL guarded 100
// CHECK: VAL guarded 200
// SITES-DAG: probe @@usdt:*:a.out:demo:tick at {{.*}}, in-process {{jump|trap}}
// SITES-DAG: probe @@usdt:*:a.out:demo:mem at {{.*}}, in-process {{jump|trap}}
// SITES-DAG: probe @@usdt:*:a.out:demo:wide at {{.*}}, in-process {{jump|trap}}
// SITES-DAG: probe @@usdt:*:a.out:demo:guarded at {{.*}}, in-process {{jump|trap}}
// SITES-NOT: cannot read an argument

@@usdt:*:a.out:demo:tick { printf("VAL tick %lld %lld %lld\n", __arg1, __arg2, __arg3); }
@@usdt:*:a.out:demo:mem { printf("VAL mem %lld %lld\n", __arg1, __arg2); }
@@usdt:*:a.out:demo:wide { printf("VAL wide %llu %llu\n", __arg1, __arg2); }
@@usdt:*:a.out:demo:guarded { printf("VAL guarded %lld\n", __arg1); }
