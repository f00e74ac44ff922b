// \x needs hex digits.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  printf("\xg");
// CHECK: [[#@LINE-1]]:11: error: \x used with no following hex digits
}
