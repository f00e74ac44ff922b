// Struct arguments through a prototype: the script prints what the program
// says it passed.
// RUN: %cc64 %S/Inputs/args.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -o %t.script -- %t.exe > %t.program
// RUN: cat %t.program %t.script | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/args.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -o %t.i386/%basename_t.tmp.script -- %t.i386/%basename_t.tmp.exe > %t.i386/%basename_t.tmp.program %}
// RUN: %if native-i386 %{ cat %t.i386/%basename_t.tmp.program %t.i386/%basename_t.tmp.script | FileCheck %s %}
// CHECK: program: [[A:id 10 len 107 name alpha flags 0]]
// CHECK-NEXT: program: [[B:id 11 len 207 name beta flags 2]]
// CHECK-NEXT: program: [[C:id 12 len 307 name gamma flags 4]]
// CHECK-NEXT: script: [[A]]
// CHECK-NEXT: script: [[B]]
// CHECK-NEXT: script: [[C]]

struct req { int id; long len; char *name; };
int handle(struct req *r, int flags);

@@uft:*:a.out:handle:entry
{
  printf("script: id %d len %ld name %s flags %d\n", __arg1->id, __arg1->len,
         get_userstring(__arg1->name), __arg2);
}
