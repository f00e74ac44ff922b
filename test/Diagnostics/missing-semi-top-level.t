// A declaration that runs into the next item lacks its ';'.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

__global long total
// CHECK: [[#@LINE-1]]:20: error: expected ';' after top level declarator
@@BEGIN { }
