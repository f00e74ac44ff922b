// tsrun is SIGKILLed while a library's function is patched; the program
// then unloads that library and loads another one at the same address.
// The agent heals on the next hit (tsrun is gone) and puts back only the
// sites that still hold tsrun's jump: the new library's code at the old
// site's address is left alone (it used to get the old function's bytes:
// fb(5) computed 26 instead of 7015).
// REQUIRES: inprocess
// RUN: %tscc %s -o %t.o
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %cc64 -O1 -shared -fPIC %S/Inputs/heal-dlclose-lib.c -o %t.d/libA.so
// RUN: %cc64 -O1 -shared -fPIC -DOTHER %S/Inputs/heal-dlclose-lib.c -o %t.d/libB.so
// RUN: %cc64 %S/Inputs/heal-dlclose.c -ldl -o %t.d/prog
// RUN: %python %S/Inputs/heal-dlclose.py %tsrun %t.o %t.d/prog %t.d/libA.so %t.d/libB.so | FileCheck %s
// RUN: %if native-i386 %{ %cc32 -O1 -shared -fPIC %S/Inputs/heal-dlclose-lib.c -o %t.d/libA.so %}
// RUN: %if native-i386 %{ %cc32 -O1 -shared -fPIC -DOTHER %S/Inputs/heal-dlclose-lib.c -o %t.d/libB.so %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/heal-dlclose.c -ldl -o %t.d/prog %}
// RUN: %if native-i386 %{ %python %S/Inputs/heal-dlclose.py %tsrun %t.o %t.d/prog %t.d/libA.so %t.d/libB.so | FileCheck %s %}
// CHECK: probe @@uft:*:libA.so:fa:entry at fa in libA.so ({{.*}}), in-process
// CHECK: fa(5) = 26
// CHECK-NEXT: libB's fb where libA's fa was: yes
// CHECK-NEXT: fb(5) = 7015
// CHECK-NEXT: tick(1) = 2
// CHECK-NEXT: status 0

int fa(int);
int tick(int);
@@uft:*:libA.so:fa:entry { printf("fa\n"); }
@@uft:*:a.out:tick:entry { printf("tick\n"); }
