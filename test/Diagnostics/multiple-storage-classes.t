// One storage class per declaration.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  __auto __thread long x;
// CHECK: [[#@LINE-1]]:10: error: cannot combine storage class '__thread' with previous '__auto'
// CHECK-NOT: error:
}
