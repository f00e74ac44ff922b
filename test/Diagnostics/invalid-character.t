// A stray character is reported once and dropped; the type checker then
// reports what is wrong in what the parser recovered.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = 1 ` 2;
// CHECK: [[#@LINE-1]]:9: error: invalid character '`' in source
// CHECK-NOT: invalid character
// CHECK: [[#@LINE-3]]:3: error: use of undeclared identifier 'x'
// CHECK: 3 errors generated.
}
