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
// The 32-bit twin, where the kernel runs i386. Its table is GOT-relative
// (add -K(%edx,%eax,4),%edx; jmp *%edx, the GOT's address from
// __x86.get_pc_thunk): the table's entries are read the same way, and the
// site takes a trap for the same reason. (Before i386 tables were
// followed, it was a trap because "the targets of i386 indirect jumps are
// not followed", and every site a jump could take in such a function was
// one too.)
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/switch-cases.c -o %t.i386/t.exe %}
// RUN: %if native-i386 %{ %python %S/Inputs/symbol-distance.py %t.i386/t.exe case0_site case1_site | FileCheck %s --check-prefix=LAYOUT %}
// RUN: %if native-i386 %{ %t.i386/t.exe 600 > %t.i386/t.alone %}
// RUN: %if native-i386 %{ %python %S/Inputs/symbol-distance.py --sed STEP_OFFSET %t.i386/t.exe step case0_site > %t.i386/t.sed %}
// RUN: %if native-i386 %{ sed -f %t.i386/t.sed %s > %t.i386/t.t %}
// RUN: %if native-i386 %{ %tscc %t.i386/t.t -o %t.i386/t.o %}
// RUN: %if native-i386 %{ %tsrun -v %t.i386/t.o -- %t.i386/t.exe 600 > %t.i386/t.out 2> %t.i386/t.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.i386/t.out %}
// RUN: %if native-i386 %{ grep 'case 0 ran' %t.i386/t.out | diff %t.i386/t.alone - %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=SITE < %t.i386/t.err %}
// RUN: %if native-i386 %{ %if inprocess %{ FileCheck %s --check-prefix=WHY < %t.i386/t.err %} %}
// RUN: %if native-i386 %{ %tscc_obj_root/bin/tsrun --ptrace %t.i386/t.o -- %t.i386/t.exe 600 > %t.i386/t.ptrace %}
// RUN: %if native-i386 %{ diff <(grep 'probe saw' %t.i386/t.ptrace) <(grep 'probe saw' %t.i386/t.out) %}
// RUN: %if native-i386 %{ %tsrun -f json %t.i386/t.o -- %t.i386/t.exe 6 > %t.i386/t.json %}
// RUN: %if native-i386 %{ %if inprocess %{ FileCheck %s --check-prefix=JSON < %t.i386/t.json %} %}
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
