// An aggregation keyed by stktrace() counts each call path once per call,
// exactly as often as the program says it took that path, in either mode
// (in-process, the agent walks the stack in the process: -v says the site
// takes a jump).
// A depth merges the paths that agree in their innermost frames, a stack
// can share a key with other values, and the text output prints each stack
// as bpftrace does.
// RUN: %cc64 -O1 -fno-omit-frame-pointer %S/Inputs/call-paths.c -o %t.exe
// RUN: %tscc %s -o %t.o
// RUN: %tsrun %t.o -f json -o %t.json -- %t.exe 5 3 2 > %t.prog
// RUN: %python %S/Inputs/stack-paths.py %t.json paths > %t.paths
// RUN: diff %t.prog %t.paths
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %tsrun %t.o -- %t.exe 5 3 2 | FileCheck %s
// RUN: %if inprocess %{ %tsrun -v %t.o -- %t.exe 5 3 2 2> %t.err > /dev/null %}
// RUN: %if inprocess %{ FileCheck %s --check-prefix=SITES < %t.err %}
// A binary trace keeps the stacks: tsreport prints the same profile.
// RUN: %tsrun %t.o -f binary -o %t.bin -- %t.exe 5 3 2 > %t.prog2
// RUN: %tsreport %t.bin | FileCheck %s --check-prefix=REPORT
// RUN: %tsreport -f json %t.bin > %t.report.json
// RUN: %python %S/Inputs/stack-paths.py %t.report.json paths | diff %t.prog2 -
// The 32-bit twin, where the kernel runs i386 programs:
// RUN: %if native-i386 %{ rm -rf %t.i386 && mkdir -p %t.i386 %}
// RUN: %if native-i386 %{ %cc32 -O1 -fno-omit-frame-pointer %S/Inputs/call-paths.c -o %t.i386/%basename_t.tmp.exe %}
// RUN: %if native-i386 %{ %tsrun %t.o -f json -o %t.i386/%basename_t.tmp.json -- %t.i386/%basename_t.tmp.exe 5 3 2 > %t.i386/%basename_t.tmp.prog %}
// RUN: %if native-i386 %{ %python %S/Inputs/stack-paths.py %t.i386/%basename_t.tmp.json paths > %t.i386/%basename_t.tmp.paths %}
// RUN: %if native-i386 %{ diff %t.i386/%basename_t.tmp.prog %t.i386/%basename_t.tmp.paths %}
// RUN: %if native-i386 %{ FileCheck %s --check-prefix=JSON < %t.i386/%basename_t.tmp.json %}
// RUN: %if native-i386 %{ %tsrun %t.o -- %t.i386/%basename_t.tmp.exe 5 3 2 | FileCheck %s %}
// RUN: %if native-i386 && inprocess %{ %tsrun -v %t.o -- %t.i386/%basename_t.tmp.exe 5 3 2 2> %t.i386/err > /dev/null %}
// RUN: %if native-i386 && inprocess %{ FileCheck %s --check-prefix=SITES < %t.i386/err %}
// RUN: %if native-i386 %{ %tsrun %t.o -f binary -o %t.i386/%basename_t.tmp.bin -- %t.i386/%basename_t.tmp.exe 5 3 2 > %t.i386/%basename_t.tmp.prog2 %}
// RUN: %if native-i386 %{ %tsreport %t.i386/%basename_t.tmp.bin | FileCheck %s --check-prefix=REPORT %}
// RUN: %if native-i386 %{ %tsreport -f json %t.i386/%basename_t.tmp.bin > %t.i386/%basename_t.tmp.report.json %}
// RUN: %if native-i386 %{ %python %S/Inputs/stack-paths.py %t.i386/%basename_t.tmp.report.json paths | diff %t.i386/%basename_t.tmp.prog2 - %}
//
// JSON: {"entries":[{"count":3,"keys":{{\[\[}}"leaf+0x0 (stack-keys.t.tmp.exe)","via_b+0x{{[0-9a-f]+}} (stack-keys.t.tmp.exe)"]]},{"count":7,"keys":{{\[\[}}"leaf+0x0 (stack-keys.t.tmp.exe)","via_a+0x{{[0-9a-f]+}} (stack-keys.t.tmp.exe)"]]}],"kind":"count","name":"inner"
// JSON: {"entries":[{"count":10,"keys":["stack-keys.t.tmp.exe",["leaf+0x0 (stack-keys.t.tmp.exe)"]]}],"kind":"count","name":"named"
//
// CHECK: path main>via_a>leaf 5
// CHECK: @paths[
// CHECK-NEXT: {{^        }}leaf+0x0 (stack-keys.t.tmp.exe)
// CHECK-NEXT: {{^        }}via_a+0x{{[0-9a-f]+}} (stack-keys.t.tmp.exe)
// CHECK-NEXT: {{^        }}via_c+0x{{[0-9a-f]+}} (stack-keys.t.tmp.exe)
// CHECK-NEXT: {{^        }}main+0x{{[0-9a-f]+}} (stack-keys.t.tmp.exe)
// CHECK: {{^}}]: 2
// CHECK: @inner[
// CHECK-NEXT: {{^        }}leaf+0x0 (stack-keys.t.tmp.exe)
// CHECK-NEXT: {{^        }}via_b+0x{{[0-9a-f]+}} (stack-keys.t.tmp.exe)
// CHECK-NEXT: {{^}}]: 3
// CHECK-NEXT: @inner[
// CHECK-NEXT: {{^        }}leaf+0x0 (stack-keys.t.tmp.exe)
// CHECK-NEXT: {{^        }}via_a+0x{{[0-9a-f]+}} (stack-keys.t.tmp.exe)
// CHECK-NEXT: {{^}}]: 7
// CHECK: {{^}}@named[stack-keys.t.tmp.exe,{{$}}
// CHECK-NEXT: {{^        }}leaf+0x0 (stack-keys.t.tmp.exe)
// CHECK-NEXT: {{^}}]: 10

// SITES: probe @@uft:*:a.out:leaf:entry at leaf in {{.*}}, in-process jump

// REPORT: @inner[
// REPORT-NEXT: {{^        }}leaf+0x0 (stack-keys.t.tmp.exe)
// REPORT-NEXT: {{^        }}via_b+0x{{[0-9a-f]+}} (stack-keys.t.tmp.exe)
// REPORT-NEXT: {{^}}]: 3

@@uft:*:a.out:leaf:entry {
  @paths[stktrace()] = count();
  @inner[stktrace(2)] = count();
  @named[__pname, stktrace(1)] = count();
}
