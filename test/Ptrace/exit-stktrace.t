// stktrace() in an exit clause shows the caller it returns into, then that
// caller's callers: at the innermost return of rec(3), rec three times and
// main, as under --ptrace. In-process, the frame being returned from was
// still on the agent's shadow stack when the clause ran, and was taken for
// the next hijacked return address: every caller moved up by one frame
// (rec, rec, rec, rec, then libc: main was lost).
// RUN: %cc64 %S/Inputs/recurse.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -- %t.exe 3 > %t.out
// RUN: FileCheck %s < %t.out
// RUN: %tscc_obj_root/bin/tsrun --ptrace %t.o -- %t.exe 3 > %t.ptrace
// RUN: diff %t.ptrace %t.out
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/recurse.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 3 > %t.i386/out %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/out %}
// RUN: %if native-i386 %{ %tscc_obj_root/bin/tsrun --ptrace %t.o -- %t.i386/%basename_t.tmp.exe 3 > %t.i386/ptrace %}
// RUN: %if native-i386 %{ diff %t.i386/ptrace %t.i386/out %}
// CHECK: return 1
// CHECK-NEXT: rec+0x{{[0-9a-f]+}} (exit-stktrace.t.tmp.exe)
// CHECK-NEXT: rec+0x{{[0-9a-f]+}} (exit-stktrace.t.tmp.exe)
// CHECK-NEXT: rec+0x{{[0-9a-f]+}} (exit-stktrace.t.tmp.exe)
// CHECK-NEXT: main+0x{{[0-9a-f]+}} (exit-stktrace.t.tmp.exe)
// CHECK: return 4
// CHECK-NEXT: rec+0x{{[0-9a-f]+}} (exit-stktrace.t.tmp.exe)
// CHECK-NEXT: rec+0x{{[0-9a-f]+}} (exit-stktrace.t.tmp.exe)
// CHECK-NEXT: main+0x{{[0-9a-f]+}} (exit-stktrace.t.tmp.exe)
// CHECK: return 14
// CHECK-NEXT: rec+0x{{[0-9a-f]+}} (exit-stktrace.t.tmp.exe)
// CHECK-NEXT: main+0x{{[0-9a-f]+}} (exit-stktrace.t.tmp.exe)
// CHECK: return 45
// CHECK-NEXT: main+0x{{[0-9a-f]+}} (exit-stktrace.t.tmp.exe)
// CHECK: __libc_start_main+0x{{[0-9a-f]+}} (libc.so.6)

long rec(long);
@@uft:*:a.out:rec:exit { printf("return %ld\n", __rv); stktrace(); }
