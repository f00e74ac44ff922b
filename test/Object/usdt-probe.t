// RUN: %tscc %s -o %t.o
// RUN: %tsreport --describe %t.o | FileCheck %s
// RUN: llvm-objdump -s -j tscc_probes %t.o | FileCheck %s --check-prefix=RAW
// RUN: llvm-readelf -p tscc_strtab %t.o | FileCheck %s --check-prefix=STR
//
// A USDT probe row (ABI 1.3): module 'a.out' exact, the probe NAME 'tick'
// exact in `function`, the PROVIDER 'demo*' as a glob.
@@usdt:*:a.out:demo*:tick { }

// CHECK:      probes: 1
// CHECK-NEXT:   #0 clause 0 usdt pid * module exact "a.out" provider glob "demo*" name exact "tick" spec "@@usdt:*:a.out:demo*:tick"

// Raw, because the packing itself is the ABI: a usdt row has no field of
// its own for the provider, so `offset` holds it, its strtab offset (0x26)
// in the low 32 bits and TSCC_MATCH_GLOB (2) in the high 32; kind 9.
// RAW:      Contents of section tscc_probes:
// RAW-NEXT: 0000 09000000 00000000 01000000 00000000
// RAW-NEXT: 0010 00000000 00000000 1b000000 01000000
// RAW-NEXT: 0020 21000000 01000000 26000000 02000000
// STR: [    26] demo*
