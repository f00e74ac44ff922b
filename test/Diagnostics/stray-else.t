// An 'else' without its 'if'.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  else x = 1;
// CHECK: [[#@LINE-1]]:3: error: expected expression
// CHECK-NOT: expected
// CHECK: [[#@LINE-3]]:8: error: use of undeclared identifier 'x'
}
