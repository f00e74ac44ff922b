// A plugin host that loads, calls and unloads the same library 120 times
// (300 probed functions each time: 36,000 sites, more than the agent's
// table of 32,768) keeps every site a jump in the process, and its own
// mappings stay as they were: a dlclose()d library's entries in the
// agent's table and its trampoline area are taken again by the next load,
// as are the breakpoints' out-of-line stubs on the ptrace path. Before,
// the table filled up after 109 loads and every later site was a
// breakpoint (a ptrace stop per call), and each load left a mapping
// behind ("mappings grew by 101 in 110 cycles"). Every count is the
// program's own. 64-bit, and 32-bit where the kernel runs i386.
// RUN: %cc64 -shared -fPIC %S/Inputs/dlopen-cycles-lib.c -o %t.lib64.so
// RUN: %cc64 %S/Inputs/dlopen-cycles.c -o %t.64 -ldl
// RUN: %tscc %s -o %t.o
// RUN: %tsrun -v %t.o -- %t.64 %t.lib64.so 120 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SITES --implicit-check-not=breakpoint < %t.err %}
// RUN: %if native-i386 %{ %cc32 -shared -fPIC %S/Inputs/dlopen-cycles-lib.c -o %t.lib32.so %}
// RUN: %if native-i386 %{ %cc32 %S/Inputs/dlopen-cycles.c -o %t.32 -ldl %}
// RUN: %if native-i386 %{ %tsrun -v %t.o -- %t.32 %t.lib32.so 120 > %t.32.out 2> %t.32.err %}
// RUN: %if native-i386 %{ FileCheck %s < %t.32.out %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefix=SITES --implicit-check-not=breakpoint < %t.32.err %}
// CHECK: calls 36000 sum 540891000
// CHECK-NEXT: mappings stable
// CHECK-NEXT: hits 36000
// SITES: probe @@uft:*:*:lib_f*:entry at lib_f100 in {{.*}}, in-process jump
// SITES: clause 0 (line {{[0-9]+}}): fired 36000, 0 faults, 0 drops, 0 lost

__global long n;

@@uft:*:*:lib_f*:entry { n++; }
@@END { printf("hits %ld\n", n); }
