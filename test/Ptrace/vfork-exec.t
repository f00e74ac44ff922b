// vfork() children borrow their parent's memory, agent included, until
// they exec: the parent's calls before and after are all seen, and so are
// every exec'ed child's, each child as a process of its own.
// RUN: %cc64 %S/Inputs/vforker.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 5 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/vforker.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 5 | FileCheck %s %}
// CHECK: parent 10 children 25
// CHECK: parent=10 children=25 processes=6

long work(long);
__global long parent, children, processes, first;

@@uft:*:a.out:work:entry
{
  if (first == 0) first = __pid;
  if (__pid == first) parent++; else children++;
}
@@uft:*:a.out:main:entry { processes++; }
@@END { printf("parent=%ld children=%ld processes=%ld\n", parent, children, processes); }
