// Where tsrun cannot read a process's seccomp filter (here tsrun itself
// runs under seccomp, and the kernel shows filters only to an unsandboxed
// tracer; as a user without CAP_SYS_ADMIN it cannot either), it cannot
// know what any system call would do there, so it makes the process run
// none: the worker, whose filter kills it on mmap, lives and is traced
// exactly, at breakpoints stepped over in place.
// REQUIRES: root
// RUN: %cc64 %S/Inputs/sandboxed.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/sandbox-attach.py "%t.exe under %tsrun" %t.o %t.exe mem 200 \
// RUN:   | FileCheck %s
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/sandboxed.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/sandbox-attach.py "%t.i386/%basename_t.tmp.exe under %tsrun" %t.o %t.i386/%basename_t.tmp.exe mem 200 | FileCheck %s %}
// CHECK: 200 calls, sum 40000
// CHECK-NEXT: child: 200 calls, sum 40000
// CHECK-NEXT: child status 0
// CHECK-NEXT: prog status: 0
// CHECK-NEXT: traced calls=400 exits=400 sum=80000
// CHECK-NEXT: tsrun: pid PID: no system call is injected: it has 1 seccomp filter that tsrun cannot read (tsrun runs under seccomp itself, and then the kernel does not show filters)
// CHECK: tsrun: pid PID: sandboxed (seccomp: 1 filter, unreadable: tsrun runs under seccomp itself, and then the kernel does not show filters): probes are breakpoints, stepped over in place, with no system call injected
// CHECK: tsrun status: 0

__global long calls;
__global long exits;
__global long sum;
long work(long);
@@uft:*:a.out:work:entry { calls++; }
@@uft:*:a.out:work:exit { exits++; sum += __rv; }
@@END { printf("traced calls=%ld exits=%ld sum=%ld\n", calls, exits, sum); }
