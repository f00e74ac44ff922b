// An unclosed parenthesis points at its opener.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  if (x > 1 { }
// CHECK: [[#@LINE-1]]:13: error: expected ')'
// CHECK-NEXT: [[#@LINE-2]] |
// CHECK: [[#@LINE-3]]:6: note: to match this '('
}
