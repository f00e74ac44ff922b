// 'return' needs its ';'.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  return
// CHECK: [[#@LINE-1]]:9: error: expected ';' after return statement
}
