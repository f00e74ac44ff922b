// RUN: %tscc %s -o %t.o
// RUN: %tsreport --describe %t.o | FileCheck %s
// RUN: llvm-objdump -s -j tscc_header %t.o | FileCheck %s --check-prefix=RAW
// RUN: llvm-readelf -p tscc_strtab %t.o | FileCheck %s --check-prefix=STR
//
// The header names the ABI (1.6), the script and the compiler, and counts
// the tables: 1 clause, 1 probe, 1 format, no maps, aggregations or
// within() entries.
@@BEGIN
{
  printf("hi\n");
}

// CHECK:      abi: 1.6
// CHECK-NEXT: compiler: tscc 0.1.0 (LLVM 19.{{[0-9]+}}.{{[0-9]+}})
// CHECK-NEXT: source: {{.*}}Object{{/|\\}}header.t (FNV-1a 0x{{[0-9a-f]+}})
// CHECK-NEXT: flags: -
// CHECK-NEXT: parameters: 0
// CHECK:      clauses: 1
// CHECK:      probes: 1
// CHECK-NEXT:   #0 clause 0 BEGIN pid * spec "@@BEGIN"
// CHECK-NEXT: formats: 1
// CHECK-NEXT:   #0 clause 0 "hi\n" fields -
// CHECK-NEXT: maps: 0
// CHECK-NEXT: aggregations: 0
// CHECK-NEXT: within: 0

// Raw, because these bytes are how any reader recognises a probe object
// before it can trust a single table: the magic "\177TSCCOBJ", the ABI
// version (u16 major, u16 minor) and the header's own size (112).
// RAW:      Contents of section tscc_header:
// RAW-NEXT: 0000 7f545343 434f424a 01000600 70000000  .TSCCOBJ....p...
// Raw too: the string table starts with NUL (offset 0 is the empty
// string), which --describe cannot show.
// STR:      String dump of section 'tscc_strtab':
// STR-NEXT: [     1] @@BEGIN
