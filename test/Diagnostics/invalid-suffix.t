// An integer constant with a bad suffix.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = 123abc;
// CHECK: [[#@LINE-1]]:10: error: invalid suffix 'abc' on integer constant
}
