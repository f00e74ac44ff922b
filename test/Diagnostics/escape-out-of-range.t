// An escape must fit in a byte.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  printf("\x100");
// CHECK: [[#@LINE-1]]:11: error: hex escape sequence out of range
}
