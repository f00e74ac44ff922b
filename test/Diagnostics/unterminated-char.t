// A character constant without its closing quote.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  x = 'a;
// CHECK: [[#@LINE-1]]:7: error: missing terminating ' character
}
