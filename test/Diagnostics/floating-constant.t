// Floating-point constants do not exist in trace scripts.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = 1.5;
// CHECK: [[#@LINE-1]]:7: error: floating-point constants are not supported in trace scripts
}
