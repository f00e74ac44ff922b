// A string literal without its closing quote.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  printf("abc);
// CHECK: [[#@LINE-1]]:10: error: missing terminating '"' character
}
