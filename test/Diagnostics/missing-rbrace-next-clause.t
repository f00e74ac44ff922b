// A new clause starting inside an open action means a '}' is missing.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = 1;
@@END { }
// CHECK: [[#@LINE-1]]:1: error: expected '}'
// CHECK: [[#@LINE-4]]:9: note: to match this '{'
