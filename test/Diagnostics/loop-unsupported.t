// Loops are rejected with one clear error.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  while (x) { x--; }
// CHECK: [[#@LINE-1]]:3: error: 'while' loops are not supported in trace scripts (actions must run in bounded time)
// CHECK-NOT: error:
}
