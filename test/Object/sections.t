// RUN: %tscc %s -o %t.o
// RUN: llvm-readobj --file-headers --sections --symbols %t.o | FileCheck %s
//
// A probe object is an x86-64 relocatable with exactly one section per
// abi.h name, each SHF_ALLOC and SHF_GNU_RETAIN (so --gc-sections keeps it),
// and the clause functions in their stream's text section.
//
// Checked with llvm-readobj, not tsreport --describe: the ELF form itself
// (section types, flags, row sizes of the tables as abi.h lays them out,
// symbols) is the point here, and --describe shows the tables' contents,
// not how they sit in the file.
int handle(int id);

@@uft:*:a.out:handle:entry
{
  printf("%d\n", __arg1);
}

// CHECK:      Class: 64-bit
// CHECK:      Type: Relocatable
// CHECK:      Machine: EM_X86_64

// CHECK:      Name: tscc_text_ilp32
// CHECK-NEXT: Type: SHT_PROGBITS
// CHECK-NEXT: Flags [
// CHECK-NEXT:   SHF_ALLOC
// CHECK-NEXT:   SHF_EXECINSTR
// CHECK-NEXT:   SHF_GNU_RETAIN
// CHECK-NEXT: ]
// CHECK:      Name: tscc_text_lp64
// CHECK-NEXT: Type: SHT_PROGBITS
// CHECK-NEXT: Flags [
// CHECK-NEXT:   SHF_ALLOC
// CHECK-NEXT:   SHF_EXECINSTR
// CHECK-NEXT:   SHF_GNU_RETAIN
// CHECK-NEXT: ]
// CHECK-NOT:  Name: tscc_text_ilp32
// CHECK-NOT:  Name: tscc_text_lp64
// CHECK:      Name: tscc_header
// CHECK-NEXT: Type: SHT_PROGBITS
// CHECK-NEXT: Flags [
// CHECK-NEXT:   SHF_ALLOC
// CHECK-NEXT:   SHF_GNU_RETAIN
// CHECK-NEXT: ]
// CHECK-NEXT: Address:
// CHECK-NEXT: Offset:
// CHECK-NEXT: Size: 112
// CHECK:      Name: tscc_clauses
// CHECK:        SHF_GNU_RETAIN
// CHECK:      Size: 56
// CHECK:      Name: tscc_probes
// CHECK:        SHF_GNU_RETAIN
// CHECK:      Size: 48
// CHECK:      Name: tscc_formats
// CHECK:        SHF_GNU_RETAIN
// CHECK:      Size: 16
// CHECK:      Name: tscc_fields
// CHECK:        SHF_GNU_RETAIN
// CHECK:      Size: 8
// CHECK:      Name: tscc_maps
// CHECK:        SHF_GNU_RETAIN
// CHECK:      Name: tscc_aggs
// CHECK:        SHF_GNU_RETAIN
// CHECK:      Name: tscc_within
// CHECK:        SHF_GNU_RETAIN
// CHECK:      Name: tscc_strtab
// CHECK:        SHF_GNU_RETAIN
// CHECK-NOT:  .eh_frame

// CHECK:      Symbols [
// CHECK:        Name: tscc_clause0_action_ilp32
// CHECK-NEXT:   Value: 0x0
// CHECK-NEXT:   Size: {{[1-9][0-9]*}}
// CHECK-NEXT:   Binding: Global
// CHECK-NEXT:   Type: Function
// CHECK:        Section: tscc_text_ilp32
// CHECK:        Name: tscc_clause0_action_lp64
// CHECK-NEXT:   Value: 0x0
// CHECK-NEXT:   Size: {{[1-9][0-9]*}}
// CHECK-NEXT:   Binding: Global
// CHECK-NEXT:   Type: Function
// CHECK:        Section: tscc_text_lp64
