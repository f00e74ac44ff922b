// Threads made by clone(CLONE_THREAD) without CLONE_SETTLS share the fs
// base of the thread that made them (some runtimes make helper threads so):
// with the main thread, they call a function with an entry and an exit
// probe 20000 times each, at the same time, and every call and return is
// seen, each as its own thread's. (The in-process agent took them for one
// thread: the process was killed by SIGILL.)
// Launched runs stay attached (--no-detach). KNOWN BUG of the detached
// default, found in wt-detach4's triage: detached, one exit of 60000 was
// not counted (exits=59999) in one run under load.
// RUN: %cc64 %S/Inputs/rawthreads.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun --no-detach %t.o -- %t.exe 20000 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// CHECK: calls 20000 20000 20000
// CHECK: calls=60000 exits=60000 bad=0 threads=3
// CHECK-COUNT-3: @per_thread[{{[0-9]+}}]: 20000
// QUIET-NOT: {{warning|drops|faults|error}}
//
// The same with the threads made before tsrun attaches (-p).
// RUN: %python %S/Inputs/attach-run.py %tsrun %t.o %t.exe 20000 | FileCheck %s --check-prefix=ATTACHED
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/rawthreads.c -o %t.i386/t.exe %}
// RUN: %if native-i386 %{ %tsrun --no-detach %t.o -- %t.i386/t.exe 20000 > %t.i386/t.out 2> %t.i386/t.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/t.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t.i386/t.err %}
// RUN: %if native-i386 %{ %python %S/Inputs/attach-run.py %tsrun %t.o %t.i386/t.exe 20000 | FileCheck %s --check-prefix=ATTACHED %}
// ATTACHED: calls 20000 20000 20000
// ATTACHED: calls=60000 exits=60000 bad=0 threads=3
// ATTACHED-COUNT-3: @per_thread[{{[0-9]+}}]: 20000
// ATTACHED-NOT: {{warning|[1-9][0-9]* faults|[1-9][0-9]* drops|error}}
// ATTACHED: prog status: 0
// ATTACHED: tsrun status: 0

long work(long);
__global long calls, exits, bad, threads;
__thread long arg, seen;

@@uft:*:a.out:work:entry
{
  calls++;
  arg = __arg1;
  if (seen == 0) threads++;
  seen = 1;
  @per_thread[__tid] = count();
}
@@uft:*:a.out:work:exit { exits++; if (__rv != arg * 2) bad++; }
@@END { printf("calls=%ld exits=%ld bad=%ld threads=%ld\n", calls, exits, bad, threads); }
