// RUN: %tscc %s -o %t.o
// RUN: llvm-objdump -s -j tscc_header %t.o | FileCheck %s
// RUN: llvm-readelf -p tscc_strtab %t.o | FileCheck %s --check-prefix=STR
//
// The header starts with the magic "\177TSCCOBJ", ABI 1.4 and its own size
// (112); the string table starts with NUL and holds the script's name and
// the compiler version.
@@BEGIN
{
  printf("hi\n");
}

// CHECK:      Contents of section tscc_header:
// CHECK-NEXT: 0000 7f545343 434f424a 01000400 70000000  .TSCCOBJ....p...
// Counts: 1 clause, 1 probe, 1 format, 0 fields, 0 maps, 0 aggs, 0 within.
// CHECK-NEXT: 0010 {{.*}}
// CHECK-NEXT: 0020 01000000 01000000 01000000 00000000
// CHECK-NEXT: 0030 00000000 00000000 00000000
// STR:      String dump of section 'tscc_strtab':
// STR-NEXT: [     1] @@BEGIN
// STR:      ] {{.*}}Object{{/|\\}}header.t
// STR-NEXT: ] tscc 0.1.0 (LLVM 19.{{[0-9]+}}.{{[0-9]+}})
