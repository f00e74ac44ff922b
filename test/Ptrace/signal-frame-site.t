// tsrun attaches (-p) to a program stopped in a signal handler whose
// signal frame returns to the second instruction of a probed function
// (probed+1: the handler of a fault there). A jump at probed would cover
// that instruction, and the return from the handler would land inside the
// jump (the program then faulted again and died with status 3); the site
// gets a trap instead, the handler returns into the program's own bytes,
// and every later call is counted.
// RUN: %cc64 -O1 %S/Inputs/signal-frame-site.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %python %S/Inputs/attach-run.py %tsrun %t.o %t.exe > %t.out
// RUN: FileCheck %s < %t.out
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SITE < %t.out %}
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/signal-frame-site.c -o %t32 %}
// RUN: %if native-i386 %{ %python %S/Inputs/attach-run.py %tsrun %t.o %t32 > %t32.out %}
// RUN: %if native-i386 %{ FileCheck %s < %t32.out %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefix=SITE < %t32.out %}
// CHECK: calls 10 sum 0
// CHECK-NEXT: probes: 10
// CHECK: prog status: 0
// CHECK-NEXT: tsrun status: 0
// SITE: probe @@uft:*:a.out:probed:entry at probed in {{.*}}, in-process trap (a thread's stack holds an address inside the bytes (a signal frame or a return address), which it would come back to)

int probed(void);
__global long n;
@@uft:*:a.out:probed:entry { n++; }
@@END { printf("probes: %ld\n", n); }
