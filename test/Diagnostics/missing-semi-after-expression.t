// A missing ';' is reported after the expression, with a fix-it.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = 1
// CHECK: [[#@LINE-1]]:8: error: expected ';' after expression
// CHECK-NEXT: {{^}} [[#@LINE-2]] |   x = 1
// CHECK-NEXT: {{^}}      |        ^
// CHECK-NEXT: {{^}}      |        ;
}
