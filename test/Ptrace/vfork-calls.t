// vfork() children borrow their parent's memory, agent included, while the
// parent waits: their calls before exec or _exit are seen as their own,
// with their pids, and so are the returns. (The in-process path used to
// see none of them.)
// RUN: %cc64 %S/Inputs/vforkwork.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 40 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/vforkwork.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 40 > %t.i386/out 2> %t.i386/err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t.i386/err %}
// CHECK: parent calls [[P:[0-9]+]] children calls [[C:[0-9]+]]
// CHECK: parent=[[P]] children=[[C]] exits=160 children-seen=40
// QUIET-NOT: {{warning|drops|faults|error}}

long work(long);
__global long parent, children, exits, first, kids;
__thread long seen;

@@uft:*:a.out:work:entry
{
  if (first == 0) first = __pid;
  if (__pid == first) {
    parent++;
  } else {
    children++;
    if (seen == 0) kids++;
    seen = 1;
  }
}
@@uft:*:a.out:work:exit { exits++; }
@@END { printf("parent=%ld children=%ld exits=%ld children-seen=%ld\n", parent, children, exits, kids); }
