// An action cannot return a value.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  return 1;
// CHECK: [[#@LINE-1]]:10: error: a clause action cannot return a value; use 'return;' to leave it
}
