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
// CHECK: f called [[N:[0-9]+]] times
// CHECK: entry [[N]], second instruction [[N]]
// SITES-DAG: probe @@uft:*:a.out:f:entry at f in {{.*}}, in-process trap (another probe site inside the patched bytes (0x{{[0-9a-f]+}}))
// SITES-DAG: probe @@uft:*:a.out:f+0x1 at f in {{.*}}, in-process jump

__global long entry, second;
@@uft:*:a.out:f:entry { entry++; }
@@uft:*:a.out:f+0x1 { second++; }
@@END { printf("entry %ld, second instruction %ld\n", entry, second); }
