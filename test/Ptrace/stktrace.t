// stktrace() at the bottom of a recursion shows every activation, also
// through return addresses hijacked by an exit probe, and through libc
// (no frame pointers there: .eh_frame rules).
// RUN: %cc64 %S/Inputs/recurse.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 3 | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/recurse.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 3 | FileCheck %s %}
// CHECK: rec+0x0 (stktrace.t.tmp.exe)
// CHECK-NEXT: rec+0x{{[0-9a-f]+}} (stktrace.t.tmp.exe)
// CHECK-NEXT: rec+0x{{[0-9a-f]+}} (stktrace.t.tmp.exe)
// CHECK-NEXT: rec+0x{{[0-9a-f]+}} (stktrace.t.tmp.exe)
// CHECK-NEXT: main+0x{{[0-9a-f]+}} (stktrace.t.tmp.exe)
// CHECK: __libc_start_main+0x{{[0-9a-f]+}} (libc.so.6)
// CHECK-NEXT: _start+0x{{[0-9a-f]+}} (stktrace.t.tmp.exe)
// CHECK: exits=4

long rec(long);
__global long exits;

@@uft:*:a.out:rec:exit { exits++; }
@@uft:*:a.out:rec:entry when (__arg1 == 0) { stktrace(); }
@@END { printf("exits=%ld\n", exits); }
