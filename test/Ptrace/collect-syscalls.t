// No half system calls either: a thread blocks in sigwaitinfo()
// (rt_sigtimedwait) while collection is off (--collect=off), collection is
// turned on (SIGUSR2, with the handshake of collect-signals.t), then the
// thread is woken. Its exit probe must not fire: its entry was not
// collected. A call entered and left while collection is on fires both.
// RUN: %cc64 -O1 %S/Inputs/switcher.c -o %t.exe -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/switch-driver.py %t.fifo -- %tsrun %t.o \
// RUN:   --collect=off -o %t.txt -- %t.exe %t.fifo parent b t12 u w1-1 b u \
// RUN:   | FileCheck %s --check-prefix=EVENTS
// EVENTS: stderr: tsrun: collection stopped (--collect=off)
// EVENTS-NEXT: stderr: tsrun: collection started (SIGUSR2)
// EVENTS-NEXT: tsrun status: 0
// RUN: FileCheck %s --input-file %t.txt
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/switcher.c -o %t.i386/%basename_t.tmp.exe -lpthread %}
// RUN: %if native-i386 %{ %python %S/Inputs/switch-driver.py %t.i386/%basename_t.tmp.fifo -- %tsrun %t.o --collect=off -o %t.i386/%basename_t.tmp.txt -- %t.i386/%basename_t.tmp.exe %t.i386/%basename_t.tmp.fifo parent b t12 u w1-1 b u | FileCheck %s --check-prefix=EVENTS %}
// RUN: %if native-i386 %{ FileCheck %s --input-file %t.i386/%basename_t.tmp.txt %}
// CHECK-NOT: sigwait
// CHECK: work 1
// CHECK-NEXT: sigwait entry
// CHECK-NEXT: sigwait exit
// CHECK-NOT: sigwait

long work(long);

@@uft:*:a.out:work:entry { printf("work %ld\n", __arg1); }
@@syscall:*:rt_sigtimedwait:entry { printf("sigwait entry\n"); }
@@syscall:*:rt_sigtimedwait:exit { printf("sigwait exit\n"); }
