// RUN: %tscc %s -o %t.o
// RUN: llvm-objdump -s -j tscc_probes %t.o | FileCheck %s
// RUN: llvm-readelf -p tscc_strtab %t.o | FileCheck %s --check-prefix=STR
//
// A USDT probe row (ABI 1.3): kind 9; module 'a.out' exact, function (the
// probe NAME) 'tick' exact; `offset` holds the PROVIDER: strtab offset 0x26
// in the low 32 bits, TSCC_MATCH_GLOB (2) in the high 32.
@@usdt:*:a.out:demo*:tick { }

// CHECK:      Contents of section tscc_probes:
// CHECK-NEXT: 0000 09000000 00000000 01000000 00000000
// CHECK-NEXT: 0010 00000000 00000000 1b000000 01000000
// CHECK-NEXT: 0020 21000000 01000000 26000000 02000000
// STR: [    1b] a.out
// STR: [    21] tick
// STR: [    26] demo*
