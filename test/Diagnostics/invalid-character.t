// A stray character is reported once and dropped.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = 1 ` 2;
// CHECK: [[#@LINE-1]]:9: error: invalid character '`' in source
// CHECK-NOT: error:
}
