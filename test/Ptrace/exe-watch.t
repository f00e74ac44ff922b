// `tsrun --exe PROG` traces every process running PROG: 3 copies started
// before tsrun (one with a pool of 2 forked workers) and 3 started after
// it, none by tsrun. Every call of work() in every one of the 8 processes
// is counted, exactly as each process counted it itself; the copies
// started later are seized at their execve() (fanotify), so not one early
// call is missed.
// REQUIRES: compiler, root
// RUN: %tscc %s -o %t.o
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %cc64 %S/Inputs/exe-worker.c -o %t.d/worker
// RUN: %python %S/Inputs/exe-driver.py %t.d %t.d/worker -- %tsrun %t.o --exe %t.d/worker | FileCheck %s
// CHECK: processes 8 mismatches 0 tracer status 0
// RUN: FileCheck %s --check-prefix=ERR < %t.d/tracer.err
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ rm -rf %t.i386/t.d && mkdir -p %t.i386/t.d %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/exe-worker.c -o %t.i386/t.d/worker %}
// RUN: %if native-i386 %{ %python %S/Inputs/exe-driver.py %t.i386/t.d %t.i386/t.d/worker -- %tsrun %t.o --exe %t.i386/t.d/worker | FileCheck %s %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=ERR < %t.i386/t.d/tracer.err %}
// ERR: tsrun: --exe: attached to 3 running process(es); watching for new ones (fanotify)

long work(long);
@@uft:*:a.out:work:entry { printf("hit %d\n", __pid); }
