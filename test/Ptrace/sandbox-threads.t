// Four threads of a worker whose seccomp filter kills it on mmap call a
// probed function at the same time. No scratch memory can be had, so each
// hit is stepped over in place with the other threads stopped meanwhile;
// hits of other threads that come in while one is being stepped over wait
// their turn. Every call and return of every thread is counted.
// RUN: %cc64 -pthread %S/Inputs/sandboxed.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/sandbox-attach.py %tsrun %t.o %t.exe threads 400 \
// RUN:   | FileCheck %s
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -pthread %S/Inputs/sandboxed.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/sandbox-attach.py %tsrun %t.o %t.i386/%basename_t.tmp.exe threads 400 | FileCheck %s %}
// CHECK: 4 threads, 400 calls each
// CHECK-NEXT: total sum 640000
// CHECK-NEXT: prog status: 0
// CHECK-NEXT: traced calls=1600 exits=1600 sum=640000
// CHECK: tsrun: pid PID: sandboxed (seccomp: 1 filter, read): probes are breakpoints, stepped over in place, with no system call injected
// CHECK: tsrun: pid PID: probe @@uft:*:a.out:work:entry at work in {{.*}}, breakpoint, stepped over in place
// CHECK: tsrun: clause 0 (line [[#]]): fired 1600, 0 faults, 0 drops
// CHECK: tsrun status: 0

__global long calls;
__global long exits;
__global long sum;
long work(long);
@@uft:*:a.out:work:entry { calls++; }
@@uft:*:a.out:work:exit { exits++; sum += __rv; }
@@END { printf("traced calls=%ld exits=%ld sum=%ld\n", calls, exits, sum); }
