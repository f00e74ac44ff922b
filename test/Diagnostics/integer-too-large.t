// Constants must fit in 64 bits.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = 18446744073709551616;
// CHECK: [[#@LINE-1]]:7: error: integer literal is too large to be represented in any integer type
}
