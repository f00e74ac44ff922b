// What tracing costs a process in address space (issue 21): its VmSize
// grows by at most 64 MiB at the default settings, with 1, 64 and 1000
// threads that each print a record. It grew by 1.1 GB (a 1 MiB ring for
// each of --max-threads threads, mapped whole); now an agent maps each
// ring as its thread writes into it. The burst buffers of the defaults
// (4 of 64M) cost nothing here: one is mapped only when a thread whose
// own buffer is full goes on in it. A process that starts under a
// 256 MiB RLIMIT_AS (above what it needs untraced) still gets the
// in-process agent, and its 64 threads' records are all there. The
// ptrace path maps nothing into the process.
// REQUIRES: inprocess
// RUN: %cc64 -pthread %S/Inputs/vsz.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %t.exe 1 > %t.u1 && %tsrun %t.o -o %t.r1 -- %t.exe 1 > %t.t1
// RUN: %t.exe 64 > %t.u64 && %tsrun %t.o -o %t.r64 -- %t.exe 64 > %t.t64
// RUN: %t.exe 1000 > %t.u1000 && %tsrun %t.o -o %t.r1000 -- %t.exe 1000 > %t.t1000
// RUN: %python %S/Inputs/check-vsz.py 64 %t.u1 %t.t1 | FileCheck --check-prefix=ONE %s
// RUN: %python %S/Inputs/check-vsz.py 64 %t.u64 %t.t64 | FileCheck --check-prefix=MANY %s
// RUN: %python %S/Inputs/check-vsz.py 64 %t.u1000 %t.t1000 | FileCheck --check-prefix=MOST %s
// RUN: sort %t.r1000 | uniq | wc -l | FileCheck --check-prefix=RECORDS %s
// RUN: %tsrun %t.o -v -o %t.rl -- %t.exe 64 262144 2> %t.rl.err | FileCheck --check-prefix=LIMITED %s
// RUN: FileCheck --check-prefix=AGENT %s < %t.rl.err
// RUN: sort %t.rl | uniq | wc -l | FileCheck --check-prefix=LIMITED-RECORDS %s
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ %cc32 -pthread %S/Inputs/vsz.c -o %t32 %}
// RUN: %if native-i386 %{ %t32 1000 > %t.u32 && %tsrun %t.o -o %t.r32 -- %t32 1000 > %t.t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/check-vsz.py 64 %t.u32 %t.t32 | FileCheck --check-prefix=MOST %s %}
// RUN: %if native-i386 %{ %tsrun %t.o -v -o %t.rl32 -- %t32 64 262144 2> %t.rl32.err | FileCheck --check-prefix=LIMITED %s %}
// RUN: %if native-i386 %{ FileCheck --check-prefix=AGENT %s < %t.rl32.err %}
// ONE: 1 threads: growth within 64 MiB
// MANY: 64 threads: growth within 64 MiB
// MOST: 1000 threads: growth within 64 MiB
// RECORDS: 1000
// LIMITED: vsz: 64 threads VmSize
// AGENT: clauses run in the process (in-process agent)
// AGENT: launched
// AGENT: clauses run in the process (in-process agent)
// AGENT: exec
// LIMITED-RECORDS: 64

long hit(long);
@@uft:*:a.out:hit:entry { printf("hit %ld\n", __arg1); }
