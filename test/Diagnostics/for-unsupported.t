// So are for loops.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  for (i = 0; i < 10; i++) x++;
// CHECK: [[#@LINE-1]]:3: error: 'for' loops are not supported
}
