// Ctrl-C while attached to a worker whose seccomp filter kills it on
// munmap: tsrun takes its probes out and detaches, and leaves the memory
// it mapped there mapped (the agent's, the healer's journal) rather than
// have the worker run a forbidden munmap. The worker then runs its probed
// code untraced, as it was, and exits normally.
// RUN: %cc64 %S/Inputs/sandboxed.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/sandbox-attach.py --detach %tsrun %t.o %t.exe nounmap 100 \
// RUN:   | FileCheck %s -DMODEL=LP64 --allow-unused-prefixes --check-prefixes=CHECK,%if inprocess %{INPROC%} %else %{PTRACE%}
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/sandboxed.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/sandbox-attach.py --detach %tsrun %t.o %t.i386/%basename_t.tmp.exe nounmap 100 | FileCheck %s -DMODEL=ILP32 --allow-unused-prefixes --check-prefixes=CHECK,%if inprocess %{INPROC%} %else %{PTRACE%} %}
// CHECK: 100 calls, sum 10000
// CHECK-NEXT: worked
// CHECK-NEXT: after tsrun: 100 calls, sum 10000
// CHECK-NEXT: prog status: 0
// CHECK-NEXT: traced calls=100 exits=100 sum=10000
// INPROC: tsrun: pid PID: clauses run in the process (in-process agent)
// INPROC-NEXT: tsrun: pid PID: sandboxed (seccomp: 1 filter, read): clauses run in the process
// PTRACE: tsrun: pid PID: sandboxed (seccomp: 1 filter, read): probes are breakpoints
// CHECK: tsrun: pid PID ({{.*}}, [[MODEL]], ptrace): attached
// INPROC: tsrun: pid PID: agent removed: {{[1-9][0-9]*}} sites and 0 return addresses restored, its memory left mapped (its seccomp filter kills the process on munmap (SECCOMP_RET_KILL_PROCESS))
// CHECK: tsrun: pid PID: the healer's journal stays mapped: its seccomp filter kills the process on munmap (SECCOMP_RET_KILL_PROCESS)
// CHECK: tsrun status: 0

__global long calls;
__global long exits;
__global long sum;
long work(long);
@@uft:*:a.out:work:entry { calls++; }
@@uft:*:a.out:work:exit { exits++; sum += __rv; }
@@END { printf("traced calls=%ld exits=%ld sum=%ld\n", calls, exits, sum); }
