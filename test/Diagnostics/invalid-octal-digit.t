// 8 and 9 are not octal digits.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = 0128;
// CHECK: [[#@LINE-1]]:10: error: invalid digit '8' in octal constant
}
