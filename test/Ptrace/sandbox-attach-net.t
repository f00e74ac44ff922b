// A worker without network: its seccomp filter kills it on socket, connect
// and recvmsg, which tsrun uses to hand the in-process agent the session's
// shared state, and asks a tracer about getppid (SECCOMP_RET_TRACE), which
// without one fails with ENOSYS. tsrun keeps the agent out (clauses run in
// tsrun, at breakpoints in scratch memory it may still map), and the
// worker's own RET_TRACE still fails: tsrun is not the tracer it means.
// RUN: %cc64 %S/Inputs/sandboxed.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/sandbox-attach.py %tsrun %t.o %t.exe net 300 \
// RUN:   | FileCheck %s -DMODEL=LP64 --allow-unused-prefixes --check-prefixes=CHECK,%if inprocess %{INPROC%} %else %{PTRACE%}
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/sandboxed.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/sandbox-attach.py %tsrun %t.o %t.i386/%basename_t.tmp.exe net 300 | FileCheck %s -DMODEL=ILP32 --allow-unused-prefixes --check-prefixes=CHECK,%if inprocess %{INPROC%} %else %{PTRACE%} %}
// CHECK: 300 calls, sum 90000
// CHECK-NEXT: getppid: -1 errno 38
// CHECK-NEXT: prog status: 0
// CHECK-NEXT: traced calls=300 exits=300 sum=90000
// INPROC-NEXT: tsrun: pid PID: clauses run in tsrun: its seccomp filter kills the process on socket (SECCOMP_RET_KILL_PROCESS)
// CHECK-NEXT: tsrun: pid PID: sandboxed (seccomp: 1 filter, read): probes are breakpoints
// CHECK-NEXT: tsrun: pid PID: probe @@uft:*:a.out:work:entry at work in {{.*}}, breakpoint{{$}}
// CHECK-NEXT: tsrun: pid PID: probe @@uft:*:a.out:work:exit at work in {{.*}}, breakpoint{{$}}
// CHECK-NEXT: tsrun: pid PID ({{.*}}, [[MODEL]], ptrace): attached
// CHECK: tsrun: clause 0 (line [[#]]): fired 300, 0 faults, 0 drops
// CHECK: tsrun status: 0

__global long calls;
__global long exits;
__global long sum;
long work(long);
@@uft:*:a.out:work:entry { calls++; }
@@uft:*:a.out:work:exit { exits++; sum += __rv; }
@@END { printf("traced calls=%ld exits=%ld sum=%ld\n", calls, exits, sum); }
