// Script parameters are numbered from 1.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = $0 + $a;
// CHECK: [[#@LINE-1]]:7: error: invalid script parameter '$0': expected '$' followed by a number from 1
// CHECK: [[#@LINE-2]]:12: error: invalid script parameter '$a'
}
