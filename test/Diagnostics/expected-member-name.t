// '.' and '->' need a member name.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = __arg1->;
// CHECK: [[#@LINE-1]]:15: error: expected member name after '->'
}
