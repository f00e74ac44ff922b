// The predicate is parenthesised.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN when x > 1 { }
// CHECK: [[#@LINE-1]]:14: error: expected '(' after 'when'
