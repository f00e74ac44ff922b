// A long session that traces many short-lived processes keeps no per-process
// descriptor: tsrun held each exited process's /proc/PID/mem open, one more
// descriptor per fork (1210 after 1200 forks) until it ran out. The program
// reads its tracer's descriptor count after 100 and after 400 forks; they
// must be equal. (VmRSS is printed too, for the record; not checked.)
// RUN: %cc64 %S/Inputs/fork-many.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 100 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/fork-many.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 100 | FileCheck %s %}
// CHECK: after 100 forks: tracer fds [[FDS:[0-9]+]] rss
// CHECK: after 400 forks: tracer fds [[FDS]] rss
// CHECK: @n: 400
int work(int id);
@@uft:*:a.out:work:entry
{
  @n = count();
}
