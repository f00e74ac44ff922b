// An action still open at the end of the file.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
// CHECK: [[#@LINE+3]]:1: error: expected '}'
// CHECK: [[#@LINE-2]]:9: note: to match this '{'
  x = 1;
