// Four threads that each dlopen() a probed library, call into it ten
// times and dlclose() it, 300 times: the library is loaded and unloaded
// again and again while other threads call into it. Every call is counted
// and every return value summed; the program runs as it does alone.
// RUN: %cc64 -shared -fPIC %S/Inputs/dlopen-threads-lib.c -o %t.libplug.so
// RUN: %cc64 -O1 -pthread %S/Inputs/dlopen-threads.c -o %t.exe -ldl
// RUN: %tscc %s -o %t.o
// RUN: %t.exe %t.libplug.so > %t.alone
// RUN: %tsrun %t.o -- %t.exe %t.libplug.so > %t.out 2> %t.err
// RUN: grep -v probes: %t.out | diff %t.alone -
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.err
// RUN: %if inprocess %{ %tsrun --detach %t.o -- %t.exe %t.libplug.so > %t.det 2> %t.det.err %}
// RUN: %if inprocess %{ FileCheck %s < %t.det %}
// RUN: %if inprocess %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t.det.err %}
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -shared -fPIC %S/Inputs/dlopen-threads-lib.c -o %t32.libplug.so %}
// RUN: %if native-i386 %{ %cc32 -O1 -pthread %S/Inputs/dlopen-threads.c -o %t32 -ldl %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t32 %t32.libplug.so > %t32.out 2> %t32.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t32.out %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=QUIET --allow-empty < %t32.err %}
// CHECK: calls [[C:12000]] sum [[S:66000]]
// CHECK-NEXT: probes: calls [[C]] sum [[S]]
// QUIET-NOT: {{warning|killed|drops|faults|error}}

long plugged(long);
__global long calls, sum;
@@uft:*:*libplug.so:plugged:entry { calls++; }
@@uft:*:*libplug.so:plugged:exit { sum += __rv; }
@@END { printf("probes: calls %ld sum %ld\n", calls, sum); }
