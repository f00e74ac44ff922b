// Attaching sets a USDT probe's semaphore, so the program computes the
// probe's arguments and the probe fires; detaching puts the semaphore back,
// so afterwards the program skips the probe as it did before tsrun came;
// in a child forked while tsrun was attached too. Attached (--no-detach).
// KNOWN BUG of the detached default, found in wt-detach4's triage: a child
// forked while tsrun has let go of its parent, and that tsrun has not
// found yet when the session ends, keeps the semaphore set (sem=1).
// RUN: %cc64 %S/Inputs/usdt-attach.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: env USDT_ATTACH_TSRUN_ARGS=--no-detach %python %S/Inputs/usdt-attach.py %tsrun %t.o %t.exe | FileCheck %s
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -I/usr/include/x86_64-linux-gnu %S/Inputs/usdt-attach.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ env USDT_ATTACH_TSRUN_ARGS=--no-detach %python %S/Inputs/usdt-attach.py %tsrun %t.o %t.i386/%basename_t.tmp.exe | FileCheck %s %}
// CHECK: started sem=0
// CHECK-NEXT: attached sem=1
// CHECK-NEXT: stepped
// CHECK-NEXT: child detached sem=0
// CHECK-NEXT: detached sem=0
// CHECK-NEXT: step 1
// CHECK-NOT: step {{[23]}}
// CHECK: prog status: 0

@@usdt:*:a.out:app:step { printf("step %lld\n", __arg1); }
