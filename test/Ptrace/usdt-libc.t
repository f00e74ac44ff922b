// glibc's own USDT probes, where the C library has them (built with
// --enable-systemtap: Fedora, Ubuntu; Debian's has none, so there this test
// is UNSUPPORTED): libc:setjmp, libc:longjmp and libc:longjmp_target
// counts agree with bpftrace's usdt probes and with the program's jumps.
// REQUIRES: bpftrace, root, libc-usdt
// No 32-bit twin: the 32-bit libc here (/lib32/libc.so.6) has no USDT
// probes either; i386 USDT argument specs are covered by usdt.t's twin and
// usdt-vs-bpftrace.t's.
// RUN: %cc64 %S/Inputs/usdt-setjmp.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: bpftrace -o %t.bpf -e 'usdt:/lib/x86_64-linux-gnu/libc.so.6:libc:setjmp /pid == cpid/ { @setjmp = count(); } usdt:/lib/x86_64-linux-gnu/libc.so.6:libc:longjmp /pid == cpid/ { @longjmp = count(); } usdt:/lib/x86_64-linux-gnu/libc.so.6:libc:longjmp_target /pid == cpid/ { @target = count(); }' -c %t.exe > /dev/null
// RUN: %tsrun %t.o -o %t.ours -- %t.exe > %t.out
// RUN: cat %t.bpf %t.out %t.ours | FileCheck %s
// CHECK-DAG: @longjmp: [[J:[0-9]+]]
// CHECK-DAG: @setjmp: [[S:[0-9]+]]
// CHECK-DAG: @target: [[J]]
// CHECK: jumps [[J]]
// CHECK: setjmp=[[S]] longjmp=[[J]] target=[[J]]

__global long setjmps, longjmps, targets;
@@usdt:*:libc.so.6:libc:setjmp { setjmps++; }
@@usdt:*:libc.so.6:libc:longjmp { longjmps++; }
@@usdt:*:libc.so.6:libc:longjmp_target { targets++; }
@@END { printf("setjmp=%ld longjmp=%ld target=%ld\n", setjmps, longjmps, targets); }
