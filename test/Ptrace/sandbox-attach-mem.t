// A worker that sandboxed itself before tsrun came: its seccomp filter
// kills it on mmap, mprotect and memfd_create. tsrun reads the filter,
// makes the worker run no system call at all (the first mmap would kill
// it), and traces it with breakpoints stepped over in place, exit probes
// returning through an unmappable address; the worker's forked child
// (same filter) too. The worker lives, its output is its own, and every
// call and return is counted.
// RUN: %cc64 %S/Inputs/sandboxed.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/sandbox-attach.py %tsrun %t.o %t.exe mem 300 \
// RUN:   | FileCheck %s -DMODEL=LP64 -DMMAP=mmap --allow-unused-prefixes --check-prefixes=CHECK,%if inprocess %{INPROC%} %else %{PTRACE%}
// The 32-bit twin, where the kernel runs i386 (its libc's mmap() is mmap2):
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/sandboxed.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/sandbox-attach.py %tsrun %t.o %t.i386/%basename_t.tmp.exe mem 300 | FileCheck %s -DMODEL=ILP32 -DMMAP=mmap2 --allow-unused-prefixes --check-prefixes=CHECK,%if inprocess %{INPROC%} %else %{PTRACE%} %}
// CHECK: 300 calls, sum 90000
// CHECK-NEXT: child: 300 calls, sum 90000
// CHECK-NEXT: child status 0
// CHECK-NEXT: prog status: 0
// CHECK-NEXT: traced calls=600 exits=600 sum=180000
// CHECK-NEXT: tsrun: pid PID: no system call is injected: its seccomp filter kills the process on [[MMAP]] (SECCOMP_RET_KILL_PROCESS)
// CHECK-NEXT: tsrun: warning: pid PID: no recovery if tsrun is killed: its seccomp filter kills the process on [[MMAP]] (SECCOMP_RET_KILL_PROCESS)
// INPROC-NEXT: tsrun: pid PID: clauses run in tsrun: its seccomp filter kills the process on [[MMAP]] (SECCOMP_RET_KILL_PROCESS)
// CHECK-NEXT: tsrun: pid PID: sandboxed (seccomp: 1 filter, read): probes are breakpoints, stepped over in place, with no system call injected
// CHECK-NEXT: tsrun: pid PID: probe @@uft:*:a.out:work:entry at work in {{.*}}, breakpoint, stepped over in place
// CHECK-NEXT: tsrun: pid PID: probe @@uft:*:a.out:work:exit at work in {{.*}}, breakpoint, stepped over in place
// CHECK-NEXT: tsrun: pid PID ({{.*}}, [[MODEL]], ptrace): attached
// CHECK: tsrun: pid [[#]] ({{.*}}, [[MODEL]], ptrace): fork
// CHECK: tsrun: clause 0 (line [[#]]): fired 600, 0 faults, 0 drops
// CHECK: tsrun status: 0

__global long calls;
__global long exits;
__global long sum;
long work(long);
@@uft:*:a.out:work:entry { calls++; }
@@uft:*:a.out:work:exit { exits++; sum += __rv; }
@@END { printf("traced calls=%ld exits=%ld sum=%ld\n", calls, exits, sum); }
