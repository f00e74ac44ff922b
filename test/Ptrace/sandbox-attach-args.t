// A worker whose seccomp filter lets kill() reach only itself (its first
// argument decides, as in browsers' renderers). The in-process agent calls
// kill(tid, 0) on a thread it cannot name in advance (a lock's owner, in
// any process), so tsrun cannot know whether that call would be allowed:
// the agent stays out, and clauses run in tsrun, at breakpoints. Calls tsrun
// makes itself have arguments it knows, and are allowed.
// RUN: %cc64 %S/Inputs/sandboxed.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/sandbox-attach.py %tsrun %t.o %t.exe ownkill 300 \
// RUN:   | FileCheck %s --allow-unused-prefixes --check-prefixes=CHECK,%if inprocess %{INPROC%} %else %{PTRACE%}
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/sandboxed.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/sandbox-attach.py %tsrun %t.o %t.i386/%basename_t.tmp.exe ownkill 300 | FileCheck %s --allow-unused-prefixes --check-prefixes=CHECK,%if inprocess %{INPROC%} %else %{PTRACE%} %}
// CHECK: 300 calls, sum 90000
// CHECK-NEXT: kill(1, 0): errno 1
// CHECK-NEXT: prog status: 0
// CHECK-NEXT: traced calls=300 exits=300 sum=90000
// INPROC-NEXT: tsrun: pid PID: clauses run in tsrun: its seccomp filter looks at argument 1 of kill, which tsrun cannot know in advance
// CHECK-NEXT: tsrun: pid PID: sandboxed (seccomp: 1 filter, read): probes are breakpoints
// CHECK-NEXT: tsrun: pid PID: probe @@uft:*:a.out:work:entry at work in {{.*}}, breakpoint{{$}}
// CHECK: tsrun status: 0

__global long calls;
__global long exits;
__global long sum;
long work(long);
@@uft:*:a.out:work:entry { calls++; }
@@uft:*:a.out:work:exit { exits++; sum += __rv; }
@@END { printf("traced calls=%ld exits=%ld sum=%ld\n", calls, exits, sum); }
