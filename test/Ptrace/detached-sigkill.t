// tsrun is SIGKILLed while a launched program runs detached (--detach):
// the program is not killed with it (nothing traces it any more), its next
// probe hit finds tsrun gone and puts the site's original bytes back, and
// it finishes as it would untraced, with its code as the file has it.
// REQUIRES: inprocess
// RUN: %cc64 %S/Inputs/steady.c -o %t.exe
// RUN: %t.exe bytes x > %t.bytes
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/steady-driver.py kill %tsrun %t.o %t.exe > %t.out
// RUN: FileCheck %s < %t.out
// RUN: grep '^code' %t.out | diff %t.bytes -
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 %S/Inputs/steady.c -o %t.32.exe %}
// RUN: %if native-i386 %{ %t.32.exe bytes x > %t.32.bytes %}
// RUN: %if native-i386 %{ %python %S/Inputs/steady-driver.py kill %tsrun %t.o %t.32.exe > %t.32.out %}
// RUN: %if native-i386 %{ FileCheck %s < %t.32.out %}
// RUN: %if native-i386 %{ grep '^code' %t.32.out | diff %t.32.bytes - %}
// CHECK: prog says: started
// CHECK-NEXT: tsrun: pid N: detached: every site runs in the process
// CHECK-NEXT: tsrun status: -9
// CHECK-NEXT: sum 2000000 tracer 0
// CHECK-NEXT: code

long work(long);

@@uft:*:a.out:work:entry { printf("enter %ld\n", __arg1); }
