// An unclosed subscript.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = m[1;
// CHECK: [[#@LINE-1]]:10: error: expected ']'
// CHECK: [[#@LINE-2]]:8: note: to match this '['
}
