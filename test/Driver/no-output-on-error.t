// A failed compilation leaves no output file behind, and does not clobber
// an existing one.
// RUN: rm -f %t.o
// RUN: not %tscc %s -o %t.o
// RUN: not test -e %t.o
// RUN: echo previous > %t.o
// RUN: not %tscc %s -o %t.o
// RUN: FileCheck %s --check-prefix=KEPT < %t.o
// KEPT: previous

@@BEGIN { x = ; }
