// Sites where no 5-byte jump can go run their clauses in the process all
// the same, through an int3 and the agent's SIGTRAP handler (a trap site):
// a 4-byte function with the next one right behind it, and a site whose
// jump would cover a loop's branch target. The counts and the arguments the
// clauses see are the program's own; the program's own SIGTRAP handler,
// set after the sites were armed, still gets its raise(SIGTRAP) and its own
// int3. -v and JSON name the mechanism and why.
// RUN: %cc64 -O1 %S/Inputs/trap-sites.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %t.exe 50 own > %t.alone
// RUN: %tsrun -v %t.o -- %t.exe 50 own > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: grep -v probes: %t.out | diff %t.alone -
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.err %}
// RUN: %tsrun -f json %t.o -- %t.exe 5 > %t.json
// RUN: %if inprocess %{ FileCheck %s --check-prefix=JSON < %t.json %}
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ %cc32 -O1 %S/Inputs/trap-sites.c -o %t32 %}
// RUN: %if native-i386 %{ %t32 50 own > %t32.alone %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -- %t32 50 own > %t32.out 2> %t32.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t32.out %}
// RUN: %if native-i386 %{ grep -v probes: %t32.out | diff %t32.alone - %}
// RUN: %if native-i386 %{ %if inprocess %{ FileCheck %s --check-prefix=SITES < %t32.err %} %}
// CHECK: tiny 50 calls sum {{[0-9]+}}, loop3 50 calls sum 3825, args [[ARGS:[0-9]+]]
// CHECK-NEXT: own traps 2
// CHECK-NEXT: probes: tiny 50 args [[ARGS]] loop3 50
// SITES-DAG: probe @@uft:*:a.out:tiny:entry at tiny in {{.*}}, in-process trap (the function is shorter than 5 bytes from the site)
// SITES-DAG: probe @@uft:*:a.out:loop3+0x4 at loop3 in {{.*}}, in-process trap (a branch target inside the patched bytes (0x{{[0-9a-f]+}}))
// SITES-NOT: warning
// JSON: "mechanism":"in-process trap (the function is shorter than 5 bytes from the site)"

int tiny(int);
__global long t, l, a;
@@uft:*:a.out:tiny:entry { t++; a += __arg1; }
@@uft:*:a.out:loop3+0x4 { l++; }
@@END { printf("probes: tiny %ld args %ld loop3 %ld\n", t, a, l); }
