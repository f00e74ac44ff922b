// A clause needs its action block.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN printf("x");
// CHECK: [[#@LINE-1]]:9: error: expected '{' to begin the action block of the clause
