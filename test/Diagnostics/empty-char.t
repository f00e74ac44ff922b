// An empty character constant.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = '';
// CHECK: [[#@LINE-1]]:7: error: empty character constant
}
