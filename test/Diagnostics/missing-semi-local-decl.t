// A local declaration without ';'.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  long x = 1
// CHECK: [[#@LINE-1]]:13: error: expected ';' at end of declaration
}
