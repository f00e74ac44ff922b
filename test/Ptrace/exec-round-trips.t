// What re-arming after exec costs tsrun, counted (never timed) through
// TSCC_EXEC_STATS: a program forks 4 children that exec a traced program,
// and each new image gets the agent with the system calls it needs made
// in batches (Ptrace/InjectBatch.h), two per image, so that an exec costs
// a handful of ptrace round trips (the home page, the healer, the batches,
// the scratch pages of the modules with sites) instead of some thirty, and
// a fork child's shard one instead of ten. The probe's hits are exact.
// Both ways across data models too (64 -> 32, 32 -> 64), and the images
// that posix_spawn() and a thread's exec make (those counted by hits).
// The counted runs stay attached (--no-detach): a fork child of a process
// tsrun has let go of (the default) arms itself, with no stop of tsrun's.
// REQUIRES: inprocess
// RUN: %cc64 %S/Inputs/exec-rounds.c -o %t.exe -lpthread
// RUN: %tscc %s -o %t.o
// RUN: env TSCC_EXEC_STATS=1 %tsrun --no-detach %t.o -- %t.exe parent 4 %t.exe > %t.out 2> %t.stats
// RUN: FileCheck %s --check-prefix=HITS < %t.out
// RUN: %python %S/Inputs/exec-round-trips.py 10 2 < %t.stats | FileCheck %s
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %tsrun %t.o -- %t.exe spawn 3 %t.exe | FileCheck %s --check-prefix=SPAWN
// RUN: %tsrun %t.o -- %t.exe thread %t.exe | FileCheck %s --check-prefix=THREAD
// A process with a seccomp filter of its own is set up call by call (its
// calls are judged one by one against the filter), and -v says so.
// RUN: %tsrun --no-detach -v %t.o -- %t.exe sandboxed 2 %t.exe > %t.outsb 2>&1
// RUN: FileCheck %s --check-prefix=SANDBOX < %t.outsb
// RUN: %if native-i386 %{ %cc32 %S/Inputs/exec-rounds.c -o %t.i386/%basename_t.tmp.exe -lpthread %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe spawn 3 %t.i386/%basename_t.tmp.exe | FileCheck %s --check-prefix=SPAWN %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe thread %t.i386/%basename_t.tmp.exe | FileCheck %s --check-prefix=THREAD %}
// RUN: %if native-i386 %{ env TSCC_EXEC_STATS=1 %tsrun --no-detach %t.o -- %t.i386/%basename_t.tmp.exe parent 4 %t.i386/%basename_t.tmp.exe > %t.out32 2> %t.stats32 %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=HITS < %t.out32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/exec-round-trips.py 10 2 < %t.stats32 | FileCheck %s %}
// RUN: %if native-i386 %{ env TSCC_EXEC_STATS=1 %tsrun --no-detach %t.o -- %t.exe parent 2 %t.i386/%basename_t.tmp.exe > %t.out6432 2> %t.stats6432 %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=HITS2 < %t.out6432 %}
// RUN: %if native-i386 %{ %python %S/Inputs/exec-round-trips.py 10 2 < %t.stats6432 | FileCheck %s %}
// RUN: %if native-i386 %{ env TSCC_EXEC_STATS=1 %tsrun --no-detach %t.o -- %t.i386/%basename_t.tmp.exe parent 2 %t.exe > %t.out3264 2> %t.stats3264 %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=HITS2 < %t.out3264 %}
// RUN: %if native-i386 %{ %python %S/Inputs/exec-round-trips.py 10 2 < %t.stats3264 | FileCheck %s %}
//
// HITS: expected=20
// HITS: work calls 20
// HITS2: expected=10
// HITS2: work calls 10
// SPAWN-COUNT-3: child done
// SPAWN: expected=15
// SPAWN: work calls 15
// THREAD: child done
// THREAD: work calls 5
// SANDBOX: pid [[CHILD:[0-9]+]]: its shard is mapped call by call: it has seccomp filters of its own (seccomp: 1 filter, read)
// SANDBOX: pid [[CHILD]]: the agent is set up call by call: it has seccomp filters of its own (seccomp: 1 filter, read)
// SANDBOX: expected=10
// SANDBOX: work calls 10
// CHECK: round trips per exec <= 10
// CHECK-NEXT: round trips per child <= 2
// CHECK-NEXT: batches per exec >= 2

__global long n;

@@uft:*:a.out:work:entry { n++; }
@@END { printf("work calls %ld\n", n); }
