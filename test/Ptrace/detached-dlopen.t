// A library that a process tsrun has let go of (--detach) dlopen()s is
// probed from its first call, its constructor's included: the loader's
// debugger hook is an in-process trap site whose agent asks tsrun for a
// window at each consistent link map; tsrun attaches, installs the new
// library's sites (or forgets an unloaded one's) and lets go again before
// the loader goes on. The library is loaded twice (dlclose() between),
// while another thread hits a probe of the program all along; the process
// is untraced by ptrace before and after (TracerPid 0), and every count is
// the program's own. 64-bit, and 32-bit where the kernel runs i386;
// attached (no --detach), the same counts. On the ptrace path (--param
// tsrun_mode=ptrace) nothing is let go of, and the counts are the same.
// RUN: %cc64 -shared -fPIC %S/Inputs/dlopen-lib.c -o %t.lib64.so
// RUN: %cc64 %S/Inputs/detached-dlopen.c -o %t.64 -ldl -lpthread
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v --detach %t.o -- %t.64 count %t.lib64.so 40 > %t.out 2> %t.err
// RUN: %if inprocess %{ FileCheck %s --check-prefixes=CHECK,UNTRACED < %t.out %}
// RUN: %if inprocess %{ FileCheck %s --check-prefix=DETACHED --implicit-check-not=warning < %t.err %}
// RUN: %if ptrace-mode %{ FileCheck %s --check-prefixes=CHECK,TRACED < %t.out %}
// RUN: %tsrun --no-detach %t.o -- %t.64 count %t.lib64.so 40 | FileCheck %s --check-prefixes=CHECK,TRACED
// RUN: %if native-i386 %{ %cc32 -shared -fPIC %S/Inputs/dlopen-lib.c -o %t.lib32.so %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/detached-dlopen.c -o %t.32 -ldl -lpthread %}
// RUN: %if native-i386 %{ %tsrun -v --detach %t.o -- %t.32 count %t.lib32.so 40 > %t.32.out 2> %t.32.err %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefixes=CHECK,UNTRACED < %t.32.out %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefix=DETACHED --implicit-check-not=warning < %t.32.err %}
// RUN: %if native-i386 && ptrace-mode %{ FileCheck %s --check-prefixes=CHECK,TRACED < %t.32.out %}
// RUN: %if native-i386 %{ %tsrun --no-detach %t.o -- %t.32 count %t.lib32.so 40 | FileCheck %s --check-prefixes=CHECK,TRACED %}
// UNTRACED: before: untraced
// TRACED: before: traced
// UNTRACED: after: untraced
// TRACED: after: traced
// CHECK: lib_func calls [[LIB:[0-9]+]] main_func calls [[MAIN:[0-9]+]]
// CHECK-NEXT: lib_func [[LIB]] main_func [[MAIN]]
// DETACHED: tsrun: pid [[PID:[0-9]+]]: detached: every site runs in the process
// Each dlopen() and dlclose() is a window:
// DETACHED-COUNT-4: tsrun: pid [[PID]]: attached for a change of its libraries (a window)
// DETACHED-NEXT: tsrun: pid [[PID]]: detached: every site runs in the process

__global long nlib, nmain;

@@uft:*:*:lib_func:entry { nlib++; }
@@uft:*:a.out:main_func:entry { nmain++; }
@@END { printf("lib_func %ld main_func %ld\n", nlib, nmain); }
