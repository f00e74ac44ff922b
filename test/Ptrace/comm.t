// __comm is the firing thread's name as the kernel keeps it (bpftrace's
// comm): the name the program was run by, cut to 15 bytes, and whatever the
// thread renames itself to; __pname stays the executable's file name.
// REQUIRES: compiler
// RUN: %tscc %s -o %t.o
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %cc64 %S/Inputs/comm.c -o %t.d/a-program-with-a-long-name
// RUN: ln -s a-program-with-a-long-name %t.d/short
// RUN: %tsrun %t.o -- %t.d/short > %t.out
// RUN: FileCheck %s < %t.out
// CHECK-DAG: comm 1 short
// CHECK-DAG: work 1 comm short pname a-program-with-a-long-name
// CHECK-DAG: comm 2 renamed-thread
// CHECK-DAG: work 2 comm renamed-thread pname a-program-with-a-long-name
// Run by its own long name, the kernel cuts it to 15 bytes.
// RUN: %tsrun %t.o -- %t.d/a-program-with-a-long-name | FileCheck %s --check-prefix=LONG
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ rm -rf %t.i386/t.d && mkdir -p %t.i386/t.d %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/comm.c -o %t.i386/t.d/a-program-with-a-long-name %}
// RUN: %if native-i386 %{ ln -s a-program-with-a-long-name %t.i386/t.d/short %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/t.d/short > %t.i386/t.out %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/t.out %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/t.d/a-program-with-a-long-name | FileCheck %s --check-prefix=LONG %}
// LONG-DAG: comm 1 a-program-with-
// LONG-DAG: work 1 comm a-program-with- pname a-program-with-a-long-name

int work(int);
@@uft:*:a.out:work:entry { printf("work %d comm %s pname %s\n", __arg1, __comm, __pname); }
