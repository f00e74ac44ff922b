// A launched program that sandboxes itself once it runs, after tsrun has
// set it up: no anonymous executable memory, no executable mprotect (the
// filter reads the arguments), no memfd_create, no network. It goes on
// calling work(), forks a child that does too, and execs itself; the new
// image stacks a second filter. Nothing is killed: the agent already in
// needs none of those calls, a fork needs no injected call, and at the
// exec tsrun reads the filter (it survives exec) and injects nothing into
// the new image, whose mmap of executable memory it would kill.
// Attached (--no-detach): the fork and the late sandbox are seen at
// tsrun's stops.
// RUN: %cc64 %S/Inputs/sandboxed.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/../Remote/Inputs/run_bounded.py --hang-timeout 120 -- \
// RUN:   %tsrun --no-detach -v %t.o -- %t.exe late 100 > %t.out 2> %t.err
// RUN: FileCheck %s -DMODEL=LP64 -DMMAP=mmap < %t.out
// RUN: FileCheck %s -DMODEL=LP64 -DMMAP=mmap --check-prefix=ERR < %t.err
// RUN: %tsrun --no-detach -f json %t.o -- %t.exe late 10 > %t.json
// RUN: FileCheck %s -DMODEL=LP64 -DMMAP=mmap --check-prefix=JSON < %t.json
// The 32-bit twin, where the kernel runs i386 (its libc's mmap() is mmap2):
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/sandboxed.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %python %S/../Remote/Inputs/run_bounded.py --hang-timeout 120 -- %tsrun --no-detach -v %t.o -- %t.i386/%basename_t.tmp.exe late 100 > %t.i386/out 2> %t.i386/err %}
// RUN: %if native-i386 %{ FileCheck %s -DMODEL=ILP32 -DMMAP=mmap2 < %t.i386/out %}
// RUN: %if native-i386 %{ FileCheck %s -DMODEL=ILP32 -DMMAP=mmap2 --check-prefix=ERR < %t.i386/err %}
// RUN: %if native-i386 %{ %tsrun --no-detach -f json %t.o -- %t.i386/%basename_t.tmp.exe late 10 > %t.i386/json %}
// RUN: %if native-i386 %{ FileCheck %s -DMODEL=ILP32 -DMMAP=mmap2 --check-prefix=JSON < %t.i386/json %}
// CHECK: unsandboxed: 100 calls, sum 10000
// CHECK-NEXT: sandboxed: 100 calls, sum 10000
// CHECK-NEXT: child: 100 calls, sum 10000
// CHECK-NEXT: child status 0
// CHECK-NEXT: after exec: 100 calls, sum 10000
// CHECK-NEXT: traced calls=400 exits=400 sum=40000
// ERR: tsrun: pid [[PID:[0-9]+]] ({{.*}}, [[MODEL]], ptrace): launched
// ERR: tsrun: pid {{[0-9]+}} ({{.*}}, [[MODEL]], ptrace): fork
// ERR: tsrun: pid [[PID]]: no system call is injected: its seccomp filter kills the process on [[MMAP]] (SECCOMP_RET_KILL_PROCESS)
// ERR: tsrun: pid [[PID]]: sandboxed (seccomp: 1 filter, read): probes are breakpoints, stepped over in place, with no system call injected
// ERR: tsrun: pid [[PID]] ({{.*}}, [[MODEL]], ptrace): exec
// ERR: tsrun: clause 0 (line [[#]]): fired 400, 0 faults, 0 drops
// ERR: run_bounded: rc=0
//
// How each image of the process is traced, in target_attached:
// JSON: {"backend":"ptrace","data_model":"[[MODEL]]","how":"launched","name":"{{.*}}","path":"[[FIRST:agent|breakpoints]]","pid":[[PID:[0-9]+]],"type":"target_attached"}
// JSON: {"backend":"ptrace","data_model":"[[MODEL]]","how":"fork","name":"{{.*}}","path":"[[FIRST]]","pid":{{[0-9]+}},"type":"target_attached"}
// JSON: {"backend":"ptrace","data_model":"[[MODEL]]","how":"exec","name":"{{.*}}","path":"breakpoints-no-inject","pid":[[PID]],"sandbox":"seccomp: 1 filter, read","type":"target_attached"}
// JSON: "text":"traced calls=40 exits=40 sum=400\n"

__global long calls;
__global long exits;
__global long sum;
long work(long);
@@uft:*:a.out:work:entry { calls++; }
@@uft:*:a.out:work:exit { exits++; sum += __rv; }
@@END { printf("traced calls=%ld exits=%ld sum=%ld\n", calls, exits, sum); }
