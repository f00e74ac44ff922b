// Counts of USDT probes, by provider and name patterns, agree with
// bpftrace's usdt probes on the same program (the guarded probe fires only
// while its semaphore is set, which both tracers do). bpftrace cannot
// attach one USDT probe twice, so the probes are split in disjoint sets.
// tsrun's sites run their clauses in the process.
// REQUIRES: bpftrace, root
// RUN: %tscc %s -o %t.o
// RUN: %cc64 -O2 %S/Inputs/usdt.c -o %t.exe
// RUN: bpftrace -o %t.bpf -e 'usdt:%t.exe:demo:tick { @tick = count(); } usdt:%t.exe:demo:guarded { @guarded = count(); } usdt:%t.exe:demo:wide,usdt:%t.exe:demo:mem { @other = count(); }' -c %t.exe > /dev/null
// RUN: %tsrun -v %t.o -o %t.ours -- %t.exe > /dev/null 2> %t.err
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.err %}
// RUN: cat %t.bpf %t.ours | FileCheck %s
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -I/usr/include/x86_64-linux-gnu -O2 %S/Inputs/usdt.c -o %t.i386/t.exe %}
// RUN: %if native-i386 %{ bpftrace -o %t.i386/t.bpf -e 'usdt:%t.i386/t.exe:demo:tick { @tick = count(); } usdt:%t.i386/t.exe:demo:guarded { @guarded = count(); } usdt:%t.i386/t.exe:demo:wide,usdt:%t.i386/t.exe:demo:mem { @other = count(); }' -c %t.i386/t.exe > /dev/null %}
// RUN: %if native-i386 %{ %tsrun %t.o -o %t.i386/t.ours -- %t.i386/t.exe > /dev/null %}
// RUN: %if native-i386 %{ cat %t.i386/t.bpf %t.i386/t.ours | FileCheck %s %}
// CHECK-DAG: @other: [[O:[0-9]+]]
// CHECK-DAG: @guarded: [[G:[0-9]+]]
// CHECK-DAG: @tick: [[T:[0-9]+]]
// CHECK: tick=[[T]] guarded=[[G]] other=[[O]]
// SITES-DAG: probe @@usdt:*:a.out:demo:tick at {{.*}}, in-process {{jump|trap}}
// SITES-DAG: probe @@usdt:*:a.out:/^de/:guarded at {{.*}}, in-process {{jump|trap}}

__global long tick, guarded, other;

@@usdt:*:a.out:demo:tick { tick++; }
@@usdt:*:a.out:/^de/:guarded { guarded++; }
@@usdt:*:*:demo:[mw]* { other++; }
@@END { printf("tick=%ld guarded=%ld other=%ld\n", tick, guarded, other); }
