// Two probe sites one byte apart: a jump at the first would cover the
// second, whose own patch then overwrote the first's (the target was
// killed), or whose probe the first's copy would skip. The first gets a
// trap (an int3 over its one byte), the second a jump, and both count
// every call.
// RUN: %cc64 -fcf-protection=none %S/Inputs/adjacent.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v %t.o -- %t.exe 300 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: %tscc_obj_root/bin/tsrun --ptrace %t.o -- %t.exe 300 > %t.ptrace
// RUN: diff %t.ptrace %t.out
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.err %}
// The 32-bit twin, where the kernel runs i386:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -fcf-protection=none %S/Inputs/adjacent.c -o %t.i386/t.exe %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -- %t.i386/t.exe 300 > %t.i386/t.out 2> %t.i386/t.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/t.out %}
// RUN: %if native-i386 %{ %tscc_obj_root/bin/tsrun --ptrace %t.o -- %t.i386/t.exe 300 > %t.i386/t.ptrace %}
// RUN: %if native-i386 %{ diff %t.i386/t.ptrace %t.i386/t.out %}
// RUN: %if native-i386 %{ %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.i386/t.err %} %}
// CHECK: f called [[N:[0-9]+]] times
// CHECK: entry [[N]], second instruction [[N]]
// SITES-DAG: probe @@uft:*:a.out:f:entry at f in {{.*}}, in-process trap (another probe site inside the patched bytes (0x{{[0-9a-f]+}}))
// SITES-DAG: probe @@uft:*:a.out:f+0x1 at f in {{.*}}, in-process jump

__global long entry, second;
@@uft:*:a.out:f:entry { entry++; }
@@uft:*:a.out:f+0x1 { second++; }
@@END { printf("entry %ld, second instruction %ld\n", entry, second); }
