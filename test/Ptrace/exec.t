// After exec the probes are resolved again in the new image.
// RUN: %cc64 %S/Inputs/forkexec.c -o %t.exe
// RUN: %cc64 %S/Inputs/threads.c -o %t.threads -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe exec %t.threads 2 10 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/forkexec.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/threads.c -o %t.i386/%basename_t.tmp.threads -lpthread %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe exec %t.i386/%basename_t.tmp.threads 2 10 | FileCheck %s %}
// CHECK: expected=20
// CHECK: forkexec=3 threads=20

long work(long);
__global long before;
__global long after;

@@uft:*:a.out:work:entry
{
  if (__pname == "exec.t.tmp.exe") before++; else after++;
}
@@END { printf("forkexec=%ld threads=%ld\n", before, after); }
