// within("outer") is true exactly while the thread is inside an activation
// of outer(), recursion included.
// RUN: %cc64 %S/Inputs/within.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/within.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe | FileCheck %s %}
// CHECK: inside=[[IN:[0-9]+]] outside=[[OUT:[0-9]+]]
// CHECK: script: inside=[[IN]] outside=[[OUT]]

long inner(long);
__global long in;
__global long out;

@@uft:*:a.out:inner:entry
{
  if (within("outer")) in++; else out++;
}
@@END { printf("script: inside=%ld outside=%ld\n", in, out); }
