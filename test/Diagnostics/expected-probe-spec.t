// A ',' between probe specifications must be followed by one.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN, { }
// CHECK: [[#@LINE-1]]:10: error: expected a probe specification after ','
// CHECK-NOT: error:
