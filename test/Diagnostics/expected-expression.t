// An operator without its operand.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = ;
// CHECK: [[#@LINE-1]]:7: error: expected expression
}
