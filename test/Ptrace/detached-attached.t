// A process tsrun attached to (-p), not its child, is let go of too
// (--detach) once it is set up: nothing traces it while it runs (TracerPid
// 0), a library it dlopen()s meanwhile is probed through a window, and
// tsrun learns of its end through a pidfd (waitpid() would not: the
// process is not tsrun's child), reported with its status if tsrun reads it
// before its parent collects it, else -1 (its status is its parent's). Every count is the program's own. On the ptrace path
// (--param tsrun_mode=ptrace) nothing is let go of, and the counts are
// the same. 64-bit, and 32-bit where the kernel runs i386.
// RUN: %cc64 -shared -fPIC %S/Inputs/dlopen-lib.c -o %t.lib64.so
// RUN: %cc64 %S/Inputs/detached-dlopen.c -o %t.64 -ldl -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %if inprocess %{ env ATTACH_RUN_TSRUN_ARGS=--detach ATTACH_RUN_WAIT_FOR=": detached: " %python %S/Inputs/attach-run.py %tsrun %t.o %t.64 count %t.lib64.so 40 > %t.out %}
// RUN: %if inprocess %{ FileCheck %s --check-prefixes=CHECK,DETACHED --implicit-check-not=warning < %t.out %}
// RUN: %if ptrace-mode %{ env ATTACH_RUN_TSRUN_ARGS=--detach %python %S/Inputs/attach-run.py %tsrun %t.o %t.64 count %t.lib64.so 40 | FileCheck %s --check-prefixes=CHECK,TRACED %}
// RUN: %if native-i386 %{ %cc32 -shared -fPIC %S/Inputs/dlopen-lib.c -o %t.lib32.so %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/detached-dlopen.c -o %t.32 -ldl -lpthread %}
// RUN: %if native-i386 && inprocess %{ env ATTACH_RUN_TSRUN_ARGS=--detach ATTACH_RUN_WAIT_FOR=": detached: " %python %S/Inputs/attach-run.py %tsrun %t.o %t.32 count %t.lib32.so 40 > %t.32.out %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefixes=CHECK,DETACHED --implicit-check-not=warning < %t.32.out %}
// RUN: %if native-i386 && ptrace-mode %{ env ATTACH_RUN_TSRUN_ARGS=--detach %python %S/Inputs/attach-run.py %tsrun %t.o %t.32 count %t.lib32.so 40 | FileCheck %s --check-prefixes=CHECK,TRACED %}
// DETACHED: before: untraced
// TRACED: before: traced
// DETACHED: after: untraced
// TRACED: after: traced
// CHECK: lib_func calls [[LIB:[0-9]+]] main_func calls [[MAIN:[0-9]+]]
// CHECK-NEXT: lib_func [[LIB]] main_func [[MAIN]]
// DETACHED: tsrun: pid [[PID:[0-9]+]] ({{.*}}): attached
// DETACHED: tsrun: pid [[PID]]: detached: every site runs in the process
// DETACHED-COUNT-4: tsrun: pid [[PID]]: attached for a change of its libraries (a window)
// DETACHED: tsrun: pid [[PID]] ({{.*}}) exited with status {{-1|0}}
// TRACED: tsrun: pid {{[0-9]+}} ({{.*}}) exited with status 0
// CHECK: prog status: 0
// CHECK-NEXT: tsrun status: 0

__global long nlib, nmain;

@@uft:*:*:lib_func:entry { nlib++; }
@@uft:*:a.out:main_func:entry { nmain++; }
@@END { printf("lib_func %ld main_func %ld\n", nlib, nmain); }
