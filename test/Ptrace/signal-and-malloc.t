// Probes fire inside a signal handler that interrupted a probed function
// (whose return is hijacked by an exit probe), and inside malloc, on
// entry and on return: every hit counted once, the program unharmed.
// RUN: %cc64 %S/Inputs/sigmalloc.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 300 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/sigmalloc.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 300 | FileCheck %s %}
// CHECK: work 300 handler 300 malloc 300
// CHECK: work=300/300 handler=300 malloc=300/300 nonnull=300

#include <stddef.h>
long work(long);
long in_handler(long);
void *malloc(size_t);
__global long work_in, work_out, handler, malloc_in, malloc_out, nonnull;
__thread long sizing;

@@uft:*:a.out:work:entry { work_in++; }
@@uft:*:a.out:work:exit { work_out++; }
@@uft:*:a.out:in_handler:entry when (__arg1 == 10) { handler++; }
@@uft:*:libc.so.6:malloc:entry when (__arg1 == 12345) { malloc_in++; sizing = 1; }
@@uft:*:libc.so.6:malloc:exit when (sizing == 1)
{
  malloc_out++;
  if (__rv != 0) nonnull++;
  sizing = 0;
}
@@END
{
  printf("work=%ld/%ld handler=%ld malloc=%ld/%ld nonnull=%ld\n", work_in,
         work_out, handler, malloc_in, malloc_out, nonnull);
}
