// A switch table jumps into the third byte of a probe site: case 1 starts
// two bytes after case 0, where a 5-byte jump written at case 0 would
// still be (issue 24: the target was killed by SIGSEGV). The table's
// entry is found, so the site takes no jump but a trap (an int3 over its
// first byte only; -v says why), and the program runs and counts as it
// does alone and under --ptrace.
// RUN: %cc64 -O1 %S/Inputs/switch-cases.c -o %t.exe
// RUN: %python %S/Inputs/symbol-distance.py %t.exe case0_site case1_site | FileCheck %s --check-prefix=LAYOUT
// RUN: %t.exe 600 > %t.alone
// RUN: %python %S/Inputs/symbol-distance.py --sed STEP_OFFSET %t.exe step case0_site > %t.sed
// RUN: sed -f %t.sed %s > %t.t
// RUN: %tscc %t.t -o %t.o
// RUN: %tsrun -v %t.o -- %t.exe 600 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: grep 'case 0 ran' %t.out | diff %t.alone -
// RUN: FileCheck %s --check-prefix=SITE < %t.err
// RUN: %if inprocess %{ FileCheck %s --check-prefix=WHY < %t.err %}
// RUN: %tscc_obj_root/bin/tsrun --ptrace %t.o -- %t.exe 600 > %t.ptrace
// RUN: diff <(grep 'probe saw' %t.ptrace) <(grep 'probe saw' %t.out)
// RUN: %tsrun -f json %t.o -- %t.exe 6 > %t.json
// RUN: %if inprocess %{ FileCheck %s --check-prefix=JSON < %t.json %}
// LAYOUT: {{^}}0x2{{$}}
// CHECK: case 0 ran [[N:[0-9]+]] times, acc {{[0-9]+}}
// CHECK: probe saw case 0 [[N]] times
// SITE: probe @@uft:*:a.out:step+0x{{[0-9a-f]+}} at step in {{.*}}, {{in-process trap|breakpoint}}
// SITE-NOT: killed
// JSON: "mechanism":"in-process trap (a jump table entry inside the patched bytes (0x{{[0-9a-f]+}}))"
// WHY: probe @@uft:*:a.out:step+0x{{[0-9a-f]+}} at step in {{.*}}, in-process trap (a jump table entry inside the patched bytes (0x{{[0-9a-f]+}}))

__global long hits;
@@uft:*:a.out:step+STEP_OFFSET { hits++; }
@@END { printf("probe saw case 0 %ld times\n", hits); }
