// Statements belong in actions.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

total = 1;
// CHECK: [[#@LINE-1]]:1: error: statements are only allowed inside the action block of a clause
// CHECK-NOT: error:
@@BEGIN { }
